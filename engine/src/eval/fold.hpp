// Builds the search's form of a weight set (evaluate.hpp, "folded"). Sums that do not fit 16 bits
// saturate (no fitted set comes near: pattern entries are a few hundred units).
#pragma once

#include "evaluate.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

namespace papan::engine::detail::eval {

// A piece's own values on the square `plain`, counted for White (Black's negated, from its
// turned square): its piece-square value and, for a man, the man term and the tempo term times
// its rank. A man's three are linear in the men, so the search's form carries them per man
// (WeightSum::kMenFolded): inside the entries of the region that owns the square
// (owner_region()), or in the piece-square chunks for a square no region holds.
struct PieceValue {
    int mg = 0;
    int eg = 0;
};

[[nodiscard]] inline PieceValue
piece_value(const Layout& l, std::span<const std::int16_t> w, int kind, int colour, int plain) {
    const int own         = colour == 0 ? plain : l.squares - 1 - plain;
    const std::size_t psq = square_pair(l, kind, own);
    int mg                = w[2 * psq];
    int eg                = w[2 * psq + 1];
    if (kind == 0) {
        const core::Geometry& g = core::geometry(l.topology);
        const int white_rank    = g.rank_of[static_cast<std::size_t>(plain)];
        const int rank          = colour == 0 ? white_rank : g.size - 1 - white_rank;
        const int tempo_rank    = rank >= 1 && rank <= g.size - 2 ? rank : 0;  // as add_terms
        const std::size_t man   = term_pair(Term::Man);
        const std::size_t tempo = term_pair(Term::Tempo);
        mg += w[2 * man] + tempo_rank * w[2 * tempo];
        eg += w[2 * man + 1] + tempo_rank * w[2 * tempo + 1];
    }
    const int sign = colour == 0 ? 1 : -1;
    return PieceValue{sign * mg, sign * eg};
}

[[nodiscard]] inline std::vector<std::int32_t> fold(const Layout& l,
                                                    std::span<const std::int16_t> w) {
    const auto sat          = [](int x) { return std::clamp(x, -32768, 32767); };
    const core::Geometry& g = core::geometry(l.topology);
    std::vector<std::int32_t> out(folded_size(l));
    for (std::size_t t = 0; t < kTerms; ++t) {
        out[t] = pack(w[2 * t], w[2 * t + 1]);
    }
    constexpr std::array<int, kRegionSquares> pow3 = {1, 3, 9, 27, 81, 243, 729, 2187};
    for (int r = 0; r < l.regions; ++r) {
        const int rot = l.region[static_cast<std::size_t>(r)].rotated;
        // The men's own values of the squares this region owns, by digit (1 White, 2 Black).
        std::array<std::array<PieceValue, 3>, kRegionSquares> owned{};
        for (int j = 0; j < kRegionSquares; ++j) {
            const int bit = region_square_bit(l, r, j);
            if (owner_region(l, bit) == r) {
                const int plain                       = g.plain_of[static_cast<std::size_t>(bit)];
                owned[static_cast<std::size_t>(j)][1] = piece_value(l, w, 0, 0, plain);
                owned[static_cast<std::size_t>(j)][2] = piece_value(l, w, 0, 1, plain);
            }
        }
        for (int i = 0; i < kRegionEntries; ++i) {
            const std::size_t a = region_pair(l, r, i);
            const std::size_t b = region_pair(l, rot, mirror_index(i));
            int mg              = w[2 * a] - w[2 * b];
            int eg              = w[2 * a + 1] - w[2 * b + 1];
            for (int j = 0; j < kRegionSquares; ++j) {
                const auto digit =
                    static_cast<std::size_t>(i / pow3[static_cast<std::size_t>(j)] % 3);
                mg += owned[static_cast<std::size_t>(j)][digit].mg;
                eg += owned[static_cast<std::size_t>(j)][digit].eg;
            }
            out[folded_region(r, i)] = pack(sat(mg), sat(eg));
        }
    }
    // Piece squares: a chunk value's pieces summed; Black's counted from its side (turned
    // square) and subtracted (piece_value(): a man's whole own value).
    for (int kind = 0; kind < kPieceKinds; ++kind) {
        for (int colour = 0; colour < 2; ++colour) {
            for (int c = 0; c < l.chunks; ++c) {
                for (unsigned v = 0; v < (1U << l.chunk_bits); ++v) {
                    int mg = 0;
                    int eg = 0;
                    for (int b = 0; b < l.chunk_bits; ++b) {
                        const int plain =
                            g.plain_of[static_cast<std::size_t>(c * l.chunk_stride + b)];
                        if (((v >> b) & 1U) == 0 || plain < 0) {
                            continue;
                        }
                        const PieceValue p = piece_value(l, w, kind, colour, plain);
                        mg += p.mg;
                        eg += p.eg;
                    }
                    out[folded_pieces(l, kind, colour, c, v)] = pack(sat(mg), sat(eg));
                }
            }
        }
    }
    return out;
}

}  // namespace papan::engine::detail::eval
