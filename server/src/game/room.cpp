// Room: construction from a record, the life cycle, subscribers, and the change protocol
// (snapshot, store, then announce or roll back).
#include "game/room.hpp"

#include "game/game_json.hpp"
#include "game/lobby.hpp"
#include "game/messages.hpp"
#include "game/placement.hpp"
#include "game/state_delta.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/core/notation/fen.hpp>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <utility>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::size_t kRecentEvents   = 64;
constexpr auto kRetryAfterFailedWrite = std::chrono::seconds(1);

}  // namespace

core::Expected<std::shared_ptr<Room>> Room::from_record(Services& services, GameRecord rec) {
    const auto v = core::variant_from_key(rec.variant);
    if (!v) {
        return core::Error{"unknown variant '" + rec.variant + "'"};
    }
    auto pos = core::parse_fen(*v, rec.start_fen);
    if (!pos) {
        return core::Error{"bad start position: " + pos.error()};
    }
    core::GameOptions opts;
    opts.forced_capture = rec.forced_capture;
    opts.draw_rules     = static_cast<core::DrawRuleSet>(rec.draw_rules);
    auto game           = core::Game::create(*pos, opts);
    if (!game) {
        return core::Error{game.error()};
    }
    core::Game g = std::move(game).value();
    std::vector<std::int64_t> times;
    for (const auto& m : rec.moves) {
        auto r = g.play(m.text);
        if (!r) {
            return core::Error{"game " + rec.id + ": stored move " + std::to_string(m.ply) + " '" +
                               m.text + "' does not replay: " + r.error()};
        }
        times.push_back(m.at_ms);
    }
    // Non-move endings are recorded by outcome + reason.
    if (rec.status == GameStatus::Over && !g.is_over()) {
        const auto loser = rec.outcome == "white_wins" ? core::Color::Black : core::Color::White;
        if (rec.reason == "resignation") {
            (void)g.resign(loser);
        } else if (rec.reason == "agreement") {
            (void)g.agree_draw();
        } else if (rec.reason.rfind("timeout", 0) == 0) {
            // The flagged side: the loser, or for a timeout draw the side that was to move.
            (void)g.flag(rec.outcome == "draw" ? g.side_to_move() : loser);
        } else if (rec.reason == "repetition" || rec.reason == "insufficient_material") {
            (void)g.claim_draw();
        }
    }
    rec.moves.clear();
    std::deque<ChatRecord> chat(rec.chat.begin(), rec.chat.end());
    rec.chat.clear();
    Json ratings = rec.status == GameStatus::Over ? stored_ratings(rec) : Json();
    rec.rating_changes.clear();
    auto room             = std::make_shared<Room>(services, std::move(rec), std::move(g));
    room->move_times_     = std::move(times);
    room->chat_           = std::move(chat);
    room->result_ratings_ = std::move(ratings);
    return room;
}

Room::Room(Services& services, GameRecord rec, core::Game game)
    : svc_(services)
    , id_(rec.id)
    , strand_(net::make_strand(services.ioc))
    , timer_(strand_)
    , presence_timer_(strand_)
    , retry_timer_(strand_)
    , rec_(std::move(rec))
    , game_(std::move(game)) {
    version_          = rec_.version;
    turn_started_ms_  = services.clock.now_ms();  // a new game's clock starts now
    last_activity_ms_ = turn_started_ms_;
    tc_               = time_control_from_json(Json::parse(rec_.time_control, nullptr, false));
    const Json c      = Json::parse(rec_.clocks, nullptr, false);
    if (tc_.enabled()) {
        clocks_[0] = initial_clock(tc_);
        clocks_[1] = initial_clock(tc_);
        if (c.is_object() && c.contains("white") && c.contains("black")) {
            clocks_[0] = {c["white"].value("main_ms", tc_.main_ms), c["white"].value("periods", 0)};
            clocks_[1] = {c["black"].value("main_ms", tc_.main_ms), c["black"].value("periods", 0)};
            turn_started_ms_ = c.value("turn_started_ms", turn_started_ms_);
        }
    }
}

