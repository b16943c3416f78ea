// GameSettings: the few settings the game layer reads (the composition root fills them from the
// server's options in run_server, net/server.cpp; tests set them directly). 0 turns a limit or a
// timer off.
#pragma once

#include <cstdint>

namespace papan::server {

struct GameSettings {
    // A timed game whose side to move, a person, has not made its first move this long after the
    // turn began is aborted (docs/protocol.md, "Clocks").
    std::int64_t first_move_timeout_ms = 60'000;
    int reward_daily_cap               = 100;  // reward points per player per UTC day
    std::int64_t invite_ttl_ms         = 24LL * 3600 * 1000;  // friend links
    std::int64_t pairing_wait_ms       = 5000;  // random pairing: wait before the computer
    // Room lifecycle (docs/operations.md, "Room lifecycle").
    std::int64_t idle_unload_ms   = 10LL * 60 * 1000;
    std::int64_t abandon_after_ms = 30LL * 24 * 3600 * 1000;
    int max_open_games            = 20;  // unfinished games one player may sit in (create)
};

}  // namespace papan::server
