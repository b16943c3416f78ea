// JSON pieces shared by rooms, the lobby and the HTTP handlers: colour, outcome and reason keys,
// square lists, time controls and stored clocks (docs/protocol.md names every field).
#pragma once

#include <papan/core/game.hpp>
#include <papan/server/time_control.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace papan::server {

[[nodiscard]] std::string_view color_key(core::Color c) noexcept;
[[nodiscard]] std::string_view reason_key(core::Reason r) noexcept;
[[nodiscard]] std::string_view outcome_key(core::Outcome o) noexcept;

// Square numbers of the set bits, ascending.
[[nodiscard]] nlohmann::json squares_json(core::VariantId v, core::Bitboard b);

// A time control as stored and sent (null for none), and back (TimeKind::None when not one).
[[nodiscard]] nlohmann::json time_control_json(const TimeControl& tc);
[[nodiscard]] TimeControl time_control_from_json(const nlohmann::json& j);

// Both players' clocks between moves and when the current turn began, as stored with a game.
[[nodiscard]] nlohmann::json clock_state_json(const std::array<PlayerClock, 2>& c,
                                              std::int64_t turn_started_ms);

// "YYYY-MM-DD" of a time in ms since the epoch, UTC (reward points are counted per UTC day).
[[nodiscard]] std::string utc_day(std::int64_t ms);

}  // namespace papan::server
