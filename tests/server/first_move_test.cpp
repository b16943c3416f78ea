// Against the computer with no colour chosen, the player takes the side that moves first in the
// variant, as the product pages say: Black in American, White in International; a chosen colour
// stands.
#include "server_test.hpp"

namespace papan::test {
namespace {

std::string my_color(const Json& state_msg, const std::string& player_id) {
    const Json& players = state_msg["state"]["players"];
    if (players["white"].is_object() && players["white"]["id"] == player_id) {
        return "white";
    }
    if (players["black"].is_object() && players["black"]["id"] == player_id) {
        return "black";
    }
    return "none";
}

TEST_F(ServerTest, TheComputerLeavesTheFirstMoveToThePlayer) {
    start();
    auto c               = std::make_unique<WsClient>(server->port());
    const std::string me = c->hello("Siti")["player"]["id"];
    const Json american =
        c->create(Json{{"mode", "computer"}, {"variant", "american"}, {"level", "easy"}});
    EXPECT_EQ(my_color(american, me), "black");
    EXPECT_EQ(american["state"]["turn"], "black");
    EXPECT_EQ(american["state"]["ply"], 0);  // the computer has not moved: the player moves first
    const Json international =
        c->create(Json{{"mode", "computer"}, {"variant", "international"}, {"level", "easy"}});
    EXPECT_EQ(my_color(international, me), "white");
    EXPECT_EQ(international["state"]["turn"], "white");
    const Json chosen = c->create(
        Json{{"mode", "computer"}, {"variant", "american"}, {"level", "easy"}, {"color", "white"}});
    EXPECT_EQ(my_color(chosen, me), "white");
}

}  // namespace
}  // namespace papan::test
