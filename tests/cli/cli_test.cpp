// The `papan` command as a user runs it: variants, moves (single and batch), perft, and the
// bad-input cases, each of which must exit non-zero with one clear error line and no crash.
#include "run_binary.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

namespace papan::test {
namespace {

using nlohmann::json;

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> lines;
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line)) {
        lines.push_back(line);
    }
    return lines;
}

TEST(CliVariants, JsonListsAllTenWithStartFens) {
    const auto r = run_papan("variants --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json v = json::parse(r.out);
    ASSERT_EQ(v.size(), 10U);
    std::set<std::string> ids;
    for (const auto& e : v) {
        ids.insert(e["id"].get<std::string>());
    }
    EXPECT_EQ(ids,
              (std::set<std::string>{"american",
                                     "international",
                                     "brazilian",
                                     "russian",
                                     "pool",
                                     "spanish",
                                     "italian",
                                     "czech",
                                     "thai",
                                     "turkish"}));
    EXPECT_EQ(v[0]["start_fen"], "B:W21-32:B1-12");
    EXPECT_EQ(v[1]["game_type"], "20,W,10,10,N2,0");
}

TEST(CliMoves, StartPositionJsonHasSortedDistinctMoves) {
    const auto r = run_papan("moves --variant english --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["variant"], "american");
    ASSERT_EQ(j["moves"].size(), 7U);
    EXPECT_EQ(j["moves"][0]["from"], 9);
    EXPECT_EQ(j["moves"][0]["to"], 13);
    EXPECT_EQ(j["moves"][0]["path"], json::array({9, 13}));
    EXPECT_EQ(j["moves"][0]["text"], "9-13");
}

TEST(CliMoves, CaptureJsonHasPathAndSortedCaptures) {
    // Thai king reversing through squares emptied in the same move (docs/rules.md).
    const auto r = run_papan("moves --variant thai --fen W:WK18:B15,22 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["moves"].size(), 2U);
    for (const auto& m : j["moves"]) {
        EXPECT_EQ(m["captures"], json::array({15, 22}));
        EXPECT_EQ(m["path"].size(), 3U);
    }
}

TEST(CliMoves, BatchWritesOneLinePerFenAndFlagsBadOnes) {
    const auto r = run_papan("moves --variant russian --batch",
                             "W:W21-32:B1-12\nW:W9:B6,11\nnot a fen\n\nB:W18:B14\n");
    EXPECT_NE(r.exit_code, 0);  // one FEN was bad
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 4U);
    EXPECT_EQ(json::parse(lines[0])["moves"].size(), 7U);
    const json crowned = json::parse(lines[1]);  // Russian: crowned mid-capture, goes on
    std::set<int> targets;
    for (const auto& m : crowned["moves"]) {
        targets.insert(m["to"].get<int>());
    }
    EXPECT_EQ(targets, (std::set<int>{16, 20}));  // 9x2 must go on capturing 11
    EXPECT_TRUE(json::parse(lines[2]).contains("error"));
    EXPECT_EQ(json::parse(lines[3])["moves"].size(), 1U);
    EXPECT_NE(r.err.find("stdin line 3"), std::string::npos) << r.err;
}

TEST(CliPerft, JsonSummaryIsTheLastLine) {
    const auto r = run_papan("perft --variant international --depth 4 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = lines_of(r.out);
    const json j     = json::parse(lines.back());
    EXPECT_EQ(j["nodes"], 4265);
    EXPECT_EQ(j["depth"], 4);
    EXPECT_EQ(j["fen"], "W:W31-50:B1-20");
    EXPECT_TRUE(j.contains("ms"));
}

TEST(CliPerft, DivideListsEveryRootMove) {
    const auto r = run_papan("perft --variant turkish --depth 3 --divide");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 9U);  // 8 root moves + summary
    EXPECT_NE(r.out.find("nodes 708"), std::string::npos);
}

TEST(CliPerft, RoutesAndHashOptions) {
    const auto routes = run_papan("perft --variant turkish --depth 7 --routes --json");
    ASSERT_EQ(routes.exit_code, 0) << routes.err;
    EXPECT_EQ(json::parse(lines_of(routes.out).back())["nodes"], 10782382);
    const auto hashed = run_papan("perft --variant turkish --depth 7 --hash 16 --json");
    ASSERT_EQ(hashed.exit_code, 0) << hashed.err;
    EXPECT_EQ(json::parse(lines_of(hashed.out).back())["nodes"], 10782308);
}

struct BadInput {
    const char* name;
    const char* args;
    const char* message;
};

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ExitsNonZeroWithOneClearLine) {
    const auto r = run_papan(GetParam().args);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_LT(r.exit_code, 128) << "crashed";
    EXPECT_NE(r.err.find(GetParam().message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases,
    CliBadInput,
    ::testing::Values(
        BadInput{"UnknownVariant", "moves --variant checkers", "unknown variant 'checkers'"},
        BadInput{"SquareOffBoard",
                 "moves --variant international --fen W:W51:B1",
                 "'51' is not a square"},
        BadInput{"BadSide", "moves --variant american --fen X:W1:B2", "side to move"},
        BadInput{"SquareTwice", "moves --variant russian --fen W:W21,21:B5", "given twice"},
        BadInput{"HouseRuleOn10x10",
                 "moves --variant international --no-forced-capture",
                 "only for 8x8 diagonal variants"},
        BadInput{"DepthZero", "perft --variant american --depth 0", "depth 0 is out of range"},
        BadInput{"DepthTooDeep", "perft --variant american --depth 31", "depth 31 is out of range"},
        BadInput{"BadRange", "perft --variant american --depth 2 --fen W:W1-40", "bad range"},
        BadInput{"PerftUnknownVariant", "perft --variant nope --depth 2", "unknown variant"}),
    [](const ::testing::TestParamInfo<BadInput>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace papan::test
