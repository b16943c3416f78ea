// The HTTP handlers of the route table (router.cpp). Each replies exactly once.
#pragma once

#include "api/router.hpp"

#include <papan/server/clock.hpp>
#include <papan/server/store.hpp>

#include <functional>
#include <optional>
#include <string>

namespace papan::server {

// http_games.cpp
void get_healthz(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_variants(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_leaderboard(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_games(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_game(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_game_pdn(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_player(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
// http_accounts.cpp
void post_register(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_login(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_logout(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void post_password(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
void get_me(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
// The user of a session token (on the store thread); nullopt for none, unknown or expired.
[[nodiscard]] std::optional<UserRecord>
session_of(ApiContext& ctx, Store& s, const std::string& token);
// 401 not_signed_in.
[[nodiscard]] HttpResponse not_signed_in();
// A new session of the user: {"token", "user": {"id", "username"}} (store thread).
[[nodiscard]] HttpResponse
session_response(unsigned status, Store& s, const Clock& clock, const UserRecord& u);
// 3 to 24 ASCII letters, digits, '_' or '-'.
[[nodiscard]] bool valid_username(const std::string& u);
// http_import.cpp
void post_import(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);
// static_files.cpp
void get_static(ApiContext& ctx, const Request& req, const RouteArgs& args, Reply reply);

// Runs fn(store) on the store thread and replies with its response (unless it is
// replied_later(): fn handed `reply` on to other work); an exception is logged and answered 503
// `store_unavailable` without its text.
void reply_from_store(ApiContext& ctx, Reply reply, std::function<HttpResponse(Store&)> fn);
[[nodiscard]] HttpResponse replied_later();

}  // namespace papan::server
