// Pattern indices from bitboards: a chunk of the men bitboard of each colour is cut out with one
// shift and mask, and small constexpr tables turn a chunk into the base-3 digits of a column's
// four squares (White's reading; Black's is mirror_index() of it).
// No PEXT (the release target is x86-64-v2; the web build is WebAssembly).
#pragma once

#include "layout.hpp"

#include <papan/core/position.hpp>

#include <array>
#include <cstdint>

namespace papan::engine::detail::eval {

template <int ChunkBits>
struct DigitTables {
    // [column][chunk value]: sum of 3^t over the column's squares t = 0..3 whose bit is set.
    std::array<std::array<std::uint8_t, (1U << ChunkBits)>, kMaxColumns> forward{};
};

template <int ChunkBits>
[[nodiscard]] constexpr DigitTables<ChunkBits> make_digit_tables(const Layout& l) {
    DigitTables<ChunkBits> d{};
    constexpr int pow3[4] = {1, 3, 9, 27};
    for (int c = 0; c < l.columns; ++c) {
        const auto ci = static_cast<std::size_t>(c);
        for (unsigned v = 0; v < (1U << ChunkBits); ++v) {
            int f = 0;
            for (int t = 0; t < 4; ++t) {
                if ((v >> l.column_bits[ci][static_cast<std::size_t>(t)]) & 1U) {
                    f += pow3[t];
                }
            }
            d.forward[ci][v] = static_cast<std::uint8_t>(f);
        }
    }
    return d;
}

[[nodiscard]] constexpr bool chunk_used(const Layout& l, int chunk) noexcept {
    for (int r = 0; r < l.regions; ++r) {
        const Region& g = l.region[static_cast<std::size_t>(r)];
        if (g.lo == chunk || g.hi == chunk) {
            return true;
        }
    }
    return false;
}

template <core::Topology T>
struct PatternTables {
    static constexpr const Layout& L                  = layout(T);
    static constexpr DigitTables<L.chunk_bits> digits = make_digit_tables<L.chunk_bits>(L);
};

// Black's reading of a region from White's: digits in reversed order, 1 and 2 swapped. Table
// T_Q at White's index i and table T_rot(Q) at mirror_index(i) are what a region adds.
[[nodiscard]] constexpr int mirror_index(int white) noexcept {
    int black = 0;
    for (int j = 0; j < kRegionSquares; ++j) {
        const int d = white % 3;
        white /= 3;
        black = black * 3 + (d == 0 ? 0 : 3 - d);
    }
    return black;
}

static_assert(mirror_index(1) == 2 * 2187 && mirror_index(2 * 2187 + 1) == 2 * 2187 + 1 &&
              mirror_index(mirror_index(1234)) == 1234);

// Calls acc.pattern(region, index) with White's reading of every region. Per chunk and column
// the digits are looked up once (a chunk serves two rows of regions).
template <core::Topology T, class Acc>
inline void add_patterns(const core::Position& pos, Acc& acc) noexcept {
    constexpr const Layout& L     = layout(T);
    constexpr auto& D             = PatternTables<T>::digits;
    constexpr core::Bitboard mask = (core::Bitboard{1} << L.chunk_bits) - 1;
    const core::Bitboard wm       = pos.men(core::Color::White);
    const core::Bitboard bm       = pos.men(core::Color::Black);
    // digits[chunk][column]: the column's four squares of the chunk as base-3 digits.
    std::array<std::array<int, kMaxColumns>, kMaxChunks> digits{};
    for (int c = 0; c < L.chunks; ++c) {
        if (!chunk_used(L, c)) {
            continue;
        }
        const auto ci = static_cast<std::size_t>(c);
        const auto wc = static_cast<std::size_t>((wm >> (c * L.chunk_stride)) & mask);
        const auto bc = static_cast<std::size_t>((bm >> (c * L.chunk_stride)) & mask);
        for (int col = 0; col < L.columns; ++col) {
            const auto k  = static_cast<std::size_t>(col);
            digits[ci][k] = D.forward[k][wc] + 2 * D.forward[k][bc];
        }
    }
    for (int r = 0; r < L.regions; ++r) {
        const Region& g = L.region[static_cast<std::size_t>(r)];
        acc.pattern(r, digits[g.lo][g.column] + 81 * digits[g.hi][g.column]);
    }
}

// Calls acc.pieces(kind, colour, chunk, bits) for every chunk of the men (kind 0) and kings
// (kind 1) of each colour that holds a piece: the piece-square terms, one table look-up per
// chunk in the engine.
template <core::Topology T, class Acc>
inline void add_piece_squares(const core::Position& pos, Acc& acc) noexcept {
    constexpr const Layout& L                = layout(T);
    constexpr core::Bitboard mask            = (core::Bitboard{1} << L.chunk_bits) - 1;
    const std::array<core::Bitboard, 4> sets = {pos.men(core::Color::White),
                                                pos.men(core::Color::Black),
                                                pos.kings_of(core::Color::White),
                                                pos.kings_of(core::Color::Black)};
    for (int set = 0; set < 4; ++set) {
        const core::Bitboard b = sets[static_cast<std::size_t>(set)];
        if (b == 0) {
            continue;
        }
        for (int c = 0; c < L.chunks; ++c) {
            const auto bits = static_cast<unsigned>((b >> (c * L.chunk_stride)) & mask);
            if (bits != 0) {
                acc.pieces(set / 2, set % 2, c, bits);
            }
        }
    }
}

}  // namespace papan::engine::detail::eval
