// Cluster: several `papan serve` nodes on one store (PostgreSQL), linked by a Redis bus
// (`--bus redis://…`, docs/operations.md "Several nodes").
//
// - Any node accepts any player. A game's room lives on one node at a time: the node holding
//   the game's lease in the store (Store::claim_game). Leases are renewed by a heartbeat; when a
//   node dies its leases run out and the next node that needs the game, or the first heartbeat
//   that finds it orphaned, takes it over by reading it back from the store.
// - A player's message about a game owned elsewhere is forwarded over the bus to the owner's
//   node channel; the owner's room answers through a RemotePeer, which publishes the messages
//   back to the player's node. Nothing is acknowledged before it is stored, so a message lost by
//   the bus (Redis pub/sub does not keep messages) loses no move: the player's node re-sends a
//   resume for its players' games whenever a game changes owner or the bus comes back, and the
//   room answers with the stored state.
// - Random pairing: seeks wait in a Redis list per variant and time control; a node takes the
//   oldest with an atomic LPOP, so two nodes never pair the same seek.
// - Trust: every bus message is sealed with an HMAC under the shared cluster secret
//   (bus_envelope.hpp); a message that does not check is refused and logged, so a client of
//   Redis that is not a node cannot speak for a player (docs/operations.md, "Cluster trust").
//
// The game layer sees the cluster only as its GamePlacement (game/placement.hpp).
//
// Thread-safety: public members may be called from any thread.
#pragma once

#include "cluster/bus_envelope.hpp"
#include "cluster/redis_bus.hpp"
#include "game/peer.hpp"
#include "game/placement.hpp"
#include "game/services.hpp"

#include <papan/server/commands.hpp>

#include <boost/asio/steady_timer.hpp>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace papan::server {

class Lobby;

class Cluster final : public GamePlacement {
public:
    // `lease_ms`: how long a node's hold on its games lasts without a heartbeat (at least 300).
    Cluster(Services& services,
            const RedisAddress& address,
            std::string node_id,
            std::string_view secret,
            std::int64_t lease_ms);
    ~Cluster() override;
    Cluster(const Cluster&)            = delete;
    Cluster& operator=(const Cluster&) = delete;

    // Connects the bus (throws std::runtime_error when Redis is unreachable) and starts the
    // heartbeat. `lobby` must be set in the services.
    void start();
    void stop();

    [[nodiscard]] const std::string& node() const noexcept { return node_; }

    [[nodiscard]] std::int64_t lease_ms() const noexcept;

    // A request about an existing game from a player connected here: handled by this node's
    // lobby when this node owns the game or can claim it, else forwarded to the owner.
    void route(GameRequest r, const Identity& who, const std::shared_ptr<Peer>& peer);

    // Games this node took over or claimed: tells the other nodes (they re-route their players).
    void announce_owner(const std::string& game);

    // A connection of this node closed.
    void session_closed(const std::shared_ptr<Peer>& peer);

    // GamePlacement: rooms in this node's lobby (its games) and rooms that left it; a new game
    // claimed in its insert's transaction; the shared seek queue (a Redis list per key).
    void room_opened(const std::string& game) override;
    void room_closed(const std::string& game) override;
    void claim_new(Store& store, const std::string& game, std::int64_t now_ms) override;
    std::string conn_of(const std::shared_ptr<Peer>& peer, const Identity& who) override;
    std::shared_ptr<Peer> peer_of(const SharedSeek& s) override;

    [[nodiscard]] bool is_local(const SharedSeek& s) const override { return s.node == node_; }

    [[nodiscard]] std::string
    seek_entry(const std::string& conn, std::uint64_t ticket, const Identity& who) const override;
    void take_or_queue_seek(const std::string& key,
                            const std::string& player_id,
                            const std::string& entry,
                            std::function<void(std::optional<SharedSeek>)> done) override;
    void remove_seek(const std::string& key,
                     const std::string& entry,
                     std::function<void(bool)> done) override;
    void seek_taken(const SharedSeek& s) override;

    // Handles one payload as it came from the bus (public for the tests of the envelope).
    void on_message(const std::string& channel, std::string payload);

private:
    class RemotePeer;

    struct LocalConn {
        std::weak_ptr<Peer> peer;
        Identity who;
        std::set<std::string> games;  // games whose messages went elsewhere or came back
    };

    void on_resubscribed();
    // Seals and publishes one bus message (adds "from" and "at").
    void publish(const std::string& channel, nlohmann::json message);
    void forward(const std::string& owner,
                 const std::string& from,
                 const std::string& conn,
                 const Identity& who,
                 const GameRequest& r,
                 int hops);
    void route_hops(GameRequest r,
                    const Identity& who,
                    const std::shared_ptr<Peer>& peer,
                    const std::string& conn,
                    int hops);
    void dispatch_local(GameRequest r, const Identity& who, const std::shared_ptr<Peer>& peer);
    void attach(const std::string& conn, const std::string& game);
    // Sends a resume for `game` on behalf of every local player attached to it.
    void reroute_players(const std::string& game);
    void heartbeat();
    void arm_heartbeat();

    Services& svc_;
    std::int64_t lease_ms_;
    RedisAddress address_;
    std::string node_;
    BusSealer sealer_;
    std::string boot_;  // tells connections of one run of a node from those of the next
    std::unique_ptr<RedisBus> bus_;
    Strand strand_;
    net::steady_timer beat_;

    mutable std::mutex mu_;
    std::uint64_t next_conn_ = 0;
    std::unordered_map<const Peer*, std::string> conn_ids_;
    std::unordered_map<std::string, LocalConn> local_;     // by conn id
    std::unordered_map<std::string, std::string> owners_;  // game -> owning node (a cache)
    std::unordered_set<std::string> owned_;
    std::unordered_map<std::string, std::shared_ptr<RemotePeer>> remote_;  // by "node|conn"
    bool stopped_ = false;
};

// The game id a friend invite names ("<game>-<secret>"), or "" for an older token.
[[nodiscard]] std::string invite_game(const std::string& invite);

}  // namespace papan::server
