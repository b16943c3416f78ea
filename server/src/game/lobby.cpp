#include "game/lobby.hpp"

#include "game/game_json.hpp"
#include "game/messages.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/tokens.hpp>

#include <boost/asio/post.hpp>

#include <array>
#include <chrono>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::int64_t kDefaultInviteTtlMs = 24LL * 3600 * 1000;

// Names of the computer players of random pairings (features.md: told only by the name).
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

core::DrawRuleSet draw_rules_of(const std::string& s, bool& ok) {
    ok = true;
    if (s.empty() || s == "standard") {
        return core::DrawRuleSet::Standard;
    }
    if (s == "american_club") {
        return core::DrawRuleSet::AmericanClub;
    }
    if (s == "russian_official") {
        return core::DrawRuleSet::RussianOfficial;
    }
    ok = false;
    return core::DrawRuleSet::Standard;
}

}  // namespace

constexpr std::int64_t kRoomLingerMs = 10 * 60 * 1000;

Lobby::Lobby(Services& services)
    : svc_(services)
    , strand_(net::make_strand(services.ioc))
    , sweep_(strand_) {}

void Lobby::retire_later(const std::string& id) {
    retiring_.emplace_back(svc_.clock.now_ms() + kRoomLingerMs, id);
    if (sweeping_ || closed_) {
        return;
    }
    sweeping_ = true;
    sweep_.expires_after(std::chrono::milliseconds(kRoomLingerMs));
    sweep_.async_wait([this](const boost::system::error_code& ec) {
        sweeping_ = false;
        if (ec || closed_) {
            return;
        }
        const auto now = svc_.clock.now_ms();
        std::vector<std::pair<std::int64_t, std::string>> later;
        for (const auto& [when, game] : retiring_) {
            if (when <= now) {
                rooms_.erase(game);
                if (svc_.placement != nullptr) {
                    svc_.placement->room_closed(game);
                }
            } else {
                later.emplace_back(when, game);
            }
        }
        retiring_.clear();
        for (const auto& [when, game] : later) {
            retire_later(game);
        }
    });
}

void Lobby::post(std::function<void()> fn) {
    net::post(strand_, std::move(fn));
}

std::string Lobby::new_game_id() const {
    for (;;) {
        auto id = random_hex(8);
        if (!rooms_.contains(id)) {
            return id;
        }
    }
}

void Lobby::forget(const std::string& id) {
    if (rooms_.erase(id) > 0 && svc_.placement != nullptr) {
        svc_.placement->room_closed(id);
    }
    std::erase_if(invites_, [&](const auto& kv) { return kv.second.game == id; });
}

void Lobby::open_new(const std::shared_ptr<Room>& room,
                     const GameRecord& rec,
                     std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers,
                     std::string first,
                     std::function<void()> on_stored) {
    add(room, rec);
    room->post([this,
                room,
                peers     = std::move(peers),
                first     = std::move(first),
                on_stored = std::move(on_stored)]() mutable {
        room->create_and_announce(
            std::move(peers),
            std::move(first),
            [this, id = room->id()] { post([this, id] { forget(id); }); },
            std::move(on_stored));
    });
}

void Lobby::add(const std::shared_ptr<Room>& room, const GameRecord& rec) {
    rooms_[room->id()] = room;
    if (svc_.placement != nullptr) {
        svc_.placement->room_opened(room->id());
    }
    if (rec.status == GameStatus::Waiting && !rec.invite_hash.empty()) {
        invites_[rec.invite_hash] = Invite{rec.id, rec.invite_expires_ms};
    }
}

