// The requests the game layer takes (docs/protocol.md, "WebSocket"), already decoded and
// checked by the protocol's codec (protocol.hpp, server/src/api/protocol.cpp): typed, with no
// text left to interpret. A request of a game (join, resume, a command) may travel between
// nodes (server/src/cluster/).
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/types.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/time_control.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace papan::server {

// A move as a client names it: by its landing path, by from/to (and the captures when two
// captures share them), or by its text; `ply` is the ply it is played on.
struct MoveRequest {
    std::optional<int> ply;
    std::vector<int> path;
    std::optional<int> from;
    std::optional<int> to;
    std::vector<int> captures;
    std::string text;

    friend bool operator==(const MoveRequest&, const MoveRequest&) = default;
};

enum class CommandKind : std::uint8_t {
    Move,
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    DrawClaim,
    Undo,
    Rematch,
    TakebackOffer,
    TakebackAccept,
    TakebackDecline,
    Chat,
};

// A player's command about a game.
struct GameCommand {
    CommandKind kind = CommandKind::Move;
    MoveRequest move;  // Move
    std::string text;  // Chat: the line as written

    friend bool operator==(const GameCommand&, const GameCommand&) = default;
};

// `create` (docs/protocol.md, "Starting games"), its fields checked.
struct CreateRequest {
    GameMode mode           = GameMode::Computer;  // computer | friend | hotseat
    core::VariantId variant = core::VariantId::International;
    Level level             = Level::Normal;
    // The creator's colour: nullopt for the side that moves first (the player, not the computer,
    // makes the first move), unless random_color (`random`: a coin decides).
    std::optional<core::Color> color;
    bool random_color = false;
    // The clock of a friend game: nullopt for the default, TimeKind::None for none.
    std::optional<TimeControl> clock;
    core::GameOptions options;
    std::string fen;  // a start position, as given (empty: the variant's)
    bool rated = false;
};

// `seek`: random pairing by variant and time control.
struct SeekRequest {
    core::VariantId variant = core::VariantId::International;
    TimeControl clock;
};

// `join`: the game an invite names, and the hash of its secret (the secret itself goes no
// further than the codec: only its hash is stored, compared or sent between nodes).
struct JoinRequest {
    std::string game;
    std::string invite_hash;
    std::string name;  // a guest's nickname for the seat (cleaned), or empty

    friend bool operator==(const JoinRequest&, const JoinRequest&) = default;
};

// `resume`: subscribe to a game again, with the last version seen.
struct ResumeRequest {
    std::optional<std::int64_t> last_version;

    friend bool operator==(const ResumeRequest&, const ResumeRequest&) = default;
};

// A request about one existing game, as the lobby (and the cluster, between nodes) routes it.
struct GameRequest {
    std::string game;
    std::optional<std::int64_t> ref;  // the client's `id`, echoed as `ref`
    std::variant<GameCommand, JoinRequest, ResumeRequest> what;

    friend bool operator==(const GameRequest&, const GameRequest&) = default;
};

}  // namespace papan::server
