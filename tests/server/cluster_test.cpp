// Several nodes: two real `papan serve` processes on one PostgreSQL database
// (PAPAN_TEST_PG, started by scripts/services) linked by a private redis-server, players of one
// game connected to different nodes; a node killed, Redis restarted.
#include "cluster/bus_envelope.hpp"
#include "harness.hpp"
#include "redis_process.hpp"

#include <papan/server/tokens.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

class ClusterTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_NE(std::getenv("PAPAN_TEST_PG"), nullptr)
            << "the cluster tests need PostgreSQL: run `scripts/services start` and set "
               "PAPAN_TEST_PG to the URL `scripts/services env` prints (ctest sets it)";
        redis = std::make_unique<RedisProcess>();
    }

    // A node on the shared database (the harness maps the data directory to one database).
    std::unique_ptr<ServerProcess> node(const std::string& id,
                                        std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"--bus",
                                      redis->url(),
                                      "--node-id",
                                      id,
                                      "--lease",
                                      "1",
                                      "--cluster-secret",
                                      kTestClusterSecret};
        args.insert(args.end(), extra.begin(), extra.end());
        return std::make_unique<ServerProcess>(dir.path(), std::move(args));
    }

    static std::unique_ptr<WsClient> player(unsigned short port,
                                            const std::string& name,
                                            const std::string& secret = {},
                                            Json* welcome             = nullptr) {
        auto c       = std::make_unique<WsClient>(port);
        const Json w = c->hello(name, secret);
        EXPECT_EQ(w["type"], "welcome") << w.dump();
        if (welcome != nullptr) {
            *welcome = w;
        }
        return c;
    }

    TempDir dir;
    std::unique_ptr<RedisProcess> redis;
};

// `a` (white) creates a friend game on its node, `b` joins on its node; returns the game id.
std::string friend_game(WsClient& a, WsClient& b) {
    const Json st =
        a.create({{"mode", "friend"}, {"variant", "international"}, {"color", "white"}});
    const std::string game   = st["game"];
    const std::string invite = st["created"]["invite"];
    b.send(Json{{"type", "join"}, {"invite", invite}});
    b.wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    a.wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    return game;
}

// Plays `plies` moves, each by the side to move, and checks both players see each one.
Json play(WsClient& white, WsClient& black, const std::string& game, int plies) {
    Json st = white.wait_state(game, [](const Json&) { return true; });
    for (int i = 0; i < plies; ++i) {
        WsClient& mover = st["state"]["turn"] == "white" ? white : black;
        WsClient& other = &mover == &white ? black : white;
        const auto v    = st["state"]["version"].get<std::int64_t>();
        mover.send(move_msg(st));
        st = mover.wait_version(game, v + 1);
        EXPECT_EQ(other.wait_version(game, v + 1)["state"]["ply"], st["state"]["ply"]);
    }
    return st;
}

std::size_t stored_moves(unsigned short port, const std::string& game) {
    const auto r = http_request(port, "GET", "/api/games/" + game);
    EXPECT_EQ(r.status, 200U) << r.body;
    return r.json()["moves"].size();
}

TEST_F(ClusterTest, PlayersOnTwoNodesPlayOneGame) {
    auto n1                = node("n1");
    auto n2                = node("n2");
    auto a                 = player(n1->port(), "Ann");
    auto b                 = player(n2->port(), "Bob");
    const std::string game = friend_game(*a, *b);
    const Json st          = play(*a, *b, game, 12);
    EXPECT_EQ(st["state"]["ply"], 12);
    EXPECT_EQ(stored_moves(n1->port(), game), 12U);
    EXPECT_EQ(stored_moves(n2->port(), game), 12U);
    // A resume through the node that does not hold the game gets the stored state.
    b->send(Json{{"type", "resume"}, {"game", game}});
    const Json again =
        b->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(again["state"]["ply"], 12);
}

// A join for a game held by another node travels over the bus with the hash of the invite's
// secret, never the secret (docs/security.md): whoever reads Redis learns no working link.
TEST_F(ClusterTest, AForwardedJoinCarriesNoInviteSecret) {
    auto n1                  = node("n1");
    auto n2                  = node("n2");
    auto a                   = player(n1->port(), "Ann");
    auto b                   = player(n2->port(), "Bob");
    const Json st            = a->create({{"mode", "friend"}, {"variant", "international"}});
    const std::string game   = st["game"];
    const std::string invite = st["created"]["invite"];
    const std::string secret = invite.substr(invite.find('-') + 1);
    const auto log           = dir.path() / "bus.log";
    {
        const auto monitor = redis->monitor(log.string());
        b->send(Json{{"type", "join"}, {"invite", invite}});
        b->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    }
    const std::string bus = read_file(log);
    EXPECT_NE(bus.find("invite_hash"), std::string::npos)
        << "the join did not cross the bus: " << bus.substr(0, 2000);
    EXPECT_NE(bus.find(server::hash_secret(invite)), std::string::npos);
    EXPECT_EQ(bus.find(secret), std::string::npos) << "the invite's secret is on the bus";
}

