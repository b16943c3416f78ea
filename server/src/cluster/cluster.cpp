#include "cluster/cluster.hpp"

#include "cluster/bus_requests.hpp"
#include "game/lobby.hpp"
#include "game/message_writer.hpp"
#include "game/store_executor.hpp"
#include "support/log.hpp"

#include <papan/server/tokens.hpp>

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

namespace papan::server {

using Json = nlohmann::json;

namespace {

constexpr std::string_view kAllChannel = "papan:all";
constexpr int kMaxHops                 = 2;   // a forwarded message is forwarded once more at most
constexpr int kOrphansPerBeat          = 64;  // games taken over per heartbeat

std::string node_channel(const std::string& node) {
    return "papan:node:" + node;
}

std::string seek_list(const std::string& key) {
    return "papan:seeks:" + key;
}

std::string string_field(const Json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

Json identity_json(const Identity& who) {
    Json j{{"id", who.player_id}, {"name", who.name}};
    if (who.user_id) {
        j["user"] = *who.user_id;
    }
    if (who.rating_barred) {
        j["barred"] = true;
    }
    return j;
}

std::optional<Identity> identity_from(const Json& j) {
    if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("name") ||
        !j["name"].is_string()) {
        return std::nullopt;
    }
    Identity who{j["id"].get<std::string>(), j["name"].get<std::string>(), std::nullopt};
    if (j.contains("user") && j["user"].is_number_integer()) {
        who.user_id = j["user"].get<std::int64_t>();
    }
    who.rating_barred = j.contains("barred") && j["barred"] == true;
    return who;
}

}  // namespace

std::string invite_game(const std::string& invite) {
    const auto dash = invite.find('-');
    if (dash == std::string::npos || dash == 0 || dash > 32) {
        return {};
    }
    return invite.substr(0, dash);
}

// A player connected to another node, as this node's rooms see it: what they send it goes over
// the bus to that node, which hands it to the connection.
class Cluster::RemotePeer final : public Peer {
public:
    RemotePeer(Cluster& cluster, std::string node, std::string conn)
        : cluster_(cluster)
        , channel_(node_channel(node))
        , node_(std::move(node))
        , conn_(std::move(conn)) {}

    void send(std::shared_ptr<const std::string> message) override {
        send_game(std::move(message), {});
    }

    void send_game(std::shared_ptr<const std::string> message, const std::string& game) override {
        cluster_.publish(
            channel_, Json{{"kind", "out"}, {"conn", conn_}, {"game", game}, {"text", *message}});
    }

    [[nodiscard]] const std::string& node() const { return node_; }

    [[nodiscard]] const std::string& conn() const { return conn_; }

private:
    Cluster& cluster_;
    std::string channel_;
    std::string node_;
    std::string conn_;
};

Cluster::Cluster(Services& services,
                 const RedisAddress& address,
                 std::string node_id,
                 std::string_view secret,
                 std::int64_t lease_ms)
    : svc_(services)
    , lease_ms_(std::max<std::int64_t>(lease_ms, 300))
    , address_(address)
    , node_(std::move(node_id))
    , sealer_(secret)
    , boot_(random_hex(4))
    , strand_(net::make_strand(services.ioc))
    , beat_(strand_) {
    bus_ = std::make_unique<RedisBus>(
        address_,
        std::vector<std::string>{node_channel(node_), std::string(kAllChannel)},
        [this](const std::string& channel, std::string payload) {
            on_message(channel, std::move(payload));
        },
        [this] { on_resubscribed(); });
}

Cluster::~Cluster() {
    stop();
}

std::int64_t Cluster::lease_ms() const noexcept {
    return lease_ms_;
}

void Cluster::start() {
    bus_->start();
    log_line("cluster",
             "node " + node_ + " on Redis " + address_.host + ":" + std::to_string(address_.port) +
                 ", lease " + std::to_string(lease_ms()) + " ms");
    net::post(strand_, [this] { arm_heartbeat(); });
}

void Cluster::stop() {
    {
        const std::lock_guard lock(mu_);
        if (stopped_) {
            return;
        }
        stopped_ = true;
    }
    net::post(strand_, [this] { beat_.cancel(); });
    bus_->stop();
}

void Cluster::arm_heartbeat() {
    {
        const std::lock_guard lock(mu_);
        if (stopped_) {
            return;
        }
    }
    beat_.expires_after(std::chrono::milliseconds(std::max<std::int64_t>(lease_ms() / 3, 100)));
    beat_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) {
            heartbeat();
        }
    });
}

