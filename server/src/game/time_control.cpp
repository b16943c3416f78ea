#include <papan/server/time_control.hpp>

#include <algorithm>

namespace papan::server {

std::string TimeControl::key() const {
    switch (kind) {
    case TimeKind::None:
        return "none";
    case TimeKind::ByoYomi:
        return "byoyomi:" + std::to_string(main_ms / 1000) + "+" + std::to_string(periods) + "x" +
               std::to_string(period_ms / 1000);
    case TimeKind::Fischer:
        return "fischer:" + std::to_string(main_ms / 1000) + "+" +
               std::to_string(increment_ms / 1000);
    }
    return "none";
}

TimeControl default_time_control() {
    return TimeControl{TimeKind::ByoYomi, 300'000, 3, 30'000, 0};
}

PlayerClock initial_clock(const TimeControl& tc) {
    return PlayerClock{tc.main_ms, tc.kind == TimeKind::ByoYomi ? tc.periods : 0};
}

std::int64_t time_to_flag(const TimeControl& tc, const PlayerClock& c) {
    switch (tc.kind) {
    case TimeKind::None:
        return INT64_MAX / 4;
    case TimeKind::ByoYomi:
        return c.main_ms + static_cast<std::int64_t>(c.periods) * tc.period_ms;
    case TimeKind::Fischer:
        return c.main_ms;
    }
    return INT64_MAX / 4;
}

std::optional<ClockView>
clock_at(const TimeControl& tc, const PlayerClock& c, std::int64_t elapsed_ms) {
    elapsed_ms = std::max<std::int64_t>(0, elapsed_ms);
    if (!tc.enabled()) {
        return ClockView{};
    }
    if (elapsed_ms >= time_to_flag(tc, c)) {
        return std::nullopt;
    }
    if (tc.kind == TimeKind::Fischer) {
        return ClockView{c.main_ms - elapsed_ms, 0, 0};
    }
    if (elapsed_ms < c.main_ms) {
        return ClockView{c.main_ms - elapsed_ms, c.periods, tc.period_ms};
    }
    const std::int64_t over = elapsed_ms - c.main_ms;
    const auto used         = static_cast<int>(over / tc.period_ms);
    return ClockView{0, c.periods - used, tc.period_ms - over % tc.period_ms};
}

std::optional<PlayerClock>
clock_after_move(const TimeControl& tc, const PlayerClock& c, std::int64_t elapsed_ms) {
    const auto view = clock_at(tc, c, elapsed_ms);
    if (!view) {
        return std::nullopt;
    }
    if (!tc.enabled()) {
        return c;
    }
    if (tc.kind == TimeKind::Fischer) {
        return PlayerClock{view->main_ms + tc.increment_ms, 0};
    }
    return PlayerClock{view->main_ms, view->periods};
}

}  // namespace papan::server
