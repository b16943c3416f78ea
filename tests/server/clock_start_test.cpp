// Each side's clock starts with its own first move (docs/protocol.md "Clocks"),
// on the real `papan serve`: no clock runs after the join nor after White's first move, Black's
// first move starts White's clock, and a restart reproduces the same clocks from the stored
// moves. The abort of a first move that never comes is in room_test.cpp (the server's clock is
// injected there, so the minute passes at once).
#include "server_test.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

const Json kMinuteClock = {{"kind", "fischer"}, {"main", 60}, {"increment", 1}};

std::int64_t main_ms(const Json& msg, const char* side) {
    return msg["state"]["clock"][side]["main_ms"].get<std::int64_t>();
}

TEST_F(ServerTest, EachSidesClockStartsWithItsOwnFirstMove) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b, {{"clock", kMinuteClock}});
    Json st                = a->wait_state(game, [](const Json&) { return true; });
    EXPECT_EQ(st["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(st["state"]["clock"]["started"], (Json{{"white", false}, {"black", false}}));
    // White thinks over the first move: not charged, no increment, and Black's clock waits too.
    std::this_thread::sleep_for(400ms);
    a->send(move_msg(st));
    st = b->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    EXPECT_EQ(st["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(st["state"]["clock"]["started"], (Json{{"white", true}, {"black", false}}));
    EXPECT_EQ(main_ms(st, "white"), 60'000);
    EXPECT_EQ(main_ms(st, "black"), 60'000);
    // Black's first move is not timed either; it starts White's clock.
    std::this_thread::sleep_for(400ms);
    b->send(move_msg(st));
    st = a->wait_state(game, [](const Json& s) { return s["ply"] == 2; });
    EXPECT_EQ(st["state"]["clock"]["running"], "white");
    EXPECT_EQ(st["state"]["clock"]["started"], (Json{{"white", true}, {"black", true}}));
    EXPECT_EQ(main_ms(st, "black"), 60'000);
    // From now on White's time runs: 400 ms of thought are charged, then the increment.
    std::this_thread::sleep_for(400ms);
    a->send(move_msg(st));
    st = b->wait_state(game, [](const Json& s) { return s["ply"] == 3; });
    EXPECT_EQ(st["state"]["clock"]["running"], "black");
    EXPECT_LE(main_ms(st, "white"), 60'000 + 1'000 - 400);
    EXPECT_GT(main_ms(st, "white"), 50'000);
}

// The clocks are what the stored moves say: a game stopped after White's first move comes back
// with no clock running, and Black's first move starts White's clock as before.
TEST_F(ServerTest, ARestartKeepsTheClocksOfTheFirstMoves) {
    start();
    std::string game;
    std::string ann_secret;
    std::string bob_secret;
    {
        auto a     = client("Ann");
        auto b     = client("Bob");
        ann_secret = a->seen.back()["secret"];
        bob_secret = b->seen.back()["secret"];
        game       = friend_game(*a, *b, {{"clock", kMinuteClock}});
        a->send(move_msg(a->wait_state(game, [](const Json&) { return true; })));
        b->wait_state(game, [](const Json& s) { return s["ply"] == 1; });
    }
    EXPECT_EQ(server->terminate(), 0);
    std::this_thread::sleep_for(1s);  // the time the server was down is not charged either
    start();
    auto b = client("Bob", bob_secret);
    b->send(Json{{"type", "resume"}, {"game", game}});
    Json st =
        b->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(st["state"]["status"], "playing");
    EXPECT_EQ(st["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(st["state"]["clock"]["started"], (Json{{"white", true}, {"black", false}}));
    EXPECT_EQ(main_ms(st, "white"), 60'000);
    EXPECT_EQ(main_ms(st, "black"), 60'000);
    b->send(move_msg(st));
    st = b->wait_state(game, [](const Json& s) { return s["ply"] == 2; });
    EXPECT_EQ(st["state"]["clock"]["running"], "white");
    EXPECT_EQ(main_ms(st, "black"), 60'000);
    auto a = client("Ann", ann_secret);
    a->send(Json{{"type", "resume"}, {"game", game}});
    st = a->recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
    EXPECT_EQ(st["state"]["clock"]["running"], "white");
    EXPECT_EQ(st["state"]["clock"]["started"], (Json{{"white", true}, {"black", true}}));
}

// Against the computer (random pairing with nobody waiting) the rule is the same for both
// sides: the computer's first move is untimed like anyone's, and the clocks run once both
// sides have moved.
TEST_F(ServerTest, AgainstTheComputerTheClocksRunOnceBothHaveMoved) {
    start({"--pairing-wait", "0.3"});
    auto a = client("Ann");
    a->send(Json{{"type", "seek"}, {"variant", "international"}, {"clock", kMinuteClock}});
    const Json p     = a->recv_until([](const Json& j) { return j["type"] == "paired"; });
    Json st          = a->wait_state(p["game"], [](const Json&) { return true; });
    const bool white = st["state"]["players"]["white"]["name"] == "Ann";
    if (!white) {
        st = a->wait_state(p["game"], [](const Json& s) { return s["ply"] == 1; });
        EXPECT_EQ(st["state"]["clock"]["started"], (Json{{"white", true}, {"black", false}}));
    }
    EXPECT_EQ(st["state"]["clock"]["running"], nullptr);
    EXPECT_EQ(main_ms(st, white ? "black" : "white"), 60'000);  // the computer's move: untimed
    a->send(move_msg(st));
    st = a->wait_state(p["game"], [&](const Json& s) { return s["ply"] == (white ? 1 : 2); });
    if (white) {
        EXPECT_EQ(st["state"]["clock"]["running"], nullptr);  // the computer's first move is next
    } else {
        EXPECT_EQ(st["state"]["clock"]["running"], "white");  // the computer's clock runs
    }
    EXPECT_EQ(main_ms(st, white ? "white" : "black"), 60'000);
}

// An unnamed guest is named "" (every client has its word for it); the computer chosen in the
// lobby is "Computer (easy)" in the state, the game list and the PDN alike; the PDN says Guest.
TEST_F(ServerTest, AnUnnamedGuestHasNoNameAndTheComputerOneSpelling) {
    start();
    WsClient c(server->port());
    const Json w = c.hello("");
    EXPECT_EQ(w["player"]["name"], "");
    Json st = c.create(
        {{"mode", "computer"}, {"variant", "russian"}, {"level", "easy"}, {"color", "white"}});
    const std::string game = st["game"];
    EXPECT_EQ(st["state"]["players"]["white"]["name"], "");
    EXPECT_EQ(st["state"]["players"]["black"]["name"], "Computer (easy)");
    c.send(Json{{"type", "resign"}, {"game", game}});
    c.wait_state(game, is_over);
    const std::string player = w["player"]["id"];
    const Json list = http_request(server->port(), "GET", "/api/games?player=" + player).json();
    ASSERT_EQ(list["games"].size(), 1U) << list.dump();
    EXPECT_EQ(list["games"][0]["white"]["name"], "");
    EXPECT_EQ(list["games"][0]["black"]["name"], "Computer (easy)");
    const auto pdn = http_request(server->port(), "GET", "/api/games/" + game + "/pdn").body;
    EXPECT_NE(pdn.find("[White \"Guest\"]"), std::string::npos) << pdn;
    EXPECT_NE(pdn.find("[Black \"Computer (easy)\"]"), std::string::npos) << pdn;
}

}  // namespace
}  // namespace papan::test

namespace papan::test {
namespace {

// The same on the real server (its hidden --first-move-timeout): nobody moves, the game ends
// aborted for both players, unrated, and stays so in the store.
TEST_F(ServerTest, AGameWhoseFirstMoveNeverComesIsAborted) {
    start({"--first-move-timeout", "1"});
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b, {{"clock", kMinuteClock}});
    const auto aborted     = [](const Json& j) {
        return j["type"] == "event" && j["event"]["kind"] == "abort";
    };
    const Json seen_a = a->recv_until(aborted, 10s);
    const Json seen_b = b->recv_until(aborted, 10s);
    for (const Json& st : {seen_a, seen_b}) {
        EXPECT_EQ(st["event"]["by"], "white");
        EXPECT_EQ(st["state"]["status"], "over");
        EXPECT_EQ(st["state"]["result"]["outcome"], "");
        EXPECT_EQ(st["state"]["result"]["reason"], "aborted");
    }
    const auto r = http_request(server->port(), "GET", "/api/games/" + game);
    EXPECT_EQ(r.status, 200U) << r.body;
    EXPECT_EQ(r.json()["status"], "over") << r.body;
    EXPECT_EQ(r.json()["reason"], "aborted") << r.body;
}

}  // namespace
}  // namespace papan::test