void Cluster::heartbeat() {
    const auto lease = lease_ms();
    svc_.store.run([this, lease](Store& s) {
        const auto now = svc_.clock.now_ms();
        s.renew_leases(node_, now, lease);
        std::vector<GameRecord> taken;
        for (const auto& id : s.orphaned_games(now, kOrphansPerBeat)) {
            if (s.claim_game(id, node_, now, lease)) {
                if (auto rec = s.load_game(id)) {
                    taken.push_back(std::move(*rec));
                }
            }
        }
        if (!taken.empty()) {
            log_line("cluster", "taking over " + std::to_string(taken.size()) + " games");
            Lobby* lobby = svc_.lobby;
            lobby->post([this, lobby, taken = std::move(taken)]() mutable {
                for (auto& rec : taken) {
                    const std::string id = rec.id;
                    if (lobby->adopt(std::move(rec)) != nullptr) {
                        announce_owner(id);
                    }
                }
            });
        }
        net::post(strand_, [this] { arm_heartbeat(); });
    });
}

void Cluster::publish(const std::string& channel, Json message) {
    message["from"] = node_;
    message["at"]   = svc_.clock.now_ms();
    bus_->publish(channel, sealer_.seal(message));
}

void Cluster::claim_new(Store& store, const std::string& game, std::int64_t now_ms) {
    (void)store.claim_game(game, node_, now_ms, lease_ms());
}

void Cluster::room_opened(const std::string& game) {
    const std::lock_guard lock(mu_);
    owned_.insert(game);
    owners_.erase(game);
}

void Cluster::room_closed(const std::string& game) {
    {
        const std::lock_guard lock(mu_);
        owned_.erase(game);
    }
    svc_.store.run([this, game](Store& s) { s.release_game(game, node_); });
}

void Cluster::announce_owner(const std::string& game) {
    publish(std::string(kAllChannel), Json{{"kind", "owner"}, {"game", game}, {"node", node_}});
    reroute_players(game);
}

std::string Cluster::conn_of(const std::shared_ptr<Peer>& peer, const Identity& who) {
    const std::lock_guard lock(mu_);
    auto [it, added] = conn_ids_.try_emplace(peer.get());
    if (added) {
        it->second              = boot_ + "." + std::to_string(++next_conn_);
        local_[it->second].peer = peer;
    }
    local_[it->second].who = who;
    return it->second;
}

void Cluster::session_closed(const std::shared_ptr<Peer>& peer) {
    std::string conn;
    {
        const std::lock_guard lock(mu_);
        const auto it = conn_ids_.find(peer.get());
        if (it == conn_ids_.end()) {
            return;
        }
        conn = it->second;
        conn_ids_.erase(it);
        local_.erase(conn);
    }
    publish(std::string(kAllChannel), Json{{"kind", "gone"}, {"conn", conn}});
}

void Cluster::attach(const std::string& conn, const std::string& game) {
    const std::lock_guard lock(mu_);
    if (const auto it = local_.find(conn); it != local_.end()) {
        it->second.games.insert(game);
    }
}

void Cluster::route(GameRequest r, const Identity& who, const std::shared_ptr<Peer>& peer) {
    const std::string conn = conn_of(peer, who);
    route_hops(std::move(r), who, peer, conn, 0);
}

