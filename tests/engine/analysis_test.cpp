// Multi-line analysis (engine::analyse_lines): with three lines asked for in positions of one, two
// and three legal moves of every variant (tests/data/analysis/few_moves.txt), every legal move gets
// a line and every line deepens under a time limit, as the analysis board asks for it. Until the
// engine searched a line left with one move, such lines stayed at depth 1.
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/analysis.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace papan::engine {
namespace {

struct FewMoves {
    core::VariantId variant;
    std::size_t legal;
    std::string fen;
};

std::vector<FewMoves> few_move_positions() {
    std::ifstream in(std::string(PAPAN_TEST_DATA_DIR) + "/analysis/few_moves.txt");
    EXPECT_TRUE(in) << "tests/data/analysis/few_moves.txt";
    std::vector<FewMoves> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream words(line);
        std::string key, kind, fen;
        std::size_t legal = 0;
        words >> key >> legal >> kind >> fen;
        const auto v = core::variant_from_key(key);
        EXPECT_TRUE(v) << line;
        if (v) {
            out.push_back({*v, legal, fen});
        }
    }
    return out;
}

EngineOptions small_engine_options() {
    EngineOptions o;
    o.hash_mb = 4;
    return o;
}

core::Game game_of(const FewMoves& p) {
    const auto pos = core::parse_fen(p.variant, p.fen);
    EXPECT_TRUE(pos) << p.fen;
    auto g = core::Game::create(*pos, {});
    EXPECT_TRUE(g) << p.fen;
    return std::move(g).value();
}

TEST(AnalyseLines, EveryVariantHasPositionsOfOneTwoAndThreeLegalMoves) {
    std::map<core::VariantId, std::set<std::size_t>> seen;
    for (const FewMoves& p : few_move_positions()) {
        const core::Game g = game_of(p);
        EXPECT_FALSE(g.is_over()) << p.fen;
        EXPECT_EQ(g.legal_moves().size(), p.legal) << p.fen;
        seen[p.variant].insert(p.legal);
    }
    for (const core::RuleSet& r : core::all_variants()) {
        EXPECT_EQ(seen[r.id], (std::set<std::size_t>{1, 2, 3})) << r.key;
    }
}

// Three lines, 0.25 s: as many lines as legal moves, each on its own first move, each searched
// past depth 5 (a few thousand nodes in these positions, so the figure holds on a loaded
// machine), and the progress reports of every line reach the final depth.
TEST(AnalyseLines, ThreeLinesDeepenWithOneTwoOrThreeLegalMoves_UnderATimeLimit) {
    for (const FewMoves& p : few_move_positions()) {
        const core::Game g = game_of(p);
        Engine eng(small_engine_options());
        std::map<int, int> reported;  // rank -> deepest depth reported
        const AnalysisResult r = analyse_lines(
            eng, g, {.seconds = 0.25}, 3, [&](const AnalysisLine& l, std::uint64_t, double) {
                reported[l.rank] = std::max(reported[l.rank], l.depth);
            });
        const std::string where = std::string(core::rules(p.variant).key) + " " + p.fen;
        ASSERT_EQ(r.lines.size(), p.legal) << where;
        std::vector<core::Move> firsts;
        for (const AnalysisLine& l : r.lines) {
            ASSERT_FALSE(l.pv.empty()) << where;
            EXPECT_GE(l.depth, 6) << where << " line " << l.rank;
            // The final lines are the last depth every line completed; a line may have been
            // reported one depth further before the time ran out in that depth.
            EXPECT_GE(reported[l.rank], l.depth) << where << " line " << l.rank;
            EXPECT_LE(reported[l.rank], l.depth + 1) << where << " line " << l.rank;
            for (const core::Move& m : firsts) {
                EXPECT_FALSE(m.same_as(l.pv.front())) << where;
            }
            firsts.push_back(l.pv.front());
            EXPECT_TRUE(g.find_legal(l.pv.front())) << where;
        }
        EXPECT_LT(r.seconds, 2.0) << where;
    }
}

// The lines are ordered best first, and a single line is the plain search's line.
TEST(AnalyseLines, LinesAreBestFirst_AndOneLineIsTheSearch) {
    for (const FewMoves& p : few_move_positions()) {
        if (p.legal < 2) {
            continue;
        }
        const core::Game g = game_of(p);
        Engine a(small_engine_options());
        const AnalysisResult r = analyse_lines(a, g, {.depth = 5}, 3);
        ASSERT_EQ(r.lines.size(), p.legal);
        for (std::size_t k = 1; k < r.lines.size(); ++k) {
            EXPECT_GE(r.lines[k - 1].score, r.lines[k].score) << p.fen;
        }
        Engine b(small_engine_options());
        const AnalysisResult one = analyse_lines(b, g, {.depth = 5}, 1);
        Engine c(small_engine_options());
        SearchLimits limits;
        limits.depth         = 5;
        const SearchResult s = c.search(g, limits);
        ASSERT_EQ(one.lines.size(), 1U);
        EXPECT_EQ(one.nodes, s.nodes) << p.fen;
        EXPECT_EQ(one.lines[0].score, s.score) << p.fen;
        EXPECT_TRUE(one.lines[0].pv.front().same_as(*s.best)) << p.fen;
    }
}

}  // namespace
}  // namespace papan::engine
