// The OpenID Connect routes (docs/protocol.md, "HTTP"; docs/security.md, "Sign-in"):
//   POST /api/auth/oidc/start    the authorization request: state, nonce and PKCE kept in the
//                                store under the state's hash, the browser bound by a cookie;
//                                answers the provider's URL the page goes to
//   GET  /api/auth/oidc/callback the provider sends the browser back here with the code: the
//                                state taken (once), the cookie checked, the code redeemed, the
//                                ID token checked; the browser goes on to /#signin=<ticket>
//   POST /api/auth/finish        the page trades the ticket for a session: the account of the
//                                identity, a new account under the nickname chosen, or the
//                                signed-in account the identity is linked to
// The outgoing calls run on the sign-in's own pool, the store work on the store thread.
#include "api/auth_service.hpp"
#include "api/handlers.hpp"
#include "api/http_auth.hpp"
#include "auth/sign_in.hpp"
#include "game/peer.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/server/tokens.hpp>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::string_view kBindingCookie = "papan_oidc";
constexpr std::string_view kCallbackPath  = "/api/auth/oidc/callback";

HttpResponse not_configured() {
    return error_response(404, "not_configured", "this site has no such sign-in");
}

HttpResponse provider_unavailable() {
    auto r = error_response(
        503, "provider_unavailable", "the sign-in provider cannot be reached; try again later");
    r.headers.emplace_back("Retry-After", "5");
    return r;
}

// The browser goes back to the page, which reads what happened from the fragment (never sent to
// a server, so the ticket is in no log).
HttpResponse to_page(const std::string& fragment, const AuthService& auth) {
    HttpResponse r;
    r.status       = 302;
    r.content_type = "text/plain; charset=utf-8";
    r.body         = "signing in";
    r.headers.emplace_back("Location", "/#" + fragment);
    // The binding cookie has done its work.
    r.headers.emplace_back("Set-Cookie",
                           std::string(kBindingCookie) +
                               "=; Path=/api/auth/oidc; Max-Age=0; "
                               "HttpOnly; SameSite=Lax" +
                               (auth.secure_cookies() ? "; Secure" : ""));
    return r;
}

HttpResponse sign_in_failed(std::string_view why, const AuthService& auth) {
    return to_page("signin-error=" + std::string(why), auth);
}

std::optional<Json> json_object(const Request& req) {
    if (req.body.empty()) {
        return Json::object();
    }
    Json j = Json::parse(req.body, nullptr, false);
    return j.is_object() ? std::optional(j) : std::nullopt;
}

std::string string_at(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

// After the ID token was checked: the ticket the page trades for a session (store thread).
HttpResponse
issue_ticket(ApiContext& ctx, Store& s, const auth::IdClaims& id, const Json& request) {
    const auto now        = ctx.svc.clock.now_ms();
    auto user             = s.identity_user(id.issuer, id.subject);
    const auto link_to_it = request.find("link_user");
    if (link_to_it != request.end() && link_to_it->is_number_integer()) {
        // Started by a signed-in player to link this identity to their account.
        const auto link_to = link_to_it->get<std::int64_t>();
        if (user && *user != link_to) {
            return sign_in_failed("already_linked", *ctx.auth);
        }
        if (!user) {
            if (!s.link_identity(ExternalIdentityRecord{id.issuer, id.subject, link_to, now})) {
                return sign_in_failed("already_linked", *ctx.auth);
            }
            user = link_to;
        }
    }
    const std::string ticket = random_token();
    Json record{{"issuer", id.issuer}, {"subject", id.subject}, {"name", id.name}};
    if (user) {
        record["user"] = *user;
    }
    auth::put_pending(s, "ticket", ticket, record, now, auth::kTicketTtlMs);
    return to_page("signin=" + ticket, *ctx.auth);
}

}  // namespace

void get_auth_config(ApiContext& ctx, const Request&, const RouteArgs&, Reply reply) {
    Json out{{"oidc", nullptr}, {"telegram", nullptr}, {"rated_requires", "account"}};
    if (AuthService* auth = ctx.auth; auth != nullptr) {
        if (auth->oidc() != nullptr) {
            out["oidc"] = {{"name", auth->options().oidc_name}};
        }
        if (auth->bot() != nullptr) {
            out["telegram"] = {{"bot", auth->bot_site().bot_username}};
        }
        if (auth->options().rated_rule == RatedRule::Oidc) {
            out["rated_requires"] = "oidc";
        }
    }
    reply(json_response(200, out));
}

