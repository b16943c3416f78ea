// A finished rated game keeps its ratings (docs/protocol.md "Ratings and
// rewards"), on the real `papan serve`: once its room is read back from the store, after a
// restart or after an idle unload, the state's result carries both ratings before and after
// as the ending's event did (the store gives the game's rating changes back with the game).
#include "server_test.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

std::int64_t rooms_in_memory(unsigned short port) {
    return http_request(port, "GET", "/healthz").json().value("rooms", std::int64_t{-1});
}

// The game's state as a new connection of the account `token` gets it.
Json resumed(unsigned short port, const std::string& token, const std::string& game) {
    WsClient c(port);
    c.hello_token(token);
    c.send(Json{{"type", "resume"}, {"game", game}});
    return c.recv_until([&](const Json& j) { return j["type"] == "state" && j["game"] == game; });
}

TEST_F(ServerTest, ARatedGameShowsItsRatingsAfterARestartAndAnUnload) {
    const std::vector<std::string> unload_fast{"--idle-unload", "0.3"};
    start(unload_fast);
    const auto r1 = http_request(
        server->port(), "POST", "/api/register", R"({"username":"ann","password":"password1"})");
    const auto r2 = http_request(
        server->port(), "POST", "/api/register", R"({"username":"bob","password":"password2"})");
    ASSERT_EQ(r1.status, 201U) << r1.body;
    ASSERT_EQ(r2.status, 201U) << r2.body;
    const std::string ann_token = r1.json()["token"];
    const std::string bob_token = r2.json()["token"];
    std::string game;
    {
        WsClient a(server->port());
        WsClient b(server->port());
        a.hello_token(ann_token);
        b.hello_token(bob_token);
        game    = friend_game(a, b, {{"rated", true}});
        Json st = a.wait_state(game, [](const Json&) { return true; });
        for (int i = 0; i < 2; ++i) {
            WsClient& mover = st["state"]["turn"] == "white" ? a : b;
            mover.send(move_msg(st));
            st = mover.wait_version(game, st["version"].get<std::int64_t>() + 1);
        }
        a.send(Json{{"type", "resign"}, {"game", game}});  // Ann (White) resigns
        st = b.wait_state(game, is_over);
        ASSERT_EQ(st["state"]["result"]["outcome"], "black_wins") << st.dump();
    }
    const Json expect = {{"white", {{"before", 1200}, {"after", 1184}}},
                         {"black", {{"before", 1200}, {"after", 1216}}}};
    EXPECT_EQ(resumed(server->port(), bob_token, game)["state"]["result"]["ratings"], expect);

    // A restart: the room is read back from the store when it is asked for.
    server.reset();
    start(unload_fast);
    const Json after_restart = resumed(server->port(), ann_token, game);
    EXPECT_EQ(after_restart["state"]["result"]["ratings"], expect) << after_restart.dump();
    EXPECT_EQ(after_restart["state"]["result"]["reason"], "resignation");

    // An idle unload: nobody watches, the room leaves memory and comes back on demand.
    bool unloaded = false;
    for (int i = 0; i < 150 && !unloaded; ++i) {
        std::this_thread::sleep_for(100ms);
        unloaded = rooms_in_memory(server->port()) == 0;
    }
    ASSERT_TRUE(unloaded) << "the finished room stayed in memory";
    const Json after_unload = resumed(server->port(), bob_token, game);
    EXPECT_EQ(after_unload["state"]["result"]["ratings"], expect) << after_unload.dump();
}

}  // namespace
}  // namespace papan::test
