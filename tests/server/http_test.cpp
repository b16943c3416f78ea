// HTTP routes of the real server: health, variants, static files, accounts.
#include "harness.hpp"

#include <gtest/gtest.h>

namespace papan::test {
namespace {

TEST(Http, HealthVariantsStaticAndAccounts) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port = server.port();
    EXPECT_EQ(http_request(port, "GET", "/healthz").status, 200U);

    const auto v = http_request(port, "GET", "/api/variants");
    ASSERT_EQ(v.status, 200U);
    const Json variants = v.json()["variants"];
    ASSERT_EQ(variants.size(), 10U);
    for (const auto& var : variants) {
        EXPECT_EQ(var["square_coords"].size(), var["board"]["squares"].get<std::size_t>())
            << var["key"];
    }
    EXPECT_EQ(variants[1]["key"], "international");
    EXPECT_EQ(variants[1]["board"]["size"], 10);

    const auto home = http_request(port, "GET", "/");
    EXPECT_EQ(home.status, 200U);
    EXPECT_NE(home.body.find("Papan"), std::string::npos);
    EXPECT_EQ(http_request(port, "GET", "/../../etc/passwd").status / 100, 4U);
    EXPECT_EQ(http_request(port, "GET", "/%2e%2e/%2e%2e/etc/passwd").status / 100, 4U);
    EXPECT_EQ(http_request(port, "GET", "/api/nothing").status, 404U);

    const auto reg = http_request(
        port, "POST", "/api/register", R"({"username":"zoe","password":"longenough"})");
    EXPECT_EQ(reg.status, 201U) << reg.body;
    EXPECT_EQ(
        http_request(port, "POST", "/api/register", R"({"username":"ZOE","password":"longenough"})")
            .status,
        409U);
    EXPECT_EQ(
        http_request(port, "POST", "/api/register", R"({"username":"x","password":"longenough"})")
            .status,
        400U);
    EXPECT_EQ(
        http_request(port, "POST", "/api/login", R"({"username":"zoe","password":"wrong-one"})")
            .status,
        401U);
    const auto login =
        http_request(port, "POST", "/api/login", R"({"username":"zoe","password":"longenough"})");
    ASSERT_EQ(login.status, 200U);
    const std::string token = login.json()["token"];
    EXPECT_EQ(token.size(), 32U);
    const auto me = http_request(port, "GET", "/api/me", "", token);
    EXPECT_EQ(me.status, 200U);
    EXPECT_EQ(me.json()["user"]["username"], "zoe");
    EXPECT_EQ(http_request(port, "GET", "/api/me").status, 401U);
    EXPECT_EQ(
        http_request(port, "GET", "/api/leaderboard?variant=russian").json()["players"].size(), 0U);
    EXPECT_EQ(http_request(port, "GET", "/api/games/nope/pdn").status, 404U);
}

}  // namespace
}  // namespace papan::test
