#include "api/api.hpp"
#include "api/auth_service.hpp"
#include "cluster/cluster.hpp"
#include "game/lobby.hpp"
#include "game/messages.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"
#include "support/text.hpp"

#include <papan/server/protocol.hpp>
#include <papan/server/tokens.hpp>

#include <algorithm>
#include <cctype>

namespace papan::server {

using Json = nlohmann::json;

namespace {

bool is_hex_secret(std::string_view s) {
    return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

void welcome(const std::shared_ptr<SessionPeer>& peer,
             Identity id,
             const std::string& secret,
             std::optional<std::int64_t> ref) {
    Json j{
        {"type", "welcome"},
        {"player", {{"id", id.player_id}, {"name", id.name}, {"account", id.user_id.has_value()}}}};
    if (!secret.empty()) {
        j["secret"] = secret;
    }
    if (ref) {
        j["ref"] = *ref;
    }
    peer->identity() = std::move(id);
    peer->send_text(j.dump());
}

void on_hello(ApiContext& ctx, const std::shared_ptr<SessionPeer>& peer, const ClientMessage& m) {
    if (!m.token.empty()) {
        const std::string h     = hash_secret(m.token);
        const auto now          = ctx.svc.clock.now_ms();
        const auto max_idle     = ctx.accounts != nullptr ? ctx.accounts->limits().session_ms
                                                          : AccountLimits{}.session_ms;
        const AuthService* auth = ctx.auth;
        ctx.svc.store.run([peer, h, now, max_idle, auth, ref = m.id](Store& s) {
            const auto uid = s.session_user(h, now, max_idle);
            std::optional<UserRecord> user;
            bool barred = false;
            if (uid) {
                user   = s.user_by_id(*uid);
                barred = auth != nullptr && !auth->rating_allowed(s, *uid);
            }
            peer->run_on_session([peer, user, barred, ref] {
                if (!user) {
                    peer->send_text(error_text(
                        "bad_token", "the session token is not valid; log in again", ref));
                    return;
                }
                Identity who{account_player_id(user->id), user->username, user->id};
                who.rating_barred = barred;
                welcome(peer, std::move(who), {}, ref);
            });
        });
        return;
    }
    std::string secret = m.secret;
    if (!secret.empty() && !is_hex_secret(secret)) {
        peer->send_text(error_text("bad_secret", "the guest secret must be 32 hex digits", m.id));
        return;
    }
    if (secret.empty()) {
        secret = random_token();
    }
    welcome(peer,
            Identity{guest_player_id(secret), clean_nickname(m.name), std::nullopt},
            secret,
            m.id);
}

}  // namespace

namespace {

// The per-address cap on new games (--creates-per-ip, docs/protocol.md "Abuse limits"): a guest
// can take a new identity at will, so the per-player cap alone does not bound what one machine
// creates. Every `create` counts, whether or not it then succeeds.
bool may_create(ApiContext& ctx, SessionPeer& peer, const ClientMessage& m) {
    const int limit = ctx.svc.options.creates_per_ip;
    if (ctx.creates == nullptr || limit <= 0) {
        return true;
    }
    if (const auto wait = ctx.creates->take("ip:" + peer.remote_address(), limit); wait > 0) {
        peer.send_text(error_text("too_many_creates",
                                  "too many new games from your address (at most " +
                                      std::to_string(limit) + " a minute); try again in " +
                                      std::to_string(wait) + " s",
                                  m.id));
        return false;
    }
    return true;
}

void dispatch(ApiContext& ctx, const std::shared_ptr<SessionPeer>& peer, std::string_view text) {
    auto decoded = decode_client_message(text);
    if (auto* err = std::get_if<ProtocolError>(&decoded)) {
        peer->send_text(error_text(err->code, err->message, std::nullopt));
        return;
    }
    const auto m = std::get<ClientMessage>(std::move(decoded));
    if (m.type == MessageType::Hello) {
        on_hello(ctx, peer, m);
        return;
    }
    const Identity who = peer->identity();
    if (!who.known()) {
        peer->send_text(
            error_text("hello_first", "say hello first (a nickname or a session token)", m.id));
        return;
    }
    Lobby& lobby = ctx.lobby;
    switch (m.type) {
    case MessageType::Create:
        if (!may_create(ctx, *peer, m)) {
            return;
        }
        lobby.post([&lobby, m, who, peer] { lobby.create(m, who, peer); });
        return;
    case MessageType::Join:
        // With several nodes the invite's game decides where the join goes.
        if (Cluster* cluster = ctx.cluster; cluster != nullptr) {
            if (const auto game = invite_game(m.invite); !game.empty()) {
                cluster->route(game, m, std::string(text), who, peer);
                return;
            }
        }
        lobby.post([&lobby, m, who, peer] { lobby.join(m, who, peer); });
        return;
    case MessageType::Seek:
        lobby.post([&lobby, m, who, peer] { lobby.seek(m, who, peer); });
        return;
    case MessageType::CancelSeek:
        lobby.post([&lobby, who, peer, ref = m.id] { lobby.cancel_seek(who, peer, ref); });
        return;
    case MessageType::Hello:
        return;
    case MessageType::Resume:
    case MessageType::Move:
    case MessageType::Resign:
    case MessageType::DrawOffer:
    case MessageType::DrawAccept:
    case MessageType::DrawDecline:
    case MessageType::DrawClaim:
    case MessageType::Undo:
    case MessageType::Rematch:
    case MessageType::TakebackOffer:
    case MessageType::TakebackAccept:
    case MessageType::TakebackDecline:
    case MessageType::Chat:
        break;
    }
    if (m.game.empty()) {
        peer->send_text(error_text("bad_message", "this message needs the game id ('game')", m.id));
        return;
    }
    if (Cluster* cluster = ctx.cluster; cluster != nullptr) {
        cluster->route(m.game, m, std::string(text), who, peer);
        return;
    }
    lobby.post([&lobby, m, who, peer] { lobby.dispatch(m, who, peer); });
}

}  // namespace

void handle_ws_message(ApiContext& ctx,
                       const std::shared_ptr<SessionPeer>& peer,
                       std::string_view text) {
    try {
        dispatch(ctx, peer, text);
    } catch (const std::exception& e) {
        log_line("ws " + peer->connection_id(), std::string("internal error: ") + e.what());
        peer->send_text(internal_error_text());
    }
}

}  // namespace papan::server
