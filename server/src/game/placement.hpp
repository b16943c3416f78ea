// GamePlacement: what the game layer tells, and asks of, the layer that spreads games over
// several nodes (cluster/ implements it; Services::placement is nullptr when a node is alone).
// The game layer knows nothing of nodes beyond this: a room never learns that nodes exist.
//
// Thread-safety: every member may be called from any thread; claim_new runs on the store thread.
#pragma once

#include "game/peer.hpp"

#include <papan/server/store.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace papan::server {

// A seek waiting in the queue shared by the nodes, as its node left it.
struct SharedSeek {
    std::string entry;  // the exact queue element (to remove it)
    std::string node;   // the seeker's node
    std::string conn;   // its connection there
    std::uint64_t ticket = 0;
    Identity who;
    std::int64_t at_ms = 0;
};

class GamePlacement {
public:
    virtual ~GamePlacement() = default;

    // A room of this node opened (a new game, or one read back) or left memory.
    virtual void room_opened(const std::string& game) = 0;
    virtual void room_closed(const std::string& game) = 0;
    // On the store thread, in the transaction that inserts a new game: the game is this node's.
    virtual void claim_new(Store& store, const std::string& game, std::int64_t now_ms) = 0;

    // Random pairing across nodes. The id of a local player's connection (registering it), the
    // peer of a seeker on any node, and the queue element of a new seek.
    virtual std::string conn_of(const std::shared_ptr<Peer>& peer, const Identity& who) = 0;
    virtual std::shared_ptr<Peer> peer_of(const SharedSeek& s)                          = 0;
    [[nodiscard]] virtual bool is_local(const SharedSeek& s) const                      = 0;
    [[nodiscard]] virtual std::string
    seek_entry(const std::string& conn, std::uint64_t ticket, const Identity& who) const = 0;
    // Atomically takes the oldest usable seek of `key` not by `player_id` or, when there is
    // none, queues `entry`: done(seek), or done(nullopt) when queued (or the queue is away).
    // `done` runs on another thread and must hand off.
    virtual void take_or_queue_seek(const std::string& key,
                                    const std::string& player_id,
                                    const std::string& entry,
                                    std::function<void(std::optional<SharedSeek>)> done) = 0;
    // done(true) when this call removed it (nobody took it), false when it was gone already.
    virtual void remove_seek(const std::string& key,
                             const std::string& entry,
                             std::function<void(bool)> done) = 0;
    // Tells the seeker's node that its seek was paired (it stops waiting for the computer).
    virtual void seek_taken(const SharedSeek& s) = 0;
};

}  // namespace papan::server
