// The evaluation's weight layout per board family: which number of a weight table is which term
// or pattern entry. Every weight is a pair (middle game, endgame) of int16 in eighths of a
// hundredth of a man; pair p is values[2p] (middle game) and values[2p + 1] (endgame).
//
//   pairs 0 .. kTerms-1                      the scalar terms (Term)
//   pairs kTerms + k * squares + s           piece-square value of a man (k = 0) or a king
//                                            (k = 1) of the side on its square s, counted from
//                                            that side (s for White, squares-1-s for Black)
//   pairs kTerms + 2 * squares + r * 6561 + i  region r's entry for configuration i
//
// Regions (docs/engine.md, "Pattern layout"): 8 playable squares each, read as base-3 digits
// (0 empty or king, 1 own man, 2 opponent man), square j of the region (in increasing square
// order) weighing 3^j. White reads region Q with Q's table; Black reads Q, reversed and with the
// colours swapped, with the table of Q's 180-degree rotation. The region set is closed under the
// rotation, so a position and its colour-flipped mirror score the same by construction.
//
// A region spans two "chunks" of the bitboard (a chunk is a contiguous run of bits: two rows of
// a diagonal board, one rank of the orthogonal board) and takes four bits of each, at the same
// four positions in both; those positions are its "column".
#pragma once

#include <papan/core/geometry.hpp>
#include <papan/core/rules/registry.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace papan::engine::detail::eval {

enum class Term : std::uint8_t {
    Man,               // men, White minus Black
    King,              // kings
    FirstKing,         // having at least one king
    Tempo,             // sum of the men's ranks counted from their own back row
    ManMobility,       // free forward steps of the men
    KingMobility,      // free squares next to the kings
    RunawayToMove,     // a man one step from crowning, a free square ahead, its side to move
    RunawayWaiting,    // the same for the side not to move
    SideToMove,        // having the move
    Balance,           // |men on the left half - men on the right half| (a penalty when < 0)
    TradeDown,         // pieces off the board, for the side ahead by a man (terms.hpp)
    KingMainDiagonal,  // kings on the long diagonal (diagonal boards)
    Support,           // Turkish: men with a friend right behind them
};

inline constexpr std::size_t kTerms = 13;

inline constexpr std::array<std::string_view, kTerms> kTermNames = {
    "man",
    "king",
    "first_king",
    "tempo",
    "man_mobility",
    "king_mobility",
    "runaway_to_move",
    "runaway_waiting",
    "side_to_move",
    "balance",
    "trade_down",
    "king_main_diagonal",
    "support",
};

inline constexpr int kRegionSquares = 8;
inline constexpr int kRegionEntries = 6561;  // 3^8
inline constexpr int kMaxRegions    = 16;
inline constexpr int kMaxChunks     = 8;
inline constexpr int kMaxColumns    = 4;
inline constexpr int kFineUnits     = 8;  // weights are in 1/8 of a hundredth of a man

struct Region {
    std::uint8_t lo      = 0;  // chunk holding the region's squares 0..3
    std::uint8_t hi      = 0;  // chunk holding squares 4..7
    std::uint8_t column  = 0;
    std::uint8_t rotated = 0;  // index of the region's 180-degree rotation
};

struct Layout {
    core::Topology topology{};
    int squares      = 0;  // playable squares (plain indices 0 .. squares-1)
    int chunk_bits   = 0;
    int chunk_stride = 0;  // bit shift from one chunk to the next
    int chunks       = 0;
    int columns      = 0;
    std::array<std::array<std::uint8_t, 4>, kMaxColumns> column_bits{};  // bit positions in a chunk
    int regions = 0;
    std::array<Region, kMaxRegions> region{};
};

// Diagonal boards: a chunk is a row pair (rows 2c and 2c+1 from the top, 2w bits, then a ghost
// bit); a region is a 4x4 square of the board (two dark squares in each of four rows) at even
// file and row offsets.
[[nodiscard]] constexpr Layout diagonal_layout(core::Topology t, int w) {
    Layout l{};
    l.topology     = t;
    l.squares      = 2 * w * w;
    l.chunk_bits   = 2 * w;
    l.chunk_stride = 2 * w + 1;
    l.chunks       = w;
    l.columns      = w - 1;
    for (int c = 0; c < l.columns; ++c) {
        l.column_bits[static_cast<std::size_t>(c)] = {static_cast<std::uint8_t>(c),
                                                      static_cast<std::uint8_t>(c + 1),
                                                      static_cast<std::uint8_t>(w + c),
                                                      static_cast<std::uint8_t>(w + c + 1)};
    }
    for (int rb = 0; rb + 1 < l.chunks; ++rb) {
        for (int c = 0; c < l.columns; ++c) {
            const int rot_rb = l.chunks - 2 - rb;
            const int rot_c  = l.columns - 1 - c;
            l.region[static_cast<std::size_t>(l.regions++)] =
                Region{static_cast<std::uint8_t>(rb),
                       static_cast<std::uint8_t>(rb + 1),
                       static_cast<std::uint8_t>(c),
                       static_cast<std::uint8_t>(rot_rb * l.columns + rot_c)};
        }
    }
    return l;
}

