// Lobby: random pairing (docs/protocol.md, "seek"): seeks on this node or in the queue shared
// by the nodes, their expiry into a computer opponent, and the start of a paired game. The rest
// of the lobby (creating, joining, loading, housekeeping) is in lobby.cpp.
#include "game/game_json.hpp"
#include "game/lifecycle.hpp"
#include "game/lobby.hpp"
#include "game/messages.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/tokens.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <array>
#include <chrono>

namespace papan::server {

using Json = nlohmann::json;

namespace {

// The players' names the computer of a random pairing sits down with (its seat also says it is
// the computer, with its level: docs/protocol.md, "Starting games").
constexpr std::array<std::string_view, 16> kAiNames{"Rafael",
                                                    "Dewi",
                                                    "Aigerim",
                                                    "Marek",
                                                    "Sofia",
                                                    "Tomasz",
                                                    "Ayu",
                                                    "Kemal",
                                                    "Lucas",
                                                    "Nadia",
                                                    "Joost",
                                                    "Irina",
                                                    "Bayu",
                                                    "Chiara",
                                                    "Emre",
                                                    "Ana"};

}  // namespace

void Lobby::seek(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    const auto v = core::variant_from_key(m.variant.empty() ? "international" : m.variant);
    if (!v) {
        peer->send_text(error_text("bad_variant", "unknown variant '" + m.variant + "'", m.id));
        return;
    }
    const TimeControl tc  = m.clock.value_or(default_time_control());
    const std::string key = std::string(core::rules(*v).key) + "|" + tc.key();
    if (svc_.placement != nullptr) {
        seek_shared(m, who, peer, std::string(core::rules(*v).key), tc, key);
        return;
    }
    // Pair with the first other player waiting for the same variant and time control.
    std::erase_if(seeks_, [&](const Seek& s) {
        return s.peer.expired() || s.who.player_id == who.player_id;
    });
    for (auto it = seeks_.begin(); it != seeks_.end(); ++it) {
        if (it->key == key) {
            Seek other = *it;
            seeks_.erase(it);
            if (other.timer) {
                other.timer->cancel();
            }
            Seek me{0, who, peer, std::string(core::rules(*v).key), tc, key, nullptr, {}, false};
            start_random(other, me);
            return;
        }
    }
    Seek s{next_ticket_++,
           who,
           peer,
           std::string(core::rules(*v).key),
           tc,
           key,
           std::make_shared<net::steady_timer>(strand_),
           {},
           false};
    s.timer->expires_after(std::chrono::milliseconds(svc_.options.pairing_wait_ms));
    const auto ticket = s.ticket;
    s.timer->async_wait([this, ticket](const boost::system::error_code& ec) {
        if (!ec) {
            pair_with_computer(ticket);
        }
    });
    seeks_.push_back(s);
    Json j{{"type", "seeking"},
           {"variant", s.variant},
           {"clock", time_control_json(tc)},
           {"wait_ms", svc_.options.pairing_wait_ms}};
    if (m.id) {
        j["ref"] = *m.id;
    }
    peer->send_text(j.dump());
}

void Lobby::seek_shared(const ClientMessage& m,
                        const Identity& who,
                        const std::shared_ptr<Peer>& peer,
                        const std::string& variant,
                        const TimeControl& tc,
                        const std::string& key) {
    GamePlacement* shared = svc_.placement;
    // One seek per player: an earlier one leaves the queue.
    std::erase_if(seeks_, [&](const Seek& s) {
        if (s.who.player_id != who.player_id && !s.peer.expired()) {
            return false;
        }
        if (s.timer) {
            s.timer->cancel();
        }
        shared->remove_seek(s.key, s.entry, [](bool) {});
        return true;
    });
    const std::string conn = shared->conn_of(peer, who);
    // Registered before the script runs: a node that takes the seek at once finds it here.
    Seek mine{next_ticket_++,
              who,
              peer,
              variant,
              tc,
              key,
              std::make_shared<net::steady_timer>(strand_),
              {},
              false};
    mine.entry        = shared->seek_entry(conn, mine.ticket, who);
    const auto ticket = mine.ticket;
    seeks_.push_back(mine);
    shared->take_or_queue_seek(
        key, who.player_id, mine.entry, [this, m, ticket](std::optional<SharedSeek> found) {
            post([this, m, ticket, found = std::move(found)] { seek_answered(m, ticket, found); });
        });
}

void Lobby::seek_answered(const ClientMessage& m,
                          std::uint64_t ticket,
                          const std::optional<SharedSeek>& found) {
    const auto it = std::find_if(
        seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.ticket == ticket; });
    if (it == seeks_.end() || closed_) {
        return;  // cancelled, or taken meanwhile: that pairing is on its way
    }
    if (!found) {
        // Queued: a partner from any node, else the computer after the wait.
        it->timer->expires_after(std::chrono::milliseconds(svc_.options.pairing_wait_ms));
        it->timer->async_wait([this, ticket](const boost::system::error_code& ec) {
            if (!ec) {
                seek_expired(ticket);
            }
        });
        Json j{{"type", "seeking"},
               {"variant", it->variant},
               {"clock", time_control_json(it->tc)},
               {"wait_ms", svc_.options.pairing_wait_ms}};
        if (m.id) {
            j["ref"] = *m.id;
        }
        if (auto p = it->peer.lock()) {
            p->send_text(j.dump());
        }
        return;
    }
    Seek me = *it;
    seeks_.erase(it);
    auto other_peer = svc_.placement->peer_of(*found);
    if (svc_.placement->is_local(*found)) {
        const auto o = std::find_if(
            seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.ticket == found->ticket; });
        if (o == seeks_.end() || !other_peer || o->peer.expired()) {
            // A seek of this node that is gone (cancelled, disconnected): try again.
            if (auto p = me.peer.lock()) {
                seek_shared(m, me.who, p, me.variant, me.tc, me.key);
            }
            return;
        }
        Seek other = *o;
        seeks_.erase(o);
        if (other.timer) {
            other.timer->cancel();
        }
        start_random(other, me);
        return;
    }
    svc_.placement->seek_taken(*found);
    Seek other{
        found->ticket, found->who, other_peer, me.variant, me.tc, me.key, nullptr, {}, false};
    start_random(other, me);
}

