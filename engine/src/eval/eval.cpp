// The evaluation's instantiations per variant, the run-time dispatch and the fitting interface
// (evaluation.hpp).
#include "../eval.hpp"

#include "evaluate.hpp"

#include <papan/core/rules/dispatch.hpp>
#include <papan/engine/evaluation.hpp>

#include <array>

namespace papan::engine {

namespace detail {

template <core::VariantId V>
int evaluate(const core::Position& pos, const EvalWeights& weights) noexcept {
    return eval::evaluate_with<V>(pos, weights.folded().data());
}

#define PAPAN_INSTANTIATE(V)                                                                       \
    template int evaluate<core::VariantId::V>(const core::Position&, const EvalWeights&) noexcept;
PAPAN_FOR_EACH_VARIANT(PAPAN_INSTANTIATE)
#undef PAPAN_INSTANTIATE

}  // namespace detail

namespace {

using core::VariantId;
using core::with_variant;
using detail::eval::Term;

struct FeatureRecorder {
    EvalFeatures& out;
    const detail::eval::Layout& layout;

    void add(std::size_t pair, int coef) noexcept {
        if (coef != 0 && out.count < EvalFeatures::kCapacity) {
            out.entries[out.count++] = {static_cast<std::uint32_t>(pair), coef};
        }
    }

    void term(Term t, int coef) noexcept { add(detail::eval::term_pair(t), coef); }

    void pattern(int region, int white) noexcept {
        const auto& g = layout.region[static_cast<std::size_t>(region)];
        add(detail::eval::region_pair(layout, region, white), 1);
        add(detail::eval::region_pair(layout, g.rotated, detail::eval::mirror_index(white)), -1);
    }

