// Telegram's routes (docs/protocol.md, "HTTP"; docs/security.md, "Telegram"):
//   POST /api/auth/telegram      the Mini App's launch data, checked as Telegram documents it,
//                                signs the player in as that Telegram user: the account linked
//                                to it, made at the first launch (no sign-up)
//   POST /api/telegram/webhook   the bot's updates, from Telegram only (its secret-token header);
//                                /start answers with a button that opens the site
//   POST /api/telegram/share     a friend invite as a message the player sends into any chat
//                                (savePreparedInlineMessage; the Mini App's shareMessage)
#include "api/auth_service.hpp"
#include "api/handlers.hpp"
#include "api/http_auth.hpp"
#include "auth/sign_in.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"
#include "telegram/launch_data.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/server/tokens.hpp>

namespace papan::server {

using Json = nlohmann::json;

namespace {

HttpResponse not_configured() {
    return error_response(404, "not_configured", "this site has no Telegram bot");
}

HttpResponse bot_unavailable() {
    auto r = error_response(503, "bot_unavailable", "Telegram cannot be reached; try again later");
    r.headers.emplace_back("Retry-After", "5");
    return r;
}

std::string string_at(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::string variant_display_name(const std::string& key) {
    for (const auto& v : core::all_variants()) {
        if (v.key == key) {
            return std::string(v.name);
        }
    }
    return key;
}

}  // namespace

void post_telegram_session(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    AuthService* auth = ctx.auth;
    if (auth == nullptr || auth->bot() == nullptr) {
        reply(not_configured());
        return;
    }
    const Json body = Json::parse(req.body, nullptr, false);
    if (!body.is_object()) {
        reply(error_response(400, "bad_json", "the body must be a JSON object"));
        return;
    }
    if (const auto wait = auth->take_attempt(req.remote); wait > 0) {
        auto r = error_response(429, "too_many_attempts", "too many sign-ins from your address");
        r.headers.emplace_back("Retry-After", std::to_string(wait));
        reply(std::move(r));
        return;
    }
    const auto checked = telegram::validate_launch_data(string_at(body, "init_data"),
                                                        auth->options().telegram_bot_token,
                                                        ctx.svc.clock.now_ms() / 1000,
                                                        auth->options().telegram_max_age_s);
    if (const auto* err = std::get_if<telegram::LaunchError>(&checked)) {
        reply(error_response(401,
                             "bad_launch_data",
                             "Telegram's launch data did not check out (" +
                                 std::string(telegram::launch_error_name(*err)) + ")"));
        return;
    }
    const auto launch = std::get<telegram::LaunchData>(checked);
    reply_from_store(ctx, std::move(reply), [&ctx, launch](Store& s) {
        const std::string subject = std::to_string(launch.user.id);
        const auto now            = ctx.svc.clock.now_ms();
        if (const auto id = s.identity_user(AuthService::kTelegramIssuer, subject)) {
            if (const auto u = s.user_by_id(*id)) {
                return session_response(200, s, ctx.svc.clock, *u);
            }
        }
        // The first launch: an account under the player's Telegram name, nothing to fill in.
        const std::string name = auth::username_from(
            launch.user.username.empty() ? launch.user.first_name : launch.user.username,
            "tg" + subject);
        const auto u =
            auth::create_linked_user_any_name(s, name, AuthService::kTelegramIssuer, subject, now);
        if (!u) {
            return error_response(
                409, "username_taken", "no free name for this account; try again");
        }
        return session_response(201, s, ctx.svc.clock, *u);
    });
}

void post_telegram_webhook(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    AuthService* auth = ctx.auth;
    if (auth == nullptr || auth->bot() == nullptr) {
        reply(not_configured());
        return;
    }
    // Only Telegram knows the secret it was given with setWebhook.
    if (!auth::constant_time_equal(req.telegram_secret, auth->webhook_secret())) {
        reply(error_response(401, "bad_secret", "not a request from Telegram"));
        return;
    }
    const Json update = Json::parse(req.body, nullptr, false);
    if (!update.is_object()) {
        reply(error_response(400, "bad_json", "an update is a JSON object"));
        return;
    }
    auto calls = telegram::replies_to(update, auth->bot_site());
    // Answered at once: Telegram waits for the webhook's answer, not for the bot's replies.
    reply(json_response(200, Json::object()));
    if (calls.empty()) {
        return;
    }
    const bool queued = auth->outbound().try_post([auth, calls = std::move(calls)] {
        for (const auto& c : calls) {
            try {
                (void)auth->bot()->call(c.method, c.params);
            } catch (const std::exception& e) {
                log_line("telegram", e.what());
            }
        }
    });
    if (!queued) {
        log_line("telegram", "a reply to an update was dropped: the outgoing queue is full");
    }
}

void post_telegram_share(ApiContext& ctx, const Request& req, const RouteArgs&, Reply reply) {
    AuthService* auth = ctx.auth;
    if (auth == nullptr || auth->bot() == nullptr) {
        reply(not_configured());
        return;
    }
    const Json body = Json::parse(req.body, nullptr, false);
    if (!body.is_object()) {
        reply(error_response(400, "bad_json", "the body must be a JSON object"));
        return;
    }
    const std::string invite   = string_at(body, "invite");
    const std::string bearer   = req.bearer;
    const std::string language = string_at(body, "language");
    if (invite.empty() || invite.size() > 80) {
        reply(error_response(400, "bad_invite", "share needs the invite of a friend game"));
        return;
    }
    reply_from_store(ctx, reply, [&ctx, auth, invite, bearer, language, reply](Store& s) {
        const auto u = session_of(ctx, s, bearer);
        if (!u) {
            return not_signed_in();
        }
        std::string telegram_id;
        for (const auto& id : s.identities_of(u->id)) {
            if (id.issuer == AuthService::kTelegramIssuer) {
                telegram_id = id.subject;
            }
        }
        if (telegram_id.empty()) {
            return error_response(
                403, "not_telegram", "sharing into Telegram needs a Telegram sign-in");
        }
        // The invite must be a live one of a game waiting for its second player.
        const auto game = s.load_game(invite.substr(0, invite.find('-')));
        if (!game || game->status != GameStatus::Waiting || game->invite_hash.empty() ||
            !auth::constant_time_equal(game->invite_hash, hash_secret(invite)) ||
            game->invite_expires_ms < ctx.svc.clock.now_ms()) {
            return error_response(404, "invite_invalid", "this invitation link is not valid");
        }
        Json params{{"user_id", std::stoll(telegram_id)},
                    {"result",
                     telegram::invite_result(auth->bot_site(),
                                             invite,
                                             u->username,
                                             variant_display_name(game->variant),
                                             language)},
                    {"allow_user_chats", true},
                    {"allow_group_chats", true}};
        const bool queued = auth->outbound().try_post([auth, params, reply] {
            try {
                const Json r = auth->bot()->call("savePreparedInlineMessage", params);
                reply(json_response(200, Json{{"prepared_message_id", string_at(r, "id")}}));
            } catch (const std::exception& e) {
                log_line("telegram", e.what());
                reply(bot_unavailable());
            }
        });
        return queued ? replied_later() : bot_unavailable();
    });
}

}  // namespace papan::server