void Lobby::seek_expired(std::uint64_t ticket) {
    const auto it = std::find_if(
        seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.ticket == ticket; });
    if (it == seeks_.end() || closed_) {
        return;
    }
    if (it->grace) {
        // Taken from Redis but the pairing never came (that node died, or Redis lost it).
        Seek s = *it;
        seeks_.erase(it);
        if (!s.peer.expired()) {
            start_random(s, std::nullopt);
        }
        return;
    }
    svc_.placement->remove_seek(it->key, it->entry, [this, ticket](bool removed) {
        post([this, ticket, removed] {
            const auto found = std::find_if(
                seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.ticket == ticket; });
            if (found == seeks_.end() || closed_) {
                return;
            }
            if (removed) {
                Seek s = *found;
                seeks_.erase(found);
                if (!s.peer.expired()) {
                    start_random(s, std::nullopt);
                }
                return;
            }
            // Another node took it a moment ago: its pairing is on the way.
            found->grace = true;
            found->timer->expires_after(std::chrono::seconds(3));
            found->timer->async_wait([this, ticket](const boost::system::error_code& ec) {
                if (!ec) {
                    seek_expired(ticket);
                }
            });
        });
    });
}

void Lobby::cancel_seek(const Identity& who,
                        const std::shared_ptr<Peer>& peer,
                        std::optional<std::int64_t> ref) {
    std::size_t n = std::erase_if(seeks_, [&](const Seek& s) {
        if (s.who.player_id == who.player_id) {
            if (s.timer) {
                s.timer->cancel();
            }
            if (svc_.placement != nullptr) {
                svc_.placement->remove_seek(s.key, s.entry, [](bool) {});
            }
            return true;
        }
        return false;
    });
    Json j{{"type", "seek_cancelled"}, {"cancelled", n > 0}};
    if (ref) {
        j["ref"] = *ref;
    }
    peer->send_text(j.dump());
}

void Lobby::pair_with_computer(std::uint64_t ticket) {
    const auto it = std::find_if(
        seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.ticket == ticket; });
    if (it == seeks_.end() || closed_) {
        return;
    }
    Seek s = *it;
    seeks_.erase(it);
    if (s.peer.expired()) {
        return;
    }
    start_random(s, std::nullopt);
}

void Lobby::start_random(const Seek& a, const std::optional<Seek>& b, std::string id) {
    const auto v   = *core::variant_from_key(a.variant);
    const auto now = svc_.clock.now_ms();
    GameRecord rec;
    rec.id           = id.empty() ? new_game_id() : std::move(id);
    rec.variant      = a.variant;
    rec.mode         = GameMode::Random;
    rec.level        = b ? "" : "normal";
    rec.start_fen    = std::string(core::rules(v).start_fen);
    rec.time_control = time_control_json(a.tc).dump();
    rec.created_ms   = now;
    rec.updated_ms   = now;
    rec.status       = GameStatus::Playing;
    SeatRecord first{a.who.player_id, a.who.name, false, a.who.user_id};
    SeatRecord second;
    if (b) {
        second = SeatRecord{b->who.player_id, b->who.name, false, b->who.user_id};
    } else {
        const auto name =
            std::string(kAiNames[(names_++ + static_cast<std::uint64_t>(now)) % kAiNames.size()]);
        second = SeatRecord{"ai", name, true, std::nullopt};
    }
    // Colours of the first online game are random (a rematch swaps them).
    const bool swap = random_hex(1)[0] >= '8';
    rec.seats =
        swap ? std::array<SeatRecord, 2>{second, first} : std::array<SeatRecord, 2>{first, second};
    rec.rated  = b && a.who.may_rate() && b->who.may_rate();
    rec.clocks = Json{
        {"white", {{"main_ms", a.tc.main_ms}, {"periods", a.tc.periods}}},
        {"black", {{"main_ms", a.tc.main_ms}, {"periods", a.tc.periods}}},
        {"turn_started_ms",
         now}}.dump();
    auto room = Room::from_record(svc_, rec);
    if (!room) {
        log_line("lobby", "pairing failed: " + room.error());
        return;
    }
    std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers;
    if (auto p = a.peer.lock()) {
        peers.emplace_back(p, a.who);
    }
    if (b) {
        if (auto p = b->peer.lock()) {
            peers.emplace_back(p, b->who);
        }
    }
    // Says whether the opponent is the computer (and how strong) before the board opens.
    Json paired{{"type", "paired"}, {"game", rec.id}, {"computer", !b.has_value()}};
    if (!b) {
        paired["level"] = rec.level;
    }
    for (const auto& [p, w] : peers) {
        p->send_text(paired.dump());
    }
    open_new(*room, rec, peers, std::string{});
}

}  // namespace papan::server
