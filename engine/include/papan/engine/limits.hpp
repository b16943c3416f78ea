// What a search may spend, and the levels players choose. All times are in seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace papan::engine {

// The most search threads an engine takes (EngineOptions::threads, the --threads options).
inline constexpr int kMaxThreads = 64;

struct SearchLimits {
    int depth           = 0;  // plies; 0 = no depth limit
    std::uint64_t nodes = 0;  // 0 = no node limit
    double move_time    = 0;  // fixed time for this move; 0 = none
    // Game clock of the side to move; time_left < 0 = no clock.
    double time_left = -1;
    double increment = 0;      // Fischer increment added after each move
    int moves_to_go  = 0;      // moves until the next time control; 0 = sudden death
    double byo_yomi  = 0;      // length of one byo-yomi period
    int periods      = 0;      // byo-yomi periods left
    bool infinite    = false;  // until stop()
    // A single legal move under a clock is played at once in a game; analysis sets this to
    // search it like any other (papan/engine/analysis.hpp).
    bool search_forced = false;
};

// Playing strength, as the seeds describe: Easy makes human-like mistakes (not random moves),
// Normal looks a few moves ahead and always resolves captures, Hard searches as deep as its
// time allows, Max is for analysis (no handicap at all).
enum class Level : std::uint8_t {
    Easy,
    Normal,
    Hard,
    Max,
};

[[nodiscard]] std::optional<Level> level_from_string(std::string_view s) noexcept;
[[nodiscard]] std::string_view level_name(Level l) noexcept;

}  // namespace papan::engine
