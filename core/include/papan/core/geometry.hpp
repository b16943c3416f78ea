// Board geometry: the three topologies as constexpr data computed by functions, not typed in.
//
// Diagonal boards (8x8 with 4 dark squares a row, 10x10 with 5) use a padded layout with one
// ghost bit after every two rows (Scan's 10x10 layout, the same idea on 8x8): the square with
// plain index s (row-major from the top row, left to right over the dark squares of an "a1 dark"
// board) sits at bit s + s / (2 * W). Every diagonal step is then one constant shift (±W,
// ±(W+1)) and a step off the board lands on a ghost bit or outside the used range.
//
// The orthogonal 8x8 board (Turkish) uses the plain 64-bit layout, bit = (rank-1)*8 + file,
// rank 1 at the bottom, and file masks stop horizontal steps wrapping round.
//
// Invariant: `can_step[d]` holds exactly the squares from which one step in direction d stays
// on the board, and `bit + delta[d]` is that neighbour.
#pragma once

#include <papan/core/bitboard.hpp>
#include <papan/core/types.hpp>

#include <array>
#include <cstdint>

namespace papan::core {

enum class Topology : std::uint8_t {
    Diagonal8,
    Diagonal10,
    Orthogonal8,
};

struct Geometry {
    Topology topology{};
    int size     = 0;  // board side length: 8 or 10
    int squares  = 0;  // playable squares: 32, 50 or 64
    Bitboard all = 0;
    std::array<int, 4> delta{};
    std::array<Bitboard, 4> can_step{};
    std::array<Bitboard, 4> can_jump{};      // two steps in the same direction stay on the board
    std::array<Bitboard, 2> promotion{};     // by Color: the row where that colour's men crown
    std::array<std::uint8_t, 64> bit_of{};   // plain index -> bit
    std::array<std::int8_t, 64> plain_of{};  // bit -> plain index, -1 for ghosts and unused bits
    std::array<std::uint8_t, 64> file_of{};  // plain index -> file (0 = a) in the a1-dark layout
    std::array<std::uint8_t, 64> rank_of{};  // plain index -> rank (0 = rank 1)
};

namespace detail {

[[nodiscard]] constexpr Geometry make_diagonal(Topology t, int w) {
    Geometry g{};
    g.topology     = t;
    g.size         = 2 * w;
    g.squares      = 2 * w * w;
    const int rows = 2 * w;
    g.delta        = {-(w + 1), w + 1, -w, w};
    for (auto& p : g.plain_of) {
        p = -1;
    }
    for (int s = 0; s < g.squares; ++s) {
        const int b                             = s + s / (2 * w);
        const int row                           = s / w;
        g.bit_of[static_cast<std::size_t>(s)]   = static_cast<std::uint8_t>(b);
        g.plain_of[static_cast<std::size_t>(b)] = static_cast<std::int8_t>(s);
        g.file_of[static_cast<std::size_t>(s)] =
            static_cast<std::uint8_t>(2 * (s % w) + (row % 2 == 0 ? 1 : 0));
        g.rank_of[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(rows - 1 - row);
        g.all |= bit(b);
        if (row == 0) {
            g.promotion[0] |= bit(b);
        }
        if (row == rows - 1) {
            g.promotion[1] |= bit(b);
        }
    }
    // up-left, down-right, up-right, down-left as (file, rank) offsets
    constexpr int df[4] = {-1, 1, 1, -1};
    constexpr int dr[4] = {1, -1, 1, -1};
    for (int s = 0; s < g.squares; ++s) {
        const int f = g.file_of[static_cast<std::size_t>(s)];
        const int r = g.rank_of[static_cast<std::size_t>(s)];
        for (int d = 0; d < 4; ++d) {
            const int f1 = f + df[d];
            const int r1 = r + dr[d];
            if (f1 >= 0 && f1 < rows && r1 >= 0 && r1 < rows) {
                g.can_step[static_cast<std::size_t>(d)] |=
                    bit(g.bit_of[static_cast<std::size_t>(s)]);
            }
            const int f2 = f + 2 * df[d];
            const int r2 = r + 2 * dr[d];
            if (f2 >= 0 && f2 < rows && r2 >= 0 && r2 < rows) {
                g.can_jump[static_cast<std::size_t>(d)] |=
                    bit(g.bit_of[static_cast<std::size_t>(s)]);
            }
        }
    }
    return g;
}

[[nodiscard]] constexpr Geometry make_orthogonal() {
    Geometry g{};
    g.topology = Topology::Orthogonal8;
    g.size     = 8;
    g.squares  = 64;
    g.delta    = {8, -8, 1, -1};
    for (int s = 0; s < 64; ++s) {
        g.bit_of[static_cast<std::size_t>(s)]   = static_cast<std::uint8_t>(s);
        g.plain_of[static_cast<std::size_t>(s)] = static_cast<std::int8_t>(s);
        g.file_of[static_cast<std::size_t>(s)]  = static_cast<std::uint8_t>(s % 8);
        g.rank_of[static_cast<std::size_t>(s)]  = static_cast<std::uint8_t>(s / 8);
        g.all |= bit(s);
        if (s / 8 == 7) {
            g.promotion[0] |= bit(s);
        }
        if (s / 8 == 0) {
            g.promotion[1] |= bit(s);
        }
    }
    constexpr int df[4] = {0, 0, 1, -1};
    constexpr int dr[4] = {1, -1, 0, 0};
    for (int s = 0; s < 64; ++s) {
        const int f = s % 8;
        const int r = s / 8;
        for (int d = 0; d < 4; ++d) {
            const int f1 = f + df[d];
            const int r1 = r + dr[d];
            if (f1 >= 0 && f1 < 8 && r1 >= 0 && r1 < 8) {
                g.can_step[static_cast<std::size_t>(d)] |= bit(s);
            }
            const int f2 = f + 2 * df[d];
            const int r2 = r + 2 * dr[d];
            if (f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 8) {
                g.can_jump[static_cast<std::size_t>(d)] |= bit(s);
            }
        }
    }
    return g;
}

// Checks that every step computed from coordinates is the constant shift of its direction.
[[nodiscard]] constexpr bool steps_are_shifts(const Geometry& g) {
    for (int s = 0; s < g.squares; ++s) {
        const int b = g.bit_of[static_cast<std::size_t>(s)];
        for (std::size_t d = 0; d < 4; ++d) {
            if (has(g.can_step[d], b)) {
                const int n = b + g.delta[d];
                if (n < 0 || n >= 64 || !has(g.all, n)) {
                    return false;
                }
            } else {
                const int n = b + g.delta[d];
                if (n >= 0 && n < 64 && has(g.all, n) && g.topology != Topology::Orthogonal8) {
                    return false;  // a ghost bit failed to stop a wrap-around
                }
            }
        }
    }
    return true;
}

}  // namespace detail

inline constexpr Geometry kDiagonal8   = detail::make_diagonal(Topology::Diagonal8, 4);
inline constexpr Geometry kDiagonal10  = detail::make_diagonal(Topology::Diagonal10, 5);
inline constexpr Geometry kOrthogonal8 = detail::make_orthogonal();

static_assert(detail::steps_are_shifts(kDiagonal8));
static_assert(detail::steps_are_shifts(kDiagonal10));
static_assert(detail::steps_are_shifts(kOrthogonal8));
static_assert(popcount(kDiagonal8.all) == 32 && popcount(kDiagonal10.all) == 50);

[[nodiscard]] constexpr const Geometry& geometry(Topology t) noexcept {
    switch (t) {
    case Topology::Diagonal8:
        return kDiagonal8;
    case Topology::Diagonal10:
        return kDiagonal10;
    case Topology::Orthogonal8:
        return kOrthogonal8;
    }
    return kDiagonal8;
}

}  // namespace papan::core