void Room::post(std::function<void()> fn) {
    net::post(strand_, [id = id_, fn = std::move(fn)] {
        try {
            fn();
        } catch (const std::exception& e) {
            log_line("room " + id, std::string("internal error (job dropped): ") + e.what());
        }
    });
}

bool Room::is_computer(core::Color c) const {
    return rec_.seats[static_cast<std::size_t>(core::index(c))].computer;
}

bool Room::owns(const Identity& who, core::Color c) const {
    return who.known() &&
           rec_.seats[static_cast<std::size_t>(core::index(c))].player_id == who.player_id;
}

std::optional<core::Color> Room::owned_color(const Identity& who) const {
    if (owns(who, core::Color::White)) {
        return core::Color::White;
    }
    if (owns(who, core::Color::Black)) {
        return core::Color::Black;
    }
    return std::nullopt;
}

PlayerClock& Room::clock_of(core::Color c) {
    return clocks_[static_cast<std::size_t>(core::index(c))];
}

std::int64_t Room::elapsed_ms() const {
    return std::max<std::int64_t>(0, svc_.clock.now_ms() - turn_started_ms_);
}

bool Room::timed_play() const {
    return tc_.enabled() && rec_.status == GameStatus::Playing && !game_.is_over();
}

bool Room::has_moved(core::Color c) const {
    const auto plies = game_.moves().size();
    return plies >= 2 || (plies == 1 && game_.start_position().side == c);
}

bool Room::first_moves_made() const {
    return game_.moves().size() >= 2;
}

bool Room::clock_running() const {
    return timed_play() && first_moves_made();
}

bool Room::awaiting_first_move() const {
    return timed_play() && !first_moves_made() && !is_computer(game_.side_to_move()) &&
           svc_.options.first_move_timeout_ms > 0;
}

bool Room::first_move_overdue() const {
    return awaiting_first_move() && elapsed_ms() >= svc_.options.first_move_timeout_ms;
}

GameRecord Room::next_header() const {
    GameRecord h = header();
    h.version    = version_ + 1;  // commit() numbers the event being stored with it
    return h;
}

GameRecord Room::header() const {
    GameRecord h = rec_;
    h.version    = version_;
    h.clocks     = clock_state_json(clocks_, turn_started_ms_).dump();
    h.updated_ms = svc_.clock.now_ms();
    return h;
}

void Room::update_status() {
    if (game_.is_over()) {
        const auto& r    = game_.result();
        rec_.status      = GameStatus::Over;
        rec_.outcome     = std::string(outcome_key(r.outcome));
        rec_.reason      = std::string(reason_key(r.reason));
        rec_.result_text = game_.result_text();
    } else if (rec_.status == GameStatus::Over) {
        rec_.status = GameStatus::Playing;
        rec_.outcome.clear();
        rec_.reason.clear();
        rec_.result_text.clear();
    }
}

void Room::send_error(const std::shared_ptr<Peer>& peer,
                      std::string_view code,
                      std::string message,
                      std::optional<std::int64_t> ref) const {
    if (peer) {
        peer->send_game(std::make_shared<const std::string>(error_text(code, message, ref)), id_);
    }
}

void Room::subscribe(const std::shared_ptr<Peer>& peer, const Identity& who) {
    if (!peer) {
        return;
    }
    std::erase_if(subscribers_, [&](const Subscriber& s) {
        auto p = s.peer.lock();
        return !p || p == peer;
    });
    subscribers_.push_back(Subscriber{peer, who.player_id});
    touch();
    check_presence();  // a player back is told at once; a newcomer learns who is away
    if (!present_[0] || !present_[1]) {
        peer->send_game(std::make_shared<const std::string>(presence_message()), id_);
    }
}

void Room::touch() {
    last_activity_ms_ = svc_.clock.now_ms();
}

