// The kinds the server's game layer speaks in: a game's status and mode, the computer's level,
// why a game ended, the kinds of events and the error codes. Their one text mapping (the names
// in the store's rows and in the protocol's JSON, docs/protocol.md) is papan/server/wire/names.hpp.
#pragma once

#include <cstdint>

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

// The computer's strength (docs/protocol.md, "Starting games"); None in a game without one.
enum class Level : std::uint8_t {
    None,
    Easy,
    Normal,
    Hard,
};

// Why a game ended: the rules core's reasons first, with the same values (core::Reason; the
// conversion is end_reason() of wire/names.hpp), then the endings the server gives (nobody won:
// outcome Ongoing, written "").
enum class EndReason : std::uint8_t {
    None,
    NoPieces,
    NoMoves,
    Resignation,
    Timeout,
    Agreement,
    Repetition,
    NoProgress,
    MoveLimit,
    EndgameRule,
    InsufficientMaterial,
    TimeoutWithDrawClaimable,
    TimeoutOpponentCannotWin,
    Aborted,    // a side's first move did not come in time
    Abandoned,  // untouched too long (docs/operations.md, "Room lifecycle")
    Imported,   // read from a PDN file whose result is not known
};

// What an event of a game says happened (docs/protocol.md, "Game state").
enum class EventKind : std::uint8_t {
    Start,  // the friend sat down
    Move,
    Undo,
    Resign,
    DrawOffer,
    DrawDecline,
    DrawAgreed,
    DrawClaimed,
    Flag,   // out of time
    Abort,  // a first move did not come in time
    RematchOffer,
    TakebackOffer,
    TakebackDecline,
    Rematch,  // the new game of a rematch
    Chat,
};

// The error codes of the protocol (docs/protocol.md, "Errors").
enum class ErrorCode : std::uint8_t {
    BadJson,
    BadMessage,
    UnknownType,
    HelloFirst,
    BadToken,
    BadSecret,
    BadVariant,
    BadMode,
    BadLevel,
    BadColor,
    BadOptions,
    BadFen,
    UnknownGame,
    NotYourGame,
    NotYourTurn,
    NotStarted,
    GameOver,
    IllegalMove,
    StalePly,
    BadPly,
    OutOfTime,
    UndoNotAllowed,
    NothingToUndo,
    TakebackNotAllowed,
    NoTakebackOffer,
    ChatNotAllowed,
    ChatTooLong,
    ChatEmpty,
    ChatRate,
    NoDrawOffer,
    AlreadyOffered,
    NoClaim,
    GameNotOver,
    InviteInvalid,
    InviteExpired,
    InviteUsed,
    Refused,
    ShuttingDown,
    TooManyGames,
    TooManyCreates,
    Unavailable,
    StoreUnavailable,
    Internal,
};

}  // namespace papan::server