void Cluster::route_hops(GameRequest r,
                         const Identity& who,
                         const std::shared_ptr<Peer>& peer,
                         const std::string& conn,
                         int hops) {
    // Players of this node are remembered with the games they play (re-routed on takeovers);
    // players of other nodes (RemotePeer) by their own node.
    const auto* remote     = dynamic_cast<const RemotePeer*>(peer.get());
    const std::string from = remote ? remote->node() : node_;
    const std::string& cid = remote ? remote->conn() : conn;
    const std::string game = r.game;
    if (!remote) {
        attach(conn, game);
    }
    std::string owner;
    bool mine = false;
    {
        const std::lock_guard lock(mu_);
        mine = owned_.contains(game);
        if (!mine) {
            if (const auto it = owners_.find(game); it != owners_.end()) {
                owner = it->second;
            }
        }
    }
    if (mine) {
        dispatch_local(std::move(r), who, peer);
        return;
    }
    if (!owner.empty() && hops < kMaxHops) {
        forward(owner, from, cid, who, r, hops + 1);
        return;
    }
    // Unknown here: ask the store who owns it, and take it when nobody does.
    const auto lease = lease_ms();
    svc_.store.run([this, r = std::move(r), who, peer, from, cid, hops, lease](Store& s) mutable {
        const auto now = svc_.clock.now_ms();
        auto holder    = s.game_owner(r.game, now);
        bool claimed   = false;
        if (!holder || *holder == node_) {
            claimed = s.claim_game(r.game, node_, now, lease);
            if (!claimed) {
                holder = s.game_owner(r.game, now);  // taken meanwhile, or no such game
            }
        }
        net::post(strand_,
                  [this,
                   r = std::move(r),
                   who,
                   peer,
                   from,
                   cid,
                   hops,
                   claimed,
                   owner = holder]() mutable {
                      if (claimed) {
                          {
                              const std::lock_guard lock(mu_);
                              owners_.erase(r.game);
                          }
                          dispatch_local(std::move(r), who, peer);
                          return;
                      }
                      if (owner && *owner != node_) {
                          {
                              const std::lock_guard lock(mu_);
                              owners_[r.game] = *owner;
                          }
                          if (hops < kMaxHops) {
                              forward(*owner, from, cid, who, r, hops + 1);
                          } else {
                              peer->send_text(
                                  svc_.messages.error(ErrorCode::Unavailable,
                                                      "the game is moving between servers; retry",
                                                      r.ref));
                          }
                          return;
                      }
                      dispatch_local(std::move(r), who, peer);  // no such game: the lobby says so
                  });
    });
}

void Cluster::forward(const std::string& owner,
                      const std::string& from,
                      const std::string& conn,
                      const Identity& who,
                      const GameRequest& r,
                      int hops) {
    publish(node_channel(owner),
            Json{{"kind", "cmd"},
                 {"origin", from},
                 {"conn", conn},
                 {"hops", hops},
                 {"who", identity_json(who)},
                 {"request", request_json(r)}});
}

void Cluster::dispatch_local(GameRequest r,
                             const Identity& who,
                             const std::shared_ptr<Peer>& peer) {
    Lobby* lobby = svc_.lobby;
    lobby->post([lobby, r = std::move(r), who, peer] { lobby->dispatch(r, who, peer); });
}

void Cluster::reroute_players(const std::string& game) {
    std::vector<std::tuple<std::string, std::shared_ptr<Peer>, Identity>> players;
    {
        const std::lock_guard lock(mu_);
        for (const auto& [conn, lc] : local_) {
            if (lc.games.contains(game)) {
                if (auto p = lc.peer.lock()) {
                    players.emplace_back(conn, std::move(p), lc.who);
                }
            }
        }
    }
    for (const auto& [conn, peer, who] : players) {
        route_hops(GameRequest{game, std::nullopt, ResumeRequest{}}, who, peer, conn, 0);
    }
}