void post_oidc_start(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    AuthService* auth = ctx.auth;
    if (auth == nullptr || auth->oidc() == nullptr) {
        reply(not_configured());
        return;
    }
    const auto body = json_object(req);
    if (!body) {
        reply(error_response(400, "bad_json", "the body must be a JSON object"));
        return;
    }
    const bool link = body->value("link", false) == true;
    if (link && req.bearer.empty()) {
        reply(not_signed_in());
        return;
    }
    if (const auto wait = auth->take_attempt(req.remote); wait > 0) {
        auto r = error_response(429, "too_many_attempts", "too many sign-ins from your address");
        r.headers.emplace_back("Retry-After", std::to_string(wait));
        reply(std::move(r));
        return;
    }
    const std::string redirect = auth->public_base(req) + std::string(kCallbackPath);
    const std::string bearer   = req.bearer;
    const bool queued = auth->outbound().try_post([&ctx, auth, redirect, bearer, link, reply] {
        auth::ProviderMetadata m;
        try {
            m = auth->oidc()->metadata();
        } catch (const std::exception& e) {
            log_line("oidc", std::string("discovery failed: ") + e.what());
            reply(provider_unavailable());
            return;
        }
        reply_from_store(ctx, reply, [&ctx, auth, m, redirect, bearer, link](Store& s) {
            Json request{{"redirect_uri", redirect}};
            if (link) {
                const auto u = session_of(ctx, s, bearer);
                if (!u) {
                    return not_signed_in();
                }
                request["link_user"] = u->id;
            }
            const std::string state   = random_token();
            const std::string nonce   = random_token();
            const std::string binding = random_token();
            const auto pkce           = auth::make_pkce();
            request["nonce"]          = nonce;
            request["verifier"]       = pkce.verifier;
            request["browser"]        = hash_secret(binding);
            auth::put_pending(
                s, "oidc", state, request, ctx.svc.clock.now_ms(), auth::kRequestTtlMs);
            auto r = json_response(
                200,
                Json{{"url",
                      auth->oidc()->authorization_url(m, redirect, state, nonce, pkce.challenge)}});
            r.headers.emplace_back("Set-Cookie",
                                   std::string(kBindingCookie) + "=" + binding +
                                       "; Path=/api/auth/oidc; Max-Age=600; HttpOnly; "
                                       "SameSite=Lax" +
                                       (auth->secure_cookies() ? "; Secure" : ""));
            return r;
        });
    });
    if (!queued) {
        reply(provider_unavailable());
    }
}

void get_oidc_callback(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    AuthService* auth = ctx.auth;
    if (auth == nullptr || auth->oidc() == nullptr) {
        reply(not_configured());
        return;
    }
    const std::string state   = req.param("state");
    const std::string code    = req.param("code");
    const std::string binding = auth::cookie_value(req.cookie, kBindingCookie);
    if (!req.param("error").empty()) {
        // The player said no at the provider (access_denied), or the provider refused.
        reply_from_store(ctx, reply, [&ctx, auth, state](Store& s) {
            (void)auth::take_pending(s, "oidc", state, ctx.svc.clock.now_ms());
            return sign_in_failed("cancelled", *auth);
        });
        return;
    }
    if (state.empty() || code.empty() || code.size() > 2048) {
        reply(sign_in_failed("bad_request", *auth));
        return;
    }
    reply_from_store(ctx, reply, [&ctx, auth, state, code, binding, reply](Store& s) {
        const auto request = auth::take_pending(s, "oidc", state, ctx.svc.clock.now_ms());
        if (!request) {
            return sign_in_failed("expired", *auth);
        }
        // Login CSRF: the code must come back to the browser that asked for it.
        if (binding.empty() ||
            !auth::constant_time_equal(hash_secret(binding), string_at(*request, "browser"))) {
            return sign_in_failed("wrong_browser", *auth);
        }
        const Json req_copy = *request;
        const bool queued   = auth->outbound().try_post([&ctx, auth, code, req_copy, reply] {
            std::variant<auth::IdClaims, auth::IdTokenError> checked =
                auth::IdTokenError::Malformed;
            try {
                const auto m        = auth->oidc()->metadata();
                const auto id_token = auth->oidc()->redeem_code(
                    m, code, string_at(req_copy, "verifier"), string_at(req_copy, "redirect_uri"));
                checked = auth->oidc()->validate(id_token, string_at(req_copy, "nonce"));
            } catch (const auth::CodeRefused& e) {
                log_line("oidc", e.what());
                reply(sign_in_failed("code_refused", *auth));
                return;
            } catch (const std::exception& e) {
                log_line("oidc", std::string("sign-in failed: ") + e.what());
                reply(sign_in_failed("provider_unavailable", *auth));
                return;
            }
            if (const auto* err = std::get_if<auth::IdTokenError>(&checked)) {
                const std::string why(auth::id_token_error_name(*err));
                log_line("oidc", "ID token refused: " + why);
                reply(sign_in_failed(why, *auth));
                return;
            }
            const auto id = std::get<auth::IdClaims>(checked);
            reply_from_store(ctx, reply, [&ctx, id, req_copy](Store& st) {
                return issue_ticket(ctx, st, id, req_copy);
            });
        });
        return queued ? replied_later() : sign_in_failed("provider_unavailable", *auth);
    });
}

