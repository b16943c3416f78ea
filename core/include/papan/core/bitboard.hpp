// Bitboard: a set of squares of the internal layout as a 64-bit mask, plus the few bit tricks
// the move generator needs. Plain functions on std::uint64_t keep it a trivial value type.
#pragma once

#include <bit>
#include <cstdint>

namespace papan::core {

using Bitboard = std::uint64_t;

[[nodiscard]] constexpr Bitboard bit(int b) noexcept {
    return Bitboard{1} << b;
}

[[nodiscard]] constexpr int popcount(Bitboard b) noexcept {
    return std::popcount(b);
}

[[nodiscard]] constexpr int lsb(Bitboard b) noexcept {
    return std::countr_zero(b);
}

// Removes and returns the lowest set bit's index. Precondition: b != 0.
[[nodiscard]] constexpr int pop_lsb(Bitboard& b) noexcept {
    const int i = std::countr_zero(b);
    b &= b - 1;
    return i;
}

[[nodiscard]] constexpr bool has(Bitboard b, int i) noexcept {
    return ((b >> i) & 1U) != 0;
}

// Shift by a signed amount; the amount is a compile-time constant in the hot loops.
[[nodiscard]] constexpr Bitboard shift(Bitboard b, int delta) noexcept {
    return delta >= 0 ? (b << delta) : (b >> -delta);
}

}  // namespace papan::core
