// POST /api/import against the real `papan serve` (docs/protocol.md, "Importing PDN"): a good
// file, a file with a bad game in the middle, a Latin-1 file, the size limit, text that is not
// PDN, an empty body, who may import and how often; the stored games are finished, unrated and
// open for viewing over the WebSocket like any finished game. With PAPAN_TEST_PG (pg.Import.*)
// the same runs on PostgreSQL.
#include "harness.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace papan::test {
namespace {

std::string pdn_file(const std::string& name) {
    std::ifstream in(std::string(PAPAN_PDN_DATA) + "/" + name, std::ios::binary);
    EXPECT_TRUE(in) << name;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string sign_up(unsigned short port, const std::string& name) {
    const auto r = http_request(
        port, "POST", "/api/register", Json{{"username", name}, {"password", "longenough"}}.dump());
    EXPECT_EQ(r.status, 201U) << r.body;
    return r.json().value("token", "");
}

int imported_games(unsigned short port) {
    const auto r = http_request(port, "GET", "/api/games?player=imported");
    EXPECT_EQ(r.status, 200U) << r.body;
    return static_cast<int>(r.json()["games"].size());
}

constexpr const char* kGood = R"([Event "Club"]
[White "Ann Smith"]
[Black "Budi"]
[Result "2-0"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 2-0
)";

TEST(Import, AGoodGameIsStoredFinishedUnratedAndViewable) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto token = sign_up(port, "ann");
    const auto r     = http_request(port, "POST", "/api/import", kGood, token);
    ASSERT_EQ(r.status, 201U) << r.body;
    const Json j = r.json();
    EXPECT_EQ(j["encoding"], "utf-8");
    EXPECT_EQ(j["games"], 1);
    EXPECT_TRUE(j["rejected"].empty());
    ASSERT_EQ(j["stored"].size(), 1U);
    const Json s         = j["stored"][0];
    const std::string id = s["id"];
    EXPECT_EQ(s["game"], 1);
    EXPECT_EQ(s["variant"], "international");
    EXPECT_EQ(s["white"], "Ann Smith");
    EXPECT_EQ(s["black"], "Budi");
    EXPECT_EQ(s["result"], "2-0");
    EXPECT_EQ(s["moves"], 7);
    EXPECT_EQ(s["link"], "/#/game/" + id);
    EXPECT_EQ(s["api"], "/api/games/" + id);

    const auto g = http_request(port, "GET", "/api/games/" + id);
    ASSERT_EQ(g.status, 200U) << g.body;
    const Json game = g.json();
    EXPECT_EQ(game["mode"], "imported");
    EXPECT_EQ(game["status"], "over");
    EXPECT_EQ(game["rated"], false);
    EXPECT_EQ(game["outcome"], "white_wins");
    EXPECT_EQ(game["reason"], "imported");
    EXPECT_EQ(game["white"]["name"], "Ann Smith");
    EXPECT_EQ(game["white"]["id"], "imported");
    EXPECT_EQ(game["start_fen"], "W:W31-50:B1-20");
    EXPECT_EQ(game["moves"],
              Json::array({"32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28"}));
    // The PDN download reads back the same moves and result.
    const auto pdn = http_request(port, "GET", "/api/games/" + id + "/pdn");
    ASSERT_EQ(pdn.status, 200U) << pdn.body;
    EXPECT_NE(pdn.body.find("4. 37x28 2-0"), std::string::npos) << pdn.body;
    // Nobody plays it: a spectator's resume gets the finished state, and a move is refused.
    WsClient ws(port);
    ws.hello("Watcher");
    ws.send(Json{{"type", "resume"}, {"game", id}, {"last_version", -1}});
    const Json st = ws.recv_until([](const Json& m) { return m["type"] == "state"; });
    EXPECT_EQ(st["state"]["mode"], "imported");
    EXPECT_EQ(st["state"]["status"], "over");
    EXPECT_EQ(st["state"]["ply"], 7);
    EXPECT_TRUE(st["state"]["legal_moves"].empty());
    EXPECT_EQ(st["state"]["result"]["outcome"], "white_wins");
    EXPECT_EQ(st["state"]["players"]["black"]["name"], "Budi");
    ws.send(Json{{"type", "move"}, {"game", id}, {"move", "46-41"}, {"id", 9}});
    const Json err = ws.recv_until([](const Json& m) { return m["type"] == "error"; });
    EXPECT_EQ(err["code"], "not_your_game");
    // An imported game moves no rating: the importer has none.
    const auto me = http_request(port, "GET", "/api/me", "", token).json();
    EXPECT_TRUE(me["ratings"].empty()) << me.dump();
}

TEST(Import, AFileWithABadGameInTheMiddleStoresTheOthers) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port = server.port();
    const auto r    = http_request(
        port, "POST", "/api/import", pdn_file("bad-game-in-middle.pdn"), sign_up(port, "ann"));
    ASSERT_EQ(r.status, 201U) << r.body;
    const Json j = r.json();
    EXPECT_EQ(j["games"], 3);
    ASSERT_EQ(j["stored"].size(), 2U);
    EXPECT_EQ(j["stored"][0]["game"], 1);
    EXPECT_EQ(j["stored"][0]["result"], "1-1");
    EXPECT_EQ(j["stored"][1]["game"], 3);
    EXPECT_EQ(j["stored"][1]["white"], "E");
    ASSERT_EQ(j["rejected"].size(), 1U);
    const Json bad = j["rejected"][0];
    EXPECT_EQ(bad["game"], 2);
    EXPECT_EQ(bad["move"], 3);
    EXPECT_EQ(bad["line"], 18);
    EXPECT_EQ(bad["kind"], "move");
    EXPECT_EQ(bad["reason"].get<std::string>().rfind("move 3 (black): ", 0), 0U) << bad.dump();
    EXPECT_NE(bad["reason"].get<std::string>().find("illegal move '23x14'"), std::string::npos)
        << bad.dump();
    EXPECT_EQ(imported_games(port), 2);
    for (const auto& s : j["stored"]) {
        EXPECT_EQ(http_request(port, "GET", s["api"].get<std::string>()).json()["status"], "over");
    }
}

