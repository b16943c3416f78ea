#include "search/draw_tracker.hpp"

#include "search/variants.hpp"

namespace papan::engine::detail {

template <core::VariantId V>
std::optional<Reset> DrawTracker<V>::reset_of(core::DrawRule rule,
                                              const core::GameOptions& options) noexcept {
    switch (rule) {
    case core::DrawRule::None:
    case core::DrawRule::Repetition:
    case core::DrawRule::InsufficientMaterial:
        return std::nullopt;
    case core::DrawRule::TotalMoves:
        return Reset::Never;
    case core::DrawRule::NoProgress:
        switch (R.draw.no_progress) {
        case core::NoProgressRule::NoCaptureNoManMove:
        case core::NoProgressRule::KingsOnlyNoCapture:
            return Reset::ManMove;
        case core::NoProgressRule::NoCaptureNoManAdvance:
            return Reset::ManAdvance;
        case core::NoProgressRule::None:
        case core::NoProgressRule::NoCaptureNoCrowning:
            return options.draw_rules == core::DrawRuleSet::RussianOfficial ? Reset::ManMove
                                                                            : Reset::Crowning;
        }
        return Reset::Crowning;
    case core::DrawRule::InternationalKingVsThree:
    case core::DrawRule::InternationalKingVsTwo:
    case core::DrawRule::TurkishKingVsKing:
    case core::DrawRule::RussianThreeKings:
    case core::DrawRule::RussianLongDiagonal:
    case core::DrawRule::RussianSmallEndgame:
    case core::DrawRule::RussianKingsFourFive:
    case core::DrawRule::RussianKingsSixSeven:
        return Reset::Crowning;
    }
    return Reset::Crowning;
}

template <core::VariantId V>
void DrawTracker<V>::start(const core::Game& game) {
    // Key and reversibility history of the game, then room for the tree.
    const auto positions = game.positions();
    const auto moves     = game.moves();
    keys_.assign(positions.size() + kMaxPly + 2, 0);
    rev_.assign(positions.size() + kMaxPly + 2, 0);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        keys_[i] = positions[i].key();
        if (i > 0) {
            rev_[i] = irreversible(positions[i - 1], moves[i - 1]) ? 0 : rev_[i - 1] + 1;
        }
    }
    root_index_ = positions.size() - 1;

    // Move-limit counters that apply at the root.
    left_.assign(static_cast<std::size_t>(kMaxPly + 8), {});
    counters_ = 0;
    for (const core::DrawCounter& c : game.move_limits()) {
        if (counters_ == kMaxCounters || c.plies_left <= 0) {
            continue;
        }
        const std::optional<Reset> r = reset_of(c.rule, game.options());
        if (!r) {
            continue;
        }
        const auto k = static_cast<std::size_t>(counters_);
        reset_[k]    = *r;
        left_[0][k]  = static_cast<std::int16_t>(std::min(c.plies_left, 30000));
        ++counters_;
    }
}

#define PAPAN_INSTANTIATE(V) template class DrawTracker<core::VariantId::V>;
PAPAN_FOR_EACH_VARIANT(PAPAN_INSTANTIATE)
#undef PAPAN_INSTANTIATE

}  // namespace papan::engine::detail
