// Room: one live game, on its own strand (a single writer; no locks). It applies commands in
// order through core::Game, runs the clocks with timers on the strand, asks the AI pool for the
// computer's moves and persists every change through the store executor.
//
// A change is atomic (docs/protocol.md, "Game state"): the room snapshots its game, applies the
// command, and sends the store the write. Until the store has answered, the room takes no other
// command (they wait in order, `deferred_`); once the write is committed the change is announced
// as a versioned event to the subscribed peers (write, then acknowledge); when it fails, the
// snapshot comes back, the sender gets `store_unavailable`, and nothing was acknowledged.
//
// Error policy: an exception in a room job is caught at that job (logged with the game id,
// answered `internal`, the change rolled back); no room can end the process.
//
// The files: room.cpp (life cycle, subscribers, commits), room_state.cpp (the state JSON),
// room_commands.cpp (players' commands), room_results.cpp (endings, ratings and rewards),
// room_clock.cpp (the clock timer and the computer's moves).
//
// Every public member except id() and post() must be called on the strand (use post()).
#pragma once

#include "game/peer.hpp"
#include "game/services.hpp"

#include <papan/core/game.hpp>
#include <papan/server/protocol.hpp>
#include <papan/server/store.hpp>
#include <papan/server/time_control.hpp>

#include <boost/asio/steady_timer.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace papan::server {

class Room : public std::enable_shared_from_this<Room> {
public:
    // Builds a room from a record (a new game or one read back from the store): replays the
    // moves and the recorded ending. Error when the record does not make a valid game.
    static core::Expected<std::shared_ptr<Room>> from_record(Services& services, GameRecord rec);

    Room(Services& services, GameRecord rec, core::Game game);

    [[nodiscard]] const std::string& id() const noexcept { return id_; }

    // Runs fn on the strand; an exception it throws is logged with the game id.
    void post(std::function<void()> fn);