bool Room::unload_if_idle(std::int64_t now_ms, std::int64_t idle_ms) {
    if (closed_ || writing_ || !deferred_.empty() || ai_thinking_ || timed_play() ||
        now_ms - last_activity_ms_ < idle_ms || !live_subscribers().empty()) {
        return false;
    }
    if (rec_.status == GameStatus::Playing && !game_.is_over() &&
        is_computer(game_.side_to_move())) {
        return false;  // the computer's move is due (a retry after a failed write)
    }
    unloaded_ = true;
    shutdown();
    return true;
}

std::vector<std::shared_ptr<Peer>> Room::live_subscribers() const {
    std::vector<std::shared_ptr<Peer>> to;
    for (const auto& s : subscribers_) {
        if (auto p = s.peer.lock()) {
            to.push_back(std::move(p));
        }
    }
    return to;
}

// ---- the change protocol ----------------------------------------------------------------------

void Room::begin_change() {
    snapshot_ = Snapshot{rec_,
                         game_,
                         move_times_,
                         clocks_,
                         turn_started_ms_,
                         version_,
                         draw_offer_,
                         takeback_offer_,
                         rematch_wanted_,
                         rematch_game_,
                         chat_,
                         chat_times_};
}

void Room::restore() {
    if (!snapshot_) {
        return;
    }
    auto& s          = *snapshot_;
    rec_             = std::move(s.rec);
    game_            = std::move(s.game);
    move_times_      = std::move(s.move_times);
    clocks_          = s.clocks;
    turn_started_ms_ = s.turn_started_ms;
    version_         = s.version;
    draw_offer_      = s.draw_offer;
    takeback_offer_  = s.takeback_offer;
    rematch_wanted_  = s.rematch_wanted;
    rematch_game_    = std::move(s.rematch_game);
    chat_            = std::move(s.chat);
    chat_times_      = std::move(s.chat_times);
    snapshot_.reset();
    ++ai_epoch_;  // a search started for the rolled-back position must not play
    ai_thinking_ = false;
}

void Room::commit(Json event, StoreOp op, Origin origin, std::function<void()> after) {
    commit(std::move(event), StoreWrite{std::move(op), nullptr}, origin, std::move(after));
}

void Room::commit(Json event, StoreWrite write, Origin origin, std::function<void()> after) {
    ++version_;
    auto next                = std::make_shared<Json>(event_state_json());
    writing_                 = true;
    std::weak_ptr<Room> weak = shared_from_this();
    svc_.store.run([weak,
                    id      = id_,
                    op      = std::move(write.op),
                    event   = std::move(event),
                    next    = std::move(next),
                    ratings = std::move(write.ratings),
                    origin,
                    after](Store& store) mutable {
        bool ok = true;
        try {
            op(store);
        } catch (const std::exception& e) {
            ok = false;
            log_line("room " + id, std::string("store write failed: ") + e.what());
        }
        if (auto self = weak.lock()) {
            self->post([self,
                        ok,
                        event   = std::move(event),
                        next    = std::move(next),
                        ratings = std::move(ratings),
                        origin,
                        after]() mutable {
                if (ok && ratings && !ratings->is_null()) {
                    // The ratings are known only once stored: the ending's result gains them.
                    self->result_ratings_        = *ratings;
                    (*next)["result"]["ratings"] = *ratings;
                }
                self->committed(ok, std::move(event), std::move(*next), origin, after);
            });
        }
    });
}

std::shared_ptr<const std::string> Room::event_message(Json event, Json next) {
    const std::string kind = event.value("kind", "");
    Json msg{{"type", "event"}, {"game", id_}, {"version", version_}, {"event", std::move(event)}};
    // The friend who just sat down has no state yet: a start event carries it whole.
    if (sent_state_.is_object() && kind != "start") {
        Json delta = state_delta(sent_state_, next);
        if (kind == "chat") {
            // The line just stored is the chat's last: no other change runs while one is written.
            delta["chat_add"] = Json::array({last_chat_line_json()});
        }
        msg["delta"] = std::move(delta);
    } else {
        add_chat(next);
        msg["state"] = next;
    }
    sent_state_ = std::move(next);
    return std::make_shared<const std::string>(msg.dump());
}

