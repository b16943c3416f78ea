// An exhaustive proof of material gain, independent of the engine: plain alpha-beta minimax over
// the rules core's legal moves, every move searched to a fixed depth and every capture sequence
// resolved past it, scoring material only (a man 100, a king 300; no move = a lost game). No
// evaluation, ordering heuristic, table or pruning beyond alpha-beta, so a value it returns is a
// fact about the position (for that depth), not a judgement of Papan's search.
// Header-only: the engine tests' executable is built from tests/engine/*_test.cpp alone.
#pragma once

#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>

#include <algorithm>
#include <cstdint>

namespace papan::test {

inline constexpr int kProofLoss = -100000;

// Material from the side to move's point of view.
[[nodiscard]] inline int material(const core::Position& p) {
    const core::Color us   = p.side;
    const core::Color them = core::opposite(us);
    return 100 * (core::popcount(p.men(us)) - core::popcount(p.men(them))) +
           300 * (core::popcount(p.kings_of(us)) - core::popcount(p.kings_of(them)));
}

// The material the side to move can force within `depth` plies (captures resolved beyond).
[[nodiscard]] inline int proven_material(const core::Position& p, int depth, int alpha, int beta) {
    core::MoveList moves;
    core::generate_moves(p, moves);
    if (moves.empty()) {
        return kProofLoss;
    }
    const bool capturing = moves[0].is_capture();  // forced capture: all moves are captures
    if (depth <= 0 && !capturing) {
        return material(p);
    }
    int best = kProofLoss - 1;
    for (const core::Move& m : moves) {
        const int v = -proven_material(core::make_move(p, m), depth - 1, -beta, -alpha);
        best        = std::max(best, v);
        alpha       = std::max(alpha, v);
        if (alpha >= beta) {
            break;
        }
    }
    return best;
}

// The value of playing `m` in `p`, from p's side to move, with `depth` plies in all.
[[nodiscard]] inline int
proven_material_after(const core::Position& p, const core::Move& m, int depth) {
    return -proven_material(core::make_move(p, m), depth - 1, kProofLoss - 1, -(kProofLoss - 1));
}

}  // namespace papan::test