TEST_F(ClusterTest, RandomPairingMatchesPlayersOfDifferentNodes) {
    auto n1 = node("n1", {"--pairing-wait", "60"});
    auto n2 = node("n2", {"--pairing-wait", "60"});
    auto a  = player(n1->port(), "Ann");
    auto b  = player(n2->port(), "Bob");
    a->send(Json{{"type", "seek"}, {"variant", "russian"}});
    a->recv_until([](const Json& j) { return j["type"] == "seeking"; });
    b->send(Json{{"type", "seek"}, {"variant", "russian"}});
    const Json pa = a->recv_until([](const Json& j) { return j["type"] == "paired"; });
    const Json pb = b->recv_until([](const Json& j) { return j["type"] == "paired"; });
    ASSERT_EQ(pa["game"], pb["game"]);
    const std::string game = pa["game"];
    const Json st          = a->wait_state(game, [](const Json&) { return true; });
    EXPECT_EQ(st["state"]["players"]["white"]["computer"], false);
    EXPECT_EQ(st["state"]["players"]["black"]["computer"], false);
    const bool a_white = st["state"]["players"]["white"]["name"] == "Ann";
    play(a_white ? *a : *b, a_white ? *b : *a, game, 4);
}

TEST_F(ClusterTest, TheOtherNodeTakesOverTheGamesOfADeadNode) {
    auto n1 = node("n1");
    auto n2 = node("n2");
    Json welcome;
    auto a                 = player(n1->port(), "Ann", {}, &welcome);
    auto b                 = player(n2->port(), "Bob");
    const std::string game = friend_game(*a, *b);  // held by n1, where it was created
    play(*a, *b, game, 4);

    n1->kill_hard();
    // Bob, on n2, is told the game's state once n2 has taken it over from the store.
    const Json back = b->recv_until(
        [&](const Json& j) { return j["type"] == "state" && j["game"] == game; }, 30s);
    EXPECT_EQ(back["state"]["ply"], 4);
    // Ann reconnects to n2 as the same guest and plays on.
    auto a2 = player(n2->port(), "Ann", welcome["secret"].get<std::string>());
    a2->send(Json{{"type", "resume"}, {"game", game}});
    a2->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    const Json st = play(*a2, *b, game, 4);
    EXPECT_EQ(st["state"]["ply"], 8);
    EXPECT_EQ(stored_moves(n2->port(), game), 8U);
}

TEST_F(ClusterTest, ARedisRestartLosesNoMove) {
    auto n1                = node("n1");
    auto n2                = node("n2");
    auto a                 = player(n1->port(), "Ann");
    auto b                 = player(n2->port(), "Bob");
    const std::string game = friend_game(*a, *b);
    play(*a, *b, game, 4);
    redis->restart();
    // Once the nodes are subscribed again, each player gets the stored state of its games.
    const auto fresh_state = [&](const Json& j) {
        return j["type"] == "state" && j["game"] == game;
    };
    EXPECT_EQ(a->recv_until(fresh_state, 30s)["state"]["ply"], 4);
    EXPECT_EQ(b->recv_until(fresh_state, 30s)["state"]["ply"], 4);
    const Json st = play(*a, *b, game, 4);
    EXPECT_EQ(st["state"]["ply"], 8);
    EXPECT_EQ(stored_moves(n1->port(), game), 8U);
}

// Nodes trust only what a node sealed (docs/security.md): a resignation in Ann's name, as the
// other node would forward it, published on the game's node by someone without the cluster
// secret, sealed with a wrong one, or replayed a minute late, changes nothing; the same message
// sealed with the secret is acted on (so the refusals are about the seal alone).
TEST_F(ClusterTest, ABusMessageNotSealedByANodeIsRefused) {
    server::init_crypto();
    auto n1 = node("n1");
    auto n2 = node("n2");
    Json welcome;
    auto a                   = player(n1->port(), "Ann", {}, &welcome);
    auto b                   = player(n2->port(), "Bob");
    const std::string game   = friend_game(*a, *b);  // held by n1, where it was created
    const auto resign_as_ann = [&](std::int64_t at) {
        return Json{{"kind", "cmd"},
                    {"from", "n2"},
                    {"at", at},
                    {"origin", "n2"},
                    {"conn", "forged"},
                    {"who", {{"id", welcome["player"]["id"]}, {"name", "Ann"}}},
                    {"request", {{"game", game}, {"command", {{"kind", "resign"}}}}},
                    {"hops", 1}};
    };
    const std::string channel = "papan:node:n1";
    const server::BusSealer right(kTestClusterSecret);
    const server::BusSealer wrong("a guess at the cluster secret");
    EXPECT_EQ(redis->publish(channel, resign_as_ann(epoch_ms()).dump()), 1);
    EXPECT_EQ(
        redis->publish(channel, std::string(64, '0') + "\n" + resign_as_ann(epoch_ms()).dump()), 1);
    EXPECT_EQ(redis->publish(channel, wrong.seal(resign_as_ann(epoch_ms()))), 1);
    EXPECT_EQ(redis->publish(channel, right.seal(resign_as_ann(epoch_ms() - 60'000))), 1);
    std::this_thread::sleep_for(1s);
    const Json st = play(*a, *b, game, 2);  // nobody resigned: the game goes on
    EXPECT_EQ(st["state"]["status"], "playing");

    EXPECT_EQ(redis->publish(channel, right.seal(resign_as_ann(epoch_ms()))), 1);
    const Json over = b->wait_state(game, [](const Json& s) { return s["status"] == "over"; });
    EXPECT_EQ(over["state"]["result"]["reason"], "resignation");
}

}  // namespace
}  // namespace papan::test