void Room::committed(
    bool ok, Json event, Json next, const Origin& origin, const std::function<void()>& after) {
    writing_ = false;
    touch();
    if (!ok) {
        restore();
        send_error(origin.peer.lock(),
                   "store_unavailable",
                   "the game could not be saved just now; nothing was changed, send it again",
                   origin.ref);
        retry_later();
        run_deferred();
        return;
    }
    const bool ended = rec_.status == GameStatus::Over &&
                       (!snapshot_ || snapshot_->rec.status != GameStatus::Over);
    snapshot_.reset();
    const auto text = event_message(std::move(event), std::move(next));
    recent_.emplace_back(version_, text);
    if (recent_.size() > kRecentEvents) {
        recent_.pop_front();
    }
    for (const auto& p : live_subscribers()) {
        p->send_game(text, id_);
    }
    if (ended) {
        timer_.cancel();
        if (svc_.lobby != nullptr) {
            svc_.lobby->post([lobby = svc_.lobby, id = id_] { lobby->retire_later(id); });
        }
    }
    if (after && !closed_) {
        after();
    }
    run_deferred();
}

bool Room::defer_while_writing(std::function<void()> fn) {
    if (!writing_) {
        return false;
    }
    deferred_.push_back(std::move(fn));
    return true;
}

void Room::run_deferred() {
    while (!writing_ && !deferred_.empty()) {
        auto fn = std::move(deferred_.front());
        deferred_.pop_front();
        fn();
    }
}

void Room::guarded(const Origin& origin, const std::function<void()>& fn) {
    try {
        fn();
    } catch (const std::exception& e) {
        log_line("room " + id_, std::string("internal error: ") + e.what());
        if (!writing_) {
            restore();
        }
        send_error(origin.peer.lock(), "internal", "the server could not do that", origin.ref);
    }
}

void Room::retry_later() {
    // A failed write of the computer's move or of a flag: try again in a moment, not at once
    // (the store may be down for a while).
    retry_timer_.expires_after(kRetryAfterFailedWrite);
    std::weak_ptr<Room> weak = shared_from_this();
    retry_timer_.async_wait([weak](const boost::system::error_code& ec) {
        if (ec) {
            return;
        }
        if (auto self = weak.lock()) {
            self->guarded({}, [&] { self->start(); });
        }
    });
}

// ---- life cycle -------------------------------------------------------------------------------

void Room::create_and_announce(std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers,
                               std::string first,
                               std::function<void()> on_failed,
                               std::function<void()> on_stored) {
    for (const auto& [peer, who] : peers) {
        subscribe(peer, who);
    }
    const GameRecord h = header();
    std::vector<std::shared_ptr<Peer>> to;
    for (const auto& pw : peers) {
        if (pw.first) {
            to.push_back(pw.first);
        }
    }
    const Origin origin{to.empty() ? std::weak_ptr<Peer>{} : to.front(), std::nullopt};
    sent_state_ = state_json();
    auto state  = std::make_shared<const std::string>(state_message(sent_state_, std::nullopt));
    GamePlacement* placement = svc_.placement;
    const auto now           = svc_.clock.now_ms();
    writing_                 = true;
    std::weak_ptr<Room> weak = shared_from_this();
    svc_.store.run([weak,
                    h,
                    placement,
                    now,
                    to,
                    state,
                    first = std::move(first),
                    origin,
                    on_failed = std::move(on_failed),
                    on_stored = std::move(on_stored)](Store& store) {
        bool ok = true;
        try {
            store.transaction([&] {
                store.insert_game(h);
                if (placement != nullptr) {
                    placement->claim_new(store, h.id, now);  // the new game is this node's
                }
            });
        } catch (const std::exception& e) {
            ok = false;
            log_line("room " + h.id, std::string("store write failed: ") + e.what());
        }
        auto self = weak.lock();
        if (!self) {
            return;
        }
        self->post([self, ok, to, state, first, origin, on_failed, on_stored] {
            self->writing_ = false;
            if (!ok) {
                self->closed_ = true;
                self->subscribers_.clear();
                self->deferred_.clear();
                self->send_error(origin.peer.lock(),
                                 "store_unavailable",
                                 "the game could not be saved just now; try again",
                                 std::nullopt);
                if (on_failed) {
                    on_failed();
                }
                return;
            }
            for (std::size_t i = 0; i < to.size(); ++i) {
                if (i == 0 && !first.empty()) {
                    to[i]->send_text(first);
                }
                to[i]->send_game(state, self->id_);
            }
            if (on_stored) {
                on_stored();
            }
            self->start();
            self->run_deferred();
        });
    });
}

