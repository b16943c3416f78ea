// Engine search: legality on random positions of every variant, stop and time limits,
// determinism, levels and draw awareness.
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/engine/engine.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

namespace papan::engine {
namespace {

using core::Game;
using core::VariantId;

core::Game game_from(VariantId v, const char* fen) {
    auto pos = core::parse_fen(v, fen);
    EXPECT_TRUE(pos.ok()) << fen;
    return Game(*pos);
}

bool is_legal(const Game& g, const core::Move& m) {
    return g.find_legal(m).has_value();
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Random playouts (a fixed LCG) in every variant; at every few plies each level searches a
// small budget and must return a legal move of the game.
TEST(EngineSearch, NeverReturnsAnIllegalMove_RandomPlayouts) {
    std::uint64_t x = 0x1234567;
    for (const core::RuleSet& r : core::all_variants()) {
        for (int playout = 0; playout < 4; ++playout) {
            core::GameOptions opts;
            opts.forced_capture = !(r.optional_capture_house_rule && playout == 3);
            Game g(r.id, opts);
            Engine eng(EngineOptions{.hash_mb = 4, .seed = static_cast<std::uint64_t>(playout)});
            while (!g.is_over() && g.ply() < 90) {
                if (g.ply() % 7 == 3) {
                    for (const Level level : {Level::Easy, Level::Normal, Level::Hard}) {
                        SearchLimits limits;
                        limits.nodes           = 1500;
                        const SearchResult res = eng.search(g, limits, level);
                        ASSERT_TRUE(res.best.has_value()) << r.key;
                        ASSERT_TRUE(is_legal(g, *res.best))
                            << r.key << " " << core::to_fen(g.position());
                    }
                }
                x                 = x * 6364136223846793005ULL + 1442695040888963407ULL;
                const auto& legal = g.legal_moves();
                ASSERT_TRUE(g.play(legal[(x >> 33) % legal.size()]).ok());
            }
        }
    }
}

TEST(EngineSearch, ReturnsNoMove_WhenGameIsOver) {
    const Game g = game_from(VariantId::International, "W:W:B1,2");  // White has no pieces
    Engine eng;
    SearchLimits limits;
    limits.depth = 3;
    EXPECT_FALSE(eng.search(g, limits).best.has_value());
}

TEST(EngineSearch, StopsQuickly_WhenStoppedDuringInfiniteSearch) {
    const Game g(VariantId::International);
    Engine eng;
    SearchLimits limits;
    limits.infinite = true;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        eng.stop();
    });
    const auto start     = std::chrono::steady_clock::now();
    const SearchResult r = eng.search(g, limits);
    const double took    = seconds_since(start);
    stopper.join();
    ASSERT_TRUE(r.best.has_value());
    EXPECT_TRUE(is_legal(g, *r.best));
    EXPECT_LT(took, 2.5);
}

TEST(EngineSearch, RespectsMoveTime) {
    const Game g(VariantId::Turkish);
    Engine eng;
    SearchLimits limits;
    limits.move_time     = 0.2;
    const auto start     = std::chrono::steady_clock::now();
    const SearchResult r = eng.search(g, limits);
    const double took    = seconds_since(start);
    ASSERT_TRUE(r.best.has_value());
    EXPECT_TRUE(is_legal(g, *r.best));
    EXPECT_LT(took, 2.0);
    EXPECT_GE(r.depth, 1);
}

TEST(EngineSearch, RespectsGameClock_AndByoYomi) {
    const Game g(VariantId::American);
    Engine eng;
    SearchLimits clock;
    clock.time_left = 1.0;
    auto start      = std::chrono::steady_clock::now();
    SearchResult r  = eng.search(g, clock);
    EXPECT_LT(seconds_since(start), 1.0);
    ASSERT_TRUE(r.best.has_value());

    SearchLimits byo;  // main time gone: the byo-yomi period is the budget
    byo.time_left = 0;
    byo.byo_yomi  = 0.5;
    byo.periods   = 1;
    start         = std::chrono::steady_clock::now();
    r             = eng.search(g, byo);
    EXPECT_LT(seconds_since(start), 1.5);
    ASSERT_TRUE(r.best.has_value());
}

TEST(EngineSearch, IsDeterministic_ForNodeAndDepthLimits) {
    for (const VariantId v : {VariantId::International, VariantId::American, VariantId::Turkish}) {
        const Game g(v);
        SearchLimits limits;
        limits.nodes = 20000;
        Engine a(EngineOptions{.hash_mb = 8, .seed = 5});
        Engine b(EngineOptions{.hash_mb = 8, .seed = 5});
        const SearchResult ra = a.search(g, limits);
        const SearchResult rb = b.search(g, limits);
        ASSERT_TRUE(ra.best && rb.best);
        EXPECT_TRUE(ra.best->same_as(*rb.best));
        EXPECT_EQ(ra.nodes, rb.nodes);
        EXPECT_EQ(ra.score, rb.score);
        // new_game() forgets the table: the same search again gives the same count.
        a.new_game();
        EXPECT_EQ(a.search(g, limits).nodes, ra.nodes);
    }
}

TEST(EngineSearch, ReportsEachIteration_WithALegalPv) {
    const Game g(VariantId::International);
    Engine eng;
    SearchLimits limits;
    limits.depth = 6;
    std::vector<SearchInfo> infos;
    const SearchResult r =
        eng.search(g, limits, Level::Max, [&](const SearchInfo& i) { infos.push_back(i); });
    ASSERT_EQ(infos.size(), 6U);
    EXPECT_EQ(r.depth, 6);
    for (std::size_t d = 0; d < infos.size(); ++d) {
        EXPECT_EQ(infos[d].depth, static_cast<int>(d) + 1);
        core::Game walk = g;
        for (const core::Move& m : infos[d].pv) {
            ASSERT_TRUE(walk.play(m).ok());  // every PV move legal in turn
        }
    }
}

TEST(EngineSearch, SeesTheWin_WhenTheLastPieceCanBeTaken) {
    const Game g = game_from(VariantId::American, "W:W22:B18");
    Engine eng;
    SearchLimits limits;
    limits.depth         = 4;
    const SearchResult r = eng.search(g, limits);
    EXPECT_GE(r.score, kMateBound);
}

TEST(EngineSearch, ScoresLoneKingsAsDraw_InTurkish) {
    const Game g = game_from(VariantId::Turkish, "W:WK1:BK64");
    Engine eng;
    SearchLimits limits;
    limits.depth = 6;
    // Lone king against lone king: drawn by rule, so the game is already over or scores 0.
    if (!g.is_over()) {
        EXPECT_EQ(eng.search(g, limits).score, 0);
    }
}

// The levels: deterministic for a seed, the weak ones vary with the seed.
TEST(EngineLevels, AreDeterministic_PerSeed) {
    const Game g(VariantId::International);
    for (const Level level : {Level::Easy, Level::Normal, Level::Hard}) {
        SearchLimits limits;
        limits.nodes = 5000;
        Engine a(EngineOptions{.hash_mb = 4, .seed = 42});
        Engine b(EngineOptions{.hash_mb = 4, .seed = 42});
        const auto ra = a.search(g, limits, level);
        const auto rb = b.search(g, limits, level);
        EXPECT_TRUE(ra.best->same_as(*rb.best)) << level_name(level);
        EXPECT_EQ(ra.nodes, rb.nodes);
    }
}

TEST(EngineLevels, EasyVariesWithTheSeed_ButNeverPlaysALostMove) {
    const Game g(VariantId::International);
    std::set<std::pair<int, int>> chosen;
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        Engine eng(EngineOptions{.hash_mb = 4, .seed = seed});
        const auto r = eng.search(g, SearchLimits{}, Level::Easy);
        ASSERT_TRUE(r.best.has_value());
        chosen.insert({r.best->from, r.best->to});
    }
    EXPECT_GE(chosen.size(), 2U);
}

