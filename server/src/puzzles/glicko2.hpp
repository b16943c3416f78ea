// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013) for puzzles and their
// solvers: each attempt is a rating period of one game between the player and the puzzle (a
// solved puzzle is the player's win). Plain values; no clock, no I/O.
#pragma once

#include <papan/server/glicko.hpp>

namespace papan::server::puzzles {

using server::Glicko;

inline constexpr double kGlickoTau       = 0.5;  // how fast volatility may change
inline constexpr double kMinDeviation    = 45;   // RD never falls below this (stays responsive)
inline constexpr double kPuzzleDeviation = 350;  // a new puzzle's RD around its start estimate

// The player's new rating after one game against `opponent` with `score` (1 win, 0 loss,
// 0.5 draw).
[[nodiscard]] Glicko glicko_update(const Glicko& player, const Glicko& opponent, double score);

// The expected score of `player` against `opponent` (0..1).
[[nodiscard]] double glicko_expected(const Glicko& player, const Glicko& opponent);

}  // namespace papan::server::puzzles