void Cluster::on_resubscribed() {
    // Messages may have been lost while Redis was away: every player of this node gets its games'
    // stored state again (a resume), from wherever the games are now; and every player of this
    // node's games gets their state from here. Whichever node is back on the bus last, the
    // other is listening by then.
    Lobby* lobby = svc_.lobby;
    lobby->post([lobby] { lobby->refresh_all(); });
    net::post(strand_, [this] {
        std::set<std::string> games;
        {
            const std::lock_guard lock(mu_);
            for (const auto& [conn, lc] : local_) {
                games.insert(lc.games.begin(), lc.games.end());
            }
            owners_.clear();
        }
        for (const auto& g : games) {
            reroute_players(g);
        }
    });
}

void Cluster::on_message(const std::string& channel, std::string payload) {
    auto opened = sealer_.open(payload, svc_.clock.now_ms());
    if (const auto* refused = std::get_if<BusSealer::Refused>(&opened)) {
        log_line("cluster", "refusing a bus message on " + channel + ": " + refused->reason);
        return;
    }
    const Json msg         = std::get<Json>(std::move(opened));
    const auto text        = [&msg](const char* key) { return string_field(msg, key); };
    const std::string kind = msg["kind"].get<std::string>();
    const std::string from = text("from");
    if (kind == "out") {
        const std::string conn = text("conn");
        const std::string game = text("game");
        std::shared_ptr<Peer> peer;
        {
            const std::lock_guard lock(mu_);
            const auto it = local_.find(conn);
            if (it == local_.end()) {
                return;
            }
            peer = it->second.peer.lock();
            if (!game.empty()) {
                it->second.games.insert(game);
            }
        }
        if (peer) {
            peer->send_text(text("text"));
        }
        return;
    }
    if (kind == "cmd") {
        net::post(strand_, [this, msg] {
            const auto field         = [&msg](const char* key) { return string_field(msg, key); };
            const std::string origin = field("origin");
            const std::string conn   = field("conn");
            const int hops           = msg.contains("hops") && msg["hops"].is_number_integer()
                                           ? msg["hops"].get<int>()
                                           : kMaxHops;
            const auto who           = identity_from(msg.value("who", Json{}));
            auto request             = request_from_json(msg.value("request", Json{}));
            if (!who || origin.empty() || !request || request->game.empty()) {
                log_line("cluster", "dropping a malformed forwarded message");
                return;
            }
            std::shared_ptr<Peer> peer;
            {
                const std::lock_guard lock(mu_);
                auto& slot = remote_[origin + "|" + conn];
                if (!slot) {
                    slot = std::make_shared<RemotePeer>(*this, origin, conn);
                }
                peer = slot;
            }
            route_hops(std::move(*request), *who, peer, conn, hops);
        });
        return;
    }
    if (kind == "gone") {
        const std::lock_guard lock(mu_);
        remote_.erase(from + "|" + text("conn"));
        return;
    }
    if (kind == "owner") {
        const std::string game  = text("game");
        const std::string owner = text("node");
        if (game.empty() || owner.empty() || owner == node_) {
            return;
        }
        bool lost = false;
        {
            const std::lock_guard lock(mu_);
            owners_[game] = owner;
            lost          = owned_.erase(game) > 0;
        }
        if (lost) {
            // Another node took the game (this one was too slow to renew its lease): its room
            // here must go, the store's copy is the one that counts.
            log_line("cluster", "game " + game + " was taken over by " + owner);
            Lobby* lobby = svc_.lobby;
            lobby->post([lobby, game] { lobby->drop(game); });
        }
        net::post(strand_, [this, game] { reroute_players(game); });
        return;
    }
    if (kind == "seek_taken") {
        if (msg.contains("ticket") && msg["ticket"].is_number_unsigned()) {
            const auto ticket = msg["ticket"].get<std::uint64_t>();
            Lobby* lobby      = svc_.lobby;
            lobby->post([lobby, ticket] { lobby->seek_taken(ticket); });
        }
        return;
    }
    log_line("cluster", "ignoring a bus message of unknown kind '" + kind.substr(0, 32) + "'");
}

