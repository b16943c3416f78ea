#include "game/lobby.hpp"

#include "game/game_json.hpp"
#include "game/lifecycle.hpp"
#include "game/messages.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"
#include "support/text.hpp"

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

constexpr std::int64_t kDefaultInviteTtlMs = 24LL * 3600 * 1000;

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
    , sweep_(strand_)
    , housekeeping_(strand_) {}

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
                count_rooms();
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
    count_rooms();
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
    count_rooms();
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
    if (!parsed_mode || *parsed_mode == GameMode::Random || *parsed_mode == GameMode::Imported) {
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
    // No colour chosen: the side that moves first (Black in American, White in the others), so
    // that the player, not the computer, makes the first move.
    std::string color = m.color.empty() ? (fen.front() == 'B' ? "black" : "white") : m.color;
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
        rec.rated             = m.rated && who.may_rate();
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
    if (svc_.options.max_open_games <= 0) {
        open_new(*room, rec, {{peer, who}}, created.dump());
        return;
    }
    // The cap counts the stored unfinished games the player sits in (a hot-seat game once).
    svc_.store.run([this, room = *room, rec, peer, who, ref = m.id, created = created.dump()](
                       Store& s) {
        int open = -1;  // -1: the store could not tell
        try {
            open = s.count_unfinished(who.player_id);
        } catch (const std::exception& e) {
            log_line("lobby", std::string("counting open games failed: ") + e.what());
        }
        post([this, room, rec, peer, who, ref, created, open] {
            if (open < 0) {
                peer->send_text(error_text(
                    "store_unavailable", "the game could not be saved just now; try again", ref));
                return;
            }
            if (open >= svc_.options.max_open_games) {
                peer->send_text(error_text(
                    "too_many_games",
                    "you have " + std::to_string(open) +
                        " unfinished games; finish or resign one before you start another",
                    ref));
                return;
            }
            open_created(room, rec, peer, who, created);
        });
    });
}

void Lobby::open_created(const std::shared_ptr<Room>& room,
                         const GameRecord& rec,
                         const std::shared_ptr<Peer>& peer,
                         const Identity& who,
                         std::string created) {
    if (closed_) {
        peer->send_text(error_text("shutting_down", "the server is shutting down", std::nullopt));
        return;
    }
    open_new(room, rec, {{peer, who}}, std::move(created));
}

void Lobby::join(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (m.invite.empty()) {
        peer->send_text(error_text("bad_message", "join needs the invite token ('invite')", m.id));
        return;
    }
    const auto h  = hash_secret(m.invite);
    const auto it = invites_.find(h);
    if (it != invites_.end()) {
        if (svc_.clock.now_ms() > it->second.expires_ms) {
            peer->send_text(
                error_text("invite_expired",
                           "this invitation link has expired (links are valid 24 hours)",
                           m.id));
            return;
        }
        if (const auto room = rooms_.find(it->second.game); room != rooms_.end()) {
            join_room(room->second, m, who, peer);
            return;
        }
    }
    // The game is not in memory (idle, or not loaded since start-up): the invite names it
    // ("<game>-<secret>"); loading it registers its invite again.
    const std::string game =
        it != invites_.end() ? it->second.game : m.invite.substr(0, m.invite.find('-'));
    with_room(game, [this, m, who, peer, h](std::shared_ptr<Room> room) {
        const auto again = invites_.find(h);
        if (!room) {
            peer->send_text(
                error_text("invite_invalid", "this invitation link is not valid", m.id));
            return;
        }
        if (again != invites_.end() && svc_.clock.now_ms() > again->second.expires_ms) {
            peer->send_text(
                error_text("invite_expired",
                           "this invitation link has expired (links are valid 24 hours)",
                           m.id));
            return;
        }
        join_room(room, m, who, peer);  // the room checks the invite against its record
    });
}

// The friend who opens a link names the seat: a guest's `name` with the join wins over the
// hello's nickname (cleaned the same way); a signed-in player is always their username.
namespace {
Identity seated_identity(const ClientMessage& m, const Identity& who) {
    Identity seated = who;
    if (!who.user_id && !m.name.empty()) {
        seated.name = clean_nickname(m.name);
    }
    return seated;
}
}  // namespace

void Lobby::join_room(const std::shared_ptr<Room>& room,
                      const ClientMessage& m,
                      const Identity& who,
                      const std::shared_ptr<Peer>& peer) {
    on_room(
        room,
        [room, peer, seated = seated_identity(m, who), h = hash_secret(m.invite), ref = m.id] {
            room->join(peer, seated, h, ref);
        },
        [this, m, who, peer] { join(m, who, peer); });
}

