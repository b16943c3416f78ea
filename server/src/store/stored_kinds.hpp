// Reading a game's mode and status back from a row: a value this program never writes means the
// row was not written by it, and the load fails (std::runtime_error naming the game).
#pragma once

#include <papan/server/game_kinds.hpp>

#include <string>

namespace papan::server {

[[nodiscard]] GameMode stored_mode(const std::string& text, const std::string& game_id);
[[nodiscard]] GameStatus stored_status(const std::string& text, const std::string& game_id);

}  // namespace papan::server