std::shared_ptr<Peer> Cluster::peer_of(const SharedSeek& s) {
    const std::lock_guard lock(mu_);
    if (s.node == node_) {
        const auto it = local_.find(s.conn);
        return it == local_.end() ? nullptr : it->second.peer.lock();
    }
    auto& slot = remote_[s.node + "|" + s.conn];
    if (!slot) {
        slot = std::make_shared<RemotePeer>(*this, s.node, s.conn);
    }
    return slot;
}

std::string
Cluster::seek_entry(const std::string& conn, std::uint64_t ticket, const Identity& who) const {
    return Json{{"n", node_},
                {"c", conn},
                {"t", ticket},
                {"who", identity_json(who)},
                {"at", svc_.clock.now_ms()}}
        .dump();
}

// Pops seeks until one is usable (another player's, not older than the pairing wait plus a
// margin: an older one belongs to a node that died); pushes ARGV[1] when none is left. One
// script, so two nodes seeking at once cannot both queue and wait for each other.
constexpr std::string_view kTakeOrQueueScript = R"lua(
local now = tonumber(ARGV[3])
local max_age = tonumber(ARGV[4])
while true do
  local e = redis.call('LPOP', KEYS[1])
  if not e then
    redis.call('RPUSH', KEYS[1], ARGV[1])
    return false
  end
  local ok, s = pcall(cjson.decode, e)
  if ok and type(s) == 'table' and type(s.who) == 'table' and s.who.id ~= ARGV[2]
     and type(s.at) == 'number' and now - s.at <= max_age then
    return e
  end
end
)lua";

void Cluster::take_or_queue_seek(const std::string& key,
                                 const std::string& player_id,
                                 const std::string& entry,
                                 std::function<void(std::optional<SharedSeek>)> done) {
    const auto max_age = svc_.settings.pairing_wait_ms + 10000;
    bus_->command({"EVAL",
                   std::string(kTakeOrQueueScript),
                   "1",
                   seek_list(key),
                   entry,
                   player_id,
                   std::to_string(svc_.clock.now_ms()),
                   std::to_string(max_age)},
                  [done = std::move(done)](std::optional<RedisReply> r) {
                      if (!r || r->kind != RedisReply::Kind::String) {
                          if (r && r->kind == RedisReply::Kind::Error) {
                              log_line("cluster", "seek script failed: " + r->str);
                          }
                          done(std::nullopt);
                          return;
                      }
                      const auto j = Json::parse(r->str, nullptr, false);
                      SharedSeek s;
                      s.entry = r->str;
                      if (!j.is_object() || !j.contains("n") || !j["n"].is_string() ||
                          !j.contains("c") || !j["c"].is_string() || !j.contains("t") ||
                          !j["t"].is_number_unsigned() || !j.contains("at") ||
                          !j["at"].is_number_integer()) {
                          done(std::nullopt);
                          return;
                      }
                      const auto who = identity_from(j.value("who", Json{}));
                      if (!who) {
                          done(std::nullopt);
                          return;
                      }
                      s.node   = j["n"].get<std::string>();
                      s.conn   = j["c"].get<std::string>();
                      s.ticket = j["t"].get<std::uint64_t>();
                      s.who    = *who;
                      s.at_ms  = j["at"].get<std::int64_t>();
                      done(std::move(s));
                  });
}

void Cluster::remove_seek(const std::string& key,
                          const std::string& entry,
                          std::function<void(bool)> done) {
    bus_->command({"LREM", seek_list(key), "1", entry},
                  [done = std::move(done)](std::optional<RedisReply> r) {
                      // Redis away: nobody can have taken it through Redis either.
                      done(!r || r->kind != RedisReply::Kind::Integer || r->integer > 0);
                  });
}

void Cluster::seek_taken(const SharedSeek& s) {
    if (s.node == node_) {
        Lobby* lobby = svc_.lobby;
        lobby->post([lobby, t = s.ticket] { lobby->seek_taken(t); });
        return;
    }
    publish(node_channel(s.node), Json{{"kind", "seek_taken"}, {"ticket", s.ticket}});
}

}  // namespace papan::server
