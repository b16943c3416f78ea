// Abuse limits (docs/protocol.md, "Limits"): the real `papan serve` with small limits — the
// per-socket message rate (1008), the frame size (1009), the per-address connection cap (HTTP
// 429) and failed-login throttling (HTTP 429 with Retry-After).
#include "harness.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

TEST(Limits, TooManyMessagesCloseWith1008) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--ws-rate", "5", "--ws-burst", "5"});

    // Within the burst, then a pause to refill: the socket stays open.
    WsClient calm(server.port());
    for (int i = 0; i < 5; ++i) {
        calm.send(Json{{"type", "no_such_message"}});
    }
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(calm.recv()["type"], "error");
    }
    std::this_thread::sleep_for(400ms);
    const Json welcome = calm.hello("Calm");
    EXPECT_EQ(welcome["type"], "welcome") << welcome.dump();

    // Far over the rate: closed with 1008 (policy violation).
    WsClient flood(server.port());
    try {
        for (int i = 0; i < 30; ++i) {
            flood.send(Json{{"type", "no_such_message"}});
        }
    } catch (const std::exception&) {
        // the server may close before the last writes
    }
    EXPECT_EQ(flood.wait_close(), 1008);
}

TEST(Limits, OversizedFrameClosesWith1009) {
    TempDir dir;
    ServerProcess server(dir.path());
    WsClient ws(server.port());
    ws.send_raw(std::string(70 * 1024, 'x'));  // over the default 64 KiB
    EXPECT_EQ(ws.wait_close(), 1009);
}

TEST(Limits, ConnectionsPerAddressAreCapped) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--max-connections-per-ip", "3"});
    std::vector<std::unique_ptr<WsClient>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<WsClient>(server.port()));
    }
    // The fourth from 127.0.0.1: an HTTP request gets 429, a WebSocket handshake fails.
    const auto refused = http_request(server.port(), "GET", "/healthz");
    EXPECT_EQ(refused.status, 429U);
    EXPECT_EQ(refused.json()["error"], "too_many_connections") << refused.body;
    EXPECT_FALSE(refused.retry_after.empty());
    EXPECT_THROW(WsClient{server.port()}, std::exception);

    // The open ones still work.
    EXPECT_EQ(clients[0]->hello("Ann")["type"], "welcome");

    // A closed connection frees its place.
    clients.pop_back();
    bool admitted = false;
    for (int i = 0; i < 50 && !admitted; ++i) {
        std::this_thread::sleep_for(100ms);
        admitted = http_request(server.port(), "GET", "/healthz").status == 200U;
    }
    EXPECT_TRUE(admitted);
}

TEST(Limits, FailedLoginsAreThrottled) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--login-attempts", "3"});
    const auto port = server.port();
    ASSERT_EQ(http_request(
                  port, "POST", "/api/register", R"({"username":"victim","password":"longenough"})")
                  .status,
              201U);
    ASSERT_EQ(http_request(
                  port, "POST", "/api/register", R"({"username":"other","password":"longenough"})")
                  .status,
              201U);

    // A success resets the count.
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(http_request(
                      port, "POST", "/api/login", R"({"username":"victim","password":"bad-one!"})")
                      .status,
                  401U);
    }
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"victim","password":"longenough"})")
            .status,
        200U);

    // Case variants of one username share its count: "Victim", "VICTIM" and "victim" are one.
    for (const char* name : {"Victim", "VICTIM", "victim"}) {
        EXPECT_EQ(
            http_request(port,
                         "POST",
                         "/api/login",
                         std::string(R"({"username":")") + name + R"(","password":"bad-one!"})")
                .status,
            401U);
    }
    // Over the threshold: 429 with Retry-After, even with the right password.
    const auto blocked =
        http_request(port, "POST", "/api/login", R"({"username":"victim","password":"bad-one!"})");
    EXPECT_EQ(blocked.status, 429U);
    EXPECT_EQ(blocked.json()["error"], "too_many_attempts") << blocked.body;
    ASSERT_FALSE(blocked.retry_after.empty());
    EXPECT_GT(std::stoi(blocked.retry_after), 0);
    EXPECT_LE(std::stoi(blocked.retry_after), 60);
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"victim","password":"longenough"})")
            .status,
        429U);
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"vIcTiM","password":"longenough"})")
            .status,
        429U);

    // Another user from the same address still logs in.
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"other","password":"longenough"})")
            .status,
        200U);
}

TEST(Limits, FailedLoginsPerAddressAreThrottled) {
    TempDir dir;
    ServerProcess server(
        dir.path(),
        {"--login-attempts", "0", "--login-attempts-per-ip", "2", "--login-window", "4"});
    const auto port = server.port();
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(
            http_request(port, "POST", "/api/login", R"({"username":"nobody","password":"x"})")
                .status,
            401U);
    }
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"someone","password":"x"})").status,
        429U);
    // The window passes (each failed login takes an Argon2 check, unknown names included).
    std::this_thread::sleep_for(4100ms);
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"someone","password":"x"})").status,
        401U);
}

// --creates-per-ip: the N+1th create from one address within a minute is refused with a clear
// error, whatever identity sends it; another address still creates.
TEST(Limits, GamesCreatedPerAddressAreCapped) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--creates-per-ip", "3"});
    WsClient ann(server.port());
    ann.hello("Ann");
    for (int i = 0; i < 3; ++i) {
        EXPECT_NO_THROW(ann.create({{"mode", "hotseat"}})) << "create " << i + 1;
    }
    ann.send(Json{{"type", "create"}, {"mode", "hotseat"}, {"id", 9}});
    const Json refused = ann.recv_until([](const Json& j) { return j["type"] == "error"; }, 5s);
    EXPECT_EQ(refused["code"], "too_many_creates") << refused.dump();
    EXPECT_EQ(refused["ref"], 9);
    const std::string text = refused["message"];
    EXPECT_NE(text.find("at most 3 a minute"), std::string::npos) << text;

    // A new guest on a new socket from the same address is refused too.
    WsClient again(server.port());
    again.hello("Someone else");
    again.send(Json{{"type", "create"}, {"mode", "computer"}, {"level", "easy"}});
    EXPECT_EQ(again.recv_until([](const Json& j) { return j["type"] == "error"; }, 5s)["code"],
              "too_many_creates");

    // Another address is not.
    WsClient bob(server.port(), "127.0.0.2");
    bob.hello("Bob");
    EXPECT_NO_THROW(bob.create({{"mode", "hotseat"}}));
}

}  // namespace
}  // namespace papan::test
