// Room: the life cycle, subscribers, and the change protocol (a copy of the session, its write,
// then the announcement, or the copy dropped).
#include "game/room.hpp"

#include "game/lobby.hpp"
#include "game/message_writer.hpp"
#include "game/placement.hpp"
#include "game/results.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>
#include <utility>

namespace papan::server {

namespace {

// Events kept for a resume with a recent `last_version` (older ones get the whole state).
constexpr std::size_t kRecentEvents   = 16;
constexpr auto kRetryAfterFailedWrite = std::chrono::seconds(1);

const Refusal kStoreUnavailable{
    ErrorCode::StoreUnavailable,
    "the game could not be saved just now; nothing was changed, send it again"};

// A change whose position or ending makes a search the computer started meaningless.
bool stops_the_computer(const Change& c) {
    switch (c.event.kind) {
    case EventKind::Undo:
    case EventKind::Resign:
    case EventKind::DrawAgreed:
    case EventKind::DrawClaimed:
    case EventKind::Flag:
    case EventKind::Abort:
        return true;
    case EventKind::Start:
    case EventKind::Move:
    case EventKind::DrawOffer:
    case EventKind::DrawDecline:
    case EventKind::RematchOffer:
    case EventKind::TakebackOffer:
    case EventKind::TakebackDecline:
    case EventKind::Rematch:
    case EventKind::Chat:
        return false;
    }
    return false;
}

// The store operation of a change, on data of its own (it runs on the store thread).
std::function<std::optional<Ratings>(Store&)>
store_op(GameRecord row, const StoreWrite& w, std::optional<ResultsWrite> results) {
    return [row = std::move(row), w, results = std::move(results)](Store& s) {
        std::optional<Ratings> ratings;
        s.transaction([&] {
            switch (w.kind) {
            case StoreWrite::Kind::None:
                break;
            case StoreWrite::Kind::Header:
                s.update_game(row);
                break;
            case StoreWrite::Kind::Move:
                s.append_move(row, w.move);
                break;
            case StoreWrite::Kind::TakeBack:
                s.truncate_moves(row, w.from_ply);
                break;
            case StoreWrite::Kind::Chat:
                s.append_chat(row, w.line);
                break;
            }
            if (results) {
                ratings = results->write(s);
            }
        });
        return ratings;
    };
}

}  // namespace

core::Expected<std::shared_ptr<Room>> Room::from_record(Services& services, GameRecord rec) {
    auto session = GameSession::from_record(std::move(rec), services.clock.now_ms());
    if (!session) {
        return core::Error{session.error()};
    }
    return std::make_shared<Room>(services, std::move(session).value());
}

Room::Room(Services& services, GameSession session)
    : svc_(services)
    , id_(session.id())
    , strand_(net::make_strand(services.ioc))
    , timer_(strand_)
    , presence_timer_(strand_)
    , retry_timer_(strand_)
    , session_(std::move(session))
    , last_activity_ms_(services.clock.now_ms()) {}

void Room::post(std::function<void()> fn) {
    net::post(strand_, [id = id_, fn = std::move(fn)] {
        try {
            fn();
        } catch (const std::exception& e) {
            log_line("room " + id, std::string("internal error (job dropped): ") + e.what());
        }
    });
}

void Room::send(const std::shared_ptr<Peer>& peer, std::string text) const {
    if (peer) {
        peer->send_game(std::make_shared<const std::string>(std::move(text)), id_);
    }
}

void Room::send_error(const std::shared_ptr<Peer>& peer, const Refusal& r, Ref ref) const {
    send(peer, svc_.messages.error(r.code, r.message, ref));
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
        send(peer, svc_.messages.presence(id_, present_));
    }
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

void Room::touch() {
    last_activity_ms_ = svc_.clock.now_ms();
}

bool Room::unload_if_idle(std::int64_t now_ms, std::int64_t idle_ms) {
    // A timed game being played keeps its clock (and its first-move abort) here; the computer
    // to move means a retry after a failed write is due.
    const bool timed = session_.clock.enabled() && session_.playing();
    if (closed_ || writing_ || !deferred_.empty() || ai_thinking_ || timed ||
        now_ms - last_activity_ms_ < idle_ms || !live_subscribers().empty() ||
        session_.computer_to_move()) {
        return false;
    }
    unloaded_ = true;
    shutdown();
    return true;
}

// ---- the change protocol ----------------------------------------------------------------------

GameSession& Room::begin() {
    pending_.emplace(session_);
    return *pending_;
}

void Room::decide(Decision d, const Origin& origin) {
    struct Visit {
        Room& room;
        const Origin& origin;

        void operator()(Refusal& r) const {
            room.pending_.reset();
            room.send_error(origin.peer.lock(), r, origin.ref);
        }

        void operator()(Change& c) const { room.commit(std::move(c), origin); }

        void operator()(SendState&) const {
            room.pending_.reset();
            room.send(
                origin.peer.lock(),
                room.svc_.messages.state(room.session_, room.svc_.clock.now_ms(), origin.ref));
        }

        void operator()(OpenRematch& o) const {
            // The wish is kept in memory only (it is not an event): the session takes it as is.
            room.session_ = std::move(*room.pending_);
            room.pending_.reset();
            room.open_rematch(std::move(o.record), origin);
        }
    };

    std::visit(Visit{*this, origin}, d);
}

void Room::commit(Change change, const Origin& origin) {
    if (change.reply) {
        send_error(origin.peer.lock(), *change.reply, origin.ref);
    }
    if (stops_the_computer(change) || pending_->game.is_over()) {
        ++ai_epoch_;  // a search of the position before must not play
        ai_thinking_ = false;
    }
    if (change.write.kind == StoreWrite::Kind::None) {
        committed(true, std::move(change), origin, std::nullopt);
        return;
    }
    const auto now = svc_.clock.now_ms();
    std::optional<ResultsWrite> results;
    if (change.write.results) {
        results = results_of(*pending_, svc_.settings, now);
    }
    auto op                  = store_op(pending_->record(now), change.write, std::move(results));
    auto ratings             = std::make_shared<std::optional<Ratings>>();
    writing_                 = true;
    std::weak_ptr<Room> weak = shared_from_this();
    svc_.store.write([op = std::move(op), ratings](Store& store) { *ratings = op(store); },
                     [weak, change = std::move(change), origin, ratings](bool ok) mutable {
                         if (auto self = weak.lock()) {
                             self->post(
                                 [self, ok, change = std::move(change), origin, ratings]() mutable {
                                     self->committed(ok, std::move(change), origin, *ratings);
                                 });
                         }
                     });
}

void Room::committed(bool ok, Change change, const Origin& origin, std::optional<Ratings> ratings) {
    writing_ = false;
    touch();
    if (!ok || !pending_) {
        pending_.reset();
        ++ai_epoch_;
        ai_thinking_ = false;
        send_error(origin.peer.lock(), kStoreUnavailable, origin.ref);
        retry_later();
        run_deferred();
        return;
    }
    const bool ended =
        pending_->header.status == GameStatus::Over && session_.header.status != GameStatus::Over;
    if (ratings) {
        pending_->ratings = ratings;  // known only once stored: the ending's result gains them
    }
    session_ = std::move(*pending_);
    pending_.reset();
    announce(change);
    if (ended) {
        timer_.cancel();
        if (svc_.lobby != nullptr) {
            svc_.lobby->post([lobby = svc_.lobby, id = id_] { lobby->retire_later(id); });
        }
    }
    if (change.restart && !closed_) {
        start();
    }
    run_deferred();
}

void Room::announce(const Change& change) {
    const auto text = std::make_shared<const std::string>(
        svc_.messages.event(session_, change.event, svc_.clock.now_ms()));
    recent_.emplace_back(session_.version(), text);
    if (recent_.size() > kRecentEvents) {
        recent_.pop_front();
    }
    for (const auto& p : live_subscribers()) {
        p->send_game(text, id_);
    }
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
            pending_.reset();
        }
        send_error(origin.peer.lock(),
                   Refusal{ErrorCode::Internal, "the server could not do that"},
                   origin.ref);
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

// ---- commands ---------------------------------------------------------------------------------

void Room::handle(const GameCommand& c,
                  const Identity& who,
                  const std::shared_ptr<Peer>& peer,
                  std::optional<std::int64_t> ref) {
    if (defer_while_writing(
            [self = shared_from_this(), c, who, peer, ref] { self->handle(c, who, peer, ref); })) {
        return;
    }
    if (closed_) {
        send_error(peer, Refusal{ErrorCode::ShuttingDown, "the server is shutting down"}, ref);
        return;
    }
    if (!session_.owned_color(who)) {
        send_error(
            peer, Refusal{ErrorCode::NotYourGame, "you are not a player of game " + id_}, ref);
        return;
    }
    const Origin origin{peer, ref};
    guarded(origin, [&] {
        subscribe(peer, who);
        auto& next = begin();
        decide(next.command(c, who, svc_.clock.now_ms(), svc_.settings), origin);
    });
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
        const auto version = session_.version();
        if (last_version && *last_version == version) {
            send(peer, svc_.messages.resumed(id_, version, ref));
            return;
        }
        if (last_version && *last_version < version && !recent_.empty() &&
            recent_.front().first <= *last_version + 1) {
            for (const auto& [v, text] : recent_) {
                if (v > *last_version) {
                    peer->send_game(text, id_);
                }
            }
            return;
        }
        send(peer, svc_.messages.state(session_, svc_.clock.now_ms(), ref));
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
    if (session_.owned_color(who)) {
        resume(peer, who, std::nullopt, ref);  // the creator opened their own link, or a rejoin
        return;
    }
    // A secret that is not this game's says nothing about the game, not even that it exists.
    if (invite_hash.empty() || session_.header.invite_hash != invite_hash) {
        send_error(
            peer, Refusal{ErrorCode::InviteInvalid, "this invitation link is not valid"}, ref);
        return;
    }
    if (session_.header.status != GameStatus::Waiting) {
        send_error(
            peer,
            Refusal{ErrorCode::InviteUsed, "this game has already started with someone else"},
            ref);
        return;
    }
    const Origin origin{peer, ref};
    guarded(origin, [&] {
        subscribe(peer, who);
        auto& next = begin();
        decide(next.join(who, svc_.clock.now_ms()), origin);
    });
}

void Room::open_rematch(GameRecord record, const Origin& origin) {
    std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers;
    for (const auto& s : subscribers_) {
        if (auto p = s.peer.lock()) {
            Identity i;
            i.player_id = s.player_id;
            peers.emplace_back(std::move(p), std::move(i));
        }
    }
    auto self = shared_from_this();
    svc_.lobby->post([lobby = svc_.lobby,
                      self,
                      record = std::move(record),
                      peers  = std::move(peers),
                      origin]() mutable {
        lobby->add_rematch(std::move(record), peers, [self, origin](const std::string& new_id) {
            self->post([self, new_id, origin] { self->rematch_made(new_id, origin); });
        });
    });
}

void Room::rematch_made(const std::string& new_id, const Origin& origin) {
    if (defer_while_writing(
            [self = shared_from_this(), new_id, origin] { self->rematch_made(new_id, origin); })) {
        return;
    }
    guarded(origin, [&] {
        auto& next = begin();
        commit(next.rematch_made(new_id), origin);
    });
}

// ---- life cycle -------------------------------------------------------------------------------

void Room::create_and_announce(Peers peers,
                               std::string first,
                               std::function<void()> on_failed,
                               std::function<void()> on_stored) {
    for (const auto& [peer, who] : peers) {
        subscribe(peer, who);
    }
    std::vector<std::shared_ptr<Peer>> to;
    for (const auto& pw : peers) {
        if (pw.first) {
            to.push_back(pw.first);
        }
    }
    const Origin origin{to.empty() ? std::weak_ptr<Peer>{} : to.front(), std::nullopt};
    const auto now       = svc_.clock.now_ms();
    const GameRecord row = session_.record(now);
    auto state =
        std::make_shared<const std::string>(svc_.messages.state(session_, now, std::nullopt));
    GamePlacement* placement = svc_.placement;
    writing_                 = true;
    std::weak_ptr<Room> weak = shared_from_this();
    svc_.store.run([weak,
                    row,
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
                store.insert_game(row);
                if (placement != nullptr) {
                    placement->claim_new(store, row.id, now);  // the new game is this node's
                }
            });
        } catch (const std::exception& e) {
            ok = false;
            log_line("room " + row.id, std::string("store write failed: ") + e.what());
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
                                 Refusal{ErrorCode::StoreUnavailable,
                                         "the game could not be saved just now; try again"},
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
    if (closed_ || !session_.playing()) {
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
    const auto text = std::make_shared<const std::string>(
        svc_.messages.state(session_, svc_.clock.now_ms(), std::nullopt));
    for (const auto& p : live_subscribers()) {
        p->send_game(text, id_);
    }
}

}  // namespace papan::server
