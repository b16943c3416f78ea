// HTTP handlers of accounts: register, login, logout, password change and the signed-in user
// (docs/protocol.md, "HTTP"). Hashing and checking passwords runs on the accounts' bounded pool.
#include "api/handlers.hpp"
#include "api/http_auth.hpp"
#include "game/store_executor.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/server/elo.hpp>
#include <papan/server/tokens.hpp>

#include <algorithm>
#include <cctype>

namespace papan::server {

using Json = nlohmann::json;

bool valid_username(const std::string& u) {
    return u.size() >= 3 && u.size() <= 24 && std::all_of(u.begin(), u.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
           });
}

namespace {

bool valid_password(const std::string& p) {
    return p.size() >= 8 && p.size() <= 128;
}

std::string string_field(const Json& body, const char* key) {
    const auto it = body.find(key);
    return it != body.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::optional<Json> json_body(const Request& req, const Reply& reply) {
    Json body = Json::parse(req.body, nullptr, false);
    if (!body.is_object()) {
        reply(error_response(400, "bad_json", "the body must be a JSON object"));
        return std::nullopt;
    }
    return body;
}

HttpResponse wait_response(unsigned status,
                           std::string_view code,
                           std::string_view message,
                           std::int64_t seconds) {
    auto r = error_response(status, code, message);
    r.headers.emplace_back("Retry-After", std::to_string(std::max<std::int64_t>(1, seconds)));
    return r;
}

HttpResponse busy() {
    return wait_response(503, "busy", "the server is busy checking passwords; try again", 1);
}

}  // namespace

HttpResponse session_response(unsigned status, Store& s, const Clock& clock, const UserRecord& u) {
    const std::string token = random_token();
    s.create_session(hash_secret(token), u.id, clock.now_ms());
    return json_response(
        status,
        Json{{"token", token},
             {"user", {{"id", account_player_id(u.id)}, {"username", u.username}}}});
}

std::optional<UserRecord> session_of(ApiContext& ctx, Store& s, const std::string& token) {
    if (token.empty() || token.size() > 128) {
        return std::nullopt;
    }
    const auto uid = s.session_user(
        hash_secret(token), ctx.svc.clock.now_ms(), ctx.accounts->limits().session_ms);
    return uid ? s.user_by_id(*uid) : std::nullopt;
}

HttpResponse not_signed_in() {
    return error_response(
        401, "not_signed_in", "no valid session token (Authorization: Bearer ...)");
}

void post_register(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const auto body = json_body(req, reply);
    if (!body) {
        return;
    }
    const std::string user = string_field(*body, "username");
    const std::string pass = string_field(*body, "password");
    if (!valid_username(user)) {
        reply(error_response(
            400, "bad_username", "a username has 3 to 24 letters, digits, '_' or '-'"));
        return;
    }
    if (!valid_password(pass)) {
        reply(error_response(400, "bad_password", "a password has 8 to 128 characters"));
        return;
    }
    if (const auto wait = ctx.accounts->take_registration(req.remote); wait > 0) {
        reply(wait_response(
            429, "too_many_registrations", "too many new accounts from your address", wait));
        return;
    }
    const bool queued = ctx.accounts->hashing().try_post([&ctx, user, pass, reply] {
        std::string hash;
        try {
            hash = hash_password(pass);
        } catch (const std::exception&) {
            reply(busy());
            return;
        }
        reply_from_store(ctx, reply, [&ctx, user, hash](Store& s) {
            UserRecord u{0, user, hash, ctx.svc.clock.now_ms()};
            const auto id = s.create_user(u);
            if (!id) {
                return error_response(409, "username_taken", "that username is taken");
            }
            u.id = *id;
            return session_response(201, s, ctx.svc.clock, u);
        });
    });
    if (!queued) {
        reply(busy());
    }
}

void post_login(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const auto body = json_body(req, reply);
    if (!body) {
        return;
    }
    const std::string user = string_field(*body, "username");
    const std::string pass = string_field(*body, "password");
    const std::string ip   = req.remote;
    if (const auto wait = ctx.accounts->login_wait(user, ip); wait > 0) {
        reply(wait_response(
            429, "too_many_attempts", "too many failed logins; try again later", wait));
        return;
    }
    if (user.empty() || user.size() > 64 || pass.size() > 1024) {
        ctx.accounts->login_failed(user, ip);
        reply(error_response(401, "bad_credentials", "wrong username or password"));
        return;
    }
    reply_from_store(ctx, reply, [&ctx, user, pass, ip, reply](Store& s) {
        const auto u      = s.user_by_name(user);
        const bool queued = ctx.accounts->hashing().try_post([&ctx, u, user, pass, ip, reply] {
            // An unknown name is checked against a dummy hash: the same work, the same time.
            // So is an account without a password (made by a Google or Telegram sign-in).
            const bool has_password = u && !u->password_hash.empty();
            const std::string& hash = has_password ? u->password_hash : ctx.accounts->dummy_hash();
            const bool ok           = verify_password(hash, pass) && has_password;
            if (!ok) {
                ctx.accounts->login_failed(user, ip);
                reply(error_response(401, "bad_credentials", "wrong username or password"));
                return;
            }
            ctx.accounts->login_succeeded(user);
            reply_from_store(ctx, reply, [&ctx, u](Store& st) {
                return session_response(200, st, ctx.svc.clock, *u);
            });
        });
        // The reply goes out through the pool's job (or at once when it is full).
        return queued ? replied_later() : busy();
    });
}

void post_logout(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const std::string token = req.bearer;
    if (token.empty() || token.size() > 128) {
        reply(not_signed_in());
        return;
    }
    reply_from_store(ctx, std::move(reply), [token](Store& s) {
        s.delete_session(hash_secret(token));
        return json_response(200, Json{{"signed_out", true}});
    });
}

void post_password(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const auto body = json_body(req, reply);
    if (!body) {
        return;
    }
    const std::string old_pass = string_field(*body, "old_password");
    const std::string new_pass = string_field(*body, "new_password");
    if (!valid_password(new_pass)) {
        reply(error_response(400, "bad_password", "a password has 8 to 128 characters"));
        return;
    }
    const std::string token = req.bearer;
    reply_from_store(ctx, reply, [&ctx, token, old_pass, new_pass, reply](Store& s) {
        const auto u = session_of(ctx, s, token);
        if (!u) {
            return not_signed_in();
        }
        const bool queued =
            ctx.accounts->hashing().try_post([&ctx, u, token, old_pass, new_pass, reply] {
                if (!verify_password(u->password_hash, old_pass)) {
                    reply(error_response(401, "bad_credentials", "the old password is wrong"));
                    return;
                }
                std::string hash;
                try {
                    hash = hash_password(new_pass);
                } catch (const std::exception&) {
                    reply(busy());
                    return;
                }
                reply_from_store(ctx, reply, [u, token, hash](Store& st) {
                    st.transaction([&] {
                        st.set_password(u->id, hash);
                        st.delete_other_sessions(u->id, hash_secret(token));
                    });
                    return json_response(200, Json{{"changed", true}});
                });
            });
        return queued ? replied_later() : busy();
    });
}

void get_me(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    const std::string token = req.bearer;
    reply_from_store(ctx, std::move(reply), [&ctx, token](Store& s) {
        const auto u = session_of(ctx, s, token);
        if (!u) {
            return not_signed_in();
        }
        Json ratings = Json::object();
        for (const auto& r : s.ratings_of(u->id)) {
            if (r.games > 0) {
                ratings[r.variant] = {{"rating", r.rating}, {"games", r.games}};
            }
        }
        const std::string pid = account_player_id(u->id);
        Json me{{"user", {{"id", pid}, {"username", u->username}}},
                {"ratings", ratings},
                {"initial_rating", kInitialRating},
                {"reward_points", s.reward_total(pid)}};
        add_sign_in_facts(ctx, s, *u, me);
        return json_response(200, me);
    });
}

}  // namespace papan::server
