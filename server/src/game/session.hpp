// GameSession: one game as a plain value (no Asio, no JSON, no store): its row, the rules core's
// game, the clocks, the offers and the chat. Typed commands go in and each gives a Decision: a
// refusal (nothing changed), or a change (the value changed, with the event to announce and the
// write to store), or an answer with the whole state. The room (room.hpp) applies a command to a
// copy and keeps the copy only once its write is stored: a rollback is dropping that copy.
//
// Every rule of docs/protocol.md ("Commands", "Clocks", "Chat", "Takebacks") that decides what a
// command does is here; time comes in as `now_ms`, the server's settings as GameSettings.
#pragma once

#include "game/chat_log.hpp"
#include "game/events.hpp"
#include "game/game_clock.hpp"
#include "game/offers.hpp"
#include "game/peer.hpp"
#include "game/settings.hpp"

#include <papan/core/expected.hpp>
#include <papan/core/game.hpp>
#include <papan/server/commands.hpp>
#include <papan/server/store.hpp>

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace papan::server {

// A rated game's ratings in its variant, before and after it, by colour.
struct RatingMove {
    int before = 0;
    int after  = 0;

    friend bool operator==(const RatingMove&, const RatingMove&) = default;
};

using Ratings = std::array<RatingMove, 2>;

// Answer the sender with the whole state (a resent move, a rematch already made).
struct SendState {};

// Both sides want a rematch: the lobby opens `record` (a new game with colours swapped).
struct OpenRematch {
    GameRecord record;
};

using Decision = std::variant<Refusal, Change, SendState, OpenRematch>;

class GameSession {
public:
    // A game from its record (a new game, or one read back from the store): replays the moves
    // and the recorded ending; the clocks start at now_ms unless the record has them. Error when
    // the record does not make a valid game.
    static core::Expected<GameSession> from_record(GameRecord rec, std::int64_t now_ms);

    explicit GameSession(core::Game g) : game(std::move(g)) {}

    // ---- what a session is ----------------------------------------------------------------
    GameRecord header;  // the game's row; its moves and chat live in `game` and `chat`
    core::Game game;
    std::vector<std::int64_t> move_times;  // when each ply was played
    GameClock clock;
    DrawOffer draw;
    TakebackRequest takeback;
    Rematch rematch;
    ChatLog chat;
    std::optional<Ratings> ratings;  // a finished rated game's, once its ending is stored

    // ---- commands ---------------------------------------------------------------------------
    // A player's command; `who` sits in the game (the room checked it).
    Decision command(const GameCommand& c,
                     const Identity& who,
                     std::int64_t now_ms,
                     const GameSettings& settings);
    // The friend sits down: the waiting game starts.
    Decision join(const Identity& who, std::int64_t now_ms);
    // The computer's move (a legal move of the current position).
    Change computer_move(const core::Move& m, std::int64_t now_ms);
    // The clock's timer: a flag or an abort when one is due at now_ms (nullopt: none).
    std::optional<Change> clock_due(std::int64_t now_ms, const GameSettings& settings);
    // The new game of a rematch exists.
    Change rematch_made(std::string game);

    // ---- what it shows -----------------------------------------------------------------------
    [[nodiscard]] const std::string& id() const noexcept { return header.id; }

    [[nodiscard]] std::int64_t version() const noexcept { return header.version; }

    [[nodiscard]] bool is_computer(core::Color c) const noexcept;
    [[nodiscard]] bool owns(const Identity& who, core::Color c) const noexcept;
    [[nodiscard]] std::optional<core::Color> owned_color(const Identity& who) const noexcept;
    // Being played: not waiting for the friend, not over.
    [[nodiscard]] bool playing() const noexcept;
    // Whether side c has made its first move of this game (a side's first move is not timed).
    [[nodiscard]] bool has_moved(core::Color c) const noexcept;
    // The clock of the side to move runs: a timed game being played after both first moves.
    [[nodiscard]] bool clock_running() const noexcept;
    // A timed game being played where a person is to make their first move: it is aborted when
    // that does not come within GameSettings::first_move_timeout_ms of the turn's start.
    [[nodiscard]] bool awaiting_first_move(const GameSettings& settings) const noexcept;
    // When the clock's timer should look again (ms since the epoch); nullopt: no timer.
    [[nodiscard]] std::optional<std::int64_t> clock_due_at(const GameSettings& settings) const;
    // The computer is to move in a game being played.
    [[nodiscard]] bool computer_to_move() const noexcept;
    // The plies an undo would take back now (0: none).
    [[nodiscard]] int undo_plies() const noexcept;
    // Chat is for friend and random games between people.
    [[nodiscard]] bool chat_allowed() const noexcept;
    // The record of the game to store (its header as it stands, clocks included).
    [[nodiscard]] GameRecord record(std::int64_t now_ms) const;
    // A rematch: the same game with colours swapped.
    [[nodiscard]] GameRecord rematch_record() const;

private:
    Decision on_move(const GameCommand& c,
                     const Identity& who,
                     std::int64_t now_ms,
                     const GameSettings& settings);
    Decision on_resend(const MoveRequest& m, const Identity& who) const;
    [[nodiscard]] std::optional<core::Move> find_move(const MoveRequest& m,
                                                      std::string& described) const;
    Decision on_draw(const GameCommand& c, core::Color me, std::int64_t now_ms);
    Decision on_undo(std::int64_t now_ms);
    Decision on_takeback(const GameCommand& c, core::Color me, std::int64_t now_ms);
    Decision on_chat(const GameCommand& c, core::Color me, std::int64_t now_ms);
    Decision on_rematch(const Identity& who);

    Change play(const core::Move& m, bool by_computer, std::int64_t now_ms);
    Change take_back(int plies, GameEvent event, std::int64_t now_ms);
    Change end(EventKind kind, core::Color by, std::int64_t now_ms);
    Change flag(core::Color side, std::int64_t now_ms);
    Change abort(std::int64_t now_ms);
    // A change of `kind` by `by`: the version moves on, the row is written (kind Header) or not.
    Change changed(GameEvent event, StoreWrite::Kind write, std::int64_t now_ms);
    void update_status();
    [[nodiscard]] bool undo_mode() const noexcept;
    [[nodiscard]] bool over_for_good() const noexcept;
    [[nodiscard]] bool first_moves_made() const noexcept;
    [[nodiscard]] bool between_people() const noexcept;
};

}  // namespace papan::server
