// Perft: the number of leaf positions a given number of plies from a position. The oracle of
// the move generator (published counts in tests/data/perft, conventions in docs/perft.md).
#pragma once

#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace papan::core {

[[nodiscard]] std::uint64_t
perft(const Position& pos, int depth, CountMode mode = CountMode::Distinct);

// Perft with a table of counts of `table_mb` megabytes (transpositions are counted once and
// reused): the same numbers, much faster at depths where positions repeat. 0 MB = no table.
[[nodiscard]] std::uint64_t
perft_hashed(const Position& pos, int depth, CountMode mode, std::size_t table_mb);

struct DivideEntry {
    Move move;
    std::uint64_t nodes = 0;
};

// Perft split by root move; `progress` (if set) is called after each root move.
[[nodiscard]] std::vector<DivideEntry>
perft_divide(const Position& pos,
             int depth,
             CountMode mode = CountMode::Distinct,
             const std::function<void(std::size_t done, std::size_t total)>& progress = {},
             std::size_t table_mb                                                     = 0);

}  // namespace papan::core
