// What the game layer decides: a command refused (an error code and a message for the player),
// or a change: the event it announces once stored and the write that stores it
// (docs/protocol.md, "Game state"). Plain values; the protocol's codec writes them.
#pragma once

#include <papan/core/move.hpp>
#include <papan/core/types.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/store.hpp>

#include <optional>
#include <string>

namespace papan::server {

using Ref = std::optional<std::int64_t>;  // a client's message `id`, echoed as `ref`

struct Refusal {
    ErrorCode code = ErrorCode::Refused;
    std::string message;
};

// One event of a game; each kind fills the fields it names.
struct GameEvent {
    [[nodiscard]] static GameEvent of(EventKind kind,
                                      std::optional<core::Color> by = std::nullopt) {
        GameEvent e;
        e.kind = kind;
        e.by   = by;
        return e;
    }

    EventKind kind = EventKind::Move;
    // Who: an offer, a decline, an ending, a takeback's request or answer, a chat line; an undo
    // after a takeback (the side that accepted), the side that sat down in a start.
    std::optional<core::Color> by;
    // move: the move played on `ply` by `mover`, its text in the variant's short notation, and
    // whether the computer played it.
    core::Move move{};
    int ply           = 0;
    core::Color mover = core::Color::White;
    std::string text;
    bool computer = false;
    // undo: the plies taken back.
    int plies = 0;
    // rematch: the new game.
    std::string game;
    // chat: the line written.
    ChatRecord line;
};

// The write of a change: the game's row (its header, version and clocks) always, and with it a
// move, the moves taken back from a ply on, or a chat line; an ending also writes the ratings of
// a rated game and the players' reward points, in the same transaction.
struct StoreWrite {
    enum class Kind : std::uint8_t {
        None,  // nothing stored (an offer or a request kept in memory only)
        Header,
        Move,
        TakeBack,
        Chat,
    };

    Kind kind = Kind::None;
    MoveRecord move;   // Move
    int from_ply = 0;  // TakeBack: the moves from this ply on go
    ChatRecord line;   // Chat
    bool results = false;
};

// A change a command made: the event and its write. After it is stored the room runs its clock
// and the computer again when `restart` is set (a move, an undo, a start). `reply` is told the
// sender at once, besides the event: a move that came too late is answered `out_of_time` while
// the change is the flag it found.
struct Change {
    GameEvent event;
    StoreWrite write;
    bool restart = false;
    std::optional<Refusal> reply;
};

}  // namespace papan::server
