// An accepted takeback keeps the time each side spent (docs/protocol.md, "Takebacks"): the side
// that was thinking when it accepted does not get that time back.
#include "server_test.hpp"

#include <chrono>
#include <thread>

namespace papan::test {
namespace {

TEST_F(ServerTest, AnAcceptedTakebackKeepsTheTimeTheAccepterSpentThinking) {
    start();
    auto a                 = client("Ann");
    auto b                 = client("Bob");
    const std::string game = friend_game(*a, *b);  // 5 minutes and byo-yomi, Ann white
    const auto moved_to    = [&](WsClient& w, int ply) {
        return w.recv_until([&](const Json& j) {
            return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == "move" &&
                   j["state"]["ply"] == ply;
        });
    };
    Json st = a->wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    a->send(move_msg(st));
    st = moved_to(*b, 1);
    b->send(move_msg(st));
    st = moved_to(*a, 2);
    a->send(move_msg(st));  // both have moved: Bob's clock runs from here
    st              = moved_to(*b, 3);
    const auto full = st["state"]["clock"]["black"]["main_ms"].get<std::int64_t>();
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // Bob thinks
    a->send(Json{{"type", "takeback_offer"}, {"game", game}});
    b->recv_until([&](const Json& j) {
        return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == "takeback_offer";
    });
    b->send(Json{{"type", "takeback_accept"}, {"game", game}});
    const Json ev = a->recv_until([&](const Json& j) {
        return j["type"] == "event" && j["game"] == game && j["event"]["kind"] == "undo";
    });
    EXPECT_EQ(ev["state"]["ply"], 2);
    EXPECT_EQ(ev["state"]["clock"]["running"], "white");
    const auto kept = ev["state"]["clock"]["black"]["main_ms"].get<std::int64_t>();
    EXPECT_LE(kept, full - 1400) << "Bob got back the time he spent before accepting";
    EXPECT_GE(kept, full - 10'000);
}

}  // namespace
}  // namespace papan::test