// Turkish: a chunk is a rank; a region is two ranks by four files at even file offsets, on the
// ranks where men can stand (2..7: a man on the last rank has crowned, none goes back).
[[nodiscard]] constexpr Layout orthogonal_layout() {
    Layout l{};
    l.topology     = core::Topology::Orthogonal8;
    l.squares      = 64;
    l.chunk_bits   = 8;
    l.chunk_stride = 8;
    l.chunks       = 8;
    l.columns      = 3;
    for (int c = 0; c < l.columns; ++c) {
        const auto f0                              = static_cast<std::uint8_t>(2 * c);
        l.column_bits[static_cast<std::size_t>(c)] = {f0,
                                                      static_cast<std::uint8_t>(f0 + 1),
                                                      static_cast<std::uint8_t>(f0 + 2),
                                                      static_cast<std::uint8_t>(f0 + 3)};
    }
    for (int r0 = 1; r0 <= 5; ++r0) {
        for (int c = 0; c < l.columns; ++c) {
            const int rot_r0 = 6 - r0;
            const int rot_c  = l.columns - 1 - c;
            l.region[static_cast<std::size_t>(l.regions++)] =
                Region{static_cast<std::uint8_t>(r0),
                       static_cast<std::uint8_t>(r0 + 1),
                       static_cast<std::uint8_t>(c),
                       static_cast<std::uint8_t>((rot_r0 - 1) * l.columns + rot_c)};
        }
    }
    return l;
}

inline constexpr Layout kDiagonal8Layout  = diagonal_layout(core::Topology::Diagonal8, 4);
inline constexpr Layout kDiagonal10Layout = diagonal_layout(core::Topology::Diagonal10, 5);
inline constexpr Layout kOrthogonalLayout = orthogonal_layout();

[[nodiscard]] constexpr const Layout& layout(core::Topology t) noexcept {
    switch (t) {
    case core::Topology::Diagonal8:
        return kDiagonal8Layout;
    case core::Topology::Diagonal10:
        return kDiagonal10Layout;
    case core::Topology::Orthogonal8:
        return kOrthogonalLayout;
    }
    return kDiagonal8Layout;
}

inline constexpr int kPieceKinds = 2;  // man, king (piece-square tables)

[[nodiscard]] constexpr std::size_t first_region_pair(const Layout& l) noexcept {
    return kTerms + static_cast<std::size_t>(kPieceKinds * l.squares);
}

[[nodiscard]] constexpr std::size_t pair_count(const Layout& l) noexcept {
    return first_region_pair(l) + static_cast<std::size_t>(l.regions) * kRegionEntries;
}

[[nodiscard]] constexpr std::size_t weight_count(const Layout& l) noexcept {
    return 2 * pair_count(l);
}

[[nodiscard]] constexpr std::size_t term_pair(Term t) noexcept {
    return static_cast<std::size_t>(t);
}

[[nodiscard]] constexpr std::size_t square_pair(const Layout& l, int kind, int plain) noexcept {
    return kTerms + static_cast<std::size_t>(kind * l.squares + plain);
}

[[nodiscard]] constexpr std::size_t region_pair(const Layout& l, int region, int index) noexcept {
    return first_region_pair(l) + static_cast<std::size_t>(region) * kRegionEntries +
           static_cast<std::size_t>(index);
}

// The bit (internal layout) of square j (0..7) of region r.
[[nodiscard]] constexpr int region_square_bit(const Layout& l, int r, int j) noexcept {
    const Region& g = l.region[static_cast<std::size_t>(r)];
    const int chunk = j < 4 ? g.lo : g.hi;
    return chunk * l.chunk_stride + l.column_bits[g.column][static_cast<std::size_t>(j % 4)];
}

