// Basic vocabulary of the rules library: colours, variant ids and square indices.
// Invariant: the numeric values of VariantId are stable (they are stored in databases and
// sent over the wire); never renumber them, only append.
#pragma once

#include <cstdint>

namespace papan::core {

enum class Color : std::uint8_t {
    White = 0,
    Black = 1,
};

[[nodiscard]] constexpr Color opposite(Color c) noexcept {
    return c == Color::White ? Color::Black : Color::White;
}

[[nodiscard]] constexpr int index(Color c) noexcept {
    return static_cast<int>(c);
}

enum class VariantId : std::uint8_t {
    American      = 0,
    International = 1,
    Brazilian     = 2,
    Russian       = 3,
    Pool          = 4,
    Spanish       = 5,
    Italian       = 6,
    Czech         = 7,
    Thai          = 8,
    Turkish       = 9,
};

inline constexpr int kVariantCount = 10;

// A square as the bit index of the internal board layout (see geometry.hpp). External square
// numbers (the ones players, FEN and JSON use) are converted at the edges by the variant's
// numbering table.
using Bit = std::uint8_t;

// Direction index. Diagonal boards: 0 = up-left, 1 = down-right, 2 = up-right, 3 = down-left.
// Orthogonal board: 0 = up, 1 = down, 2 = right, 3 = left. "Up" is towards Black's home row,
// the way White moves. The reverse of direction d is d ^ 1.
using Direction = int;

[[nodiscard]] constexpr Direction reverse(Direction d) noexcept {
    return d ^ 1;
}

}  // namespace papan::core
