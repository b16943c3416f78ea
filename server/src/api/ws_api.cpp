// The WebSocket messages of a session: decoded (protocol.hpp), then handed on as typed requests
// to the lobby, to the game's room or, with several nodes, to the cluster.
#include "api/api.hpp"
#include "api/auth_service.hpp"
#include "api/wire_codec.hpp"
#include "cluster/cluster.hpp"
#include "game/lobby.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"
#include "support/text.hpp"

#include <papan/server/protocol.hpp>
#include <papan/server/tokens.hpp>

#include <algorithm>
#include <cctype>

namespace papan::server {

namespace {

void send_text(SessionPeer& peer, std::string text) {
    peer.send(std::make_shared<const std::string>(std::move(text)));
}

void send_error(SessionPeer& peer, ErrorCode code, std::string_view message, Ref ref) {
    send_text(peer, WireMessages::error_text(code, message, ref));
}

bool is_hex_secret(std::string_view s) {
    return s.size() == 32 && std::all_of(s.begin(), s.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
           });
}

void welcome(const std::shared_ptr<SessionPeer>& peer,
             Identity id,
             const std::string& secret,
             Ref ref) {
    const auto text  = WireMessages::welcome(id, secret, ref);
    peer->identity() = std::move(id);
    send_text(*peer, text);
}

void on_hello(ApiContext& ctx, const std::shared_ptr<SessionPeer>& peer, const Hello& h, Ref ref) {
    if (!h.token.empty()) {
        const std::string hash  = hash_secret(h.token);
        const auto now          = ctx.svc.clock.now_ms();
        const auto max_idle     = ctx.accounts != nullptr ? ctx.accounts->limits().session_ms
                                                          : AccountLimits{}.session_ms;
        const AuthService* auth = ctx.auth;
        ctx.svc.store.run([peer, hash, now, max_idle, auth, ref](Store& s) {
            const auto uid = s.session_user(hash, now, max_idle);
            std::optional<UserRecord> user;
            bool barred = false;
            if (uid) {
                user   = s.user_by_id(*uid);
                barred = auth != nullptr && !auth->rating_allowed(s, *uid);
            }
            peer->run_on_session([peer, user, barred, ref] {
                if (!user) {
                    send_error(*peer,
                               ErrorCode::BadToken,
                               "the session token is not valid; log in again",
                               ref);
                    return;
                }
                Identity who{account_player_id(user->id), user->username, user->id};
                who.rating_barred = barred;
                welcome(peer, std::move(who), {}, ref);
            });
        });
        return;
    }
    std::string secret = h.secret;
    if (!secret.empty() && !is_hex_secret(secret)) {
        send_error(*peer, ErrorCode::BadSecret, "the guest secret must be 32 hex digits", ref);
        return;
    }
    if (secret.empty()) {
        secret = random_token();
    }
    welcome(
        peer, Identity{guest_player_id(secret), clean_nickname(h.name), std::nullopt}, secret, ref);
}

// The per-address cap on new games (--creates-per-ip, docs/protocol.md "Abuse limits"): a guest
// can take a new identity at will, so the per-player cap alone does not bound what one machine
// creates. Every `create` counts, whether or not it then succeeds.
bool may_create(ApiContext& ctx, SessionPeer& peer, Ref ref) {
    const int limit = ctx.creates_per_ip;
    if (ctx.creates == nullptr || limit <= 0) {
        return true;
    }
    if (const auto wait = ctx.creates->take("ip:" + peer.remote_address(), limit); wait > 0) {
        send_error(peer,
                   ErrorCode::TooManyCreates,
                   "too many new games from your address (at most " + std::to_string(limit) +
                       " a minute); try again in " + std::to_string(wait) + " s",
                   ref);
        return false;
    }
    return true;
}

// A join as the game layer takes it: the game the invite names and the hash of its secret (the
// secret goes no further than here, not even between nodes).
GameRequest join_request(const JoinInvite& j, Ref ref) {
    GameRequest r;
    r.game = invite_game(j.invite);
    r.ref  = ref;
    r.what = JoinRequest{r.game, hash_secret(j.invite), clean_nickname(j.name)};
    return r;
}

void route(ApiContext& ctx,
           GameRequest r,
           const Identity& who,
           const std::shared_ptr<SessionPeer>& peer) {
    if (Cluster* cluster = ctx.cluster; cluster != nullptr && !r.game.empty()) {
        cluster->route(std::move(r), who, peer);
        return;
    }
    Lobby& lobby = ctx.lobby;
    lobby.post([&lobby, r = std::move(r), who, peer] { lobby.dispatch(r, who, peer); });
}

void dispatch(ApiContext& ctx, const std::shared_ptr<SessionPeer>& peer, std::string_view text) {
    auto decoded = decode_client_message(text);
    if (auto* err = std::get_if<ProtocolError>(&decoded)) {
        send_error(*peer, err->code, err->message, std::nullopt);
        return;
    }
    auto& m = std::get<ClientRequest>(decoded);
    if (auto* hello = std::get_if<Hello>(&m.what)) {
        on_hello(ctx, peer, *hello, m.ref);
        return;
    }
    const Identity who = peer->identity();
    if (!who.known()) {
        send_error(
            *peer, ErrorCode::HelloFirst, "say hello first (a nickname or a session token)", m.ref);
        return;
    }
    if (auto* err = std::get_if<ProtocolError>(&m.what)) {
        send_error(*peer, err->code, err->message, m.ref);
        return;
    }
    Lobby& lobby  = ctx.lobby;
    const Ref ref = m.ref;
    if (auto* create = std::get_if<CreateRequest>(&m.what)) {
        if (may_create(ctx, *peer, ref)) {
            lobby.post([&lobby, c = *create, who, peer, ref] { lobby.create(c, who, peer, ref); });
        }
    } else if (auto* seek = std::get_if<SeekRequest>(&m.what)) {
        lobby.post([&lobby, s = *seek, who, peer, ref] { lobby.seek(s, who, peer, ref); });
    } else if (std::holds_alternative<CancelSeek>(m.what)) {
        lobby.post([&lobby, who, peer, ref] { lobby.cancel_seek(who, peer, ref); });
    } else if (auto* join = std::get_if<JoinInvite>(&m.what)) {
        route(ctx, join_request(*join, ref), who, peer);
    } else if (auto* game = std::get_if<GameRequest>(&m.what)) {
        route(ctx, std::move(*game), who, peer);
    }
}

}  // namespace

void handle_ws_message(ApiContext& ctx,
                       const std::shared_ptr<SessionPeer>& peer,
                       std::string_view text) {
    try {
        dispatch(ctx, peer, text);
    } catch (const std::exception& e) {
        log_line("ws " + peer->connection_id(), std::string("internal error: ") + e.what());
        send_text(*peer, WireMessages::internal_error());
    }
}

}  // namespace papan::server
