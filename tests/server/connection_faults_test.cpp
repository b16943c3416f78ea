// One error policy: an exception in connection code (the HTTP and WebSocket session
// coroutines) is caught at the connection's boundary, logged with the connection id, answered
// `internal` without internal text, and the server carries on. The fault is injected through the
// hidden test hook `papan serve --test-fault TEXT` (server/src/net/server.cpp).
#include "harness.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kFault = "/__injected_fault";

TEST(ConnectionFaults, HttpSessionExceptionIsLoggedAnsweredAndSurvived) {
    TempDir dir;
    const auto log = dir.path() / "server.log";
    ServerProcess server(dir.path(), {"--test-fault", kFault}, log);
    const unsigned short port = server.port();

    const auto r = http_request(port, "GET", kFault);
    EXPECT_EQ(r.status, 500U);
    EXPECT_EQ(r.json().value("error", ""), "internal") << r.body;
    EXPECT_EQ(r.body.find("injected"), std::string::npos) << "internal text reached the client";
    EXPECT_TRUE(log_has(
        log,
        std::regex(R"(\[http c[0-9]+\] internal error on GET /__injected_fault: injected fault)")))
        << read_file(log);

    // The process lives and answers, on new connections, HTTP and WebSocket alike.
    EXPECT_EQ(http_request(port, "GET", "/healthz").status, 200U);
    WsClient ws(port);
    EXPECT_EQ(ws.hello("Ann")["type"], "welcome");
}

TEST(ConnectionFaults, WebSocketSessionExceptionIsLoggedAnsweredAndSurvived) {
    TempDir dir;
    const auto log = dir.path() / "server.log";
    ServerProcess server(dir.path(), {"--test-fault", kFault}, log);
    const unsigned short port = server.port();

    WsClient ws(port);
    ws.hello("Ann");
    ws.send_raw(kFault);
    const Json err = ws.recv_until([](const Json& j) { return j["type"] == "error"; }, 5s);
    EXPECT_EQ(err["code"], "internal") << err.dump();
    EXPECT_EQ(err.dump().find("injected"), std::string::npos) << "internal text reached the client";
    EXPECT_TRUE(
        log_has(log, std::regex(R"(\[ws c[0-9]+\] internal error on a message: injected fault)")))
        << read_file(log);

    // The same connection goes on, and so does the server.
    EXPECT_NO_THROW(ws.create({{"mode", "hotseat"}}));
    WsClient other(port);
    EXPECT_EQ(other.hello("Bob")["type"], "welcome");
    EXPECT_EQ(http_request(port, "GET", "/healthz").status, 200U);
}

}  // namespace
}  // namespace papan::test