// The region that carries a man's own values on the square of `bit` in the search's form
// (fold.hpp): the first region holding the square, or -1 when no region does.
[[nodiscard]] constexpr int owner_region(const Layout& l, int bit) noexcept {
    for (int r = 0; r < l.regions; ++r) {
        for (int j = 0; j < kRegionSquares; ++j) {
            if (region_square_bit(l, r, j) == bit) {
                return r;
            }
        }
    }
    return -1;
}

// The bits of the squares no region holds, per chunk (bits of the chunk): a man there is scored
// by the piece-square look-up, since no region entry carries it.
[[nodiscard]] constexpr std::array<unsigned, kMaxChunks> regionless_bits(const Layout& l) {
    std::array<unsigned, kMaxChunks> out{};
    const core::Geometry& g = core::geometry(l.topology);
    for (int c = 0; c < l.chunks; ++c) {
        for (int b = 0; b < l.chunk_bits; ++b) {
            const int bit = c * l.chunk_stride + b;
            if (g.plain_of[static_cast<std::size_t>(bit)] >= 0 && owner_region(l, bit) < 0) {
                out[static_cast<std::size_t>(c)] |= 1U << b;
            }
        }
    }
    return out;
}

// Identifies the layout in weight files (FNV-1a over everything that fixes the meaning of the
// numbers), so a file made for another family or an older layout is refused.
[[nodiscard]] constexpr std::uint32_t layout_id(const Layout& l) noexcept {
    std::uint32_t h = 2166136261U;
    const auto mix  = [&h](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) {
            h ^= (v >> (8 * i)) & 0xFFU;
            h *= 16777619U;
        }
    };
    mix(static_cast<std::uint32_t>(l.topology));
    mix(static_cast<std::uint32_t>(kFineUnits));
    mix(static_cast<std::uint32_t>(l.squares));
    mix(static_cast<std::uint32_t>(kPieceKinds));
    for (const std::string_view name : kTermNames) {
        for (const char ch : name) {
            mix(static_cast<std::uint32_t>(static_cast<unsigned char>(ch)));
        }
    }
    mix(static_cast<std::uint32_t>(l.chunk_bits));
    mix(static_cast<std::uint32_t>(l.chunk_stride));
    for (int c = 0; c < l.columns; ++c) {
        for (const std::uint8_t b : l.column_bits[static_cast<std::size_t>(c)]) {
            mix(b);
        }
    }
    for (int r = 0; r < l.regions; ++r) {
        const Region& g = l.region[static_cast<std::size_t>(r)];
        mix(static_cast<std::uint32_t>(g.lo | (g.hi << 8) | (g.column << 16) | (g.rotated << 24)));
    }
    return h;
}

// Checks at compile time: rotation is an involution and maps chunks and columns as the
// geometry does (a region's squares rotated are its rotation's squares).
[[nodiscard]] constexpr bool rotation_is_consistent(const Layout& l) {
    const core::Geometry& g = core::geometry(l.topology);
    for (int r = 0; r < l.regions; ++r) {
        const Region& a = l.region[static_cast<std::size_t>(r)];
        const Region& b = l.region[a.rotated];
        if (l.region[b.rotated].lo != a.lo || l.region[b.rotated].column != a.column) {
            return false;
        }
        // Square j of a rotates onto square 7 - j of b.
        for (int j = 0; j < kRegionSquares; ++j) {
            const int pa = g.plain_of[static_cast<std::size_t>(region_square_bit(l, r, j))];
            const int pb =
                g.plain_of[static_cast<std::size_t>(region_square_bit(l, a.rotated, 7 - j))];
            if (pa < 0 || pb < 0 || pa + pb != g.squares - 1) {
                return false;
            }
        }
    }
    return true;
}

static_assert(kDiagonal8Layout.regions == 9 && kDiagonal10Layout.regions == 16 &&
              kOrthogonalLayout.regions == 15);
static_assert(rotation_is_consistent(kDiagonal8Layout));
static_assert(rotation_is_consistent(kDiagonal10Layout));
static_assert(rotation_is_consistent(kOrthogonalLayout));
// Every square of the diagonal boards is in a region (so the engine reads no man's square apart);
// Turkish leaves out the first and last ranks, where no man stands.
static_assert(regionless_bits(kDiagonal8Layout) == std::array<unsigned, kMaxChunks>{});
static_assert(regionless_bits(kDiagonal10Layout) == std::array<unsigned, kMaxChunks>{});
static_assert(regionless_bits(kOrthogonalLayout) ==
              std::array<unsigned, kMaxChunks>{0xFFU, 0, 0, 0, 0, 0, 0, 0xFFU});

}  // namespace papan::engine::detail::eval
