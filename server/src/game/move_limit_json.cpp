#include "game/move_limit_json.hpp"

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

}  // namespace

nlohmann::json move_limit_json(const core::DrawCounter& d) {
    // Counters count plies, but the Russian three-kings rule counts the stronger side's moves.
    const int moves = d.rule == core::DrawRule::RussianThreeKings ? d.limit : (d.limit + 1) / 2;
    nlohmann::json j{{"rule", d.key},
                     {"text", d.text},
                     {"limit_moves", moves},
                     {"moves_left", d.moves_left},
                     {"plies_left", d.plies_left}};
    if (d.rule == core::DrawRule::NoProgress) {
        const auto kind = no_progress_key(d.progress);
        if (!kind.empty()) {
            j["kind"] = kind;
        }
    }
    return j;
}

}  // namespace papan::server