// Draw awareness with the game history: a position met twice more would be a threefold draw.
// White shuffles a king between two squares and Black does the same; after seven plies the
// next king move repeats the start position for the third time.
struct Shuffle {
    VariantId variant;
    const char* fen;
    std::array<const char*, 7> moves;
    const char* repeating;  // the move that would complete the threefold repetition
};

Game play_shuffle(const Shuffle& s) {
    Game g = game_from(s.variant, s.fen);
    for (const char* m : s.moves) {
        EXPECT_TRUE(g.play(m).ok()) << m;
    }
    EXPECT_FALSE(g.is_over());
    EXPECT_EQ(g.repetition_count(), 2);
    return g;
}

TEST(EngineDraws, WinningSideAvoidsThreefoldRepetition) {
    // American: White is three men up; Black to move first, then White would repeat.
    const Shuffle s{VariantId::American,
                    "B:WK29,21,22,23,24:BK4",
                    {"4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"},
                    "25-29"};
    const Game g = play_shuffle(s);
    Engine eng;
    SearchLimits limits;
    limits.depth = 8;
    const auto r = eng.search(g, limits);
    ASSERT_TRUE(r.best.has_value());
    EXPECT_NE(core::move_text(g.position(), *r.best), std::string(s.repeating));
    Game after = g;
    ASSERT_TRUE(after.play(*r.best).ok());
    EXPECT_FALSE(after.is_over());
}

TEST(EngineDraws, LosingSideTakesADrawByRepetition) {
    // International: Black's lone king faces two kings and five men; it repeats for the draw.
    const Shuffle s{VariantId::International,
                    "W:WK47,K48,32,33,34,35,40:BK3",
                    {"47-42", "3-9", "42-47", "9-3", "47-42", "3-9", "42-47"},
                    "9-3"};
    const Game g = play_shuffle(s);
    Engine eng;
    SearchLimits limits;
    limits.depth = 6;
    const auto r = eng.search(g, limits);
    ASSERT_TRUE(r.best.has_value());
    EXPECT_EQ(core::move_text(g.position(), *r.best), std::string(s.repeating));
    EXPECT_EQ(r.score, 0);
}

}  // namespace
}  // namespace papan::engine
