// The states and modes of a game, with their one string mapping (the names in the store's rows
// and in the protocol's JSON: docs/protocol.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace papan::server {

enum class GameStatus : std::uint8_t {
    Waiting,  // a friend game whose invitee has not joined
    Playing,
    Over,
};

enum class GameMode : std::uint8_t {
    Computer,  // against the computer, by choice
    Friend,    // by invitation link
    Hotseat,   // one client plays both sides
    Random,    // random pairing (a person, or a computer with a player's name)
    Imported,  // read from a PDN file (POST /api/import): finished, unrated, nobody's seat
};

[[nodiscard]] std::string_view game_status_name(GameStatus s) noexcept;
[[nodiscard]] std::optional<GameStatus> game_status_from_name(std::string_view s) noexcept;
[[nodiscard]] std::string_view game_mode_name(GameMode m) noexcept;
[[nodiscard]] std::optional<GameMode> game_mode_from_name(std::string_view s) noexcept;

}  // namespace papan::server
