// One entry of the state's `move_limits` (docs/protocol.md, "Game state"): a running draw
// counter with its rule, the kind of no-progress rule it counts and its length in moves.
#pragma once

#include <papan/core/game.hpp>

#include <nlohmann/json.hpp>

namespace papan::server {

[[nodiscard]] nlohmann::json move_limit_json(const core::DrawCounter& d);

}  // namespace papan::server
