// The evaluation as one template over an accumulator: the engine's accumulator sums weights
// (WeightSum, below), the fitting code's records the features (eval.cpp, eval_features()). Both
// run the same code, so what is fitted is exactly what the engine computes.
#pragma once

#include "endgame.hpp"
#include "layout.hpp"
#include "patterns.hpp"
#include "terms.hpp"

#include <algorithm>
#include <cstdint>

namespace papan::engine::detail::eval {

template <core::VariantId V, class Acc>
[[gnu::always_inline]] inline void accumulate(const core::Position& pos, Acc& acc) noexcept {
    add_terms<V>(pos, acc);
    add_piece_squares<core::rule_set<V>.topology>(pos, acc);
    add_patterns<core::rule_set<V>.topology>(pos, acc);
}

// Middle-game share of the interpolation: pieces on the board out of the starting count.
struct Phase {
    int middle = 0;
    int total  = 1;
};

template <core::VariantId V>
[[nodiscard]] inline Phase phase(const core::Position& pos) noexcept {
    constexpr int total = 2 * core::rule_set<V>.men_per_side;
    return Phase{std::min(core::popcount(pos.occupied()), total), total};
}

// The search's form of a weight set ("folded", fold.hpp): int32 entries, middle game in the low
// 16 bits and endgame in the high 16:
//   [0, kTerms)                      the scalar terms
//   [kTerms, + regions * 6561)       for region Q and White's index i: T_Q[i] - T_rot(Q)[mirror(i)]
//                                    plus, for each square the region owns, the whole value of a
//                                    man there (fold.hpp, piece_value())
//   then per (kind, colour, chunk)   the summed piece-square values of every chunk value (for
//                                    men: their whole values, read only for regionless squares)
// so a region or a chunk of pieces costs one load.
[[nodiscard]] constexpr std::int32_t pack(int mg, int eg) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint16_t>(mg)) |
                                     (static_cast<std::uint32_t>(eg) << 16));
}

[[nodiscard]] constexpr int packed_mg(std::int32_t x) noexcept {
    return static_cast<std::int16_t>(x & 0xFFFF);
}

[[nodiscard]] constexpr int packed_eg(std::int32_t x) noexcept {
    return x >> 16;
}

[[nodiscard]] constexpr std::size_t folded_region(int region, int index) noexcept {
    return kTerms + static_cast<std::size_t>(region) * kRegionEntries +
           static_cast<std::size_t>(index);
}

[[nodiscard]] constexpr std::size_t
folded_pieces(const Layout& l, int kind, int colour, int chunk, unsigned bits) noexcept {
    return kTerms + static_cast<std::size_t>(l.regions) * kRegionEntries +
           ((static_cast<std::size_t>((kind * 2 + colour) * l.chunks + chunk)) << l.chunk_bits) +
           bits;
}

[[nodiscard]] constexpr std::size_t folded_size(const Layout& l) noexcept {
    return folded_pieces(l, kPieceKinds, 0, 0, 0);
}

// The engine's accumulator. The men's piece-square values and the man and tempo terms are
// folded into the region entries (fold.hpp, piece_value()), so it asks add_terms() and
// add_piece_squares() to leave them out (kMenFolded).
template <core::Topology T>
struct WeightSum {
    static constexpr const Layout& L = layout(T);
    static constexpr bool kMenFolded = true;
    const std::int32_t* folded;
    int mg = 0;
    int eg = 0;

    void add(std::int32_t x) noexcept {
        mg += packed_mg(x);
        eg += packed_eg(x);
    }

    void term(Term t, int coef) noexcept {
        const std::int32_t x = folded[term_pair(t)];
        mg += coef * packed_mg(x);
        eg += coef * packed_eg(x);
    }

    void pattern(int region, int white) noexcept { add(folded[folded_region(region, white)]); }

    void pieces(int kind, int colour, int chunk, unsigned bits) noexcept {
        add(folded[folded_pieces(L, kind, colour, chunk, bits)]);
    }
};

// Hundredths of a man, side to move's view. `w`: the variant's folded weights.
template <core::VariantId V>
[[nodiscard]] inline int evaluate_with(const core::Position& pos, const std::int32_t* w) noexcept {
    WeightSum<core::rule_set<V>.topology> s{w};
    accumulate<V>(pos, s);
    const Phase ph    = phase<V>(pos);
    const int mixed   = (s.mg * ph.middle + s.eg * (ph.total - ph.middle)) / ph.total;
    int score         = mixed / kFineUnits;
    const auto strong = score >= 0 ? core::Color::White : core::Color::Black;
    score             = score * endgame_scale<V>(pos, strong) / kScaleOne;
    return pos.side == core::Color::White ? score : -score;
}

}  // namespace papan::engine::detail::eval
