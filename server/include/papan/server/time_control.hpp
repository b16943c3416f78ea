// Time controls and game clocks, as pure functions of elapsed time (the room owns the state and
// the timers; tests drive these directly).
//
// Byo-yomi (docs/protocol.md, "Clocks"): main time first; then `periods` periods of `period_ms`
// each. A move made inside a period keeps it (the next move starts a fresh period); each period
// left to run out is used up; the clock flags when main time and every period are gone. Fischer:
// main time runs down; `increment_ms` is added after each move; flags at zero.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace papan::server {

enum class TimeKind : std::uint8_t {
    None,
    ByoYomi,
    Fischer,
};

struct TimeControl {
    TimeKind kind             = TimeKind::None;
    std::int64_t main_ms      = 0;
    int periods               = 0;  // byo-yomi
    std::int64_t period_ms    = 0;  // byo-yomi
    std::int64_t increment_ms = 0;  // Fischer

    [[nodiscard]] bool enabled() const noexcept { return kind != TimeKind::None; }

    // "byoyomi:300+3x30", "fischer:180+2", "none": the pairing key and display form.
    [[nodiscard]] std::string key() const;

    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// Default of online and friend games: 5 minutes + 3 x 30 s byo-yomi.
[[nodiscard]] TimeControl default_time_control();

// One player's clock between moves.
struct PlayerClock {
    std::int64_t main_ms = 0;
    int periods          = 0;

    friend bool operator==(const PlayerClock&, const PlayerClock&) = default;
};

// Both players' clocks between moves (by colour: White first) and when the current turn began:
// what is stored with a game, so that a restart goes on from that moment.
struct ClockState {
    std::array<PlayerClock, 2> sides{};
    std::int64_t turn_started_ms = 0;

    friend bool operator==(const ClockState&, const ClockState&) = default;
};

[[nodiscard]] PlayerClock initial_clock(const TimeControl& tc);

// Milliseconds the player can still think from the start of the turn before flagging.
[[nodiscard]] std::int64_t time_to_flag(const TimeControl& tc, const PlayerClock& c);

// The clock as shown `elapsed_ms` into the turn: main time left, periods left (a period that
// ran out is used up) and time left in the running period. nullopt when flagged.
struct ClockView {
    std::int64_t main_ms   = 0;
    int periods            = 0;
    std::int64_t period_ms = 0;  // left in the current byo-yomi period (full period when main > 0)
};

[[nodiscard]] std::optional<ClockView>
clock_at(const TimeControl& tc, const PlayerClock& c, std::int64_t elapsed_ms);

// The clock after a move made `elapsed_ms` into the turn; nullopt when the player had flagged.
[[nodiscard]] std::optional<PlayerClock>
clock_after_move(const TimeControl& tc, const PlayerClock& c, std::int64_t elapsed_ms);

}  // namespace papan::server
