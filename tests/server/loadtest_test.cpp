// The load tool end to end: the real `papan serve` on a free port and the real `papan loadtest`
// binary against it for a few seconds; its JSON report must show moves and nothing lost or
// duplicated in the store.
#include "harness.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace papan::test {
namespace {

struct CommandRun {
    int status = -1;
    std::string out;
};

// Runs a shell command line; returns its exit status and stdout.
CommandRun run_command(const std::string& line) {
    CommandRun r;
    FILE* p = ::popen(line.c_str(), "r");
    if (p == nullptr) {
        return r;
    }
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) {
        r.out.append(buf.data(), n);
    }
    const int st = ::pclose(p);
    r.status     = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

// The last non-empty line of the output, parsed as JSON.
Json last_json_line(const std::string& out) {
    std::istringstream in(out);
    std::string line;
    std::string last;
    while (std::getline(in, line)) {
        if (!line.empty()) {
            last = line;
        }
    }
    return Json::parse(last, nullptr, false);
}

TEST(Loadtest, PlaysGamesAndFindsNothingLostOrDuplicated) {
    TempDir dir;
    // The tool plays back to back from one address: the abuse limits off (docs/operations.md).
    ServerProcess server(dir.path(), {"--ws-rate", "0", "--max-connections-per-ip", "0"});
    const std::string url = "ws://127.0.0.1:" + std::to_string(server.port()) + "/ws";
    const CommandRun r    = run_command(std::string(PAPAN_BINARY) + " loadtest --url " + url +
                                     " --games 4 --rate 20 --duration 5 --seed 7 --json");
    ASSERT_EQ(r.status, 0) << r.out;
    const Json report = last_json_line(r.out);
    ASSERT_TRUE(report.is_object()) << r.out;
    EXPECT_GT(report["moves"].get<std::int64_t>(), 0) << r.out;
    EXPECT_EQ(report["lost"], 0) << r.out;
    EXPECT_EQ(report["duplicated"], 0) << r.out;
    EXPECT_EQ(report["errors"]["total"], 0) << r.out;
    EXPECT_GE(report["verified_games"].get<int>(), 4) << r.out;
    EXPECT_GT(report["moves_per_s"].get<double>(), 0.0) << r.out;
    EXPECT_GE(report["ack_ms"]["max"].get<double>(), report["ack_ms"]["p50"].get<double>());
    EXPECT_EQ(report["ok"], true) << r.out;
}

TEST(Loadtest, RefusesBadOptionsAndAnUnreachableServer) {
    const std::string bin = PAPAN_BINARY;
    EXPECT_NE(run_command(bin + " loadtest --url http://127.0.0.1:1/ws --games 1 --rate 1"
                                " --duration 1 2>/dev/null")
                  .status,
              0);
    EXPECT_NE(run_command(bin + " loadtest --url ws://127.0.0.1:1/ws --games 0 --rate 1"
                                " --duration 1 2>/dev/null")
                  .status,
              0);
    // Nothing listens on port 1: connect errors, no moves, a failing exit code.
    const CommandRun r = run_command(bin + " loadtest --url ws://127.0.0.1:1/ws --games 2 --rate 10"
                                           " --duration 1 --json 2>/dev/null");
    EXPECT_EQ(r.status, 1) << r.out;
    const Json report = last_json_line(r.out);
    ASSERT_TRUE(report.is_object()) << r.out;
    EXPECT_EQ(report["moves"], 0);
    EXPECT_EQ(report["errors"]["by_code"]["connect"], 2);
    EXPECT_EQ(report["ok"], false);
}

}  // namespace
}  // namespace papan::test
