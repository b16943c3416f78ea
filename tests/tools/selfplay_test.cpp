// papan_selfplay: the SPRT and Elo arithmetic against independent formulas, the opening suites,
// and tiny real matches of the `papan` binary against itself over the Hub protocol (including an
// engine that answers an illegal move, which must forfeit).
#include "match.hpp"
#include "openings.hpp"
#include "sprt.hpp"

#include <papan/core/game.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>

namespace papan::selfplay {
namespace {

using core::VariantId;

// The normal approximation of the GSPRT's LLR (Fishtest's first formula): N trials of mean x and
// variance v give LLR ~ N (s1 - s0) (2x - s0 - s1) / (2v).
double llr_normal(const std::vector<double>& scores,
                  const std::vector<std::int64_t>& counts,
                  double s0,
                  double s1) {
    double n = 0, sum = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        n += static_cast<double>(counts[i]);
        sum += static_cast<double>(counts[i]) * scores[i];
    }
    const double x = sum / n;
    double v       = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        v += static_cast<double>(counts[i]) * (scores[i] - x) * (scores[i] - x);
    }
    v /= n;
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * v);
}

TEST(Sprt, LlrOfWinsAndLossesOnly_IsTheBinomialLikelihoodRatio) {
    // With two outcomes the distribution of a given mean is unique: P(win) = s.
    Counts c;
    c.wins   = 60;
    c.losses = 40;
    const SprtParams p{.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05};
    const double s0    = 0.5;
    const double s1    = 1.0 / (1.0 + std::pow(10.0, -10.0 / 400.0));
    const double exact = 60 * std::log(s1 / s0) + 40 * std::log((1 - s1) / (1 - s0));
    EXPECT_NEAR(llr(c, p, Counting::Trinomial), exact, 1e-9);
    // The same counts the other way round give the opposite evidence.
    std::swap(c.wins, c.losses);
    EXPECT_NEAR(llr(c, p, Counting::Trinomial),
                40 * std::log(s1 / s0) + 60 * std::log((1 - s1) / (1 - s0)),
                1e-9);
}

TEST(Sprt, LlrAgreesWithTheNormalApproximation_TrinomialAndPentanomial) {
    const double s0 = score_of_elo(0);
    const double s1 = score_of_elo(10);
    Counts c;
    c.wins                  = 1210;
    c.losses                = 1105;
    c.draws                 = 2685;
    const double tri        = llr(c, SprtParams{.elo0 = 0, .elo1 = 10}, Counting::Trinomial);
    const double tri_normal = llr_normal({0, 0.5, 1}, {c.losses, c.draws, c.wins}, s0, s1);
    EXPECT_GT(tri, 0.5);
    EXPECT_NEAR(tri, tri_normal, 0.02 * std::abs(tri_normal));

    Counts p;
    p.pairs            = {60, 480, 1350, 560, 50};
    const double penta = llr(p, SprtParams{.elo0 = 0, .elo1 = 10}, Counting::Pentanomial);
    const double penta_normal =
        llr_normal({0, 0.25, 0.5, 0.75, 1}, {60, 480, 1350, 560, 50}, s0, s1);
    EXPECT_NEAR(penta, penta_normal, 0.02 * std::abs(penta_normal));
    // Hypotheses either side of the observed score: evidence for the nearer one.
    EXPECT_LT(llr(p, SprtParams{.elo0 = 20, .elo1 = 30}, Counting::Pentanomial), 0);
}

TEST(Sprt, BoundsAndDecisions) {
    const SprtBounds b =
        sprt_bounds(SprtParams{.elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05});
    EXPECT_NEAR(b.upper, std::log(19.0), 1e-12);
    EXPECT_NEAR(b.lower, -std::log(19.0), 1e-12);
    EXPECT_EQ(decide(3.0, b), Decision::AcceptH1);
    EXPECT_EQ(decide(-3.0, b), Decision::AcceptH0);
    EXPECT_EQ(decide(0.1, b), Decision::Continue);
    const SprtBounds asym = sprt_bounds(SprtParams{.alpha = 0.1, .beta = 0.01});
    EXPECT_NEAR(asym.upper, std::log(0.99 / 0.1), 1e-12);
    EXPECT_NEAR(asym.lower, std::log(0.01 / 0.9), 1e-12);
}

