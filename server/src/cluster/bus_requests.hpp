// A player's request about a game as it crosses the bus to the game's node (docs/operations.md,
// "Several nodes"): the typed GameRequest as JSON inside a sealed bus message. A join carries the
// hash of its invite's secret, never the secret (docs/security.md, "The bus").
#pragma once

#include <papan/server/commands.hpp>

#include <nlohmann/json.hpp>

#include <optional>

namespace papan::server {

[[nodiscard]] nlohmann::json request_json(const GameRequest& r);
// nullopt when `j` is not a request this version writes.
[[nodiscard]] std::optional<GameRequest> request_from_json(const nlohmann::json& j);

}  // namespace papan::server
