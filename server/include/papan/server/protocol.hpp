// The WebSocket game protocol (docs/protocol.md): client messages decoded into ClientMessage,
// error codes, and the limits. Server messages are JSON objects built in game/room_state.cpp,
// game/room.cpp, game/lobby.cpp and api/ws_api.cpp; every one has a "type".
//
// Decoding never throws: malformed JSON, a missing or unknown "type", or a field of the wrong
// type gives a ProtocolError whose code and message go back to the client unchanged.
#pragma once

#include <papan/server/time_control.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace papan::server {

inline constexpr std::size_t kMaxMessageBytes = 64 * 1024;  // larger frames: close 1009

enum class MessageType : std::uint8_t {
    Hello,   // identify: guest nickname and secret, or a session token
    Create,  // new game: computer | friend | hotseat
    Join,    // sit down in a friend game by its invite token
    Resume,  // (re)subscribe to a game, with the last version seen
    Move,    // play a move on a ply
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    DrawClaim,
    Undo,     // against the computer only
    Rematch,  // a new game with colours swapped
    Seek,     // random pairing by variant and time control
    CancelSeek,
    TakebackOffer,  // between people, unrated games: ask to take back one's last move
    TakebackAccept,
    TakebackDecline,
    Chat,  // a line of chat in a friend or random game between people
};

[[nodiscard]] std::string_view message_type_name(MessageType t) noexcept;
[[nodiscard]] std::optional<MessageType> message_type_from_name(std::string_view s) noexcept;

struct ClientMessage {
    MessageType type = MessageType::Hello;
    std::optional<std::int64_t> id;  // echoed in replies and errors ("ref"), optional

    // hello
    std::string name;
    std::string secret;  // guest secret from an earlier welcome
    std::string token;   // session token from /api/login

    // game commands
    std::string game;
    std::optional<int> ply;
    std::vector<int> path;  // from, landing squares... (square numbers)
    std::optional<int> from;
    std::optional<int> to;
    std::vector<int> captures;
    std::string text;  // a move in the variant's notation (alternative to path / from-to); chat

    // create / seek
    std::string mode;                  // computer | friend | hotseat
    std::string variant;               // variant key
    std::string level;                 // easy | normal | hard
    std::string color;                 // white | black | random
    std::optional<TimeControl> clock;  // nullopt: the mode's default
    bool no_clock          = false;    // "clock": null
    bool no_forced_capture = false;
    std::string draw_rules;  // "", standard, american_club, russian_official
    std::string fen;         // friend / hotseat: start from this position
    bool rated = false;

    // join / resume
    std::string invite;
    std::optional<std::int64_t> last_version;
};

struct ProtocolError {
    std::string code;  // bad_json | bad_message | unknown_type | ...
    std::string message;
};

[[nodiscard]] std::variant<ClientMessage, ProtocolError>
decode_client_message(std::string_view text);

}  // namespace papan::server