TEST(Sprt, EloEstimate_AndItsInterval) {
    EXPECT_NEAR(elo_of_score(0.75), 400 * std::log10(3.0), 1e-9);
    EXPECT_NEAR(score_of_elo(elo_of_score(0.61)), 0.61, 1e-12);
    Counts c;  // 30 wins, 60 draws, 10 losses: mean 0.6, variance 0.09 per game
    c.wins              = 30;
    c.draws             = 60;
    c.losses            = 10;
    const EloEstimate e = estimate_elo(c, Counting::Trinomial);
    EXPECT_NEAR(e.score, 0.6, 1e-12);
    EXPECT_NEAR(e.elo, -400 * std::log10(1 / 0.6 - 1), 1e-9);
    const double se = std::sqrt(0.09 / 100);
    EXPECT_NEAR(e.lower, -400 * std::log10(1 / (0.6 - 1.96 * se) - 1), 1e-9);
    EXPECT_NEAR(e.upper, -400 * std::log10(1 / (0.6 + 1.96 * se) - 1), 1e-9);
}

TEST(Sprt, PairsAreCountedByTheirScore) {
    Counts c;
    c.add_pair(2, 2);  // two wins
    c.add_pair(2, 0);  // a win and a loss: pair score 1
    c.add_pair(1, 1);  // two draws: pair score 1
    c.add_pair(0, 1);  // a loss and a draw
    EXPECT_EQ(c.wins, 3);
    EXPECT_EQ(c.losses, 2);
    EXPECT_EQ(c.draws, 3);
    EXPECT_EQ(c.pairs, (std::array<std::int64_t, 5>{0, 1, 2, 0, 1}));
}

TEST(Openings, EverySuiteLoads_WithDistinctPositions) {
    std::size_t suites = 0;
    for (const core::RuleSet& r : core::all_variants()) {
        const std::string path =
            std::string(PAPAN_OPENINGS_DIR) + "/" + std::string(r.key) + ".txt";
        SCOPED_TRACE(path);
        auto suite = load_openings(r.id, path);
        ASSERT_TRUE(suite.ok()) << suite.error();
        EXPECT_GE(suite->size(), 40U);
        std::set<std::uint64_t> keys;
        for (const Opening& o : *suite) {
            core::Game g(r.id);
            for (const core::Move& m : o.moves) {
                ASSERT_TRUE(g.play(m).ok());
            }
            keys.insert(g.position().key());
        }
        EXPECT_EQ(keys.size(), suite->size());
        ++suites;
    }
    EXPECT_EQ(suites, 10U);
    auto american =
        load_openings(VariantId::American, std::string(PAPAN_OPENINGS_DIR) + "/american.txt");
    ASSERT_TRUE(american.ok());
    EXPECT_EQ(american->size(), 156U);  // the ACF three-move deck
}

TEST(Openings, AnIllegalLineIsRefused_WithItsLineNumber) {
    const auto path = std::filesystem::temp_directory_path() / "papan_bad_openings.txt";
    std::ofstream(path) << "# comment\n11-15 23-19\n11-15 23-18 8-12 12-8\n";
    auto suite = load_openings(VariantId::American, path.string());
    ASSERT_FALSE(suite.ok());
    EXPECT_NE(suite.error().find(":3:"), std::string::npos) << suite.error();
    std::filesystem::remove(path);
}

