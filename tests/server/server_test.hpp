// The fixture of the ServerTest.* cases (one `papan serve` per test, in its own data directory)
// and helpers they share; the cases are in game_test.cpp and clock_start_test.cpp.
#pragma once

#include "harness.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace papan::test {

class ServerTest : public ::testing::Test {
protected:
    void start(std::vector<std::string> extra = {}) {
        server = std::make_unique<ServerProcess>(dir.path(), std::move(extra));
    }

    std::unique_ptr<WsClient> client(const std::string& name, const std::string& secret = {}) {
        auto c       = std::make_unique<WsClient>(server->port());
        const Json w = c->hello(name, secret);
        EXPECT_EQ(w["type"], "welcome") << w.dump();
        return c;
    }

    TempDir dir;
    std::unique_ptr<ServerProcess> server;
};

inline bool is_over(const Json& s) {
    return s["status"] == "over";
}

// Creates a friend game by `a` and joins it with `b`; returns the game id (a is white).
inline std::string friend_game(WsClient& a, WsClient& b, Json extra = Json::object()) {
    Json msg = {{"mode", "friend"}, {"variant", "international"}, {"color", "white"}};
    msg.update(extra);
    const Json st = a.create(msg);
    EXPECT_EQ(st["state"]["status"], "waiting");
    const std::string game   = st["game"];
    const std::string invite = st["created"]["invite"];
    EXPECT_GE(invite.size(), 32U);  // >= 128 bits
    b.send(Json{{"type", "join"}, {"invite", invite}});
    b.wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    a.wait_state(game, [](const Json& s) { return s["status"] == "playing"; });
    return game;
}

}  // namespace papan::test
