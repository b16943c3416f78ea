// GameClock: both players' clocks of a game as a value (docs/protocol.md, "Clocks"): the time
// control, each side's clock between moves and when the current turn began. Every answer is a
// function of the time given: the room's timer asks when a flag is due, a move is charged at the
// time it arrived, a restart goes on from the stored turn start.
#pragma once

#include <papan/core/types.hpp>
#include <papan/server/time_control.hpp>

#include <array>
#include <cstdint>

namespace papan::server {

struct GameClock {
    TimeControl tc;
    ClockState state;

    // Both sides with their full time, the turn starting at now_ms.
    [[nodiscard]] static GameClock fresh(const TimeControl& tc, std::int64_t now_ms);

    [[nodiscard]] bool enabled() const noexcept { return tc.enabled(); }

    [[nodiscard]] const PlayerClock& of(core::Color c) const noexcept {
        return state.sides[static_cast<std::size_t>(core::index(c))];
    }

    [[nodiscard]] PlayerClock& of(core::Color c) noexcept {
        return state.sides[static_cast<std::size_t>(core::index(c))];
    }

    // Milliseconds since the current turn began (0 for a time before it).
    [[nodiscard]] std::int64_t elapsed(std::int64_t now_ms) const noexcept;
    // Whether `side`, to move since the turn began, has run out of time by now_ms.
    [[nodiscard]] bool flagged(core::Color side, std::int64_t now_ms) const;
    // When `side`, to move, flags: milliseconds after the turn began.
    [[nodiscard]] std::int64_t flag_due_ms(core::Color side) const;
    // `side` moved at now_ms: its clock after the move (Fischer adds the increment), and true;
    // false, and nothing changes, when its time had run out.
    bool charge(core::Color side, std::int64_t now_ms);

    // `side` ran out of time: nothing left.
    void flag(core::Color side) noexcept { of(side) = PlayerClock{0, 0}; }

    void start_turn(std::int64_t now_ms) noexcept { state.turn_started_ms = now_ms; }

    // What `c`'s clock shows at now_ms: counting down when `running` (its side is to move and
    // the clocks run), else as it stood after its last move.
    [[nodiscard]] ClockView view(core::Color c, bool running, std::int64_t now_ms) const;

    friend bool operator==(const GameClock&, const GameClock&) = default;
};

}  // namespace papan::server
