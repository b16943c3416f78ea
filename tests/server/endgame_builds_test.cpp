// Endgame tables on a site nobody set them up for: `papan serve` starts building the small sets
// into --egdb in the background once it serves (the build itself and the engines' use of new
// tables: tests/engine/egdb_background_test.cpp), says so in its log and in /healthz, and a
// stop ends the build between slices (the server exits at once, the tables written so far kept).
#include "harness.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

namespace papan::test {
namespace {

using namespace std::chrono_literals;

TEST(EndgameBuilds, TheServerBuildsTheSmallSetsInTheBackground_AndSaysWhatIsLoaded) {
    TempDir dir;
    const auto log  = dir.path() / "server.log";
    const auto egdb = dir.path() / "egdb";
    ServerProcess server(dir.path(), {"--build-endgames", "--egdb", egdb.string()}, log);
    const unsigned short port = server.port();

    const auto r = http_request(port, "GET", "/healthz");
    EXPECT_EQ(r.status, 200U);
    EXPECT_TRUE(r.json()["ai"].contains("endgames")) << r.body;

    const std::regex building(R"(\[egdb\] endgame tables: building american 5 pieces in )");
    EXPECT_TRUE(log_has(log, building, 30s)) << read_file(log);
    EXPECT_TRUE(std::filesystem::exists(egdb / ".build.lock"));

    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(server.terminate(), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);
}

TEST(EndgameBuilds, OffWithNoBuildEndgames) {
    TempDir dir;
    const auto log  = dir.path() / "server.log";
    const auto egdb = dir.path() / "egdb";
    ServerProcess server(dir.path(), {"--egdb", egdb.string()}, log);  // the harness adds it
    const unsigned short port = server.port();
    EXPECT_EQ(http_request(port, "GET", "/healthz").json()["ai"]["endgames"], "none");
    std::this_thread::sleep_for(500ms);
    EXPECT_FALSE(std::filesystem::exists(egdb / ".build.lock"));
    EXPECT_EQ(server.terminate(), 0);
    EXPECT_FALSE(log_has(log, std::regex(R"(\[egdb\])"), 0ms)) << read_file(log);
}

}  // namespace
}  // namespace papan::test
