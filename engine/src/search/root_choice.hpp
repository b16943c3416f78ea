// The weaker levels' choice among the root moves (docs/engine.md, "Levels"): deterministic noise
// on each move's score, then a softmax draw at the level's temperature, both from the seed and
// the position's key. A lost move is never chosen while another one is not lost.
#pragma once

#include "search.hpp"

#include <papan/core/move.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace papan::engine::detail {

// The index of the move to play among `moves`, given each one's score from the last completed
// iteration (`scores`), the best of them (`best_index`, `best_score`), the level's handicap, the
// search's seed and the root position's key.
[[nodiscard]] std::size_t weaker_level_choice(const core::MoveList& moves,
                                              const std::vector<int>& scores,
                                              std::size_t best_index,
                                              int best_score,
                                              const Handicap& handicap,
                                              std::uint64_t seed,
                                              std::uint64_t key);

}  // namespace papan::engine::detail
