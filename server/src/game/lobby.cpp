#include "game/lobby.hpp"

#include "game/lifecycle.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"
#include "support/memory.hpp"
#include "support/text.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/tokens.hpp>
#include <papan/server/wire/names.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <array>
#include <chrono>

namespace papan::server {

namespace {

constexpr std::int64_t kDefaultInviteTtlMs = 24LL * 3600 * 1000;

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
                left_memory_ += rooms_.erase(game);
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
                     Room::Peers peers,
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

void Lobby::send(const std::shared_ptr<Peer>& peer, std::string text) const {
    peer->send(std::make_shared<const std::string>(std::move(text)));
}

void Lobby::send_error(const std::shared_ptr<Peer>& peer,
                       ErrorCode code,
                       std::string_view message,
                       Ref ref) const {
    send(peer, svc_.messages.error(code, message, ref));
}

void Lobby::create(const CreateRequest& c,
                   const Identity& who,
                   const std::shared_ptr<Peer>& peer,
                   Ref ref) {
    if (closed_) {
        send_error(peer, ErrorCode::ShuttingDown, "the server is shutting down", ref);
        return;
    }
    if (auto err = core::validate_game_options(c.variant, c.options)) {
        send_error(peer, ErrorCode::BadOptions, err->message, ref);
        return;
    }
    const auto& rules = core::rules(c.variant);
    std::string fen   = std::string(rules.start_fen);
    if (!c.fen.empty()) {
        auto pos = core::parse_fen(c.variant, c.fen);
        if (!pos) {
            send_error(peer, ErrorCode::BadFen, pos.error(), ref);
            return;
        }
        auto g = core::Game::create(*pos, c.options);
        if (!g) {
            send_error(peer, ErrorCode::BadFen, g.error(), ref);
            return;
        }
        if (g->is_over()) {
            send_error(peer,
                       ErrorCode::BadFen,
                       "the game would be over at once: " + g->result_text(),
                       ref);
            return;
        }
        fen = core::to_fen(*pos);
    }
    // No colour chosen: the side that moves first (Black in American, White in the others), so
    // that the player, not the computer, makes the first move.
    core::Color color = fen.front() == 'B' ? core::Color::Black : core::Color::White;
    if (c.random_color) {
        color = random_hex(1)[0] < '8' ? core::Color::White : core::Color::Black;
    } else if (c.color) {
        color = *c.color;
    }
    const auto now = svc_.clock.now_ms();
    GameRecord rec;
    rec.id             = new_game_id();
    rec.variant        = std::string(rules.key);
    rec.mode           = c.mode;
    rec.level          = c.mode == GameMode::Computer ? c.level : Level::None;
    rec.forced_capture = c.options.forced_capture;
    rec.draw_rules     = c.options.draw_rules;
    rec.start_fen      = fen;
    if (c.mode == GameMode::Friend) {
        rec.time_control = c.clock.value_or(default_time_control());
    }
    rec.created_ms         = now;
    rec.updated_ms         = now;
    const std::size_t mine = static_cast<std::size_t>(core::index(color));
    rec.seats[mine]        = SeatRecord{who.player_id, who.name, false, who.user_id};
    std::string invite;
    if (c.mode == GameMode::Computer) {
        rec.seats[1 - mine] = SeatRecord{
            "ai", "Computer (" + std::string(wire::name(rec.level)) + ")", true, std::nullopt};
        rec.status = GameStatus::Playing;
    } else if (c.mode == GameMode::Hotseat) {
        rec.seats[1 - mine] = rec.seats[mine];
        rec.status          = GameStatus::Playing;
    } else {
        // The invite names its game, so any node can send the player to the game's node.
        invite                = rec.id + "-" + random_token();
        rec.invite_hash       = hash_secret(invite);
        rec.invite_expires_ms = now + (svc_.settings.invite_ttl_ms > 0 ? svc_.settings.invite_ttl_ms
                                                                       : kDefaultInviteTtlMs);
        rec.status            = GameStatus::Waiting;
        rec.rated             = c.rated && who.may_rate();
    }
    auto room = Room::from_record(svc_, rec);
    if (!room) {
        send_error(peer, ErrorCode::BadOptions, room.error(), ref);
        return;
    }
    std::string created = svc_.messages.created(rec, invite, ref);
    if (svc_.settings.max_open_games <= 0) {
        open_new(*room, rec, {{peer, who}}, std::move(created));
        return;
    }
    // The cap counts the stored unfinished games the player sits in (a hot-seat game once).
    svc_.store.run([this, room = *room, rec, peer, who, ref, created = std::move(created)](
                       Store& s) {
        int open = -1;  // -1: the store could not tell
        try {
            open = s.count_unfinished(who.player_id);
        } catch (const std::exception& e) {
            log_line("lobby", std::string("counting open games failed: ") + e.what());
        }
        post([this, room, rec, peer, who, ref, created, open] {
            if (open < 0) {
                send_error(peer,
                           ErrorCode::StoreUnavailable,
                           "the game could not be saved just now; try again",
                           ref);
                return;
            }
            if (open >= svc_.settings.max_open_games) {
                send_error(peer,
                           ErrorCode::TooManyGames,
                           "you have " + std::to_string(open) +
                               " unfinished games; finish or resign one before you start another",
                           ref);
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
        send_error(peer, ErrorCode::ShuttingDown, "the server is shutting down", std::nullopt);
        return;
    }
    open_new(room, rec, {{peer, who}}, std::move(created));
}

void Lobby::join(const GameRequest& r,
                 const JoinRequest& j,
                 const Identity& who,
                 const std::shared_ptr<Peer>& peer) {
    const auto it = invites_.find(j.invite_hash);
    if (it != invites_.end()) {
        if (svc_.clock.now_ms() > it->second.expires_ms) {
            send_error(peer,
                       ErrorCode::InviteExpired,
                       "this invitation link has expired (links are valid 24 hours)",
                       r.ref);
            return;
        }
        if (const auto room = rooms_.find(it->second.game); room != rooms_.end()) {
            join_room(room->second, r, j, who, peer);
            return;
        }
    }
    // The game is not in memory (idle, or not loaded since start-up): the invite names it
    // ("<game>-<secret>"); loading it registers its invite again.
    const std::string game = it != invites_.end() ? it->second.game : j.game;
    with_room(game, [this, r, j, who, peer](std::shared_ptr<Room> room) {
        if (!room) {
            send_error(peer, ErrorCode::InviteInvalid, "this invitation link is not valid", r.ref);
            return;
        }
        if (const auto again = invites_.find(j.invite_hash);
            again != invites_.end() && svc_.clock.now_ms() > again->second.expires_ms) {
            send_error(peer,
                       ErrorCode::InviteExpired,
                       "this invitation link has expired (links are valid 24 hours)",
                       r.ref);
            return;
        }
        join_room(room, r, j, who, peer);  // the room checks the invite against its record
    });
}

void Lobby::join_room(const std::shared_ptr<Room>& room,
                      const GameRequest& r,
                      const JoinRequest& j,
                      const Identity& who,
                      const std::shared_ptr<Peer>& peer) {
    // The friend who opens a link names the seat: a guest's `name` with the join wins over the
    // hello's nickname; a signed-in player is always their username.
    Identity seated = who;
    if (!who.user_id && !j.name.empty()) {
        seated.name = j.name;
    }
    on_room(
        room,
        [room, peer, seated, h = j.invite_hash, ref = r.ref] { room->join(peer, seated, h, ref); },
        [this, r, j, who, peer] { join(r, j, who, peer); });
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

void Lobby::dispatch(const GameRequest& r, const Identity& who, const std::shared_ptr<Peer>& peer) {
    if (const auto* j = std::get_if<JoinRequest>(&r.what)) {
        join(r, *j, who, peer);
        return;
    }
    with_room(r.game, [this, r, who, peer](std::shared_ptr<Room> room) {
        if (!room) {
            send_error(peer, ErrorCode::UnknownGame, "there is no game '" + r.game + "'", r.ref);
            return;
        }
        on_room(
            room,
            [room, r, who, peer] {
                if (const auto* resume = std::get_if<ResumeRequest>(&r.what)) {
                    room->resume(peer, who, resume->last_version, r.ref);
                } else if (const auto* c = std::get_if<GameCommand>(&r.what)) {
                    room->handle(*c, who, peer, r.ref);
                }
            },
            [this, r, who, peer] { dispatch(r, who, peer); });
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
    const auto abandon_ms = svc_.settings.abandon_after_ms;
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
                        const Room::Peers& peers,
                        std::function<void(const std::string&)> done) {
    const auto now = svc_.clock.now_ms();
    rec.id         = new_game_id();
    rec.created_ms = now;
    rec.updated_ms = now;
    rec.clocks.reset();
    auto room = Room::from_record(svc_, rec);
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
    const auto idle     = svc_.settings.idle_unload_ms;
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
    if (left_memory_ > 0) {
        // Rooms left since the last pass: their heap goes back to the system (glibc would keep
        // it for good). On this pass and the next few: a room's last owners (its strand's
        // handlers, a write in flight, its sessions' closing) may free it a while after it left.
        left_memory_    = 0;
        hand_backs_due_ = 4;
    }
    if (hand_backs_due_ > 0) {
        --hand_backs_due_;
        hand_back_free_memory();
    }
    if (const auto idle = svc_.settings.idle_unload_ms; idle > 0) {
        for (const auto& [id, room] : rooms_) {
            room->post([this, room = room, now, idle] {
                if (room->unload_if_idle(now, idle)) {
                    post([this, room] { unloaded(room->id(), room); });
                }
            });
        }
    }
    const auto abandon = svc_.settings.abandon_after_ms;
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
    ++left_memory_;
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
