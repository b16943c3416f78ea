#include "store/stored_kinds.hpp"

#include <papan/server/wire/names.hpp>

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace papan::server {

using Json = nlohmann::json;

namespace {

[[noreturn]] void unknown(std::string_view what, std::string_view text, const std::string& id) {
    throw std::runtime_error("game " + id + ": unknown " + std::string(what) + " '" +
                             std::string(text) + "' in the database");
}

}  // namespace

GameMode stored_mode(std::string_view text, const std::string& game_id) {
    if (const auto m = wire::parse_mode(text)) {
        return *m;
    }
    unknown("mode", text, game_id);
}

GameStatus stored_status(std::string_view text, const std::string& game_id) {
    if (const auto s = wire::parse_status(text)) {
        return *s;
    }
    unknown("status", text, game_id);
}

Level stored_level(std::string_view text, const std::string& game_id) {
    if (const auto l = wire::parse_level(text)) {
        return *l;
    }
    unknown("level", text, game_id);
}

core::Outcome stored_outcome(std::string_view text, const std::string& game_id) {
    if (const auto o = wire::parse_outcome(text)) {
        return *o;
    }
    unknown("outcome", text, game_id);
}

EndReason stored_reason(std::string_view text, const std::string& game_id) {
    if (const auto r = wire::parse_end_reason(text)) {
        return *r;
    }
    unknown("reason", text, game_id);
}

core::DrawRuleSet stored_draw_rules(std::int64_t value, const std::string& game_id) {
    if (value < 0 || value > static_cast<int>(core::DrawRuleSet::RussianOfficial)) {
        unknown("draw rule set", std::to_string(value), game_id);
    }
    return static_cast<core::DrawRuleSet>(value);
}

std::string time_control_text(const TimeControl& tc) {
    const auto seconds = [](std::int64_t ms) { return static_cast<double>(ms) / 1000.0; };
    switch (tc.kind) {
    case TimeKind::None:
        return "null";
    case TimeKind::ByoYomi:
        return Json{{"kind", wire::name(tc.kind)},
                    {"main", seconds(tc.main_ms)},
                    {"periods", tc.periods},
                    {"period", seconds(tc.period_ms)}}
            .dump();
    case TimeKind::Fischer:
        return Json{{"kind", wire::name(tc.kind)},
                    {"main", seconds(tc.main_ms)},
                    {"increment", seconds(tc.increment_ms)}}
            .dump();
    }
    return "null";
}

TimeControl stored_time_control(std::string_view text) {
    TimeControl tc;
    const Json j = Json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) {
        return tc;
    }
    const auto ms = [&](const char* k) {
        const auto it = j.find(k);
        return it != j.end() && it->is_number()
                   ? static_cast<std::int64_t>(it->get<double>() * 1000.0)
                   : std::int64_t{0};
    };
    const auto kind = wire::parse_time_kind(j["kind"].get<std::string>());
    if (kind == TimeKind::ByoYomi) {
        tc.kind    = TimeKind::ByoYomi;
        tc.main_ms = ms("main");
        tc.periods =
            j.contains("periods") && j["periods"].is_number_integer() ? j["periods"].get<int>() : 0;
        tc.period_ms = ms("period");
    } else if (kind == TimeKind::Fischer) {
        tc.kind         = TimeKind::Fischer;
        tc.main_ms      = ms("main");
        tc.increment_ms = ms("increment");
    }
    return tc;
}

std::string clocks_text(const std::optional<ClockState>& c) {
    if (!c) {
        return "{}";
    }
    return Json{{"white", {{"main_ms", c->sides[0].main_ms}, {"periods", c->sides[0].periods}}},
                {"black", {{"main_ms", c->sides[1].main_ms}, {"periods", c->sides[1].periods}}},
                {"turn_started_ms", c->turn_started_ms}}
        .dump();
}

std::optional<ClockState> stored_clocks(std::string_view text) {
    const Json c = Json::parse(text, nullptr, false);
    if (!c.is_object() || !c.contains("white") || !c.contains("black") || !c["white"].is_object() ||
        !c["black"].is_object() || !c.contains("turn_started_ms") ||
        !c["turn_started_ms"].is_number_integer()) {
        return std::nullopt;
    }
    const auto side = [](const Json& s) {
        return PlayerClock{s.value("main_ms", std::int64_t{0}), s.value("periods", 0)};
    };
    return ClockState{{side(c["white"]), side(c["black"])},
                      c["turn_started_ms"].get<std::int64_t>()};
}

}  // namespace papan::server
