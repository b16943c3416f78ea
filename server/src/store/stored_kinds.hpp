// A game row's typed fields as its columns hold them: kinds by their names
// (papan/server/wire/names.hpp), the time control and the clocks as small JSON objects. Reading
// back a value this program never writes means the row was not written by it, and the load fails
// (std::runtime_error naming the game).
#pragma once

#include <papan/core/game.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/time_control.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace papan::server {

[[nodiscard]] GameMode stored_mode(std::string_view text, const std::string& game_id);
[[nodiscard]] GameStatus stored_status(std::string_view text, const std::string& game_id);
[[nodiscard]] Level stored_level(std::string_view text, const std::string& game_id);
[[nodiscard]] core::Outcome stored_outcome(std::string_view text, const std::string& game_id);
[[nodiscard]] EndReason stored_reason(std::string_view text, const std::string& game_id);
[[nodiscard]] core::DrawRuleSet stored_draw_rules(std::int64_t value, const std::string& game_id);

// {"kind":"byoyomi","main":300.0,"periods":3,"period":30.0}, {"kind":"fischer",...} or null.
[[nodiscard]] std::string time_control_text(const TimeControl& tc);
// TimeKind::None for anything that is not one.
[[nodiscard]] TimeControl stored_time_control(std::string_view text);

// {"white":{"main_ms","periods"},"black":{...},"turn_started_ms"}, or {} when not started.
[[nodiscard]] std::string clocks_text(const std::optional<ClockState>& c);
[[nodiscard]] std::optional<ClockState> stored_clocks(std::string_view text);

}  // namespace papan::server
