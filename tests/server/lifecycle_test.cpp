// Room lifecycle (docs/operations.md, "Room lifecycle"), on the real `papan serve`: an idle room
// leaves memory and comes back when asked for; start-up loads only games whose clock runs; an
// untimed game nobody touched ends abandoned; a player's unfinished games are capped. "rooms" of
// GET /healthz counts the rooms in memory.
#include "harness.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

std::int64_t rooms_in_memory(unsigned short port) {
    const auto r = http_request(port, "GET", "/healthz");
    EXPECT_EQ(r.status, 200U) << r.body;
    return r.json().value("rooms", std::int64_t{-1});
}

// Polls /healthz until `n` rooms are in memory (15 s at most); false when it never happened.
bool wait_rooms(unsigned short port, std::int64_t n) {
    for (int i = 0; i < 150; ++i) {
        if (rooms_in_memory(port) == n) {
            return true;
        }
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

std::unique_ptr<WsClient>
client(unsigned short port, const std::string& name, const std::string& secret = {}) {
    auto c       = std::make_unique<WsClient>(port);
    const Json w = c->hello(name, secret);
    EXPECT_EQ(w["type"], "welcome") << w.dump();
    return c;
}

// Plays `plies` moves of a hot-seat game; returns the last event.
Json play(WsClient& c, Json st, int plies) {
    const std::string game = st["game"];
    for (int i = 0; i < plies; ++i) {
        c.send(move_msg(st));
        st = c.wait_version(game, st["version"].get<std::int64_t>() + 1);
    }
    return st;
}

const Json kMinuteClock = {{"kind", "fischer"}, {"main", 60}, {"increment", 1}};

TEST(Lifecycle, AnIdleGameLeavesMemoryAndComesBackOnDemand) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--idle-unload", "0.5"});
    const auto port          = server.port();
    auto ann                 = client(port, "Ann");
    const std::string secret = ann->seen.back()["secret"];
    const Json hot = play(*ann, ann->create({{"mode", "hotseat"}, {"variant", "russian"}}), 2);
    const std::string hot_id = hot["game"];
    // A timed friend game nobody joined yet: its clock does not run.
    const Json waiting =
        ann->create({{"mode", "friend"}, {"color", "white"}, {"clock", kMinuteClock}});
    const std::string invite = waiting["created"]["invite"];
    EXPECT_EQ(rooms_in_memory(port), 2);
    ann.reset();  // nobody watches either game now
    ASSERT_TRUE(wait_rooms(port, 0)) << "the idle rooms stayed in memory";

    // Resumed: the game as it was, and play goes on.
    auto back = client(port, "Ann", secret);
    back->send(Json{{"type", "resume"}, {"game", hot_id}});
    const Json st = back->recv_until(
        [&](const Json& j) { return j["type"] == "state" && j["game"] == hot_id; });
    EXPECT_EQ(st["state"]["ply"], 2);
    EXPECT_EQ(st["state"]["fen"], hot["state"]["fen"]);
    EXPECT_EQ(play(*back, st, 1)["state"]["ply"], 3);
    // The invite still works: the game is read back and Bob sits down; the clocks wait for the
    // first moves (each side's first move is not timed).
    auto bob = client(port, "Bob");
    bob->send(Json{{"type", "join"}, {"invite", invite}});
    const Json joined =
        bob->wait_state(waiting["game"], [](const Json& s) { return s["status"] == "playing"; });
    EXPECT_EQ(joined["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(joined["state"]["clock"]["white"]["main_ms"], 60'000);  // the whole minute
    EXPECT_EQ(rooms_in_memory(port), 2);
}

TEST(Lifecycle, StartUpLoadsOnlyGamesWhoseClockRuns) {
    TempDir dir;
    std::string hot_id;
    std::string timed_id;
    std::string secret;
    {
        ServerProcess server(dir.path());
        auto ann = client(server.port(), "Ann");
        secret   = ann->seen.back()["secret"];
        hot_id   = play(*ann, ann->create({{"mode", "hotseat"}}), 1)["game"];
        auto bob = client(server.port(), "Bob");
        const Json st =
            ann->create({{"mode", "friend"}, {"color", "white"}, {"clock", kMinuteClock}});
        timed_id = st["game"];
        bob->send(Json{{"type", "join"}, {"invite", st["created"]["invite"]}});
        bob->wait_state(timed_id, [](const Json& s) { return s["status"] == "playing"; });
        EXPECT_EQ(server.terminate(), 0);
    }
    ServerProcess server(dir.path());
    EXPECT_EQ(rooms_in_memory(server.port()), 1);  // the timed game: its clock runs
    auto ann = client(server.port(), "Ann", secret);
    ann->send(Json{{"type", "resume"}, {"game", hot_id}});
    const Json st =
        ann->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == hot_id; });
    EXPECT_EQ(st["state"]["ply"], 1);
    EXPECT_EQ(rooms_in_memory(server.port()), 2);
}

TEST(Lifecycle, AnUntouchedUntimedGameEndsAbandoned) {
    TempDir dir;
    // 0.00003 days: 2.6 s.
    ServerProcess server(dir.path(), {"--idle-unload", "0.2", "--abandon-after", "0.00003"});
    const auto port          = server.port();
    auto ann                 = client(port, "Ann");
    const std::string secret = ann->seen.back()["secret"];
    const std::string game   = play(*ann, ann->create({{"mode", "hotseat"}}), 1)["game"];
    ann.reset();
    Json stored = Json::object();
    for (int i = 0; i < 150 && stored.value("status", "") != "over"; ++i) {
        std::this_thread::sleep_for(100ms);
        const Json j = http_request(port, "GET", "/api/games/" + game).json();
        if (j.is_object()) {
            stored = j;
        }
    }
    EXPECT_EQ(stored["status"], "over") << stored.dump();
    EXPECT_EQ(stored["reason"], "abandoned");
    EXPECT_EQ(stored["outcome"], "");  // nobody won
    EXPECT_EQ(stored["moves"].size(), 1U);
    // Its player sees the ending, and it takes no more moves.
    auto back = client(port, "Ann", secret);
    back->send(Json{{"type", "resume"}, {"game", game}});
    const Json st =
        back->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(st["state"]["status"], "over");
    EXPECT_EQ(st["state"]["result"]["reason"], "abandoned");
    EXPECT_TRUE(st["state"]["legal_moves"].empty());
}

TEST(Lifecycle, AGameWithARunningClockIsNeitherUnloadedNorAbandoned) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--idle-unload", "0.2", "--abandon-after", "0.00001"});
    const auto port = server.port();
    auto ann        = client(port, "Ann");
    auto bob        = client(port, "Bob");
    const Json st = ann->create({{"mode", "friend"}, {"color", "white"}, {"clock", kMinuteClock}});
    const std::string game = st["game"];
    bob->send(Json{{"type", "join"}, {"invite", st["created"]["invite"]}});
    bob->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    // Both first moves: from then on White's clock runs.
    ann->send(
        move_msg(ann->wait_state(game, [](const Json& s) { return s["status"] == "playing"; })));
    bob->send(move_msg(bob->wait_state(game, [](const Json& s) { return s["ply"] == 1; })));
    const Json running = ann->wait_state(game, [](const Json& s) { return s["ply"] == 2; });
    EXPECT_EQ(running["state"]["clock"]["running"], "white");
    ann.reset();
    bob.reset();
    std::this_thread::sleep_for(3s);
    EXPECT_EQ(rooms_in_memory(port), 1);
    EXPECT_EQ(http_request(port, "GET", "/api/games/" + game).json()["status"], "playing");
}

TEST(Lifecycle, APlayersUnfinishedGamesAreCapped) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--max-open-games", "2"});
    auto ann = client(server.port(), "Ann");
    ann->create({{"mode", "hotseat"}});
    const std::string second = ann->create({{"mode", "computer"}, {"level", "easy"}})["game"];
    ann->send(Json{{"type", "create"}, {"mode", "hotseat"}, {"id", 5}});
    const Json refused = ann->recv_until([](const Json& j) { return j["type"] == "error"; });
    EXPECT_EQ(refused["code"], "too_many_games");
    EXPECT_EQ(refused["ref"], 5);
    // Another player is not affected; a game that ends frees a place.
    auto bob = client(server.port(), "Bob");
    EXPECT_NO_THROW(bob->create({{"mode", "hotseat"}}));
    ann->send(Json{{"type", "resign"}, {"game", second}});
    ann->wait_state(second, [](const Json& s) { return s["status"] == "over"; });
    EXPECT_NO_THROW(ann->create({{"mode", "hotseat"}}));
}

}  // namespace
}  // namespace papan::test
