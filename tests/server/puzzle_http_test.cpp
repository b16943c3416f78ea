// The puzzle routes of the real `papan serve` (docs/protocol.md, "Puzzles"): a solved attempt is
// rated once and never again, a wrong one moves the rating down, a guest is rated by its browser's
// secret and its ratings go to the account it signs up with, the daily puzzle is one for all,
// bad requests get a clear 4xx and change nothing, the per-address cap answers 429, and the
// background miner proves a puzzle in a finished game the site imported.
#include "harness.hpp"

#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

namespace papan::test {
namespace {

std::string token_of(unsigned short port, const std::string& name) {
    const auto r = http_request(
        port, "POST", "/api/register", Json{{"username", name}, {"password", "longenough"}}.dump());
    EXPECT_EQ(r.status, 201U) << r.body;
    return r.json().value("token", "");
}

Json solver_moves(const Json& puzzle) {
    Json moves = Json::array();
    for (std::size_t i = 0; i < puzzle["solution"].size(); i += 2) {
        moves.push_back(puzzle["solution"][i]);
    }
    return moves;
}

HttpResult
attempt(unsigned short port, const Json& puzzle, const Json& moves, const std::string& token) {
    return http_request(port,
                        "POST",
                        "/api/puzzles/" + puzzle["id"].get<std::string>() + "/attempt",
                        Json{{"moves", moves}, {"gave_up", false}}.dump(),
                        token);
}

// A request with "Authorization: Guest SECRET".
HttpResult as_guest(unsigned short port,
                    const std::string& method,
                    const std::string& target,
                    const std::string& secret,
                    const std::string& body = {}) {
    std::string req = method + " " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                      "Authorization: Guest " + secret + "\r\n";
    if (!body.empty()) {
        req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
               "\r\n";
    }
    return raw_http(port, req + "\r\n" + body);
}

TEST(Puzzles, AnAttemptIsRatedOnceAndAWrongOneCostsRating) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto token = token_of(port, "solver");
    const auto next =
        http_request(port, "GET", "/api/puzzles/next?variant=international", "", token);
    ASSERT_EQ(next.status, 200U) << next.body;
    const Json p = next.json()["puzzle"];
    EXPECT_EQ(next.json()["player"]["rating"], 1500);
    EXPECT_EQ(p["variant"], "international");
    EXPECT_FALSE(p["solution"].empty());

    const auto first = attempt(port, p, solver_moves(p), token);
    ASSERT_EQ(first.status, 200U) << first.body;
    EXPECT_TRUE(first.json()["solved"].get<bool>());
    EXPECT_TRUE(first.json()["rated"].get<bool>());
    const int after = first.json()["rating"];
    EXPECT_GT(after, 1500);
    EXPECT_EQ(first.json()["change"].get<int>(), after - 1500);
    // The same attempt again, solved again: recorded, not rated.
    const auto again = attempt(port, p, solver_moves(p), token);
    ASSERT_EQ(again.status, 200U) << again.body;
    EXPECT_FALSE(again.json()["rated"].get<bool>());
    EXPECT_EQ(again.json()["rating"], after);
    EXPECT_EQ(again.json()["change"], 0);
    // A puzzle solved by an account gets easier.
    const auto shown = http_request(port, "GET", "/api/puzzles/" + p["id"].get<std::string>());
    EXPECT_LT(shown.json()["puzzle"]["rating"].get<int>(), p["rating"].get<int>());
    EXPECT_EQ(shown.json()["puzzle"]["plays"], 1);

