// How long one search may run, worked out from the limits of the move. A pure function, so the
// allocation is tested without a clock (tests/engine/time_plan_test.cpp).
#pragma once

#include <papan/engine/limits.hpp>

namespace papan::engine {

// Seconds from the start of the search; 0 = no limit.
struct TimePlan {
    double target = 0;  // what the move should take on average
    double soft   = 0;  // no new iteration is started after this
    double hard   = 0;  // the search stops at once (keeping what the unfinished iteration found)
};

// Fixed move time (and a byo-yomi period once the main time is gone, and the last move before a
// time control): time left unspent is lost, so the search runs to the hard deadline, a small
// margin below the budget. A game clock: the remaining time over the moves to go (30 in sudden
// death) plus three quarters of the increment (or 0.7 of a byo-yomi period); no new iteration
// after 0.55 of that (the next one would take about twice the last), and a hard deadline of four
// times the target, capped at 40% of the time left. Infinite or no time limit: no plan.
[[nodiscard]] TimePlan plan_time(const SearchLimits& limits) noexcept;

}  // namespace papan::engine
