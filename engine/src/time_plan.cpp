// The time allocation of a search (docs/engine.md, "Time management").
#include <papan/engine/time_plan.hpp>

#include <algorithm>

namespace papan::engine {

namespace {

// Clock overhead kept back at a fixed budget: 2 ms plus 2%, at most 5% of the budget. The
// search reads the clock every 1024 nodes (well under a millisecond) and the reply has to reach
// the other side.
[[nodiscard]] double fixed_margin(double budget) noexcept {
    return std::min(budget * 0.05, 0.002 + budget * 0.02);
}

[[nodiscard]] TimePlan fixed(double budget) noexcept {
    const double hard = std::max(0.001, budget - fixed_margin(budget));
    return {.target = hard, .soft = hard, .hard = hard};
}

constexpr double kSuddenDeathMoves = 30;    // moves still to play, when the clock does not say
constexpr double kIncrementShare   = 0.75;  // of the increment, spent on this move
constexpr double kByoYomiShare     = 0.7;   // of a byo-yomi period, while main time is left
constexpr double kNewIteration     = 0.55;  // of the target: no new iteration after it
constexpr double kHardTargets      = 4;     // the hard deadline in targets ...
constexpr double kHardShare        = 0.4;   // ... at most this share of the time left
constexpr double kClockOverhead    = 0.05;  // seconds of the clock never planned for

}  // namespace

TimePlan plan_time(const SearchLimits& l) noexcept {
    if (l.infinite) {
        return {};
    }
    if (l.move_time > 0) {
        return fixed(l.move_time);
    }
    if (l.time_left < 0) {
        return {};
    }
    const double byo   = (l.byo_yomi > 0 && l.periods > 0) ? l.byo_yomi : 0.0;
    const double avail = std::max(0.0, l.time_left - kClockOverhead);
    if (avail < 0.02) {
        // Main time is gone: play within the byo-yomi period (or as fast as possible).
        if (byo > 0) {
            const double hard = std::max(0.001, byo * 0.85);
            return {.target = hard, .soft = hard, .hard = hard};
        }
        return {.target = 0.01, .soft = 0.01, .hard = 0.02};
    }
    if (l.moves_to_go == 1) {
        // The last move before the time control: what is left is for this move.
        return fixed(avail * 0.9 + byo * 0.85);
    }
    const double moves = l.moves_to_go > 0 ? static_cast<double>(l.moves_to_go) : kSuddenDeathMoves;
    const double bonus = byo > 0 ? byo * kByoYomiShare : l.increment * kIncrementShare;
    const double cap   = avail * kHardShare + byo * 0.85;
    const double hard  = std::max(0.005, std::min((avail / moves + bonus) * kHardTargets, cap));
    const double target = std::min(avail / moves + bonus, hard);
    return {.target = target, .soft = target * kNewIteration, .hard = hard};
}

}  // namespace papan::engine
