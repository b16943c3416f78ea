// `papan egdb build|probe|info` and `papan hub --egdb` as a user runs them: a small set built
// into a fresh directory, probed and listed; bad input and missing tables give one clear error.
#include "run_binary.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace papan::test {
namespace {

class CliEgdb : public ::testing::Test {
protected:
    void SetUp() override {
        char dir_template[] = "/tmp/papan-egdb-cli-XXXXXX";
        dir_                = mkdtemp(dir_template);
        const auto r        = run_papan("egdb build --variant american --pieces 3 --dir " + dir_);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("16 slices built"), std::string::npos) << r.out;
    }

    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string dir_;
};

TEST_F(CliEgdb, ProbeGivesTheResultAndEachMovesResult) {
    auto r = run_papan("egdb probe --variant american --fen W:WK14,K15:BK1 --dir " + dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "win\n");
    r = run_papan("egdb probe --variant american --fen B:WK14,K15:BK1 --moves --dir " + dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, 5), "loss\n");
    EXPECT_NE(r.out.find("1-5 loss"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1-6 loss"), std::string::npos) << r.out;
}

TEST_F(CliEgdb, BuildAgainReusesTheTables) {
    const auto r = run_papan("egdb build --variant american --pieces 3 --dir " + dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("0 slices built, 16 already present"), std::string::npos) << r.out;
}

TEST_F(CliEgdb, InfoListsTheSet) {
    const auto r = run_papan("egdb info --dir " + dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("american 16 tables (up to 3 pieces)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("american            3      12"), std::string::npos) << r.out;
}

TEST_F(CliEgdb, OutsideTheTablesIsAnError) {
    auto r = run_papan("egdb probe --variant american --fen W:WK14,K15,K16:BK1 --dir " + dir_);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("papan: error: egdb probe: the position (4 pieces) is not in the"),
              std::string::npos)
        << r.err;
    r = run_papan("egdb probe --variant russian --fen W:WK14:BK1 --dir " + dir_);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("complete up to 0 pieces"), std::string::npos) << r.err;
}

TEST_F(CliEgdb, DamagedFileIsReportedAndLeftOut) {
    {
        std::ofstream f(dir_ + "/american/m0k2-m0k1.egdb", std::ios::binary | std::ios::trunc);
        f << "damaged";
    }
    auto r = run_papan("egdb info --dir " + dir_);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("refused: " + dir_ + "/american/m0k2-m0k1.egdb: refused: truncated"),
              std::string::npos)
        << r.out;
    r = run_papan("egdb probe --variant american --fen W:WK14:BK1 --dir " + dir_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("papan: warning:"), std::string::npos);
    // Rebuilding replaces the damaged table.
    r = run_papan("egdb build --variant american --pieces 3 --dir " + dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("rebuilding m0k2-m0k1"), std::string::npos) << r.err;
    r = run_papan("egdb info --dir " + dir_);
    EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST_F(CliEgdb, BadArgumentsAreOneLineErrors) {
    auto r = run_papan("egdb build --variant american --pieces 9 --dir " + dir_);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("--pieces must be between 2 and 7 for american"), std::string::npos)
        << r.err;
    r = run_papan("egdb build --variant nosuch --pieces 3 --dir " + dir_);
    EXPECT_EQ(r.exit_code, 1);
    r = run_papan("egdb probe --variant american --fen W:Wxx --dir " + dir_);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("papan: error:"), std::string::npos);
}

TEST_F(CliEgdb, HubSaysWhichTablesItUses) {
    auto r = run_papan("hub --egdb " + dir_, "quit\n");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.err.find("papan hub: endgame databases from " + dir_ + ": american 16 tables"),
              std::string::npos)
        << r.err;
    r = run_papan("hub --egdb " + dir_ + "/none", "quit\n");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_NE(r.err.find("papan hub: no endgame databases in " + dir_ + "/none"), std::string::npos)
        << r.err;
}

// `papan serve` says at start which tables its computer players use (stopped after a few
// seconds by SIGTERM, a graceful stop).
std::string serve_log(const std::string& data, const std::string& egdb) {
    const std::string log = data + ".log";
    (void)run_papan("serve --port 0 --data " + data + " --egdb " + egdb + " 2>" + log +
                    " & pid=$!; sleep 4; kill $pid; wait $pid");
    return read_file(log);
}

TEST_F(CliEgdb, ServeSaysWhichTablesItUses) {
    auto log = serve_log(dir_ + "/site", dir_);
    EXPECT_NE(log.find("[ai] endgame databases from " + dir_ + ": american 16 tables"),
              std::string::npos)
        << log;
    log = serve_log(dir_ + "/site", dir_ + "/none");
    EXPECT_NE(log.find("[ai] no endgame databases in " + dir_ + "/none"), std::string::npos) << log;
}

}  // namespace
}  // namespace papan::test
