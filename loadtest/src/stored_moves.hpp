// The store check's view of the server: a game's stored move list over HTTP.
#pragma once

#include "server_address.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace papan::loadtest {

// GET /api/games/{id}: the stored move texts by ply, from the first of the servers that answers
// (all nodes share the store), trying them from `first` on; nullopt when none does.
[[nodiscard]] std::optional<std::vector<std::string>> fetch_stored_moves(
    const std::vector<ServerAddress>& servers, const std::string& game_id, std::size_t first);

}  // namespace papan::loadtest
