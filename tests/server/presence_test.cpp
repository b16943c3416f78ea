// Presence (docs/protocol.md, "Presence"): in a game between people, the player still there is
// told when the other's connection is gone (their clock keeps running) and when they are back.
#include "server_test.hpp"

namespace papan::test {
namespace {

Json presence_of(WsClient& w, const std::string& game, const char* side, bool present) {
    return w.recv_until(
        [&](const Json& j) {
            return j["type"] == "presence" && j["game"] == game && j["present"][side] == present;
        },
        std::chrono::seconds(15));
}

TEST_F(ServerTest, APlayerIsToldWhenTheOpponentLeavesAndComesBack) {
    start();
    auto a                   = client("Ann");
    auto b                   = std::make_unique<WsClient>(server->port());
    const std::string secret = b->hello("Bob")["secret"];
    const std::string game   = friend_game(*a, *b);  // a timed game, Ann white
    Json st = a->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    a->send(move_msg(st));  // Bob's clock is the one to run
    b.reset();              // Bob's tab closes
    const Json gone = presence_of(*a, game, "black", false);
    EXPECT_EQ(gone["present"]["white"], true);

    // Bob comes back (the same guest) and follows the game again: Ann is told at once.
    auto back = std::make_unique<WsClient>(server->port());
    back->hello("Bob", secret);
    back->send(Json{{"type", "resume"}, {"game", game}});
    presence_of(*a, game, "black", true);
}

TEST_F(ServerTest, ANewcomerLearnsThatTheOpponentIsAway) {
    start();
    auto a                    = client("Ann");
    auto b                    = std::make_unique<WsClient>(server->port());
    const std::string bsecret = b->hello("Bob")["secret"];
    const std::string game    = friend_game(*a, *b);
    a.reset();
    presence_of(*b, game, "white", false);
    // Bob reloads his page: with the game's state he learns that Ann is away.
    b.reset();
    auto again = std::make_unique<WsClient>(server->port());
    again->hello("Bob", bsecret);
    again->send(Json{{"type", "resume"}, {"game", game}});
    const Json p = presence_of(*again, game, "white", false);
    EXPECT_EQ(p["present"]["black"], true);
}

}  // namespace
}  // namespace papan::test
