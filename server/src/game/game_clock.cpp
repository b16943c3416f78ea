#include "game/game_clock.hpp"

#include <algorithm>

namespace papan::server {

GameClock GameClock::fresh(const TimeControl& tc, std::int64_t now_ms) {
    GameClock c;
    c.tc                    = tc;
    c.state.sides           = {initial_clock(tc), initial_clock(tc)};
    c.state.turn_started_ms = now_ms;
    return c;
}

std::int64_t GameClock::elapsed(std::int64_t now_ms) const noexcept {
    return std::max<std::int64_t>(0, now_ms - state.turn_started_ms);
}

bool GameClock::flagged(core::Color side, std::int64_t now_ms) const {
    return !clock_at(tc, of(side), elapsed(now_ms)).has_value();
}

std::int64_t GameClock::flag_due_ms(core::Color side) const {
    return time_to_flag(tc, of(side));
}

bool GameClock::charge(core::Color side, std::int64_t now_ms) {
    const auto after = clock_after_move(tc, of(side), elapsed(now_ms));
    if (!after) {
        return false;
    }
    of(side) = *after;
    return true;
}

ClockView GameClock::view(core::Color c, bool running, std::int64_t now_ms) const {
    return clock_at(tc, of(c), running ? elapsed(now_ms) : 0).value_or(ClockView{});
}

}  // namespace papan::server