void post_auth_finish(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    AuthService* auth = ctx.auth;
    if (auth == nullptr || auth->oidc() == nullptr) {
        reply(not_configured());
        return;
    }
    const auto body = json_object(req);
    if (!body) {
        reply(error_response(400, "bad_json", "the body must be a JSON object"));
        return;
    }
    const std::string ticket   = string_at(*body, "ticket");
    const std::string username = string_at(*body, "username");
    const bool link            = body->value("link", false) == true;
    if (!username.empty() && !valid_username(username)) {
        reply(error_response(
            400, "bad_username", "a username has 3 to 24 letters, digits, '_' or '-'"));
        return;
    }
    if (!username.empty()) {
        if (const auto wait = ctx.accounts->take_registration(req.remote); wait > 0) {
            auto r = error_response(
                429, "too_many_registrations", "too many new accounts from your address");
            r.headers.emplace_back("Retry-After", std::to_string(wait));
            reply(std::move(r));
            return;
        }
    }
    const std::string bearer = req.bearer;
    reply_from_store(ctx, reply, [&ctx, auth, ticket, username, link, bearer](Store& s) {
        const auto now    = ctx.svc.clock.now_ms();
        const auto record = auth::take_pending(s, "ticket", ticket, now);
        if (!record) {
            return error_response(
                410, "ticket_expired", "this sign-in has expired or was used; sign in again");
        }
        const std::string issuer  = string_at(*record, "issuer");
        const std::string subject = string_at(*record, "subject");
        if (record->contains("user") && (*record)["user"].is_number_integer()) {
            const auto u = s.user_by_id((*record)["user"].get<std::int64_t>());
            return u ? session_response(200, s, ctx.svc.clock, *u)
                     : error_response(410, "ticket_expired", "this account no longer exists");
        }
        if (link) {
            // The identity joins the account the player is signed in to (a password account).
            const auto u = session_of(ctx, s, bearer);
            if (!u) {
                auth::put_back(s, ticket, *record, now);
                return not_signed_in();
            }
            if (!s.link_identity(ExternalIdentityRecord{issuer, subject, u->id, now})) {
                return error_response(
                    409, "already_linked", "this identity belongs to another account");
            }
            return session_response(200, s, ctx.svc.clock, *u);
        }
        if (username.empty()) {
            // The first sign-in of this person: the page asks for a nickname (or a login to link).
            auth::put_back(s, ticket, *record, now);
            return json_response(
                200,
                Json{{"needs_nickname", true},
                     {"suggested", auth::username_from(string_at(*record, "name"), "")},
                     {"provider", auth->options().oidc_name}});
        }
        const auto u = auth::create_linked_user(s, username, issuer, subject, now);
        if (!u) {
            auth::put_back(s, ticket, *record, now);
            return error_response(409, "username_taken", "that username is taken");
        }
        return session_response(201, s, ctx.svc.clock, *u);
    });
}

void add_sign_in_facts(ApiContext& ctx, Store& s, const UserRecord& u, Json& me) {
    Json sign_in = Json::array();
    if (!u.password_hash.empty()) {
        sign_in.push_back("password");
    }
    bool may_rate = true;
    if (AuthService* auth = ctx.auth; auth != nullptr) {
        for (const auto& p : auth->providers_of(s, u.id)) {
            sign_in.push_back(p);
        }
        may_rate = auth->rating_allowed(s, u.id);
    }
    me["sign_in"]  = sign_in;
    me["may_rate"] = may_rate;
}

}  // namespace papan::server