TEST(Openings, GenerationIsDeterministic_AndKeepsBalancedLinesOnly) {
    const GenerateOptions o{
        .plies = 2, .depth = 3, .max_score = 15, .count = 6, .sample = 20, .seed = 3};
    const GeneratedSuite a = generate_openings(VariantId::Brazilian, o);
    const GeneratedSuite b = generate_openings(VariantId::Brazilian, o);
    ASSERT_EQ(a.openings.size(), b.openings.size());
    EXPECT_GT(a.candidates, a.openings.size());
    for (std::size_t i = 0; i < a.openings.size(); ++i) {
        EXPECT_EQ(a.openings[i].text, b.openings[i].text);
        EXPECT_LE(std::abs(a.scores[i]), o.max_score);
    }
    EXPECT_LE(a.searched, o.sample);
}

EngineSpec papan_engine(const std::string& level = "max") {
    EngineSpec s;
    s.path    = PAPAN_BINARY;
    s.level   = level;
    s.hash_mb = 4;
    return s;
}

MatchOptions tiny_match(VariantId v, std::int64_t pairs) {
    MatchOptions o;
    o.variant         = v;
    o.candidate       = papan_engine();
    o.baseline        = papan_engine();
    o.candidate_limit = {.nodes = 300};
    o.baseline_limit  = {.nodes = 300};
    auto suite        = load_openings(
        v, std::string(PAPAN_OPENINGS_DIR) + "/" + std::string(core::rules(v).key) + ".txt");
    EXPECT_TRUE(suite.ok());
    o.openings  = std::move(suite).value();
    o.max_pairs = pairs;
    o.max_plies = 200;
    return o;
}

TEST(Match, TinyRealMatch_PlaysBothColoursOfEachOpening) {
    for (const VariantId v : {VariantId::American, VariantId::International}) {
        std::vector<GameRecord> games;
        const MatchResult r = run_match(
            tiny_match(v, 2), [&](const GameRecord& a, const GameRecord& b, const MatchResult&) {
                games.push_back(a);
                games.push_back(b);
            });
        ASSERT_TRUE(r.error.empty()) << r.error;
        EXPECT_EQ(r.counts.games(), 4);
        EXPECT_EQ(r.counts.pair_count(), 2);
        EXPECT_EQ(r.forfeits_candidate + r.forfeits_baseline, 0);
        ASSERT_EQ(games.size(), 4U);
        EXPECT_EQ(games[0].opening, games[1].opening);
        EXPECT_NE(games[0].candidate_white, games[1].candidate_white);
        for (const GameRecord& g : games) {
            EXPECT_GT(g.plies, 3);
            EXPECT_FALSE(g.ending.empty());
        }
    }
}

// At a fixed move time a forced move is played at once and counted apart: the count is every
// position after the opening where the candidate had one legal move, found by replaying the games.
TEST(Match, ForcedMovesAreCountedApart_AtAFixedMoveTime) {
    MatchOptions o    = tiny_match(VariantId::American, 2);
    o.candidate_limit = {.move_time = 0.02};
    o.baseline_limit  = {.move_time = 0.02};
    std::vector<GameRecord> games;
    const MatchResult r =
        run_match(o, [&](const GameRecord& a, const GameRecord& b, const MatchResult&) {
            games.push_back(a);
            games.push_back(b);
        });
    ASSERT_TRUE(r.error.empty()) << r.error;
    std::int64_t forced = 0;
    std::int64_t moves  = 0;
    for (const GameRecord& rec : games) {
        core::Game g(o.variant);
        const std::size_t opening_plies = o.openings[rec.opening].moves.size();
        const core::Color candidate = rec.candidate_white ? core::Color::White : core::Color::Black;
        std::istringstream in(rec.moves);
        std::string text;
        for (std::size_t ply = 0; in >> text; ++ply) {
            if (ply >= opening_plies && g.side_to_move() == candidate) {
                ++moves;
                forced += g.legal_moves().size() == 1 ? 1 : 0;
            }
            ASSERT_TRUE(g.play(text).ok()) << text;
        }
    }
    EXPECT_EQ(r.time_candidate.moves, moves);
    EXPECT_GT(forced, 0);
    EXPECT_EQ(r.time_candidate.forced.moves, forced);
    EXPECT_LT(r.time_candidate.forced.seconds, 0.01 * static_cast<double>(forced));
    EXPECT_LE(r.time_candidate.unsearched.moves + r.time_candidate.proven.moves +
                  r.time_candidate.searched_out.moves,
              moves - forced);
}