    // Another puzzle, a wrong first move (one the puzzle lists): the rating goes down.
    Json other;
    for (int i = 0; i < 20 && (other.is_null() || other["wrong"].empty()); ++i) {
        other = http_request(port, "GET", "/api/puzzles/next?variant=international", "", token)
                    .json()["puzzle"];
    }
    ASSERT_FALSE(other["wrong"].empty());
    const auto wrong = attempt(port, other, Json::array({other["wrong"][0]["move"]}), token);
    ASSERT_EQ(wrong.status, 200U) << wrong.body;
    EXPECT_FALSE(wrong.json()["solved"].get<bool>());
    EXPECT_EQ(wrong.json()["wrong_step"], 0);
    EXPECT_LT(wrong.json()["rating"].get<int>(), after);
    const auto history = http_request(port, "GET", "/api/puzzles/history", "", token);
    ASSERT_EQ(history.status, 200U);
    EXPECT_EQ(history.json()["attempts"].size(), 3U);
    EXPECT_EQ(history.json()["ratings"][0]["attempts"], 2);
    const auto public_view = http_request(port, "GET", "/api/puzzles/history?player=solver");
    EXPECT_EQ(public_view.json()["attempts"].size(), 3U);
}

TEST(Puzzles, AGuestIsRatedByItsSecretAndTheAccountTakesItsRatingOver) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port          = server.port();
    const std::string secret = "0123456789abcdef0123456789abcdef";
    const auto next          = as_guest(port, "GET", "/api/puzzles/next?variant=turkish", secret);
    ASSERT_EQ(next.status, 200U) << next.body;
    const Json p = next.json()["puzzle"];
    const auto r = as_guest(port,
                            "POST",
                            "/api/puzzles/" + p["id"].get<std::string>() + "/attempt",
                            secret,
                            Json{{"moves", solver_moves(p)}}.dump());
    ASSERT_EQ(r.status, 200U) << r.body;
    EXPECT_TRUE(r.json()["rated"].get<bool>());
    const int guest_rating = r.json()["rating"];
    EXPECT_GT(guest_rating, 1500);
    // Guests move no puzzle's rating.
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/" + p["id"].get<std::string>())
                  .json()["puzzle"]["plays"],
              0);
    // Nobody: served, never rated.
    const auto anonymous = attempt(port, p, solver_moves(p), "");
    EXPECT_FALSE(anonymous.json()["rated"].get<bool>());

    const auto token = token_of(port, "formerguest");
    const auto adopted =
        http_request(port, "POST", "/api/puzzles/adopt", Json{{"guest", secret}}.dump(), token);
    ASSERT_EQ(adopted.status, 200U) << adopted.body;
    EXPECT_EQ(adopted.json()["variants"], Json::array({"turkish"}));
    const auto mine = http_request(port, "GET", "/api/puzzles/next?variant=turkish", "", token);
    EXPECT_EQ(mine.json()["player"]["rating"], guest_rating);
    EXPECT_EQ(
        http_request(port, "POST", "/api/puzzles/adopt", Json{{"guest", secret}}.dump()).status,
        401U);
}

TEST(Puzzles, TheDailyPuzzleIsTheSameForEveryone) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto a = http_request(server.port(), "GET", "/api/puzzles/daily?variant=pool");
    const auto b = as_guest(server.port(),
                            "GET",
                            "/api/puzzles/daily?variant=pool",
                            "fedcba9876543210fedcba9876543210");
    ASSERT_EQ(a.status, 200U) << a.body;
    ASSERT_EQ(b.status, 200U) << b.body;
    EXPECT_EQ(a.json()["puzzle"]["id"], b.json()["puzzle"]["id"]);
    EXPECT_EQ(a.json()["day"], b.json()["day"]);
}

