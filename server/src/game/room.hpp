// Room: the actor of one live game. It holds the game's session (game/session.hpp, a plain
// value), runs on its own strand (a single writer; no locks), stores every change through the
// store executor and announces it to the subscribed peers; it runs the clock's timer and asks
// the AI pool for the computer's moves.
//
// A change is atomic (docs/protocol.md, "Game state"): a command is applied to a copy of the
// session; the copy's write goes to the store, and until the store has answered the room takes
// no other command (they wait in order, `deferred_`). Once the write is committed the copy
// becomes the session and its event goes to the subscribers (write, then acknowledge); when it
// fails, the copy is dropped (the rollback), the sender gets `store_unavailable`, and nothing
// was acknowledged.
//
// Error policy: an exception in a room job is caught at that job (logged with the game id,
// answered `internal`, the copy dropped); no room can end the process.
//
// Every public member except id() and post() must be called on the strand (use post()).
#pragma once

#include "game/peer.hpp"
#include "game/services.hpp"
#include "game/session.hpp"

#include <papan/core/expected.hpp>
#include <papan/server/commands.hpp>

#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace papan::server {

class Room : public std::enable_shared_from_this<Room> {
public:
    using Peers = std::vector<std::pair<std::shared_ptr<Peer>, Identity>>;

    // A room from a record (a new game or one read back from the store); error when the record
    // does not make a valid game.
    static core::Expected<std::shared_ptr<Room>> from_record(Services& services, GameRecord rec);

    Room(Services& services, GameSession session);

    [[nodiscard]] const std::string& id() const noexcept { return id_; }

    // Runs fn on the strand; an exception it throws is logged with the game id.
    void post(std::function<void()> fn);

    // Arms the clock's timer and starts the computer if it is to move.
    void start();
    // Stores a new room's record, then subscribes the peers and sends them the state (after
    // `first` for the first of them: e.g. the "created" message). When the store refuses, the
    // first peer gets `store_unavailable` and `on_failed` runs (the lobby forgets the room);
    // else `on_stored` runs once the state is sent.
    void create_and_announce(Peers peers,
                             std::string first,
                             std::function<void()> on_failed = {},
                             std::function<void()> on_stored = {});
    // A player's command (`who` must sit in the game, else `not_your_game`).
    void handle(const GameCommand& c,
                const Identity& who,
                const std::shared_ptr<Peer>& peer,
                std::optional<std::int64_t> ref);
    void resume(const std::shared_ptr<Peer>& peer,
                const Identity& who,
                std::optional<std::int64_t> last_version,
                std::optional<std::int64_t> ref);
    // A friend sits down with the hash of the invite's secret.
    void join(const std::shared_ptr<Peer>& peer,
              const Identity& who,
              const std::string& invite_hash,
              std::optional<std::int64_t> ref);
    void shutdown();
    // Sends the state to every subscriber (after the bus between nodes lost messages).
    void refresh_subscribers();

    // Room lifecycle (docs/operations.md): touch() marks activity; unload_if_idle closes the
    // room and returns true when it may leave memory: nobody subscribed is connected, no clock
    // runs, the computer is not to move, nothing is being written or waits, and nothing happened
    // for `idle_ms`. A command that reaches an unloaded room is sent back to the lobby.
    void touch();
    bool unload_if_idle(std::int64_t now_ms, std::int64_t idle_ms);

    // Whether each side's player is connected to the game (room_presence.cpp): between people a
    // change is told to the subscribers as a `presence` message (docs/protocol.md, "Presence").
    void check_presence();

    [[nodiscard]] bool unloaded() const noexcept { return unloaded_; }

    // The session as it stands (tests).
    [[nodiscard]] const GameSession& session() const noexcept { return session_; }

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

    void decide(Decision d, const Origin& origin);
    // Stores pending_'s change; then announces it, or drops pending_ when the write failed.
    void commit(Change change, const Origin& origin);
    void committed(bool ok, Change change, const Origin& origin, std::optional<Ratings> ratings);
    void announce(const Change& change);
    void send(const std::shared_ptr<Peer>& peer, std::string text) const;
    void send_error(const std::shared_ptr<Peer>& peer, const Refusal& r, Ref ref) const;
    void subscribe(const std::shared_ptr<Peer>& peer, const Identity& who);
    [[nodiscard]] std::vector<std::shared_ptr<Peer>> live_subscribers() const;
    // Runs fn now, or after the write in flight (the commands of a room are applied in order).
    bool defer_while_writing(std::function<void()> fn);
    void run_deferred();
    // Runs a command: an exception drops the copy and answers `internal` to the origin.
    void guarded(const Origin& origin, const std::function<void()>& fn);
    // A copy of the session to change (the rollback is dropping it).
    GameSession& begin();

    void arm_timer();
    void on_timer();
    void schedule_ai();
    void on_ai_move(std::uint64_t epoch, std::optional<core::Move> mv);
    void retry_later();
    void open_rematch(GameRecord record, const Origin& origin);
    void rematch_made(const std::string& new_id, const Origin& origin);
    // room_presence.cpp
    void arm_presence();
    [[nodiscard]] std::array<bool, 2> presence_now() const;

    Services& svc_;
    std::string id_;
    Strand strand_;
    net::steady_timer timer_;
    net::steady_timer presence_timer_;
    std::array<bool, 2> present_{true, true};  // as last told (check_presence)
    net::steady_timer retry_timer_;
    GameSession session_;                 // as stored
    std::optional<GameSession> pending_;  // the change being made or written
    std::deque<std::pair<std::int64_t, std::shared_ptr<const std::string>>> recent_;
    std::vector<Subscriber> subscribers_;
    std::deque<std::function<void()>> deferred_;
    std::uint64_t ai_epoch_        = 0;
    bool ai_thinking_              = false;
    bool closed_                   = false;
    bool unloaded_                 = false;
    bool writing_                  = false;
    std::int64_t last_activity_ms_ = 0;
};

}  // namespace papan::server
