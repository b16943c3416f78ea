// The WebSocket game protocol (docs/protocol.md): a client's text message decoded into a typed
// request, without a document tree (server/src/api/protocol.cpp reads the JSON as a stream of
// tokens). The server's messages are written by the codec of server/src/api/wire_codec.cpp.
//
// Decoding never throws. Text that is not JSON, not an object, without a string "type" or of an
// unknown type, or a field of the wrong type, is a ProtocolError at once. A message of a known
// type whose fields do not make a request (an unknown variant, a command without its game) is
// decoded into a ProtocolError in `what`, told after the hello check, as the game layer would
// have told it.
#pragma once

#include <papan/server/commands.hpp>
#include <papan/server/game_kinds.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

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

struct ProtocolError {
    ErrorCode code = ErrorCode::BadMessage;
    std::string message;
};

// hello: a guest's nickname (as sent) and secret, or a session token.
struct Hello {
    std::string name;
    std::string secret;
    std::string token;
};

// join as sent: the invite token ("<game>-<secret>") and a guest's nickname (as sent). The API
// turns it into a JoinRequest: the game and the hash of the token.
struct JoinInvite {
    std::string invite;
    std::string name;
};

struct CancelSeek {};

struct ClientRequest {
    MessageType type = MessageType::Hello;
    std::optional<std::int64_t> ref;  // the message's `id`
    std::variant<Hello,
                 CreateRequest,
                 SeekRequest,
                 CancelSeek,
                 JoinInvite,
                 GameRequest,
                 ProtocolError>
        what;
};

[[nodiscard]] std::variant<ClientRequest, ProtocolError>
decode_client_message(std::string_view text);

}  // namespace papan::server
