// A game's life outside memory (docs/operations.md, "Room lifecycle"): which stored games a
// node loads at start-up (those whose clock runs: a flag must fall on time), and which end as
// abandoned (untimed, unfinished and untouched for --abandon-after: a documented, unrated
// result). Everything else is loaded on demand (resume, join, move) and unloaded when idle.
#pragma once

#include <papan/server/store.hpp>

#include <cstdint>

namespace papan::server {

// Playing with a time control: its clock runs whether or not anybody is connected.
[[nodiscard]] bool clock_runs(const GameRecord& rec);

// Ends `rec` as abandoned (status over, reason Abandoned, outcome Ongoing: nobody won, no rating
// moves; updated now) when it is unfinished, untimed or not yet started, and was last changed
// before now_ms - abandon_after_ms; true when it did (the caller stores it).
// abandon_after_ms <= 0: never.
bool abandon_if_stale(GameRecord& rec, std::int64_t now_ms, std::int64_t abandon_after_ms);

}  // namespace papan::server
