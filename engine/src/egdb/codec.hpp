// The block codec of the table files: a block of up to kBlockSize positions' results as byte
// tokens, decoded from the block's start to the wanted position.
//
// Symbols: 0 = win, 1 = loss, 2 = draw (for the side to move); kDontCare (positions with a
// capture pending, impossible placements) may take any value, and the encoder lets it extend the
// run it falls in. Tokens:
//   0x00-0xBF  a run: symbol = t >> 6; length = t & 63, or when that is 0, 64 + a LEB128 number
//   0xC0-0xFF  a literal: (t & 63) + 1 bytes follow, each five symbols in base 3 (first lowest)
// The decoder checks every read against the block's end: malformed data gives an error, never a
// read outside the block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace papan::engine::egdb::detail {

inline constexpr std::uint8_t kWinSymbol  = 0;
inline constexpr std::uint8_t kLossSymbol = 1;
inline constexpr std::uint8_t kDrawSymbol = 2;
inline constexpr std::uint8_t kDontCare   = 3;

inline constexpr int kBlockLog2         = 12;
inline constexpr std::size_t kBlockSize = std::size_t{1} << kBlockLog2;

// Appends the tokens of symbols[0..n) (n <= kBlockSize) to out.
void encode_block(const std::uint8_t* symbols, std::size_t n, std::vector<std::uint8_t>& out);

// The symbol (0..2) at position `at` of a block of n positions stored in data[0..size), or -1
// when the data is malformed.
[[nodiscard]] int
decode_at(const std::uint8_t* data, std::size_t size, std::size_t n, std::size_t at) noexcept;

// Every symbol of the block into out[0..n); false when the data is malformed.
[[nodiscard]] bool
decode_block(const std::uint8_t* data, std::size_t size, std::size_t n, std::uint8_t* out) noexcept;

}  // namespace papan::engine::egdb::detail
