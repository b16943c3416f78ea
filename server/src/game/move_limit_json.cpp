#include "game/move_limit_json.hpp"

#include <papan/core/rules/registry.hpp>

namespace papan::server {

namespace {

std::string_view no_progress_key(core::NoProgressRule r) {
    switch (r) {
    case core::NoProgressRule::NoCaptureNoManMove:
        return "no_capture_no_man_move";
    case core::NoProgressRule::KingsOnlyNoCapture:
        return "kings_only_no_capture";
    case core::NoProgressRule::NoCaptureNoManAdvance:
        return "no_capture_no_man_advance";
    case core::NoProgressRule::NoCaptureNoCrowning:
        return "no_capture_no_crowning";
    case core::NoProgressRule::None:
        break;
    }
    return "";
}

// What resets the game's no-progress counter. The variant's own rule under its standard draw
// rules; the American club and Russian federation sets count king moves without capture (as
// the core's Game sets them up: core/src/game_draw_rules.cpp).
core::NoProgressRule no_progress_of(const core::Game& game) {
    switch (game.options().draw_rules) {
    case core::DrawRuleSet::Standard:
        return core::rules(game.variant()).draw.no_progress;
    case core::DrawRuleSet::AmericanClub:
    case core::DrawRuleSet::RussianOfficial:
        return core::NoProgressRule::KingsOnlyNoCapture;
    }
    return core::NoProgressRule::None;
}

}  // namespace

nlohmann::json move_limit_json(const core::Game& game, const core::DrawCounter& d) {
    // Counters count plies, but the Russian three-kings rule counts the stronger side's moves.
    const int moves = d.rule == core::DrawRule::RussianThreeKings ? d.limit : (d.limit + 1) / 2;
    nlohmann::json j{{"rule", d.key},
                     {"text", d.text},
                     {"limit_moves", moves},
                     {"moves_left", d.moves_left},
                     {"plies_left", d.plies_left}};
    if (d.rule == core::DrawRule::NoProgress) {
        const auto kind = no_progress_key(no_progress_of(game));
        if (!kind.empty()) {
            j["kind"] = kind;
        }
    }
    return j;
}

}  // namespace papan::server