void Lobby::create(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    const auto fail = [&](std::string_view code, const std::string& msg) {
        peer->send_text(error_text(code, msg, m.id));
    };
    if (closed_) {
        fail("shutting_down", "the server is shutting down");
        return;
    }
    const auto v = core::variant_from_key(m.variant.empty() ? "international" : m.variant);
    if (!v) {
        fail("bad_variant", "unknown variant '" + m.variant + "'");
        return;
    }
    const auto parsed_mode = game_mode_from_name(m.mode.empty() ? "computer" : m.mode);
    if (!parsed_mode || *parsed_mode == GameMode::Random) {
        fail("bad_mode", "mode must be computer, friend or hotseat (random games: 'seek')");
        return;
    }
    const GameMode mode = *parsed_mode;
    bool rules_ok       = true;
    core::GameOptions opts;
    opts.forced_capture = !m.no_forced_capture;
    opts.draw_rules     = draw_rules_of(m.draw_rules, rules_ok);
    if (!rules_ok) {
        fail("bad_options", "unknown draw rule set '" + m.draw_rules + "'");
        return;
    }
    if (auto err = core::validate_game_options(*v, opts)) {
        fail("bad_options", err->message);
        return;
    }
    std::string level = m.level.empty() ? "normal" : m.level;
    if (level != "easy" && level != "normal" && level != "hard") {
        fail("bad_level", "level must be easy, normal or hard");
        return;
    }
    std::string fen = std::string(core::rules(*v).start_fen);
    if (!m.fen.empty()) {
        auto pos = core::parse_fen(*v, m.fen);
        if (!pos) {
            fail("bad_fen", pos.error());
            return;
        }
        auto g = core::Game::create(*pos, opts);
        if (!g) {
            fail("bad_fen", g.error());
            return;
        }
        if (g->is_over()) {
            fail("bad_fen", "the game would be over at once: " + g->result_text());
            return;
        }
        fen = core::to_fen(*pos);
    }
    std::string color = m.color.empty() ? "white" : m.color;
    if (color != "white" && color != "black" && color != "random") {
        fail("bad_color", "color must be white, black or random");
        return;
    }
    if (color == "random") {
        color = (random_hex(1)[0] < '8') ? "white" : "black";
    }
    TimeControl tc;
    if (mode == GameMode::Friend && !m.no_clock) {
        tc = m.clock.value_or(default_time_control());
    }
    const auto now = svc_.clock.now_ms();
    GameRecord rec;
    rec.id                 = new_game_id();
    rec.variant            = std::string(core::rules(*v).key);
    rec.mode               = mode;
    rec.level              = mode == GameMode::Computer ? level : "";
    rec.forced_capture     = opts.forced_capture;
    rec.draw_rules         = static_cast<int>(opts.draw_rules);
    rec.start_fen          = fen;
    rec.time_control       = time_control_json(tc).dump();
    rec.created_ms         = now;
    rec.updated_ms         = now;
    const std::size_t mine = color == "white" ? 0 : 1;
    rec.seats[mine]        = SeatRecord{who.player_id, who.name, false, who.user_id};
    std::string invite;
    if (mode == GameMode::Computer) {
        rec.seats[1 - mine] = SeatRecord{"ai", "Computer (" + level + ")", true, std::nullopt};
        rec.status          = GameStatus::Playing;
    } else if (mode == GameMode::Hotseat) {
        rec.seats[1 - mine] = rec.seats[mine];
        rec.status          = GameStatus::Playing;
    } else {
        // The invite names its game, so any node can send the player to the game's node.
        invite          = rec.id + "-" + random_token();
        rec.invite_hash = hash_secret(invite);
        const auto ttl =
            svc_.options.invite_ttl_ms > 0 ? svc_.options.invite_ttl_ms : kDefaultInviteTtlMs;
        rec.invite_expires_ms = now + ttl;
        rec.status            = GameStatus::Waiting;
        rec.rated             = m.rated && who.user_id.has_value();
    }
    rec.clocks = "{}";
    auto room  = Room::from_record(svc_, rec);
    if (!room) {
        fail("bad_options", room.error());
        return;
    }
    Json created{{"type", "created"}, {"game", rec.id}, {"mode", game_mode_name(mode)}};
    if (!invite.empty()) {
        created["invite"]     = invite;
        created["link"]       = "/#join=" + invite;
        created["expires_ms"] = rec.invite_expires_ms;
    }
    if (m.id) {
        created["ref"] = *m.id;
    }
    open_new(*room, rec, {{peer, who}}, created.dump());
}

void Lobby::join(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (m.invite.empty()) {
        peer->send_text(error_text("bad_message", "join needs the invite token ('invite')", m.id));
        return;
    }
    const auto h  = hash_secret(m.invite);
    const auto it = invites_.find(h);
    if (it == invites_.end()) {
        peer->send_text(error_text("invite_invalid", "this invitation link is not valid", m.id));
        return;
    }
    if (svc_.clock.now_ms() > it->second.expires_ms) {
        peer->send_text(error_text(
            "invite_expired", "this invitation link has expired (links are valid 24 hours)", m.id));
        return;
    }
    const auto room = rooms_.find(it->second.game);
    if (room == rooms_.end()) {
        peer->send_text(error_text("invite_invalid", "this invitation link is not valid", m.id));
        return;
    }
    auto r = room->second;
    r->post([r, peer, who, h, ref = m.id] { r->join(peer, who, h, ref); });
}