TEST(Puzzles, BadRequestsGetAClearAnswerAndChangeNothing) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto token = token_of(port, "careful");
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/next").status, 400U);
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/next?variant=chess").status, 400U);
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/next?variant=russian&rating=abc").status,
              400U);
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/p000000000000").status, 404U);
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/..%2f..").status / 100, 4U);
    const Json p = http_request(port, "GET", "/api/puzzles/next?variant=russian").json()["puzzle"];
    const std::string at = "/api/puzzles/" + p["id"].get<std::string>() + "/attempt";
    EXPECT_EQ(http_request(port, "POST", at, "not json", token).status, 400U);
    EXPECT_EQ(http_request(port, "POST", at, "{}", token).status, 400U);
    EXPECT_EQ(http_request(port, "POST", at, R"({"moves":[1,2]})", token).status, 400U);
    const auto illegal = http_request(port, "POST", at, R"({"moves":["a1-h8"]})", token);
    EXPECT_EQ(illegal.status, 400U);
    EXPECT_EQ(illegal.json()["error"], "bad_moves");
    EXPECT_EQ(
        http_request(port, "POST", "/api/puzzles/p000000000000/attempt", R"({"moves":[]})", token)
            .status,
        404U);
    EXPECT_EQ(http_request(port, "POST", "/api/puzzles/streak", R"({"variant":"russian"})").status,
              400U);
    EXPECT_EQ(http_request(port, "POST", "/api/puzzles/adopt", R"({"guest":"xyz"})", token).status,
              400U);
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/history").status, 401U);
    EXPECT_EQ(http_request(port, "GET", "/api/puzzles/history?player=nobody_here").status, 404U);
    // Nothing was rated by any of it.
    const auto h = http_request(port, "GET", "/api/puzzles/history", "", token);
    EXPECT_TRUE(h.json()["attempts"].empty()) << h.body;
    // Random bytes as an attempt's body: never a 5xx.
    std::uint64_t seed = 12345;
    for (int i = 0; i < 40; ++i) {
        std::string junk;
        for (int k = 0; k < 64; ++k) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            junk += static_cast<char>(seed >> 56);
        }
        EXPECT_LT(http_request(port, "POST", at, junk, token).status, 500U);
    }
}

TEST(Puzzles, RequestsPerAddressAreCapped) {
    TempDir dir;
    ServerProcess server(dir.path(), {"--puzzle-rate", "5", "--puzzle-attempts-rate", "2"});
    const auto port = server.port();
    int ok          = 0;
    HttpResult last;
    for (int i = 0; i < 8; ++i) {
        last = http_request(port, "GET", "/api/puzzles/daily?variant=thai");
        ok += last.status == 200U;
    }
    EXPECT_EQ(ok, 5);
    EXPECT_EQ(last.status, 429U);
    EXPECT_EQ(last.json()["error"], "too_many_requests");
    EXPECT_FALSE(last.retry_after.empty());
}

// The background miner reads a finished game the site imported and adds the puzzle it proves
// (the shipped set is left out: --puzzles names an empty directory).
TEST(Puzzles, TheSiteMinesItsOwnFinishedGames) {
    std::ifstream f(std::string(PAPAN_PUZZLES_DIR) + "/american.jsonl");
    std::string line;
    ASSERT_TRUE(std::getline(f, line));
    const Json p = Json::parse(line);
    TempDir dir;
    TempDir empty;
    ServerProcess server(dir.path(),
                         {"--puzzles", empty.path().string(), "--puzzle-mining-idle-ms", "100"});
    const auto port  = server.port();
    const auto token = token_of(port, "importer");
    // A game from the puzzle's position: its solution, then nothing.
    std::string pdn = "[Event \"t\"]\n[GameType \"21\"]\n[FEN \"" + p["fen"].get<std::string>() +
                      "\"]\n[Result \"*\"]\n\n";
    for (const auto& m : p["solution"]) {
        pdn += m.get<std::string>() + " ";
    }
    pdn += "*\n";
    const auto imported = http_request(port, "POST", "/api/import", pdn, token);
    ASSERT_EQ(imported.status, 201U) << imported.body;
    Json figures;
    for (int i = 0; i < 600; ++i) {
        figures = http_request(port, "GET", "/api/puzzles").json();
        if (figures["mining"]["games"].get<int>() >= 1) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(figures["mining"]["games"], 1);
    EXPECT_GE(figures["mining"]["kept"].get<int>(), 1) << figures.dump();
    const auto mined = http_request(port, "GET", "/api/puzzles/" + p["id"].get<std::string>());
    ASSERT_EQ(mined.status, 200U) << mined.body;
    EXPECT_EQ(mined.json()["puzzle"]["solution"], p["solution"]);
    EXPECT_EQ(mined.json()["puzzle"]["source"].get<std::string>().rfind("game:", 0), 0U);
}

}  // namespace
}  // namespace papan::test