    // On the strand: arm the clock timer and start the computer if it is to move.
    void start();
    // On the strand: stores a new room's record, then subscribes the peers and sends them the
    // state (after `first` for the first of them: e.g. the "created" message). When the store
    // refuses, the first peer gets `store_unavailable` and `on_failed` runs (the lobby forgets
    // the room); else `on_stored` runs once the state is sent.
    void create_and_announce(std::vector<std::pair<std::shared_ptr<Peer>, Identity>> peers,
                             std::string first,
                             std::function<void()> on_failed = {},
                             std::function<void()> on_stored = {});
    // On the strand.
    void handle(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    void resume(const std::shared_ptr<Peer>& peer,
                const Identity& who,
                std::optional<std::int64_t> last_version,
                std::optional<std::int64_t> ref);
    // A friend sits down (invite already checked by the lobby).
    void join(const std::shared_ptr<Peer>& peer,
              const Identity& who,
              const std::string& invite_hash,
              std::optional<std::int64_t> ref);
    void shutdown();
    // Sends the stored state to every subscriber (after the bus between nodes lost messages).
    void refresh_subscribers();

    // The whole state (docs/protocol.md, "Game state"), the chat included.
    [[nodiscard]] nlohmann::json state_json() const;

    // Room lifecycle (docs/operations.md): on the strand. touch() marks activity; unload_if_idle
    // closes the room and returns true when it may leave memory: nobody subscribed is connected,
    // no clock runs, the computer is not to move, nothing is being written or waits, and
    // nothing happened for `idle_ms`. A command that reaches an unloaded room is sent back to the
    // lobby (unloaded()), which reads the game from the store again.
    void touch();
    bool unload_if_idle(std::int64_t now_ms, std::int64_t idle_ms);

    // Whether each side's player is connected to the game (room_presence.cpp): between people a
    // change is told to the subscribers as a `presence` message (docs/protocol.md, "Presence").
    void check_presence();

    [[nodiscard]] bool unloaded() const noexcept { return unloaded_; }

private:
    struct Subscriber {
        std::weak_ptr<Peer> peer;
        std::string player_id;
    };

    // Who caused a change: told `store_unavailable` or `internal` when it fails.
    struct Origin {
        std::weak_ptr<Peer> peer;
        std::optional<std::int64_t> ref;
    };

    // The game state a failed write rolls back to.
    struct Snapshot {
        GameRecord rec;
        core::Game game;
        std::vector<std::int64_t> move_times;
        std::array<PlayerClock, 2> clocks{};
        std::int64_t turn_started_ms = 0;
        std::int64_t version         = 0;
        std::optional<core::Color> draw_offer;
        std::optional<core::Color> takeback_offer;
        std::array<bool, 2> rematch_wanted{};
        std::string rematch_game;
        std::deque<ChatRecord> chat;
        std::array<std::deque<std::int64_t>, 2> chat_times{};  // a refused line does not count
    };

    using StoreOp = std::function<void(Store&)>;

    // A write and what it brings back from the store: the op of a game's ending writes the
    // ratings of a rated game and fills `ratings` ({white,black}{before,after}; else null), which
    // commit() puts into the result once stored. Other writes bring back nothing.
    struct StoreWrite {
        StoreOp op;
        std::shared_ptr<nlohmann::json> ratings;
    };

    void send_error(const std::shared_ptr<Peer>& peer,
                    std::string_view code,
                    std::string message,
                    std::optional<std::int64_t> ref) const;
    void subscribe(const std::shared_ptr<Peer>& peer, const Identity& who);

    // The change protocol: begin_change() before touching any game state; commit() numbers the
    // event (version + 1), persists with `op`, and once stored announces it and runs `after`;
    // on a failed write the state of begin_change() comes back.
    void begin_change();
    void commit(nlohmann::json event, StoreOp op, Origin origin, std::function<void()> after = {});
    // The same for a write that brings something back (an ending's ratings).
    void
    commit(nlohmann::json event, StoreWrite write, Origin origin, std::function<void()> after = {});
    void committed(bool ok,
                   nlohmann::json event,
                   nlohmann::json next,
                   const Origin& origin,
                   const std::function<void()>& after);
    // The event message of the change just stored: after one full state, what changed since the
    // state last sent to every subscriber (sent_state_, which becomes `next`).
    [[nodiscard]] std::shared_ptr<const std::string> event_message(nlohmann::json event,
                                                                   nlohmann::json next);
    void restore();
    // Runs fn now, or after the write in flight (the commands of a room are applied in order).
    bool defer_while_writing(std::function<void()> fn);
    void run_deferred();
    // Runs a command: an exception rolls back and answers `internal` to the origin.
    void guarded(const Origin& origin, const std::function<void()>& fn);

    // The state an event is announced from: all of state_json() but the chat, which a delta never
    // carries whole (only the line a chat event adds, `chat_add`), so a move does not build it.
    [[nodiscard]] nlohmann::json event_state_json() const;
    void add_chat(nlohmann::json& state) const;  // the chat of state_json(), where there is one
    [[nodiscard]] std::string state_message(std::optional<std::int64_t> ref) const;
    [[nodiscard]] std::string state_message(const nlohmann::json& state,
                                            std::optional<std::int64_t> ref) const;
    [[nodiscard]] std::vector<std::shared_ptr<Peer>> live_subscribers() const;

    void on_move(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    void on_resend(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    [[nodiscard]] std::optional<core::Move> find_requested_move(const ClientMessage& m,
                                                                std::string& described) const;
    void on_undo(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    // Takes back `plies` plies (after begin_change()) and commits `event`: undo and an accepted
    // takeback.
    void take_back(int plies, nlohmann::json event, const Origin& origin);
    // The plies an undo would take back now (0: none): against the computer the player's last
    // move and the computer's reply since; in hot-seat the last ply, whoever played it.
    [[nodiscard]] int undo_plies() const;
    [[nodiscard]] bool undo_mode() const;
    [[nodiscard]] bool over_for_good() const;  // resigned or agreed: undo cannot reopen it
    void on_rematch(const ClientMessage& m, const Identity& who, const std::shared_ptr<Peer>& peer);
    // Takebacks between people (room_takeback.cpp): friend and random games that are not rated.
    void on_takeback(const ClientMessage& m, core::Color me, const std::shared_ptr<Peer>& peer);
    // The plies a takeback asked by `by` would take back now: their last move and the reply
    // since, if any (0: none).
    [[nodiscard]] int takeback_plies(core::Color by) const;
    // Chat (room_chat.cpp): friend and random games between people; players write, everyone
    // subscribed reads.
    void on_chat(const ClientMessage& m, core::Color me, const std::shared_ptr<Peer>& peer);
    [[nodiscard]] bool chat_allowed() const;
    [[nodiscard]] nlohmann::json chat_json() const;
    [[nodiscard]] nlohmann::json last_chat_line_json() const;  // the line a chat event adds
    void announce_rematch(const std::string& new_id, const Origin& origin);
    void on_draw(const ClientMessage& m, core::Color me, const std::shared_ptr<Peer>& peer);
    void apply_move(const core::Move& mv, bool by_computer, const Origin& origin);
    void apply_ending(std::string_view kind, core::Color by, const Origin& origin);
    // The op of an ending, which also writes the ratings and rewards (the ratings come back in
    // the write's `ratings`).
    [[nodiscard]] StoreWrite with_results(StoreOp op);
    // The ratings of a finished rated game read back from the store (GameRecord::rating_changes)
    // in the form with_results gives them; null unless both seats' changes are there.
    [[nodiscard]] static nlohmann::json stored_ratings(const GameRecord& rec);

    void arm_timer();
    void check_flag();
    // The first move did not come in time (room_clock.cpp): the game ends aborted, with no result.
    void check_abort();
    void schedule_ai();
    void on_ai_move(std::uint64_t epoch, std::optional<core::Move> mv);
    void retry_later();

    [[nodiscard]] std::optional<core::Color> owned_color(const Identity& who) const;
    [[nodiscard]] bool owns(const Identity& who, core::Color c) const;
    [[nodiscard]] bool is_computer(core::Color c) const;
    [[nodiscard]] PlayerClock& clock_of(core::Color c);
    [[nodiscard]] std::int64_t elapsed_ms() const;
    // A timed game being played (not waiting, not over): its clocks run, or will once both sides
    // have made their first move (docs/protocol.md, "Clocks").
    [[nodiscard]] bool timed_play() const;
    // Whether side c has made its first move of this game (a side's first move is not timed).
    [[nodiscard]] bool has_moved(core::Color c) const;
    [[nodiscard]] bool first_moves_made() const;
    // The clock of the side to move runs: timed play after both first moves.
    [[nodiscard]] bool clock_running() const;
    // room_presence.cpp
    void arm_presence();
    [[nodiscard]] std::array<bool, 2> presence_now() const;
    [[nodiscard]] std::string presence_message() const;
    // Timed play where a person is to make their first move: the game is aborted when it does not
    // come within ServerOptions::first_move_timeout_ms of the turn's start.
    [[nodiscard]] bool awaiting_first_move() const;
    [[nodiscard]] bool first_move_overdue() const;
    [[nodiscard]] GameRecord header() const;
    // The header to store with the change commit() is about to number (its version).
    [[nodiscard]] GameRecord next_header() const;
    void update_status();

    Services& svc_;
    std::string id_;
    Strand strand_;
    net::steady_timer timer_;
    net::steady_timer presence_timer_;
    std::array<bool, 2> present_{true, true};  // as last told (check_presence)
    net::steady_timer retry_timer_;
    GameRecord rec_;  // header fields (moves are in game_)
    core::Game game_;
    std::vector<std::int64_t> move_times_;
    TimeControl tc_;
    std::array<PlayerClock, 2> clocks_{};
    std::int64_t turn_started_ms_ = 0;
    std::int64_t version_         = 0;
    std::optional<core::Color> draw_offer_;
    std::optional<core::Color> takeback_offer_;  // the side asking to take back (not stored)
    std::array<bool, 2> rematch_wanted_{};
    std::string rematch_game_;
    std::deque<ChatRecord> chat_;  // the last kChatLinesLoaded lines, oldest first
    // When each side's last lines were written (the chat rate: kChatBurst per kChatWindowMs).
    std::array<std::deque<std::int64_t>, 2> chat_times_{};
    // A rated game's ratings {white,black}{before,after}, once its ending is stored or when the
    // finished game is loaded (else null).
    nlohmann::json result_ratings_;
    // The state of version_ as every subscriber has it (the base of the next event's delta);
    // null until one was sent to all (the next event then carries the whole state).
    nlohmann::json sent_state_;
    std::uint64_t ai_epoch_ = 0;
    bool ai_thinking_       = false;
    std::deque<std::pair<std::int64_t, std::shared_ptr<const std::string>>> recent_;
    std::vector<Subscriber> subscribers_;
    bool closed_   = false;
    bool unloaded_ = false;  // left memory idle (unload_if_idle): commands go back to the lobby
    std::int64_t last_activity_ms_ = 0;
    bool writing_                  = false;  // a write is in flight: commands wait in deferred_
    std::optional<Snapshot> snapshot_;
    std::deque<std::function<void()>> deferred_;
};

}  // namespace papan::server
