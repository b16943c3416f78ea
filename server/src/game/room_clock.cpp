// Room: the clock's timer (a flag ends the game, a first move that never comes aborts it) and the
// computer's moves.
#include "game/ai_pool.hpp"
#include "game/room.hpp"
#include "support/log.hpp"

#include <chrono>

namespace papan::server {

namespace {

// The engine's strength of a game's level (a game without one plays at normal).
engine::Level engine_level(Level l) {
    switch (l) {
    case Level::Easy:
        return engine::Level::Easy;
    case Level::Hard:
        return engine::Level::Hard;
    case Level::Normal:
    case Level::None:
        break;
    }
    return engine::Level::Normal;
}

}  // namespace

void Room::arm_timer() {
    const auto due = session_.clock_due_at(svc_.settings);
    if (!due) {
        timer_.cancel();
        return;
    }
    const auto left = std::max<std::int64_t>(0, *due - svc_.clock.now_ms());
    timer_.expires_after(std::chrono::milliseconds(left + 5));
    std::weak_ptr<Room> weak = shared_from_this();
    timer_.async_wait([weak](const boost::system::error_code& ec) {
        if (ec) {
            return;
        }
        if (auto self = weak.lock()) {
            self->guarded({}, [&] { self->on_timer(); });
        }
    });
}

void Room::on_timer() {
    if (closed_) {
        return;
    }
    if (defer_while_writing([self = shared_from_this()] { self->on_timer(); })) {
        return;
    }
    auto& next  = begin();
    auto change = next.clock_due(svc_.clock.now_ms(), svc_.settings);
    if (!change) {
        pending_.reset();
        arm_timer();  // woke early, or the turn changed since the timer was set
        return;
    }
    commit(std::move(*change), {});
}

void Room::schedule_ai() {
    if (closed_ || !session_.computer_to_move()) {
        return;
    }
    const auto epoch         = ++ai_epoch_;
    ai_thinking_             = true;
    std::weak_ptr<Room> weak = shared_from_this();
    const auto& s            = session_;
    AiRequest req{s.game, engine_level(s.header.level)};
    if (s.clock_running()) {
        // The engine's time management plays from the clock of a timed game.
        const auto side = s.game.side_to_move();
        const auto now  = svc_.clock.now_ms();
        req.clocked     = true;
        if (!s.clock.flagged(side, now)) {
            const auto view = s.clock.view(side, true, now);
            req.time_left   = static_cast<double>(view.main_ms) / 1000.0;
            req.periods     = view.periods;
        } else {
            req.time_left = 0;
        }
        req.increment = static_cast<double>(s.clock.tc.increment_ms) / 1000.0;
        req.byo_yomi  = static_cast<double>(s.clock.tc.period_ms) / 1000.0;
    }
    svc_.ai.think(std::move(req), [weak, epoch](std::optional<core::Move> mv) {
        if (auto self = weak.lock()) {
            self->post([self, epoch, mv] { self->on_ai_move(epoch, mv); });
        }
    });
}

void Room::on_ai_move(std::uint64_t epoch, std::optional<core::Move> mv) {
    if (defer_while_writing(
            [self = shared_from_this(), epoch, mv] { self->on_ai_move(epoch, mv); })) {
        return;
    }
    if (epoch != ai_epoch_ || closed_ || !session_.computer_to_move()) {
        return;
    }
    ai_thinking_ = false;
    guarded({}, [&] {
        const auto& game = session_.game;
        auto legal       = mv ? game.find_legal(*mv) : std::nullopt;
        if (!legal) {
            log_line("room " + id_, "the computer returned no legal move; using the quick player");
            svc_.ai.count_fallback();
            const auto quick = quick_move(game, svc_.seed);
            if (!quick) {
                return;
            }
            legal = game.find_legal(*quick);
            if (!legal) {
                return;
            }
        }
        auto& next = begin();
        commit(next.computer_move(*legal, svc_.clock.now_ms()), {});
    });
}

}  // namespace papan::server