void Lobby::on_room(const std::shared_ptr<Room>& room,
                    std::function<void()> fn,
                    std::function<void()> again) {
    room->post([this, room, fn = std::move(fn), again = std::move(again)]() mutable {
        if (room->unloaded()) {
            post(std::move(again));
            return;
        }
        room->touch();
        fn();
    });
}

void Lobby::dispatch(const ClientMessage& m,
                     const Identity& who,
                     const std::shared_ptr<Peer>& peer) {
    if (m.type == MessageType::Join) {
        join(m, who, peer);
        return;
    }
    with_room(m.game, [this, m, who, peer](std::shared_ptr<Room> room) {
        if (!room) {
            peer->send_text(error_text("unknown_game", "there is no game '" + m.game + "'", m.id));
            return;
        }
        on_room(
            room,
            [room, m, who, peer] {
                if (m.type == MessageType::Resume) {
                    room->resume(peer, who, m.last_version, m.id);
                } else {
                    room->handle(m, who, peer);
                }
            },
            [this, m, who, peer] { dispatch(m, who, peer); });
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
    const auto& r = *room;
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
    count_rooms();
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
    const auto abandon_ms = svc_.options.abandon_after_ms;
    svc_.store.run([this, id, abandon_ms, fn = std::move(fn)](Store& s) mutable {
        auto rec = s.load_game(id);
        if (rec && abandon_if_stale(*rec, svc_.clock.now_ms(), abandon_ms)) {
            try {
                s.update_game(*rec);
                log_line("lobby", "game " + id + " abandoned (untouched too long)");
            } catch (const std::exception& e) {
                log_line("lobby", "game " + id + ": abandoning it failed: " + e.what());
                rec.reset();  // not served in a state the store does not have
            }
        }
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

void Lobby::start_housekeeping() {
    if (closed_) {
        return;
    }
    // Often enough that a room stays at most half as long again as --idle-unload; at most a
    // minute apart.
    const auto idle     = svc_.options.idle_unload_ms;
    const auto interval = std::clamp<std::int64_t>(idle > 0 ? idle / 2 : 60'000, 100, 60'000);
    housekeeping_.expires_after(std::chrono::milliseconds(interval));
    housekeeping_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || closed_) {
            return;
        }
        housekeeping();
        start_housekeeping();
    });
}

void Lobby::housekeeping() {
    const auto now = svc_.clock.now_ms();
    if (const auto idle = svc_.options.idle_unload_ms; idle > 0) {
        for (const auto& [id, room] : rooms_) {
            room->post([this, room = room, now, idle] {
                if (room->unload_if_idle(now, idle)) {
                    post([this, room] { unloaded(room->id(), room); });
                }
            });
        }
    }
    const auto abandon = svc_.options.abandon_after_ms;
    if (abandon <= 0 || now < next_abandon_sweep_ms_) {
        return;
    }
    // Stored games only: a room in memory is skipped (it is in use, or leaves memory idle
    // first); a game loaded meanwhile was checked by with_room itself.
    next_abandon_sweep_ms_ = now + std::clamp<std::int64_t>(abandon / 4, 100, 3'600'000);
    std::vector<std::string> in_memory;
    in_memory.reserve(rooms_.size());
    for (const auto& [id, room] : rooms_) {
        in_memory.push_back(id);
    }
    const bool alone = svc_.placement == nullptr;
    svc_.store.run([now, abandon, alone, in_memory = std::move(in_memory)](Store& s) {
        int ended = 0;
        for_each_unfinished(s, now - abandon, [&](GameRecord& rec) {
            if (std::find(in_memory.begin(), in_memory.end(), rec.id) != in_memory.end() ||
                (!alone && s.game_owner(rec.id, now))) {
                return;  // in memory here, or held by a live node
            }
            if (abandon_if_stale(rec, now, abandon)) {
                s.update_game(rec);
                ++ended;
            }
        });
        if (ended > 0) {
            log_line("lobby", std::to_string(ended) + " games abandoned (untouched too long)");
        }
    });
}

void Lobby::unloaded(const std::string& id, const std::shared_ptr<Room>& room) {
    const auto it = rooms_.find(id);
    if (it == rooms_.end() || it->second != room) {
        return;
    }
    rooms_.erase(it);
    count_rooms();
    if (svc_.placement != nullptr) {
        svc_.placement->room_closed(id);
    }
}

void Lobby::shutdown() {
    closed_ = true;
    sweep_.cancel();
    housekeeping_.cancel();
    for (auto& s : seeks_) {
        if (s.timer) {
            s.timer->cancel();
        }
    }
    seeks_.clear();
    for (auto& entry : rooms_) {
        // a named copy: clang 14 (the lint) cannot capture a structured binding (C++20, P1091)
        auto room = entry.second;
        room->post([room] { room->shutdown(); });
    }
}

}  // namespace papan::server