TEST(Import, ALatin1FileIsReadAndNamesComeBackInUtf8) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port = server.port();
    const auto r =
        http_request(port, "POST", "/api/import", pdn_file("latin1.pdn"), sign_up(port, "ann"));
    ASSERT_EQ(r.status, 201U) << r.body;
    const Json j = r.json();
    EXPECT_EQ(j["encoding"], "latin-1");
    ASSERT_EQ(j["stored"].size(), 1U);
    EXPECT_EQ(j["stored"][0]["white"], "M\xC3\xBCller, J\xC3\xB6rg");
    EXPECT_EQ(j["stored"][0]["black"], "G\xC3\xA9rard, No\xC3\xABl");
    const auto g = http_request(port, "GET", j["stored"][0]["api"].get<std::string>()).json();
    EXPECT_EQ(g["black"]["name"], "G\xC3\xA9rard, No\xC3\xABl");
    EXPECT_EQ(g["outcome"], "draw");
}

TEST(Import, TheSizeLimitIsOneMebibyteForThisRouteOnly) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto token = sign_up(port, "ann");
    // Over the limit: answered from the header, before the body is sent.
    const auto big = raw_http(port,
                              "POST /api/import HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                                  token + "\r\nContent-Length: 1048577\r\n\r\n");
    EXPECT_EQ(big.status, 413U) << big.body;
    EXPECT_EQ(Json::parse(big.body, nullptr, false).value("error", ""), "body_too_large");
    // At the limit: read (it is blank, so no game), not refused for its size.
    const auto at =
        http_request(port, "POST", "/api/import", std::string(1024 * 1024, '\n'), token);
    EXPECT_EQ(at.status, 400U) << at.body;
    EXPECT_EQ(at.json()["error"], "no_games");
    // A good game behind 100 KB of comment passes here; the same size elsewhere is 413.
    const std::string padded = "% " + std::string(100 * 1024, 'x') + "\n" + kGood;
    EXPECT_EQ(http_request(port, "POST", "/api/import", padded, token).status, 201U);
    const auto login = raw_http(port,
                                "POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                    std::to_string(padded.size()) + "\r\n\r\n");
    EXPECT_EQ(login.status, 413U);
}

TEST(Import, TextThatIsNotPdnOrNothingStoresNothing) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port  = server.port();
    const auto token = sign_up(port, "ann");
    const auto junk = http_request(port, "POST", "/api/import", "hello, this is a letter\n", token);
    EXPECT_EQ(junk.status, 422U) << junk.body;
    const Json j = junk.json();
    EXPECT_EQ(j["error"], "no_good_games");
    EXPECT_TRUE(j["message"].is_string());
    ASSERT_EQ(j["rejected"].size(), 1U);
    EXPECT_EQ(j["rejected"][0]["game"], 1);
    EXPECT_EQ(j["rejected"][0]["kind"], "no_variant");
    const auto empty = http_request(port, "POST", "/api/import", "", token);
    EXPECT_EQ(empty.status, 400U);
    EXPECT_EQ(empty.json()["error"], "no_games");
    const auto blank = http_request(port, "POST", "/api/import", "\r\n \n", token);
    EXPECT_EQ(blank.json()["error"], "no_games");
    const auto comment = http_request(port, "POST", "/api/import", "% only a comment\n", token);
    EXPECT_EQ(comment.status, 400U) << comment.body;
    EXPECT_EQ(imported_games(port), 0);
}

TEST(Import, OnlySignedInAccountsImportAndAtMostTwentyAnHour) {
    TempDir dir;
    ServerProcess server(dir.path());
    const auto port = server.port();
    const auto anon = http_request(port, "POST", "/api/import", kGood);
    EXPECT_EQ(anon.status, 401U);
    EXPECT_EQ(anon.json()["error"], "not_signed_in");
    EXPECT_EQ(http_request(port, "POST", "/api/import", kGood, "not-a-token").status, 401U);
    EXPECT_EQ(http_request(port, "GET", "/api/import").status, 405U);
    EXPECT_EQ(imported_games(port), 0);
    const auto ann = sign_up(port, "ann");
    for (int i = 0; i < 20; ++i) {
        ASSERT_EQ(http_request(port, "POST", "/api/import", kGood, ann).status, 201U) << i;
    }
    const auto over = http_request(port, "POST", "/api/import", kGood, ann);
    EXPECT_EQ(over.status, 429U);
    EXPECT_EQ(over.json()["error"], "too_many_imports");
    EXPECT_FALSE(over.retry_after.empty());
    // Per account: another one may still import.
    EXPECT_EQ(http_request(port, "POST", "/api/import", kGood, sign_up(port, "bob")).status, 201U);
    EXPECT_EQ(imported_games(port), 21);
}

}  // namespace
}  // namespace papan::test
