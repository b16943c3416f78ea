// Lobby: random pairing (docs/protocol.md, "seek"): seeks on this node or in the queue shared
// by the nodes, their expiry into a computer opponent, and the start of a paired game. The rest
// of the lobby (creating, joining, loading, housekeeping) is in lobby.cpp.
#include "game/lifecycle.hpp"
#include "game/lobby.hpp"
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

void Lobby::seek(const SeekRequest& r,
                 const Identity& who,
                 const std::shared_ptr<Peer>& peer,
                 Ref ref) {
    const std::string variant(core::rules(r.variant).key);
    const TimeControl tc  = r.clock;
    const std::string key = variant + "|" + tc.key();
    if (svc_.placement != nullptr) {
        seek_shared(ref, who, peer, variant, tc, key);
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
            Seek me{0, who, peer, variant, tc, key, nullptr, {}, false};
            start_random(other, me);
            return;
        }
    }
    Seek s{next_ticket_++,
           who,
           peer,
           variant,
           tc,
           key,
           std::make_shared<net::steady_timer>(strand_),
           {},
           false};
    s.timer->expires_after(std::chrono::milliseconds(svc_.settings.pairing_wait_ms));
    const auto ticket = s.ticket;
    s.timer->async_wait([this, ticket](const boost::system::error_code& ec) {
        if (!ec) {
            pair_with_computer(ticket);
        }
    });
    seeks_.push_back(s);
    send(peer, svc_.messages.seeking(s.variant, tc, svc_.settings.pairing_wait_ms, ref));
}

void Lobby::seek_shared(Ref ref,
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
        key, who.player_id, mine.entry, [this, ref, ticket](std::optional<SharedSeek> found) {
            post([this, ref, ticket, found = std::move(found)] {
                seek_answered(ref, ticket, found);
            });
        });
}

void Lobby::seek_answered(Ref ref, std::uint64_t ticket, const std::optional<SharedSeek>& found) {
    const auto it = std::find_if(
        seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.ticket == ticket; });
    if (it == seeks_.end() || closed_) {
        return;  // cancelled, or taken meanwhile: that pairing is on its way
    }
    if (!found) {
        // Queued: a partner from any node, else the computer after the wait.
        it->timer->expires_after(std::chrono::milliseconds(svc_.settings.pairing_wait_ms));
        it->timer->async_wait([this, ticket](const boost::system::error_code& ec) {
            if (!ec) {
                seek_expired(ticket);
            }
        });
        if (auto p = it->peer.lock()) {
            send(p, svc_.messages.seeking(it->variant, it->tc, svc_.settings.pairing_wait_ms, ref));
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
                seek_shared(ref, me.who, p, me.variant, me.tc, me.key);
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

void Lobby::cancel_seek(const Identity& who, const std::shared_ptr<Peer>& peer, Ref ref) {
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
    send(peer, svc_.messages.seek_cancelled(n > 0, ref));
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
    rec.level        = b ? Level::None : Level::Normal;
    rec.start_fen    = std::string(core::rules(v).start_fen);
    rec.time_control = a.tc;
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
    rec.clocks = ClockState{
        {PlayerClock{a.tc.main_ms, a.tc.periods}, PlayerClock{a.tc.main_ms, a.tc.periods}}, now};
    auto room = Room::from_record(svc_, rec);
    if (!room) {
        log_line("lobby", "pairing failed: " + room.error());
        return;
    }
    Room::Peers peers;
    if (auto p = a.peer.lock()) {
        peers.emplace_back(p, a.who);
    }
    if (b) {
        if (auto p = b->peer.lock()) {
            peers.emplace_back(p, b->who);
        }
    }
    // Says whether the opponent is the computer (and how strong) before the board opens.
    const std::string paired = svc_.messages.paired(rec.id, !b.has_value(), rec.level);
    for (const auto& [p, w] : peers) {
        send(p, paired);
    }
    open_new(*room, rec, peers, std::string{});
}

}  // namespace papan::server
