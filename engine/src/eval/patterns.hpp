// Pattern indices from bitboards: a chunk of the men bitboard of each colour is cut out with one
// shift and mask, and a small constexpr table turns a chunk into the base-3 digits of each of
// its columns' four squares (White's reading; Black's is mirror_index() of it), one 16-bit lane
// per column of a 64-bit word, so that the columns of a chunk, and the indices of a row of
// regions, are computed together: a lane's value stays below 3^8 = 6561, so no lane carries
// into the next.
// No PEXT (the release target is x86-64-v2; the web build is WebAssembly).
#pragma once

#include "layout.hpp"
#include "terms.hpp"

#include <papan/core/position.hpp>

#include <algorithm>
#include <array>
#include <cstdint>

namespace papan::engine::detail::eval {

inline constexpr int kLaneBits = 16;

static_assert(kMaxColumns * kLaneBits <= 64 && kRegionEntries < (1 << kLaneBits));

// [chunk value]: in lane `column`, the sum of 3^t over the column's squares t = 0..3 whose bit
// is set.
template <int ChunkBits>
[[nodiscard]] constexpr std::array<std::uint64_t, (1U << ChunkBits)>
make_digit_lanes(const Layout& l) {
    std::array<std::uint64_t, (1U << ChunkBits)> d{};
    constexpr int pow3[4] = {1, 3, 9, 27};
    for (unsigned v = 0; v < (1U << ChunkBits); ++v) {
        for (int c = 0; c < l.columns; ++c) {
            const auto ci   = static_cast<std::size_t>(c);
            std::uint64_t f = 0;
            for (int t = 0; t < 4; ++t) {
                if ((v >> l.column_bits[ci][static_cast<std::size_t>(t)]) & 1U) {
                    f += static_cast<std::uint64_t>(pow3[t]);
                }
            }
            d[v] |= f << (kLaneBits * c);
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
    static constexpr const Layout& L = layout(T);
    static constexpr std::array<std::uint64_t, (1U << L.chunk_bits)> lanes =
        make_digit_lanes<L.chunk_bits>(L);
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

// Calls acc.pattern(region, index) with White's reading of every region. Per chunk the digits
// of all its columns are looked up at once (a chunk serves two rows of regions), and per pair
// of chunks the indices of all its regions are one multiply-add.
template <core::Topology T, class Acc>
[[gnu::always_inline]] inline void add_patterns(const core::Position& pos, Acc& acc) noexcept {
    constexpr const Layout& L     = layout(T);
    constexpr auto& D             = PatternTables<T>::lanes;
    constexpr core::Bitboard mask = (core::Bitboard{1} << L.chunk_bits) - 1;
    constexpr std::uint64_t lane  = (std::uint64_t{1} << kLaneBits) - 1;
    const core::Bitboard wm       = pos.men(core::Color::White);
    const core::Bitboard bm       = pos.men(core::Color::Black);
    // digits[chunk]: lane `column` holds the column's four squares of the chunk as base-3 digits.
    std::array<std::uint64_t, kMaxChunks> digits{};
    for (int c = 0; c < L.chunks; ++c) {
        if (!chunk_used(L, c)) {
            continue;
        }
        const auto wc = static_cast<std::size_t>((wm >> (c * L.chunk_stride)) & mask);
        const auto bc = static_cast<std::size_t>((bm >> (c * L.chunk_stride)) & mask);
        digits[static_cast<std::size_t>(c)] = D[wc] + 2 * D[bc];
    }
    for (int r = 0; r < L.regions; ++r) {
        const Region& g           = L.region[static_cast<std::size_t>(r)];
        const std::uint64_t index = digits[g.lo] + 81 * digits[g.hi];
        acc.pattern(r, static_cast<int>((index >> (kLaneBits * g.column)) & lane));
    }
}

// Calls acc.pieces(kind, colour, chunk, bits) for every chunk of the men (kind 0) and kings
// (kind 1) of each colour that holds a piece: the piece-square terms, one table look-up per
// chunk in the engine.
template <core::Topology T, class Acc>
[[gnu::always_inline]] inline void add_piece_squares(const core::Position& pos, Acc& acc) noexcept {
    constexpr const Layout& L                = layout(T);
    constexpr core::Bitboard mask            = (core::Bitboard{1} << L.chunk_bits) - 1;
    const std::array<core::Bitboard, 4> sets = {pos.men(core::Color::White),
                                                pos.men(core::Color::Black),
                                                pos.kings_of(core::Color::White),
                                                pos.kings_of(core::Color::Black)};
    // With the men folded into the regions only their regionless squares are looked up here.
    constexpr std::array<unsigned, kMaxChunks> regionless = regionless_bits(L);
    constexpr bool men_skipped =
        kMenFolded<Acc> &&
        std::all_of(regionless.begin(), regionless.end(), [](unsigned b) { return b == 0; });
    for (int set = men_skipped ? 2 : 0; set < 4; ++set) {
        const core::Bitboard b = sets[static_cast<std::size_t>(set)];
        if (b == 0) {
            continue;
        }
        for (int c = 0; c < L.chunks; ++c) {
            auto bits = static_cast<unsigned>((b >> (c * L.chunk_stride)) & mask);
            if constexpr (kMenFolded<Acc>) {
                if (set < 2) {
                    bits &= regionless[static_cast<std::size_t>(c)];
                }
            }
            if (bits != 0) {
                acc.pieces(set / 2, set % 2, c, bits);
            }
        }
    }
}

}  // namespace papan::engine::detail::eval
