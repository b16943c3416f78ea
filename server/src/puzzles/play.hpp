// The puzzle page's rules as plain functions: checking an attempt's moves against the solution,
// the daily puzzle's choice, the rating window of the next puzzle, and a puzzle's wire JSON.
#pragma once

#include "puzzles/glicko2.hpp"

#include <papan/server/puzzle.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace papan::server::puzzles {

inline constexpr Glicko kNewSolver{1500, 350, 0.06};

struct AttemptCheck {
    bool solved    = false;
    int wrong_step = -1;  // index in the solution of the first wrong move of the solver, or -1
    std::string error;    // not empty: the moves are not a line of this puzzle (bad request)
};

// `moves`: the solver's moves as played, in the variant's move text, up to the first wrong one
// (the replies come from the solution). Solved: every solver move of the solution was played,
// none wrong, and the solver did not give up (ask for the solution).
[[nodiscard]] AttemptCheck
check_attempt(const Puzzle& p, const std::vector<std::string>& moves, bool gave_up);

// The day's candidate: one of `ids` (the variant's shipped puzzles, in id order) drawn by a hash
// of the variant and the day ("2026-12-07"), the same on every node and every restart.
[[nodiscard]] std::string daily_candidate(const std::vector<std::string>& ids,
                                          const std::string& variant,
                                          const std::string& day);

// The UTC day of a time ("2026-12-07").
[[nodiscard]] std::string utc_day(std::int64_t ms);

// The rating the next puzzle is chosen near: the solver's, or in streak mode one that rises with
// the streak (step 0: 800, then 60 a puzzle).
[[nodiscard]] double streak_target(int step);

// The windows tried in turn around a target: +-100, 200, 400, 800, then any rating.
[[nodiscard]] std::vector<double> rating_windows();

// A puzzle as the HTTP API sends it (docs/protocol.md, "Puzzles").
[[nodiscard]] nlohmann::json
puzzle_json(const Puzzle& p, const Glicko& rating, int plays, int solved);

}  // namespace papan::server::puzzles