TEST(Match, MoveTimeKinds_ForcedThenUnsearchedThenProvenThenSearchedOut) {
    EngineReply r;
    EXPECT_EQ(move_time_kind(r, 1), MoveTimeKind::Forced);
    // No `info` with several legal moves: the engine chose without a search.
    EXPECT_EQ(move_time_kind(r, 2), MoveTimeKind::Unsearched);
    r.score = 2000;
    r.depth = kSearchedOutDepth;
    EXPECT_EQ(move_time_kind(r, 1), MoveTimeKind::Forced);
    EXPECT_EQ(move_time_kind(r, 2), MoveTimeKind::Proven);
    r.score = -kProvenScore;
    EXPECT_EQ(move_time_kind(r, 2), MoveTimeKind::Proven);
    r.score = 0;
    EXPECT_EQ(move_time_kind(r, 2), MoveTimeKind::SearchedOut);
    r.depth = kSearchedOutDepth - 1;
    EXPECT_EQ(move_time_kind(r, 2), MoveTimeKind::Open);
    r.score = kProvenScore - 1;
    EXPECT_EQ(move_time_kind(r, 2), MoveTimeKind::Open);
}

TEST(Match, AnEngineThatAnswersAnIllegalMove_Forfeits) {
    const auto script = std::filesystem::temp_directory_path() / "papan_illegal_engine.sh";
    std::ofstream(script) << "#!/bin/sh\n"
                             "while read -r line; do\n"
                             "  case \"$line\" in\n"
                             "    hub*) echo 'id name=illegal'; echo wait ;;\n"
                             "    init*) echo ready ;;\n"
                             "    go*) echo 'done move=1-2' ;;\n"
                             "    quit*) exit 0 ;;\n"
                             "  esac\n"
                             "done\n";
    ::chmod(script.c_str(), 0755);
    MatchOptions o      = tiny_match(VariantId::International, 1);
    o.candidate.path    = script.string();
    const MatchResult r = run_match(o);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.counts.losses, 2);
    EXPECT_EQ(r.forfeits_candidate, 2);
    std::filesystem::remove(script);
}

TEST(Match, SprtStopsAtItsBound_WhenOneSideIsFarStronger) {
    MatchOptions o      = tiny_match(VariantId::American, 40);
    o.baseline          = papan_engine("easy");
    o.candidate_limit   = {.nodes = 3000};
    o.sprt              = SprtParams{.elo0 = 0, .elo1 = 150, .alpha = 0.05, .beta = 0.05};
    const MatchResult r = run_match(o);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.decision, Decision::AcceptH1);
    EXPECT_LT(r.counts.pair_count(), 40);
    EXPECT_GE(r.llr, r.bounds.upper);
}

