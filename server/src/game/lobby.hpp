// Lobby: the registry of live rooms, friend invites and the random-pairing queue, on its own
// strand. Sessions post requests here; the lobby finds or creates the room and posts the
// command on to the room's strand. A finished game not in memory is read back from the store
// when someone asks for it.
#pragma once

#include "game/message_writer.hpp"
#include "game/peer.hpp"
#include "game/placement.hpp"
#include "game/room.hpp"
#include "game/services.hpp"

#include <papan/server/commands.hpp>
#include <papan/server/store.hpp>

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace papan::server {

class Lobby {
public:
    explicit Lobby(Services& services);

    void post(std::function<void()> fn);

    // All below run on the lobby strand.
    void add(const std::shared_ptr<Room>& room, const GameRecord& rec);
    void
    create(const CreateRequest& c, const Identity& who, const std::shared_ptr<Peer>& peer, Ref ref);
    void
    seek(const SeekRequest& s, const Identity& who, const std::shared_ptr<Peer>& peer, Ref ref);
    void cancel_seek(const Identity& who, const std::shared_ptr<Peer>& peer, Ref ref);
    // A request about an existing game (join, resume and the in-game commands) from a player
    // of this node or, with a cluster, of another node: handled by the game's room here.
    void dispatch(const GameRequest& r, const Identity& who, const std::shared_ptr<Peer>& peer);
    // The room of a game read back from the store (a finished game asked for, a game this node
    // took over or resumes at start), started; the room already here if there is one; nullptr
    // when the record does not make a game.
    std::shared_ptr<Room> adopt(GameRecord rec);
    // A game another node took over: its room here goes (cluster).
    void drop(const std::string& id);
    // Every room sends its state to its players again (cluster: the bus lost messages).
    void refresh_all();
    // A seek of this node was paired by a node (cluster): it stops waiting.
    void seek_taken(std::uint64_t ticket);
    // Finds a room (loading a stored game if needed) and calls fn with it, or with nullptr.
    void with_room(const std::string& id, std::function<void(std::shared_ptr<Room>)> fn);
    // A rematch game: assigns its id, registers and announces it; `done` gets the new id once
    // it is stored (not called when the store refused it).
    void add_rematch(GameRecord rec,
                     const Room::Peers& peers,
                     std::function<void(const std::string&)> done);
    // A new room whose record the store refused: it leaves the registry.
    void forget(const std::string& id);
    // A finished game leaves memory after a while (it is read back from the store if asked for).
    void retire_later(const std::string& id);
    // Room lifecycle (docs/operations.md): from now on, every so often, idle rooms leave memory
    // (--idle-unload) and stored untimed games untouched for --abandon-after end abandoned.
    void start_housekeeping();
    void shutdown();

    // Rooms in memory now (any thread; GET /healthz).
    [[nodiscard]] std::size_t rooms_in_memory() const noexcept { return in_memory_.load(); }

private:
    struct Seek {
        std::uint64_t ticket = 0;
        Identity who;
        std::weak_ptr<Peer> peer;
        std::string variant;  // its key
        TimeControl tc;
        std::string key;
        std::shared_ptr<net::steady_timer> timer;
        std::string entry;   // cluster: the seek's element in the Redis list
        bool grace = false;  // cluster: taken from Redis, waiting for the pairing to arrive
    };

    // 64 random bits, never the id of a room in memory (the store's primary key refuses one of
    // a stored game: the create then fails, it never replaces a game).
    std::string new_game_id() const;
    // Registers a new room and has it store and announce itself.
    void open_new(const std::shared_ptr<Room>& room,
                  const GameRecord& rec,
                  Room::Peers peers,
                  std::string first,
                  std::function<void()> on_stored = {});
    void send(const std::shared_ptr<Peer>& peer, std::string text) const;
    void send_error(const std::shared_ptr<Peer>& peer,
                    ErrorCode code,
                    std::string_view message,
                    Ref ref) const;
    void pair_with_computer(std::uint64_t ticket);
    void start_random(const Seek& a, const std::optional<Seek>& b, std::string id = {});
    void seek_shared(Ref ref,
                     const Identity& who,
                     const std::shared_ptr<Peer>& peer,
                     const std::string& variant,
                     const TimeControl& tc,
                     const std::string& key);
    void seek_answered(Ref ref, std::uint64_t ticket, const std::optional<SharedSeek>& found);
    void seek_expired(std::uint64_t ticket);
    // create() once the player's open games are counted: within the cap, the room is opened.
    void open_created(const std::shared_ptr<Room>& room,
                      const GameRecord& rec,
                      const std::shared_ptr<Peer>& peer,
                      const Identity& who,
                      std::string created);
    // Runs fn on the room's strand; when that room has left memory meanwhile, `again` runs on
    // the lobby strand instead (it reads the game from the store).
    void on_room(const std::shared_ptr<Room>& room,
                 std::function<void()> fn,
                 std::function<void()> again);
    // A friend opens an invite: the game it names sits them down.
    void join(const GameRequest& r,
              const JoinRequest& j,
              const Identity& who,
              const std::shared_ptr<Peer>& peer);
    // The friend sits down in `room` (the invite's game, in memory).
    void join_room(const std::shared_ptr<Room>& room,
                   const GameRequest& r,
                   const JoinRequest& j,
                   const Identity& who,
                   const std::shared_ptr<Peer>& peer);
    void housekeeping();
    // A room that left memory idle: it leaves the registry (if it is still the one there).
    void unloaded(const std::string& id, const std::shared_ptr<Room>& room);

    void count_rooms() { in_memory_.store(rooms_.size()); }

    Services& svc_;
    Strand strand_;
    std::map<std::string, std::shared_ptr<Room>> rooms_;

    struct Invite {
        std::string game;
        std::int64_t expires_ms = 0;
    };

    std::map<std::string, Invite> invites_;  // by token hash
    std::vector<Seek> seeks_;
    std::vector<std::pair<std::int64_t, std::string>> retiring_;  // (when, game id)
    net::steady_timer sweep_;
    net::steady_timer housekeeping_;
    std::int64_t next_abandon_sweep_ms_ = 0;
    std::atomic<std::size_t> in_memory_{0};
    std::size_t left_memory_   = 0;  // rooms that left memory since the last housekeeping pass
    int hand_backs_due_        = 0;  // housekeeping passes that still hand free memory back
    bool sweeping_             = false;
    std::uint64_t next_ticket_ = 1;
    std::uint64_t names_       = 0;
    bool closed_               = false;
};

}  // namespace papan::server