void Lobby::dispatch(const ClientMessage& m,
                     const Identity& who,
                     const std::shared_ptr<Peer>& peer) {
    if (m.type == MessageType::Join) {
        join(m, who, peer);
        return;
    }
    with_room(m.game, [m, who, peer](std::shared_ptr<Room> room) {
        if (!room) {
            peer->send_text(error_text("unknown_game", "there is no game '" + m.game + "'", m.id));
            return;
        }
        room->post([room, m, who, peer] {
            if (m.type == MessageType::Resume) {
                room->resume(peer, who, m.last_version, m.id);
            } else {
                room->handle(m, who, peer);
            }
        });
    });
}

std::shared_ptr<Room> Lobby::adopt(GameRecord rec) {
    if (const auto it = rooms_.find(rec.id); it != rooms_.end()) {
        return it->second;
    }
    const GameRecord header = rec;
    auto room               = Room::from_record(svc_, std::move(rec));
    if (!room) {
        log_line("lobby", "cannot load game " + header.id + ": " + room.error());
        return nullptr;
    }
    add(*room, header);
    auto r = *room;
    r->post([r] { r->start(); });
    return r;
}

void Lobby::drop(const std::string& id) {
    const auto it = rooms_.find(id);
    if (it == rooms_.end()) {
        return;
    }
    auto room = it->second;
    rooms_.erase(it);
    room->post([room] { room->shutdown(); });
}

void Lobby::refresh_all() {
    for (const auto& [id, room] : rooms_) {
        room->post([r = room] { r->refresh_subscribers(); });
    }
}

void Lobby::seek_taken(std::uint64_t ticket) {
    std::erase_if(seeks_, [&](const Seek& s) {
        if (s.ticket != ticket) {
            return false;
        }
        if (s.timer) {
            s.timer->cancel();
        }
        return true;
    });
}

void Lobby::with_room(const std::string& id, std::function<void(std::shared_ptr<Room>)> fn) {
    if (const auto it = rooms_.find(id); it != rooms_.end()) {
        fn(it->second);
        return;
    }
    if (id.empty() || id.size() > 32) {
        fn(nullptr);
        return;
    }
    svc_.store.run([this, id, fn = std::move(fn)](Store& s) mutable {
        auto rec = s.load_game(id);
        post([this, rec = std::move(rec), fn = std::move(fn)]() mutable {
            fn(rec ? adopt(std::move(*rec)) : nullptr);
        });
    });
}

void Lobby::add_rematch(GameRecord rec,
                        const std::vector<std::pair<std::shared_ptr<Peer>, Identity>>& peers,
                        std::function<void(const std::string&)> done) {
    const auto now = svc_.clock.now_ms();
    rec.id         = new_game_id();
    rec.created_ms = now;
    rec.updated_ms = now;
    rec.clocks     = "{}";
    auto room      = Room::from_record(svc_, rec);
    if (!room) {
        log_line("lobby", "rematch failed: " + room.error());
        return;
    }
    open_new(*room, rec, peers, std::string{}, [done = std::move(done), id = rec.id] { done(id); });
}

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
    // Colours of the first online game are random (features.md).
    const bool swap = random_hex(1)[0] >= '8';
    rec.seats =
        swap ? std::array<SeatRecord, 2>{second, first} : std::array<SeatRecord, 2>{first, second};
    rec.rated  = b && a.who.user_id && b->who.user_id;
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
    for (const auto& [p, w] : peers) {
        p->send_text(Json{{"type", "paired"}, {"game", rec.id}}.dump());
    }
    open_new(*room, rec, peers, std::string{});
}

void Lobby::shutdown() {
    closed_ = true;
    sweep_.cancel();
    for (auto& s : seeks_) {
        if (s.timer) {
            s.timer->cancel();
        }
    }
    seeks_.clear();
    for (auto& [id, room] : rooms_) {
        room->post([room] { room->shutdown(); });
    }
}

}  // namespace papan::server
