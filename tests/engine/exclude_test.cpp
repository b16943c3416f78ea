// Engine::search_excluding (multi-PV by exclusion, used by the browser's analysis): the excluded
// root moves are never searched nor returned, and an empty exclusion is search() itself.
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/engine.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace papan::engine {
namespace {

using core::Game;
using core::VariantId;

SearchLimits depth(int d) {
    SearchLimits l;
    l.depth = d;
    return l;
}

TEST(SearchExcluding, NothingExcludedIsTheSameSearch) {
    const Game g(VariantId::International);
    Engine a;
    Engine b;
    const auto plain    = a.search(g, depth(6));
    const auto excluded = b.search_excluding(g, {}, depth(6));
    ASSERT_TRUE(plain.best && excluded.best);
    EXPECT_TRUE(plain.best->same_as(*excluded.best));
    EXPECT_EQ(plain.nodes, excluded.nodes);
    EXPECT_EQ(plain.score, excluded.score);
}

TEST(SearchExcluding, NeverReturnsAnExcludedMoveAndFindsTheNextBest) {
    for (const VariantId v : {VariantId::International, VariantId::American, VariantId::Turkish}) {
        const Game g(v);
        Engine eng;
        std::vector<core::Move> excluded;
        std::vector<int> scores;
        for (int line = 0; line < 3; ++line) {
            const auto r = eng.search_excluding(g, excluded, depth(5));
            ASSERT_TRUE(r.best);
            for (const core::Move& m : excluded) {
                EXPECT_FALSE(m.same_as(*r.best)) << "line " << line;
            }
            ASSERT_FALSE(r.pv.empty());
            EXPECT_TRUE(r.pv.front().same_as(*r.best));
            excluded.push_back(*r.best);
            scores.push_back(r.score);
        }
        // Taking the best move away cannot make the best of the rest better (same depth).
        EXPECT_GE(scores[0], scores[1]);
    }
}

TEST(SearchExcluding, AllButOneExcludedPlaysThatOne) {
    const Game g(VariantId::Russian);
    Engine eng;
    const auto best = eng.search(g, depth(4)).best;
    ASSERT_TRUE(best);
    // keep one move that is not the engine's choice; exclude every other one
    const auto& legal = g.legal_moves();
    const auto kept   = std::find_if(
        legal.begin(), legal.end(), [&](const core::Move& m) { return !m.same_as(*best); });
    ASSERT_NE(kept, legal.end());
    std::vector<core::Move> others;
    for (const core::Move& m : legal) {
        if (!m.same_as(*kept)) {
            others.push_back(m);
        }
    }
    const auto r = eng.search_excluding(g, others, depth(4));
    ASSERT_TRUE(r.best);
    EXPECT_TRUE(r.best->same_as(*kept));
}

}  // namespace
}  // namespace papan::engine
