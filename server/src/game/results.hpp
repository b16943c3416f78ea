// What the end of a game writes besides its row, in the same transaction (docs/protocol.md,
// "Ratings and rewards"): both players' ratings of a rated game and the reward points of a game
// of at least 16 plies (not hot-seat), within the daily cap. Taken from the session as data, so
// the store thread needs nothing else.
#pragma once

#include "game/session.hpp"

#include <papan/server/store.hpp>

#include <array>
#include <optional>
#include <string>

namespace papan::server {

inline constexpr int kRewardMinPlies = 16;

struct ResultsWrite {
    struct Seat {
        std::string player_id;
        std::optional<std::int64_t> user_id;
        bool computer = false;
        double score  = 0;  // 1 a win, 0.5 a draw, 0 a loss
    };

    std::string game;
    std::string variant;
    std::array<Seat, 2> seats;
    bool rated   = false;
    bool rewards = false;
    std::string day;  // UTC "YYYY-MM-DD"
    int daily_cap      = 0;
    std::int64_t at_ms = 0;

    // Writes them (inside the caller's transaction); the ratings before and after, when rated.
    std::optional<Ratings> write(Store& store) const;
};

[[nodiscard]] ResultsWrite
results_of(const GameSession& s, const GameSettings& settings, std::int64_t now_ms);

// "YYYY-MM-DD" of a time in ms since the epoch, UTC (reward points are counted per UTC day).
[[nodiscard]] std::string utc_day(std::int64_t ms);

}  // namespace papan::server
