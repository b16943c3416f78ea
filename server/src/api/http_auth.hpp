// The HTTP routes of sign-in from outside (docs/protocol.md, "HTTP"; docs/security.md,
// "Sign-in"): the sign-in options the client shows, the OpenID Connect authorization code flow
// (start, the provider's callback, the ticket that finishes it: a nickname at the first sign-in,
// or a link to a signed-in account), and Telegram's: the Mini App's sign-in, the bot's webhook
// and a friend invite shared into a chat. Without a configured provider (or bot) its routes
// answer 404 not_configured.
#pragma once

#include "api/router.hpp"

#include <papan/server/store.hpp>

#include <nlohmann/json.hpp>

namespace papan::server {

// http_oidc.cpp
void get_auth_config(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_oidc_start(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_oidc_callback(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_auth_finish(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
// telegram/http_telegram.cpp
void post_telegram_session(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_telegram_webhook(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_telegram_share(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);

// GET /api/me's sign-in facts: "sign_in" (the providers the account signs in with: "password",
// "oidc", "telegram") and "may_rate" (the operator's rule for rated games) (store thread).
void add_sign_in_facts(ApiContext& ctx, Store& s, const UserRecord& u, nlohmann::json& me);

}  // namespace papan::server
