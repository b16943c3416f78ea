// Square numbers and names. Square numbers (1..N in the numbering of docs/notation.md) are what
// FEN, JSON and players' numeric notation use; bits are the internal layout. Algebraic names
// ("c3") are the board coordinates from White's side as players of the variant see them.
#pragma once

#include <papan/core/types.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace papan::core {

struct SquareCoord {
    int file = 0;  // 0 = a
    int rank = 0;  // 0 = rank 1 (White's home row)
};

[[nodiscard]] int square_count(VariantId v) noexcept;

// Bit of square number n, or nullopt when n is not a square of the variant's board.
[[nodiscard]] std::optional<int> bit_of_square(VariantId v, int n) noexcept;

// Square number of a playable bit. Precondition: bit is a playable square.
[[nodiscard]] int square_of_bit(VariantId v, int bit) noexcept;

// Board coordinates of square number n, as the variant's players see the board from White's
// side (Italian and Spanish boards have a light square at a1).
[[nodiscard]] SquareCoord square_coord(VariantId v, int n) noexcept;

// "c3" for the square's coordinates (any variant; 10x10 files run a..j, ranks 1..10).
[[nodiscard]] std::string algebraic_name(VariantId v, int n);

// Square number from an algebraic name, or nullopt if it names no playable square.
[[nodiscard]] std::optional<int> square_from_algebraic(VariantId v, std::string_view name) noexcept;

// The square as the variant's players write it: a number, or a name for algebraic variants.
[[nodiscard]] std::string square_text(VariantId v, int n);

}  // namespace papan::core
