// The shipped puzzles' material proof as the tests check it, written apart from the miner's code
// (server/src/puzzles/material.cpp): plain minimax over the rules core's legal moves to a fixed
// horizon, every capture sequence resolved past it, material only (a man 100, a king 300, no
// legal move a lost game: tests/engine/material_proof.hpp's values), with alpha-beta and a
// table of the values found (exact ones, and bounds) so that the deeper lines of the set stay
// cheap to check. Header-only.
#pragma once

#include "../engine/material_proof.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace papan::test {

class ProofChecker {
public:
    // The material the side to move forces within `depth` plies, exact inside (alpha, beta).
    int value(const core::Position& p, int depth, int alpha, int beta) {
        core::MoveList moves;
        core::generate_moves(p, moves);
        if (moves.empty()) {
            return kProofLoss;
        }
        const bool capturing = moves[0].is_capture();
        if (depth <= 0 && !capturing) {
            return material(p);
        }
        const Key key{p.key(), std::max(depth, 0)};
        if (const auto it = seen_.find(key); it != seen_.end()) {
            const Known& k = it->second;
            if (k.low == k.high || k.low >= beta || k.high <= alpha) {
                return k.low >= beta ? k.low : k.high <= alpha ? k.high : k.low;
            }
        }
        const int alpha_in = alpha;
        int best           = kProofLoss - 1;
        for (const core::Move& m : moves) {
            best  = std::max(best, -value(core::make_move(p, m), depth - 1, -beta, -alpha));
            alpha = std::max(alpha, best);
            if (alpha >= beta) {
                break;
            }
        }
        Known& k = seen_[key];
        if (best <= alpha_in) {
            k.high = std::min(k.high, best);  // an upper bound
        } else if (best >= beta) {
            k.low = std::max(k.low, best);  // a lower bound
        } else {
            k.low = k.high = best;
        }
        return best;
    }

    int exact(const core::Position& p, int depth) {
        return value(p, depth, kProofLoss - 1, -(kProofLoss - 1));
    }

    // Does playing m reach at least `target` within `depth` plies (m included)?
    bool reaches(const core::Position& p, const core::Move& m, int depth, int target) {
        return -value(core::make_move(p, m), depth - 1, -target, -target + 1) >= target;
    }

private:
    struct Key {
        std::uint64_t position = 0;
        int depth              = 0;

        bool operator==(const Key&) const = default;
    };

    struct KeyHash {
        std::size_t operator()(const Key& k) const noexcept {
            return static_cast<std::size_t>(k.position ^
                                            (static_cast<std::uint64_t>(k.depth) << 56));
        }
    };

    struct Known {
        int low  = kProofLoss - 1;
        int high = -(kProofLoss - 1);
    };

    std::unordered_map<Key, Known, KeyHash> seen_;
};

}  // namespace papan::test
