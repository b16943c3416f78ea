// The one text name of every enum the protocol and the store write (docs/protocol.md): colours,
// outcomes, end reasons, statuses, modes, levels, draw rule sets, time control kinds, event kinds,
// error codes. The server's codec, its stores and the browser build (wasm/) all read these
// tables; nothing else spells them. name() of a value never fails; parse_*() of a text gives
// nullopt for one that is not a name.
#pragma once

#include <papan/core/game.hpp>
#include <papan/server/commands.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/time_control.hpp>

#include <optional>
#include <string_view>

namespace papan::server::wire {

[[nodiscard]] constexpr EndReason end_reason(core::Reason r) noexcept {
    return static_cast<EndReason>(r);
}

static_assert(static_cast<int>(EndReason::TimeoutOpponentCannotWin) ==
              static_cast<int>(core::Reason::TimeoutOpponentCannotWin));

[[nodiscard]] std::string_view name(core::Color c) noexcept;    // white | black
[[nodiscard]] std::string_view name(core::Outcome o) noexcept;  // "" | white_wins | ...
[[nodiscard]] std::string_view name(EndReason r) noexcept;      // "" | no_pieces | ...

[[nodiscard]] inline std::string_view name(core::Reason r) noexcept {
    return name(end_reason(r));
}

[[nodiscard]] std::string_view name(GameStatus s) noexcept;  // waiting | playing | over
[[nodiscard]] std::string_view name(GameMode m) noexcept;    // computer | friend | ...
[[nodiscard]] std::string_view name(Level l) noexcept;       // "" | easy | normal | hard
[[nodiscard]] std::string_view
name(core::DrawRuleSet d) noexcept;                           // standard | american_club | ...
[[nodiscard]] std::string_view name(TimeKind k) noexcept;     // "" | byoyomi | fischer
[[nodiscard]] std::string_view name(EventKind k) noexcept;    // start | move | ...
[[nodiscard]] std::string_view name(ErrorCode e) noexcept;    // bad_json | ...
[[nodiscard]] std::string_view name(CommandKind c) noexcept;  // move | resign | ...
[[nodiscard]] std::string_view
name(core::NoProgressRule r) noexcept;  // "" | no_capture_no_man_move | ...

[[nodiscard]] std::optional<core::Color> parse_color(std::string_view s) noexcept;
[[nodiscard]] std::optional<core::Outcome> parse_outcome(std::string_view s) noexcept;
[[nodiscard]] std::optional<EndReason> parse_end_reason(std::string_view s) noexcept;
[[nodiscard]] std::optional<GameStatus> parse_status(std::string_view s) noexcept;
[[nodiscard]] std::optional<GameMode> parse_mode(std::string_view s) noexcept;
[[nodiscard]] std::optional<Level> parse_level(std::string_view s) noexcept;
[[nodiscard]] std::optional<core::DrawRuleSet> parse_draw_rules(std::string_view s) noexcept;
[[nodiscard]] std::optional<TimeKind> parse_time_kind(std::string_view s) noexcept;
[[nodiscard]] std::optional<EventKind> parse_event_kind(std::string_view s) noexcept;
[[nodiscard]] std::optional<ErrorCode> parse_error_code(std::string_view s) noexcept;
[[nodiscard]] std::optional<CommandKind> parse_command(std::string_view s) noexcept;

}  // namespace papan::server::wire