// A Hub v1 engine (the protocol read from its handshake) against Papan at a fixed move time: both
// colours of the opening, every move legal, the v1 commands in the order v1 engines need them
// (`pos` resets their limits, so `time` follows it), the book off, the depth of its `info` lines
// counted, and the program run in its own folder (where Scan finds its settings and data).
TEST(Match, AHubV1Engine_PlaysAtAFixedMoveTime) {
    const auto log = std::filesystem::temp_directory_path() / "papan_hub1_engine.log";
    std::filesystem::remove(log);
    MatchOptions o      = tiny_match(VariantId::International, 1);
    o.baseline.path     = PAPAN_HUB1_ENGINE;
    o.baseline.args     = {"hub", log.string()};
    o.candidate_limit   = {.move_time = 0.01};
    o.baseline_limit    = {.move_time = 0.01};
    const MatchResult r = run_match(o);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.counts.games(), 2);
    EXPECT_EQ(r.forfeits_candidate + r.forfeits_baseline, 0);
    EXPECT_GT(r.time_baseline.moves, 0);
    EXPECT_EQ(r.time_baseline.depth_moves,
              r.time_baseline.moves - r.time_baseline.forced.moves - r.time_baseline.proven.moves);
    EXPECT_DOUBLE_EQ(r.time_baseline.mean_depth(), 7.0);
    // its `info` lines say 1000 nodes in 0.01 s
    EXPECT_EQ(r.time_baseline.nodes,
              1000U * static_cast<std::uint64_t>(r.time_baseline.depth_moves));
    EXPECT_NEAR(r.time_baseline.nodes_seconds,
                0.01 * static_cast<double>(r.time_baseline.depth_moves),
                1e-9);
    EXPECT_GT(r.time_candidate.nodes, 0U);
    EXPECT_GT(r.time_candidate.depth_moves, 0);

    std::ifstream in(log);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    ASSERT_GE(lines.size(), 6U);
    EXPECT_EQ(lines[0], "cwd " + std::filesystem::path(PAPAN_HUB1_ENGINE).parent_path().string());
    EXPECT_EQ(lines[1], "hub");
    EXPECT_EQ(lines[2], "set book false");
    EXPECT_EQ(lines[3], "init");
    int goes = 0;
    for (std::size_t i = 4; i < lines.size(); ++i) {
        EXPECT_EQ(lines[i].rfind("set-param", 0), std::string::npos) << lines[i];
        if (lines[i] == "go") {
            ++goes;
            ASSERT_GE(i, 2U);
            EXPECT_EQ(lines[i - 1], "time 10");
            EXPECT_EQ(lines[i - 2].size(), 4U + 51U) << lines[i - 2];
            EXPECT_TRUE(lines[i - 2].rfind("pos w", 0) == 0 || lines[i - 2].rfind("pos b", 0) == 0)
                << lines[i - 2];
        }
    }
    EXPECT_EQ(goes, r.time_baseline.moves);
    EXPECT_NE(std::find(lines.begin(), lines.end(), "new"), lines.end());
    std::filesystem::remove(log);
}

TEST(Match, AHubV1Engine_IsRefusedOtherVariantsAndNodeLimits) {
    MatchOptions o  = tiny_match(VariantId::American, 1);
    o.baseline.path = PAPAN_HUB1_ENGINE;
    o.baseline.args = {"hub", "/dev/null"};
    MatchResult r   = run_match(o);
    EXPECT_NE(r.error.find("International draughts only"), std::string::npos) << r.error;

    o               = tiny_match(VariantId::International, 1);
    o.baseline.path = PAPAN_HUB1_ENGINE;
    o.baseline.args = {"hub", "/dev/null"};
    r               = run_match(o);  // nodes, not a move time
    EXPECT_NE(r.error.find("fixed move time"), std::string::npos) << r.error;
    EXPECT_EQ(r.counts.games(), 0);
}

TEST(SelfplayCli, PrintsTheSummary_AndAJsonLine) {
    const std::string cmd = std::string(PAPAN_SELFPLAY) + " --variant russian --candidate " +
                            PAPAN_BINARY + " --games 2 --nodes 200 --hash 4 --json 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p) != nullptr) {
        out += buf;
    }
    EXPECT_EQ(::pclose(p), 0) << out;
    EXPECT_NE(out.find("games 2 (1 pairs)"), std::string::npos) << out;
    EXPECT_NE(out.find("{\"variant\":\"russian\",\"games\":2"), std::string::npos) << out;
}

}  // namespace
}  // namespace papan::selfplay
