// Builds the search's form of a weight set (evaluate.hpp, "folded"). Sums that do not fit 16 bits
// saturate (no fitted set comes near: pattern entries are a few hundred units).
#pragma once

#include "evaluate.hpp"

#include <span>
#include <vector>

namespace papan::engine::detail::eval {

[[nodiscard]] inline std::vector<std::int32_t> fold(const Layout& l,
                                                    std::span<const std::int16_t> w) {
    const auto sat = [](int x) { return std::clamp(x, -32768, 32767); };
    std::vector<std::int32_t> out(folded_size(l));
    for (std::size_t t = 0; t < kTerms; ++t) {
        out[t] = pack(w[2 * t], w[2 * t + 1]);
    }
    for (int r = 0; r < l.regions; ++r) {
        const int rot = l.region[static_cast<std::size_t>(r)].rotated;
        for (int i = 0; i < kRegionEntries; ++i) {
            const std::size_t a = region_pair(l, r, i);
            const std::size_t b = region_pair(l, rot, mirror_index(i));
            out[folded_region(r, i)] =
                pack(sat(w[2 * a] - w[2 * b]), sat(w[2 * a + 1] - w[2 * b + 1]));
        }
    }
    // Piece squares: a chunk value's pieces summed; Black's counted from its side (turned
    // square) and subtracted.
    const core::Geometry& g = core::geometry(l.topology);
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
                        const int own  = colour == 0 ? plain : l.squares - 1 - plain;
                        const auto p   = square_pair(l, kind, own);
                        const int sign = colour == 0 ? 1 : -1;
                        mg += sign * w[2 * p];
                        eg += sign * w[2 * p + 1];
                    }
                    out[folded_pieces(l, kind, colour, c, v)] = pack(sat(mg), sat(eg));
                }
            }
        }
    }
    return out;
}

}  // namespace papan::engine::detail::eval
