#include "game/game_json.hpp"

#include <papan/core/notation/squares.hpp>

#include <algorithm>
#include <ctime>
#include <vector>

namespace papan::server {

using Json = nlohmann::json;

std::string_view color_key(core::Color c) noexcept {
    return c == core::Color::White ? "white" : "black";
}

std::string_view reason_key(core::Reason r) noexcept {
    switch (r) {
    case core::Reason::None:
        return "";
    case core::Reason::NoPieces:
        return "no_pieces";
    case core::Reason::NoMoves:
        return "no_moves";
    case core::Reason::Resignation:
        return "resignation";
    case core::Reason::Timeout:
        return "timeout";
    case core::Reason::Agreement:
        return "agreement";
    case core::Reason::Repetition:
        return "repetition";
    case core::Reason::NoProgress:
        return "no_progress";
    case core::Reason::MoveLimit:
        return "move_limit";
    case core::Reason::EndgameRule:
        return "endgame_rule";
    case core::Reason::InsufficientMaterial:
        return "insufficient_material";
    case core::Reason::TimeoutWithDrawClaimable:
        return "timeout_draw_claimable";
    case core::Reason::TimeoutOpponentCannotWin:
        return "timeout_opponent_cannot_win";
    }
    return "";
}

std::string_view outcome_key(core::Outcome o) noexcept {
    switch (o) {
    case core::Outcome::Ongoing:
        return "";
    case core::Outcome::WhiteWins:
        return "white_wins";
    case core::Outcome::BlackWins:
        return "black_wins";
    case core::Outcome::Draw:
        return "draw";
    }
    return "";
}

Json squares_json(core::VariantId v, core::Bitboard b) {
    std::vector<int> sq;
    while (b != 0) {
        sq.push_back(core::square_of_bit(v, core::pop_lsb(b)));
    }
    std::sort(sq.begin(), sq.end());
    return Json(sq);
}

Json time_control_json(const TimeControl& tc) {
    switch (tc.kind) {
    case TimeKind::None:
        return nullptr;
    case TimeKind::ByoYomi:
        return Json{{"kind", "byoyomi"},
                    {"main", static_cast<double>(tc.main_ms) / 1000.0},
                    {"periods", tc.periods},
                    {"period", static_cast<double>(tc.period_ms) / 1000.0}};
    case TimeKind::Fischer:
        return Json{{"kind", "fischer"},
                    {"main", static_cast<double>(tc.main_ms) / 1000.0},
                    {"increment", static_cast<double>(tc.increment_ms) / 1000.0}};
    }
    return nullptr;
}

TimeControl time_control_from_json(const Json& j) {
    TimeControl tc;
    if (!j.is_object() || !j.contains("kind")) {
        return tc;
    }
    const auto ms = [&](const char* k) {
        return static_cast<std::int64_t>(j.value(k, 0.0) * 1000.0);
    };
    if (j["kind"] == "byoyomi") {
        tc.kind      = TimeKind::ByoYomi;
        tc.main_ms   = ms("main");
        tc.periods   = j.value("periods", 0);
        tc.period_ms = ms("period");
    } else if (j["kind"] == "fischer") {
        tc.kind         = TimeKind::Fischer;
        tc.main_ms      = ms("main");
        tc.increment_ms = ms("increment");
    }
    return tc;
}

Json clock_state_json(const std::array<PlayerClock, 2>& c, std::int64_t turn_started_ms) {
    return Json{{"white", {{"main_ms", c[0].main_ms}, {"periods", c[0].periods}}},
                {"black", {{"main_ms", c[1].main_ms}, {"periods", c[1].periods}}},
                {"turn_started_ms", turn_started_ms}};
}

std::string utc_day(std::int64_t ms) {
    const auto t = static_cast<std::time_t>(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

}  // namespace papan::server
