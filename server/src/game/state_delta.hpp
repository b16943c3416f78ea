// Events as deltas (docs/protocol.md, "Game state"): what changed between two game states.
#pragma once

#include <nlohmann/json.hpp>

namespace papan::server {

// The state fields of `after` whose value differs from `before`, with their new values; the
// move list is not sent whole: `moves_keep` (how many of before's moves stay) and `moves_add`
// (the moves after them) appear when it changed. `clock` is always sent when the game has one
// (its display values move with time even where nothing else changed). The chat is left out:
// a delta never carries it whole; the room adds the one line a chat event writes (`chat_add`,
// which the client appends, keeping the last 100). Applying the result to `before` gives
// `after`, the chat aside (the web client's applyDelta and the load tool's apply_state_delta).
[[nodiscard]] nlohmann::json state_delta(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace papan::server
