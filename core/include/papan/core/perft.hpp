// Perft: the number of leaf positions a given number of plies from a position. The oracle of
// the move generator (published counts in ../shared/spec/perft.md, tests/data/perft).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>

namespace papan::core {

[[nodiscard]] std::uint64_t perft(const Position& pos, int depth,
                                  CountMode mode = CountMode::Distinct);

struct DivideEntry {
    Move move;
    std::uint64_t nodes = 0;
};

// Perft split by root move; `progress` (if set) is called after each root move.
[[nodiscard]] std::vector<DivideEntry> perft_divide(
    const Position& pos, int depth, CountMode mode = CountMode::Distinct,
    const std::function<void(std::size_t done, std::size_t total)>& progress = {});

}  // namespace papan::core
