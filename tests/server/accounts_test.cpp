// Accounts and identities against the real `papan serve` (docs/protocol.md, "HTTP", "Identity",
// "Abuse limits"): logout, sliding expiry, password change, the registration throttle, the
// dummy hash for unknown names, and nicknames (character boundaries, invisible characters).
#include "harness.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

std::string register_user(unsigned short port, const std::string& name, const std::string& pw) {
    const auto r = http_request(
        port, "POST", "/api/register", Json{{"username", name}, {"password", pw}}.dump());
    EXPECT_EQ(r.status, 201U) << r.body;
    return r.json().value("token", "");
}

TEST(Accounts, LogoutEndsTheSession) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto token = register_user(port, "ann", "longenough");
    EXPECT_EQ(http_request(port, "GET", "/api/me", "", token).status, 200U);
    const auto out = http_request(port, "POST", "/api/logout", "", token);
    EXPECT_EQ(out.status, 200U) << out.body;
    EXPECT_EQ(http_request(port, "GET", "/api/me", "", token).status, 401U);
    WsClient ws(port);
    EXPECT_EQ(ws.hello_token(token)["code"], "bad_token");
    EXPECT_EQ(http_request(port, "POST", "/api/logout").status, 401U);
}

TEST(Accounts, AnUnusedSessionExpiresAndAUsedOneLivesOn) {
    TempDir dir;
    // 8 s of expiry (in days): room for a slow Argon2id hash on a busy machine.
    ServerProcess server(dir.path(), {"--session-days", "0.0000926"});
    const auto port   = server.port();
    const auto used   = register_user(port, "ann", "longenough");
    const auto unused = register_user(port, "bob", "longenough");
    ASSERT_EQ(http_request(port, "GET", "/api/me", "", used).status, 200U);
    for (int i = 0; i < 4; ++i) {  // 4 x 3 s: past the expiry, but never 8 s unused
        std::this_thread::sleep_for(3s);
        ASSERT_EQ(http_request(port, "GET", "/api/me", "", used).status, 200U) << i;
    }
    EXPECT_EQ(http_request(port, "GET", "/api/me", "", unused).status, 401U);
}

TEST(Accounts, APasswordChangeKeepsThisSessionAndEndsTheOthers) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto first = register_user(port, "ann", "longenough");
    const auto login =
        http_request(port, "POST", "/api/login", R"({"username":"ANN","password":"longenough"})");
    ASSERT_EQ(login.status, 200U) << login.body;
    const std::string second = login.json()["token"];
    EXPECT_EQ(http_request(port,
                           "POST",
                           "/api/password",
                           R"({"old_password":"wrong-one","new_password":"another-one"})",
                           first)
                  .status,
              401U);
    const auto changed =
        http_request(port,
                     "POST",
                     "/api/password",
                     R"({"old_password":"longenough","new_password":"another-one"})",
                     first);
    EXPECT_EQ(changed.status, 200U) << changed.body;
    EXPECT_EQ(http_request(port, "GET", "/api/me", "", first).status, 200U);
    EXPECT_EQ(http_request(port, "GET", "/api/me", "", second).status, 401U);
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"ann","password":"longenough"})")
            .status,
        401U);
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"ann","password":"another-one"})")
            .status,
        200U);
}

TEST(Accounts, RegistrationsPerAddressAreThrottled) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--registrations-per-ip", "2"});
    const auto port = server.port();
    register_user(port, "ann", "longenough");
    register_user(port, "bob", "longenough");
    const auto third = http_request(
        port, "POST", "/api/register", R"({"username":"cid","password":"longenough"})");
    EXPECT_EQ(third.status, 429U);
    EXPECT_EQ(third.json()["error"], "too_many_registrations");
    EXPECT_FALSE(third.retry_after.empty());
}

// An unknown username is checked against a dummy hash: it takes about as long as a known one
// with a wrong password (without it: a millisecond against a tenth of a second).
TEST(Accounts, AnUnknownNameTakesAsLongAsAWrongPassword) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--login-attempts", "0", "--login-attempts-per-ip", "0"});
    const auto port = server.port();
    register_user(port, "ann", "longenough");
    const auto time_of = [&](const std::string& name) {
        auto best = std::chrono::steady_clock::duration::max();
        for (int i = 0; i < 3; ++i) {
            const auto begin = std::chrono::steady_clock::now();
            EXPECT_EQ(http_request(port,
                                   "POST",
                                   "/api/login",
                                   Json{{"username", name}, {"password", "wrong-one"}}.dump())
                          .status,
                      401U);
            best = std::min(best, std::chrono::steady_clock::now() - begin);
        }
        return std::chrono::duration<double>(best).count();
    };
    const double known   = time_of("ann");
    const double unknown = time_of("nobody");
    EXPECT_GT(unknown, 0.4 * known) << "known " << known << " s, unknown " << unknown << " s";
}

// "Алексей Петров..." was cut inside a character; the welcome then failed and the browser
// reconnected forever.
TEST(Identity, NicknamesAreCutOnCharactersAndCleaned) {
    TempDir dir;
    ServerProcess server(dir.path());
    WsClient a(server.port());
    const std::string cyrillic = "АлексейПетровИвановичСидоров";  // 28 letters, 56 bytes
    const Json w = a.hello(cyrillic);
    ASSERT_EQ(w["type"], "welcome") << w.dump();
    EXPECT_EQ(w["player"]["name"], "АлексейПетровИвановичСид");  // 24 letters
    WsClient full(server.port());  // the name of the issue: a space, 14 letters, kept whole
    const Json aleksei = full.hello("Алексей Петров");
    ASSERT_EQ(aleksei["type"], "welcome") << aleksei.dump();
    EXPECT_EQ(aleksei["player"]["name"], "Алексей Петров");
    EXPECT_NO_THROW(full.create({{"mode", "hotseat"}}));  // the socket works on
    WsClient b(server.port());
    const Json spoof = b.hello("Ann\u202e\u200bnimda\u2066\u00ad");
    ASSERT_EQ(spoof["type"], "welcome");
    EXPECT_EQ(spoof["player"]["name"], "Annnimda");
    WsClient c(server.port());
    EXPECT_EQ(c.hello("\u200b\u200b")["player"]["name"], "");  // unnamed: each client has its word
    // Malformed UTF-8 in a text frame: the WebSocket layer fails that connection (RFC 6455,
    // close code 1007) before any JSON is read; the server goes on.
    WsClient d(server.port());
    d.send_raw("{\"type\":\"hello\",\"name\":\"A\xc3\"}");
    EXPECT_EQ(d.wait_close(), 1007);
    WsClient e(server.port());
    EXPECT_EQ(e.hello("Dan")["type"], "welcome");
}

}  // namespace
}  // namespace papan::test
