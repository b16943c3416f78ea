// Imported games are found again after the import's answer: they are listed among the importer's
// games (GET /api/games?player=u<id>, the lobby's "Your games") and on the importer's profile
// (GET /api/players/NAME), though they sit in nobody's seat; nobody else lists them.
#include "harness.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace papan::test {
namespace {

constexpr const char* kGame = R"([White "Ann Smith"]
[Black "Budi"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 2-0
)";

bool lists(const Json& games, const std::string& id) {
    return std::any_of(games.begin(), games.end(), [&](const Json& g) { return g["id"] == id; });
}

TEST(Import, ImportedGamesAreListedAmongTheImportersGames) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port = server.port();
    const auto reg  = http_request(port,
                                  "POST",
                                  "/api/register",
                                  Json{{"username", "siti"}, {"password", "longenough"}}.dump());
    ASSERT_EQ(reg.status, 201U) << reg.body;
    const std::string token = reg.json()["token"];
    const std::string me    = reg.json()["user"]["id"];
    const auto r            = http_request(port, "POST", "/api/import", kGame, token);
    ASSERT_EQ(r.status, 201U) << r.body;
    const std::string id = r.json()["stored"][0]["id"];

    const auto mine = http_request(port, "GET", "/api/games?player=" + me).json();
    EXPECT_TRUE(lists(mine["games"], id)) << mine.dump();
    EXPECT_EQ(mine["games"][0]["mode"], "imported");
    const auto profile = http_request(port, "GET", "/api/players/siti").json();
    EXPECT_TRUE(lists(profile["games"], id)) << profile.dump();

    // Another account does not see it among its games.
    const auto other       = http_request(port,
                                    "POST",
                                    "/api/register",
                                    Json{{"username", "budi"}, {"password", "longenough"}}.dump());
    const std::string them = other.json()["user"]["id"];
    EXPECT_FALSE(lists(http_request(port, "GET", "/api/games?player=" + them).json()["games"], id));
}

}  // namespace
}  // namespace papan::test
