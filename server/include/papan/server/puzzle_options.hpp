// What an operator sets about puzzles (`papan serve --puzzles DIR`, `--no-puzzle-mining`,
// `--puzzle-rate N`): docs/operations.md and docs/protocol.md, "Puzzles".
#pragma once

#include <filesystem>

namespace papan::server {

struct PuzzleOptions {
    // The shipped set (puzzles/<variant>.jsonl). Empty: ./puzzles if it exists, else the
    // directory `puzzles` next to the program (the build copies the set there).
    std::filesystem::path set_dir;
    bool mine = true;  // mine the finished games in the background (lowest CPU priority)
    // The miner's pause when it has read every finished game (tests shorten it).
    int mine_idle_ms = 30'000;
    // Requests to /api/puzzles/* per address per minute, and attempts; beyond, 429. 0: no cap.
    int requests_per_minute = 120;
    int attempts_per_minute = 40;
};

}  // namespace papan::server