void Room::start() {
    if (closed_ || rec_.status != GameStatus::Playing || game_.is_over()) {
        return;
    }
    arm_timer();
    arm_presence();
    schedule_ai();
}

void Room::shutdown() {
    closed_ = true;
    timer_.cancel();
    presence_timer_.cancel();
    retry_timer_.cancel();
    ++ai_epoch_;
}

void Room::refresh_subscribers() {
    if (closed_) {
        return;
    }
    if (defer_while_writing([self = shared_from_this()] { self->refresh_subscribers(); })) {
        return;
    }
    sent_state_     = state_json();
    const auto text = std::make_shared<const std::string>(state_message(sent_state_, std::nullopt));
    for (const auto& p : live_subscribers()) {
        p->send_game(text, id_);
    }
}

void Room::resume(const std::shared_ptr<Peer>& peer,
                  const Identity& who,
                  std::optional<std::int64_t> last_version,
                  std::optional<std::int64_t> ref) {
    if (defer_while_writing([self = shared_from_this(), peer, who, last_version, ref] {
            self->resume(peer, who, last_version, ref);
        })) {
        return;
    }
    guarded({peer, ref}, [&] {
        subscribe(peer, who);
        if (last_version && *last_version == version_) {
            Json j{{"type", "resumed"}, {"game", id_}, {"version", version_}};
            if (ref) {
                j["ref"] = *ref;
            }
            peer->send_game(std::make_shared<const std::string>(j.dump()), id_);
            return;
        }
        if (last_version && *last_version < version_ && !recent_.empty() &&
            recent_.front().first <= *last_version + 1) {
            for (const auto& [ver, text] : recent_) {
                if (ver > *last_version) {
                    peer->send_game(text, id_);
                }
            }
            return;
        }
        peer->send_game(std::make_shared<const std::string>(state_message(ref)), id_);
    });
}

void Room::join(const std::shared_ptr<Peer>& peer,
                const Identity& who,
                const std::string& invite_hash,
                std::optional<std::int64_t> ref) {
    if (defer_while_writing([self = shared_from_this(), peer, who, invite_hash, ref] {
            self->join(peer, who, invite_hash, ref);
        })) {
        return;
    }
    if (owned_color(who)) {
        resume(peer, who, std::nullopt, ref);  // the creator opened their own link, or a rejoin
        return;
    }
    if (rec_.status != GameStatus::Waiting || rec_.invite_hash != invite_hash) {
        send_error(peer, "invite_used", "this game has already started with someone else", ref);
        return;
    }
    guarded({peer, ref}, [&] {
        begin_change();
        const auto free = rec_.seats[0].player_id.empty() ? core::Color::White : core::Color::Black;
        auto& seat      = rec_.seats[static_cast<std::size_t>(core::index(free))];
        seat            = SeatRecord{who.player_id, who.name, false, who.user_id};
        if (rec_.rated && !(rec_.seats[0].user_id && rec_.seats[1].user_id && who.may_rate())) {
            rec_.rated = false;  // rated only between two signed-in players the rule admits
        }
        rec_.status = GameStatus::Playing;
        rec_.invite_hash.clear();
        turn_started_ms_ = svc_.clock.now_ms();
        subscribe(peer, who);
        const GameRecord h = next_header();
        commit(
            Json{{"kind", "start"}, {"joined", color_key(free)}},
            [h](Store& s) { s.update_game(h); },
            {peer, ref},
            [this] { start(); });
    });
}

}  // namespace papan::server
