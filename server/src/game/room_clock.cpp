// Room: the clock timer (a flag ends the game, a first move that never comes aborts it) and the
// computer's moves.
#include "game/ai_pool.hpp"
#include "game/game_json.hpp"
#include "game/lifecycle.hpp"
#include "game/room.hpp"
#include "support/log.hpp"

#include <chrono>

namespace papan::server {

using Json = nlohmann::json;

void Room::arm_timer() {
    // Before both first moves no clock runs, but a person who never makes theirs would hold the
    // other forever: the timer aborts the game then. After them it is the flag of the side to move.
    const bool first_move = awaiting_first_move();
    if (!first_move && !clock_running()) {
        timer_.cancel();
        return;
    }
    const auto due  = first_move ? svc_.options.first_move_timeout_ms
                                 : time_to_flag(tc_, clock_of(game_.side_to_move()));
    const auto left = std::max<std::int64_t>(0, due - elapsed_ms());
    timer_.expires_after(std::chrono::milliseconds(left + 5));
    std::weak_ptr<Room> weak = shared_from_this();
    timer_.async_wait([weak, first_move](const boost::system::error_code& ec) {
        if (ec) {
            return;
        }
        if (auto self = weak.lock()) {
            self->guarded({}, [&] {
                if (first_move) {
                    self->check_abort();
                } else {
                    self->check_flag();
                }
            });
        }
    });
}

void Room::check_abort() {
    if (closed_ || !awaiting_first_move()) {
        return;
    }
    if (defer_while_writing([self = shared_from_this()] { self->check_abort(); })) {
        return;
    }
    if (!first_move_overdue()) {
        arm_timer();  // woke early, or the turn changed since the timer was set
        return;
    }
    // Aborted: nobody won, nothing is rated or rewarded, the clocks keep their full time.
    begin_change();
    const auto side  = game_.side_to_move();
    rec_.status      = GameStatus::Over;
    rec_.outcome     = "";
    rec_.reason      = kAbortedReason;
    rec_.result_text = std::string("Aborted: ") + (side == core::Color::White ? "White" : "Black") +
                       " made no first move in time";
    draw_offer_     = std::nullopt;
    takeback_offer_ = std::nullopt;
    ++ai_epoch_;
    const GameRecord h = next_header();
    commit(
        Json{{"kind", "abort"}, {"by", color_key(side)}}, [h](Store& s) { s.update_game(h); }, {});
}

void Room::check_flag() {
    if (!clock_running() || closed_) {
        return;
    }
    if (defer_while_writing([self = shared_from_this()] { self->check_flag(); })) {
        return;
    }
    const auto side = game_.side_to_move();
    if (clock_at(tc_, clock_of(side), elapsed_ms())) {
        arm_timer();  // woke early
        return;
    }
    begin_change();
    clock_of(side) = PlayerClock{0, 0};
    if (!game_.flag(side)) {
        restore();
        return;
    }
    apply_ending("flag", side, {});
}

void Room::schedule_ai() {
    if (closed_ || rec_.status != GameStatus::Playing || game_.is_over() ||
        !is_computer(game_.side_to_move())) {
        return;
    }
    const auto epoch         = ++ai_epoch_;
    ai_thinking_             = true;
    std::weak_ptr<Room> weak = shared_from_this();
    AiRequest req{game_, rec_.level.empty() ? "normal" : rec_.level};
    if (clock_running()) {
        // The engine's time management plays from the clock of a timed game.
        const auto view = clock_at(tc_, clock_of(game_.side_to_move()), elapsed_ms());
        req.clocked     = true;
        if (view) {
            req.time_left = static_cast<double>(view->main_ms) / 1000.0;
            req.periods   = view->periods;
        } else {
            req.time_left = 0;
        }
        req.increment = static_cast<double>(tc_.increment_ms) / 1000.0;
        req.byo_yomi  = static_cast<double>(tc_.period_ms) / 1000.0;
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
    if (epoch != ai_epoch_ || closed_ || game_.is_over() || !is_computer(game_.side_to_move())) {
        return;
    }
    ai_thinking_ = false;
    guarded({}, [&] {
        if (!mv || !game_.find_legal(*mv)) {
            log_line("room " + id_, "the computer returned no legal move; using the quick player");
            svc_.ai.count_fallback();
            mv = quick_move(game_, svc_.seed);
            if (!mv) {
                return;
            }
        }
        apply_move(*game_.find_legal(*mv), true, {});
    });
}

}  // namespace papan::server
