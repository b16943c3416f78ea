// Endgame knowledge: the factor (in sixteenths) by which a score is scaled down when the side it
// favours cannot force a win with the material on the board (the draw rules and the theory of
// each family). Not learned: the fit sees these factors as fixed (see eval_features()).
#pragma once

#include "terms.hpp"

namespace papan::engine::detail::eval {

inline constexpr int kScaleOne = 16;

template <core::VariantId V>
[[nodiscard]] inline int endgame_scale(const core::Position& pos, core::Color strong) noexcept {
    constexpr const core::RuleSet& R = core::rule_set<V>;
    constexpr const BoardMasks& M    = VariantMasks<V>::M;
    const core::Color weak           = core::opposite(strong);
    const int wk                     = core::popcount(pos.kings_of(weak));
    if (wk == 0) {
        return kScaleOne;
    }
    const int sp         = core::popcount(pos.of(strong));
    const int wp         = core::popcount(pos.of(weak));
    const int sk         = core::popcount(pos.kings_of(strong));
    const bool lone_king = wp == 1;
    if constexpr (R.topology == core::Topology::Orthogonal8) {
        if (lone_king && sp == 1 && sk == 1) {
            return 0;  // rules.md: lone king vs lone king is drawn
        }
        if (lone_king && sp <= 2 && sk >= 1) {
            return kScaleOne / 4;
        }
        return kScaleOne;
    } else if constexpr (R.king_range == core::KingRange::Short) {
        if (lone_king && sp == 1) {
            return 1;  // 1 king vs 1 king (American, Italian): drawn
        }
        return kScaleOne;
    } else if constexpr (R.topology == core::Topology::Diagonal10) {
        if (lone_king && sp <= 3) {
            return 1;  // one king holds 3 pieces; the 16/5-move rules end it anyway
        }
        if (lone_king && sk <= 3) {
            return kScaleOne / 2;  // one king vs many men: the men must crown first
        }
        if (sp - wp <= 2 && sk >= 1) {
            return kScaleOne / 2;  // kings on both sides and a small lead: drawish
        }
        return kScaleOne;
    } else {
        if (lone_king && sp <= 2) {
            return 1;
        }
        if (lone_king && sp == 3) {
            // Three pieces beat a lone king only if it cannot reach the long diagonal.
            return (pos.kings_of(weak) & M.main_diagonal) != 0 ? 1 : kScaleOne / 2;
        }
        if (sp - wp <= 1 && sk >= 1) {
            return kScaleOne / 2;
        }
        return kScaleOne;
    }
}

}  // namespace papan::engine::detail::eval
