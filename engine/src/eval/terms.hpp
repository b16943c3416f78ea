// The scalar terms of the evaluation (Term in layout.hpp), computed on whole bitboards: rank
// masks derived from the geometry and one shift per direction.
#pragma once

#include "layout.hpp"

#include <papan/core/geometry.hpp>
#include <papan/core/position.hpp>
#include <papan/core/rules/registry.hpp>

#include <array>

namespace papan::engine::detail::eval {

struct BoardMasks {
    std::array<std::array<core::Bitboard, 10>, 2> rank{};  // [colour][rank from its back row]
    core::Bitboard left          = 0;                      // files a .. the middle
    core::Bitboard main_diagonal = 0;                      // a1-h8 / a1-j10, diagonal boards only
};

[[nodiscard]] constexpr BoardMasks make_masks(const core::Geometry& g) {
    BoardMasks m{};
    const int n = g.size;
    for (int s = 0; s < g.squares; ++s) {
        const auto i           = static_cast<std::size_t>(s);
        const core::Bitboard b = core::bit(g.bit_of[i]);
        const int f            = g.file_of[i];
        const int r            = g.rank_of[i];
        m.rank[0][static_cast<std::size_t>(r)] |= b;
        m.rank[1][static_cast<std::size_t>(n - 1 - r)] |= b;
        if (f < n / 2) {
            m.left |= b;
        }
        if (f == r && g.topology != core::Topology::Orthogonal8) {
            m.main_diagonal |= b;
        }
    }
    return m;
}

template <core::VariantId V>
struct VariantMasks {
    static constexpr const core::RuleSet& R  = core::rule_set<V>;
    static constexpr const core::Geometry& G = core::geometry(R.topology);
    static constexpr BoardMasks M            = make_masks(G);
};

// Whether an accumulator has the men's own values (piece squares, man and tempo terms) in its
// region entries already (WeightSum, evaluate.hpp): then they are neither counted nor added here.
template <class Acc>
inline constexpr bool kMenFolded = requires {
    requires Acc::kMenFolded;
};

// One side's share of the scalar terms, as counts (the caller subtracts Black's from White's).
struct SideCounts {
    int tempo         = 0;
    int man_mobility  = 0;
    int king_mobility = 0;
    bool runaway      = false;
    int balance       = 0;
    int main_diagonal = 0;
    int support       = 0;
};

template <core::VariantId V, core::Color Us, bool WithTempo>
[[nodiscard]] inline SideCounts side_counts(const core::Position& pos,
                                            core::Bitboard empty) noexcept {
    using VM                   = VariantMasks<V>;
    constexpr auto us          = static_cast<std::size_t>(Us);
    constexpr unsigned dirs    = core::man_direction_mask(VM::R.man_moves, VM::R.topology, Us);
    constexpr const auto& G    = VM::G;
    constexpr const auto& M    = VM::M;
    const core::Bitboard men   = pos.men(Us);
    const core::Bitboard kings = pos.kings_of(Us);
    SideCounts s;
    if constexpr (WithTempo) {
        for (std::size_t r = 1; r + 1 < static_cast<std::size_t>(G.size); ++r) {
            s.tempo += static_cast<int>(r) * core::popcount(men & M.rank[us][r]);
        }
    }
    core::Bitboard runaway_to = 0;
    const core::Bitboard near = men & M.rank[us][static_cast<std::size_t>(G.size - 2)];
    for (std::size_t d = 0; d < 4; ++d) {
        if ((dirs >> d) & 1U) {
            s.man_mobility += core::popcount(core::shift(men & G.can_step[d], G.delta[d]) & empty);
            runaway_to |= core::shift(near & G.can_step[d], G.delta[d]) & empty;
        }
    }
    s.runaway = (runaway_to & G.promotion[us]) != 0;
    if (kings != 0) {
        for (std::size_t d = 0; d < 4; ++d) {
            s.king_mobility +=
                core::popcount(core::shift(kings & G.can_step[d], G.delta[d]) & empty);
        }
        s.main_diagonal = core::popcount(kings & M.main_diagonal);
    }
    const int left = core::popcount(men & M.left);
    const int all  = core::popcount(men);
    s.balance      = left > all - left ? 2 * left - all : all - 2 * left;
    if constexpr (VM::R.topology == core::Topology::Orthogonal8) {
        // A Turkish man with a friend right behind cannot be jumped from the front.
        constexpr int back_delta = Us == core::Color::White ? -8 : 8;
        s.support                = core::popcount(men & core::shift(pos.of(Us), -back_delta));
    }
    return s;
}

// Whether the side to move has a man one step from crowning with a free crowning square ahead
// (the runaway term's test, for the side to move only): the quiescence search's crowning check.
template <core::VariantId V, core::Color Us>
[[nodiscard]] inline bool can_step_to_crown(const core::Position& pos) noexcept {
    using VM                  = VariantMasks<V>;
    constexpr auto us         = static_cast<std::size_t>(Us);
    constexpr unsigned dirs   = core::man_direction_mask(VM::R.man_moves, VM::R.topology, Us);
    constexpr const auto& G   = VM::G;
    const core::Bitboard near = pos.men(Us) & VM::M.rank[us][static_cast<std::size_t>(G.size - 2)];
    if (near == 0) {
        return false;
    }
    const core::Bitboard free_crown = G.promotion[us] & ~pos.occupied();
    for (std::size_t d = 0; d < 4; ++d) {
        if (((dirs >> d) & 1U) != 0 &&
            (core::shift(near & G.can_step[d], G.delta[d]) & free_crown) != 0) {
            return true;
        }
    }
    return false;
}

template <core::VariantId V>
[[nodiscard]] inline bool can_step_to_crown(const core::Position& pos) noexcept {
    return pos.side == core::Color::White ? can_step_to_crown<V, core::Color::White>(pos)
                                          : can_step_to_crown<V, core::Color::Black>(pos);
}

// Calls acc.term(term, coefficient) for every scalar term, White's count minus Black's.
template <core::VariantId V, class Acc>
[[gnu::always_inline]] inline void add_terms(const core::Position& pos, Acc& acc) noexcept {
    using VM                   = VariantMasks<V>;
    const core::Bitboard empty = VM::G.all & ~pos.occupied();
    const int wm               = core::popcount(pos.men(core::Color::White));
    const int bm               = core::popcount(pos.men(core::Color::Black));
    const int wk               = core::popcount(pos.kings_of(core::Color::White));
    const int bk               = core::popcount(pos.kings_of(core::Color::Black));
    const bool white_to_move   = pos.side == core::Color::White;
    constexpr bool folded      = kMenFolded<Acc>;
    const SideCounts w         = side_counts<V, core::Color::White, !folded>(pos, empty);
    const SideCounts b         = side_counts<V, core::Color::Black, !folded>(pos, empty);

    if constexpr (!folded) {
        acc.term(Term::Man, wm - bm);
    }
    acc.term(Term::King, wk - bk);
    acc.term(Term::FirstKing, (wk > 0 ? 1 : 0) - (bk > 0 ? 1 : 0));
    if constexpr (!folded) {
        acc.term(Term::Tempo, w.tempo - b.tempo);
    }
    acc.term(Term::ManMobility, w.man_mobility - b.man_mobility);
    acc.term(Term::KingMobility, w.king_mobility - b.king_mobility);
    acc.term(Term::RunawayToMove,
             (white_to_move && w.runaway ? 1 : 0) - (!white_to_move && b.runaway ? 1 : 0));
    acc.term(Term::RunawayWaiting,
             (!white_to_move && w.runaway ? 1 : 0) - (white_to_move && b.runaway ? 1 : 0));
    acc.term(Term::SideToMove, white_to_move ? 1 : -1);
    acc.term(Term::Balance, w.balance - b.balance);
    // Ahead by at least a man at nominal values (a king: 3 men on 10x10 and in Turkish, 2.5
    // with flying kings on 8x8, 1.5 with short kings), fixed so the term stays linear in the
    // weights.
    constexpr int king_halves = VM::R.topology != core::Topology::Diagonal8   ? 6
                                : VM::R.king_range == core::KingRange::Flying ? 5
                                                                              : 3;
    const int full            = 2 * VM::R.men_per_side;
    const int off             = full - (wm + bm + wk + bk);
    const int excess          = 2 * (wm - bm) + king_halves * (wk - bk);
    acc.term(Term::TradeDown, excess >= 2 ? off : excess <= -2 ? -off : 0);
    acc.term(Term::KingMainDiagonal, w.main_diagonal - b.main_diagonal);
    acc.term(Term::Support, w.support - b.support);
}

}  // namespace papan::engine::detail::eval