    void pieces(int kind, int colour, int chunk, unsigned bits) noexcept {
        const core::Geometry& geo = core::geometry(layout.topology);
        for (int b = 0; b < layout.chunk_bits; ++b) {
            if (((bits >> b) & 1U) == 0) {
                continue;
            }
            const int plain =
                geo.plain_of[static_cast<std::size_t>(chunk * layout.chunk_stride + b)];
            if (colour == 0) {
                add(detail::eval::square_pair(layout, kind, plain), 1);
            } else {
                add(detail::eval::square_pair(layout, kind, layout.squares - 1 - plain), -1);
            }
        }
    }
};

// Hand-set values (hundredths of a man), the old evaluation's: a king is worth about 3 men with
// flying kings on 10x10, 2.5 on 8x8, 1.6 with short kings.
// The men's piece-square start: advancement by rank from the own back row, a centre bonus
// (files c .. size-3 of the middle four ranks), a side-file penalty and the old evaluation's
// back-row guard (it held while the opponent had no king and 5 pieces or more; here it is the
// middle-game value only, so it fades as the board empties). Without the guard the start lost
// to the old evaluation in Thai by 84 Elo, with it level (docs/engine.md, "Strength"). The old
// evaluation had no balance term: 0.
struct HandValues {
    int king, man_mobility, king_mobility, runaway_to_move, runaway_waiting, balance, trade_down,
        support;
    std::array<int, 10> advance;
    int centre, edge, back_guard;
};

template <VariantId V>
constexpr HandValues hand_values() {
    constexpr const core::RuleSet& R = core::rule_set<V>;
    if constexpr (R.topology == core::Topology::Orthogonal8) {
        return {300, 1, 2, 140, 40, 0, 3, 3, {0, 0, 3, 7, 12, 18, 26, 0, 0, 0}, 3, -2, 0};
    } else if constexpr (R.topology == core::Topology::Diagonal10) {
        return {300, 2, 3, 150, 40, 0, 3, 0, {0, 1, 2, 4, 6, 8, 11, 14, 18, 0}, 4, -3, 4};
    } else if constexpr (R.king_range == core::KingRange::Flying) {
        return {250, 2, 3, 110, 30, 0, 3, 0, {0, 2, 4, 7, 10, 14, 18, 0, 0, 0}, 5, -3, 8};
    } else {
        return {160, 2, 4, 50, 15, 0, 3, 0, {0, 2, 4, 6, 9, 12, 15, 0, 0, 0}, 5, -2, 10};
    }
}

}  // namespace

EvalLayoutInfo eval_layout(VariantId variant) noexcept {
    const auto& l = detail::eval::layout(core::rules(variant).topology);
    EvalLayoutInfo info;
    info.terms          = detail::eval::kTerms;
    info.squares        = static_cast<std::size_t>(l.squares);
    info.first_region   = detail::eval::first_region_pair(l);
    info.regions        = static_cast<std::size_t>(l.regions);
    info.region_entries = detail::eval::kRegionEntries;
    info.weight_count   = detail::eval::weight_count(l);
    info.id             = detail::eval::layout_id(l);
    info.fine_units     = detail::eval::kFineUnits;
    info.term_names     = detail::eval::kTermNames;
    return info;
}

void eval_features(const core::Position& pos, EvalFeatures& out) noexcept {
    out.count = 0;
    with_variant(pos.variant, [&]<VariantId V>() {
        FeatureRecorder rec{out, detail::eval::layout(core::rule_set<V>.topology)};
        detail::eval::accumulate<V>(pos, rec);
        const auto ph   = detail::eval::phase<V>(pos);
        out.phase       = ph.middle;
        out.phase_total = ph.total;
        out.scale_white = detail::eval::endgame_scale<V>(pos, core::Color::White);
        out.scale_black = detail::eval::endgame_scale<V>(pos, core::Color::Black);
    });
}

int static_eval(const core::Position& pos, const EvalWeights* weights) noexcept {
    const EvalWeights& w = weights != nullptr && weights->variant() == pos.variant
                               ? *weights
                               : EvalWeights::builtin(pos.variant);
    return with_variant(pos.variant, [&]<VariantId V>() { return detail::evaluate<V>(pos, w); });
}

std::vector<std::int16_t> initial_weights(VariantId variant) {
    std::vector<std::int16_t> w(eval_layout(variant).weight_count, 0);
    with_variant(variant, [&]<VariantId V>() {
        constexpr HandValues h = hand_values<V>();
        const auto set         = [&w](Term t, int value) {
            const std::size_t p = detail::eval::term_pair(t);
            w[2 * p]            = static_cast<std::int16_t>(value * detail::eval::kFineUnits);
            w[2 * p + 1]        = static_cast<std::int16_t>(value * detail::eval::kFineUnits);
        };
        set(Term::Man, 100);
        set(Term::King, h.king);
        set(Term::ManMobility, h.man_mobility);
        set(Term::KingMobility, h.king_mobility);
        set(Term::RunawayToMove, h.runaway_to_move);
        set(Term::RunawayWaiting, h.runaway_waiting);
        set(Term::Balance, h.balance);
        set(Term::TradeDown, h.trade_down);
        set(Term::Support, h.support);
        const auto& l           = detail::eval::layout(core::rule_set<V>.topology);
        const core::Geometry& g = core::geometry(l.topology);
        for (int sq = 0; sq < l.squares; ++sq) {
            const int f     = g.file_of[static_cast<std::size_t>(sq)];
            const int r     = g.rank_of[static_cast<std::size_t>(sq)];
            const int n     = g.size;
            const bool mid  = f >= 2 && f <= n - 3 && r >= n / 2 - 2 && r <= n / 2 + 1;
            const int value = h.advance[static_cast<std::size_t>(r)] + (mid ? h.centre : 0) +
                              (f == 0 || f == n - 1 ? h.edge : 0);
            const std::size_t p = detail::eval::square_pair(l, 0, sq);
            w[2 * p] = w[2 * p + 1] = static_cast<std::int16_t>(value * detail::eval::kFineUnits);
            if (r == 0) {
                w[2 * p] =
                    static_cast<std::int16_t>(w[2 * p] + h.back_guard * detail::eval::kFineUnits);
            }
        }
    });
    return w;
}

}  // namespace papan::engine
