// A Glicko-2 rating as a plain value (the puzzles' solvers and puzzles): shared by the puzzle
// service (server/src/puzzles/glicko2.hpp, the update) and the store that keeps it.
#pragma once

namespace papan::server {

struct Glicko {
    double rating     = 1500;  // the Glicko scale
    double deviation  = 350;   // RD
    double volatility = 0.06;  // sigma

    friend bool operator==(const Glicko&, const Glicko&) = default;
};

}  // namespace papan::server
