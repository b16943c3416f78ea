// Engine search: legality on random positions of every variant, stop (also before the search
// starts, and by search number) and time limits, determinism, levels and draw awareness.
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/engine/engine.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>

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

// A fresh engine's search of `g` to `depth` plies.
SearchResult search_depth(const Game& g, int depth) {
    Engine eng;
    SearchLimits limits;
    limits.depth = depth;
    return eng.search(g, limits);
}

// A search watched by another thread: one that has not returned after `patience` is stopped
// (during the search, which always worked) and marked `rescued`, so a stop that was lost fails
// the test instead of hanging it.
struct Watched {
    SearchResult result;
    double seconds = 0;
    bool rescued   = false;
};

Watched search_watched(Engine& eng,
                       const Game& g,
                       const SearchLimits& limits,
                       std::chrono::milliseconds patience = std::chrono::seconds(5)) {
    Watched w;
    std::mutex mutex;
    std::condition_variable cv;
    bool returned = false;
    std::thread watchdog([&] {
        std::unique_lock lock(mutex);
        if (cv.wait_for(lock, patience, [&] { return returned; })) {
            return;
        }
        w.rescued = true;
        while (!returned) {
            eng.stop();
            cv.wait_for(lock, std::chrono::milliseconds(10), [&] { return returned; });
        }
    });
    const auto start = std::chrono::steady_clock::now();
    SearchResult r   = eng.search(g, limits);
    {
        const std::lock_guard lock(mutex);
        returned = true;
    }
    cv.notify_all();
    watchdog.join();
    w.result  = std::move(r);
    w.seconds = seconds_since(start);
    return w;
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
            Engine eng(EngineOptions{
                .hash_mb = 4, .seed = static_cast<std::uint64_t>(playout), .egdb_dir = {}});
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

// A man one step from crowning at a quiet leaf is not left to the static evaluation: the
// quiescence search plays the crowning on, so a 1-ply search already answers White's move with
// Black's crowning (without it the PV would end at the root move and the score would be the
// leaf's static value, -88 here against -170).
TEST(EngineSearch, QuiescenceFollowsACrowningMove) {
    const Game g         = game_from(VariantId::International, "W:W28:B42");
    const SearchResult r = search_depth(g, 1);
    ASSERT_GE(r.pv.size(), 2U);
    EXPECT_TRUE(r.pv[1].promotes) << r.pv.size();
}

TEST(EngineSearch, ReturnsNoMove_WhenGameIsOver) {
    const Game g = game_from(VariantId::International, "W:W:B1,2");  // White has no pieces
    EXPECT_FALSE(search_depth(g, 3).best.has_value());
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

// A stop issued (from another thread) before search() has started is not lost: the search
// returns at once with a legal move, and the request is used up by it.
TEST(EngineSearch, StopsAtOnce_WhenStoppedJustBeforeTheSearchStarts) {
    const Game g(VariantId::International);
    Engine eng;
    SearchLimits infinite;
    infinite.infinite = true;
    std::thread stopper([&] { eng.stop(); });
    stopper.join();
    const Watched w = search_watched(eng, g, infinite);
    EXPECT_FALSE(w.rescued) << "the stop issued before search() was lost";
    ASSERT_TRUE(w.result.best.has_value());
    EXPECT_TRUE(is_legal(g, *w.result.best));
    EXPECT_LT(w.seconds, 2.5);

    SearchLimits depth5;
    depth5.depth = 5;
    EXPECT_EQ(eng.search(g, depth5).depth, 5);  // the next search is not stopped

    // A stop racing with the start of the search (before or just after it) ends it too.
    for (int i = 0; i < 10; ++i) {
        std::thread racer([&] { eng.stop(); });
        const Watched raced = search_watched(eng, g, infinite);
        racer.join();
        EXPECT_FALSE(raced.rescued) << "round " << i;
        ASSERT_TRUE(raced.result.best.has_value());
        EXPECT_TRUE(is_legal(g, *raced.result.best));
    }
}

// stop(id) ends search number `id` only: a late request for a search that has returned does not
// reach the next one, and a request made before a search starts ends that search.
TEST(EngineSearch, StopById_EndsThatSearchOnly) {
    const Game g(VariantId::International);
    Engine eng;
    SearchLimits depth5;
    depth5.depth = 5;
    SearchLimits infinite;
    infinite.infinite = true;

    const std::uint64_t first = eng.next_search_id();
    EXPECT_EQ(eng.search(g, depth5).depth, 5);
    eng.stop(first);  // too late: the search has returned
    EXPECT_EQ(eng.next_search_id(), first + 1);
    EXPECT_EQ(eng.search(g, depth5).depth, 5);

    const std::uint64_t next = eng.next_search_id();
    std::thread stopper([&] { eng.stop(next); });
    stopper.join();
    const Watched w = search_watched(eng, g, infinite);
    EXPECT_FALSE(w.rescued) << "stop(id) before the search started was lost";
    ASSERT_TRUE(w.result.best.has_value());
    EXPECT_TRUE(is_legal(g, *w.result.best));
    EXPECT_EQ(eng.search(g, depth5).depth, 5);
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
        Engine a(EngineOptions{.hash_mb = 8, .seed = 5, .egdb_dir = {}});
        Engine b(EngineOptions{.hash_mb = 8, .seed = 5, .egdb_dir = {}});
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
    EXPECT_GE(search_depth(g, 4).score, kMateBound);
}

// Turkish lone king against lone king is drawn unless the side to move captures at once
// (docs/rules.md). White's king on a1 must take the man on a3; what Black's king can do next
// decides the game.
TEST(EngineSearch, ScoresLoneKingsAsDraw_InTurkish) {
    // Black's king on h8 cannot take White's king wherever it lands: a draw at once.
    const Game drawn = game_from(VariantId::Turkish, "W:WK1:B17,K64");
    ASSERT_FALSE(drawn.is_over());
    const SearchResult d = search_depth(drawn, 6);
    ASSERT_TRUE(d.best.has_value());
    EXPECT_TRUE(d.best->is_capture());
    EXPECT_EQ(d.score, 0);
    // On a8 it takes White's king on every landing square of the a-file: not a draw, a loss.
    const Game lost = game_from(VariantId::Turkish, "W:WK1:B17,K57");
    ASSERT_FALSE(lost.is_over());
    EXPECT_LE(search_depth(lost, 6).score, -kMateBound);
}

// The levels: deterministic for a seed, the weak ones vary with the seed.
TEST(EngineLevels, AreDeterministic_PerSeed) {
    const Game g(VariantId::International);
    for (const Level level : {Level::Easy, Level::Normal, Level::Hard}) {
        SearchLimits limits;
        limits.nodes = 5000;
        Engine a(EngineOptions{.hash_mb = 4, .seed = 42, .egdb_dir = {}});
        Engine b(EngineOptions{.hash_mb = 4, .seed = 42, .egdb_dir = {}});
        const auto ra = a.search(g, limits, level);
        const auto rb = b.search(g, limits, level);
        EXPECT_TRUE(ra.best->same_as(*rb.best)) << level_name(level);
        EXPECT_EQ(ra.nodes, rb.nodes);
    }
}

TEST(EngineLevels, EasyVariesWithTheSeed_ButNeverPlaysALostMove) {
    const Game start(VariantId::International);
    std::set<std::pair<int, int>> chosen;
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        Engine eng(EngineOptions{.hash_mb = 4, .seed = seed, .egdb_dir = {}});
        const auto r = eng.search(start, SearchLimits{}, Level::Easy);
        ASSERT_TRUE(r.best.has_value());
        chosen.insert({r.best->from, r.best->to});
    }
    EXPECT_GE(chosen.size(), 2U);

    // American: White's lone king on 18 faces twelve men. Two of its four moves walk into a
    // capture of White's last piece (a lost game at once), two do not. Which is which is read off
    // the rules core, not the engine.
    const Game g = game_from(VariantId::American, "W:WK18:B1,2,3,4,5,6,7,8,9,10,11,12");
    std::vector<core::Move> lost;
    std::vector<core::Move> safe;
    for (const core::Move& m : g.legal_moves()) {
        Game after = g;
        ASSERT_TRUE(after.play(m).ok());
        bool loses = false;
        for (const core::Move& reply : after.legal_moves()) {
            Game end = after;
            ASSERT_TRUE(end.play(reply).ok());
            loses = loses ||
                    (end.is_over() && core::winner(end.result().outcome) == core::Color::Black);
        }
        (loses ? lost : safe).push_back(m);
    }
    ASSERT_EQ(lost.size(), 2U);
    ASSERT_EQ(safe.size(), 2U);
    std::set<std::pair<int, int>> played;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        Engine eng(EngineOptions{.hash_mb = 4, .seed = seed, .egdb_dir = {}});
        const auto r = eng.search(g, SearchLimits{}, Level::Easy);
        ASSERT_TRUE(r.best.has_value());
        for (const core::Move& m : lost) {
            EXPECT_FALSE(r.best->same_as(m)) << "seed " << seed << " played a lost move";
        }
        played.insert({r.best->from, r.best->to});
    }
    EXPECT_EQ(played.size(), 2U);  // both safe moves are played for some seed
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

// The engine's answer (searched to `depth` plies) once the shuffle is played.
struct ShuffleAnswer {
    Game game;
    SearchResult result;
    std::string text;  // the move in the variant's notation; empty when there is none
};

ShuffleAnswer answer_shuffle(const Shuffle& s, int depth) {
    ShuffleAnswer a{play_shuffle(s), {}, {}};
    a.result = search_depth(a.game, depth);
    if (a.result.best) {
        a.text = core::move_text(a.game.position(), *a.result.best);
    }
    return a;
}

TEST(EngineDraws, WinningSideAvoidsThreefoldRepetition) {
    // American: White is three men up; Black to move first, then White would repeat.
    const Shuffle s{VariantId::American,
                    "B:WK29,21,22,23,24:BK4",
                    {"4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4"},
                    "25-29"};
    const ShuffleAnswer a = answer_shuffle(s, 8);
    ASSERT_TRUE(a.result.best.has_value());
    EXPECT_NE(a.text, s.repeating);
    Game after = a.game;
    ASSERT_TRUE(after.play(*a.result.best).ok());
    EXPECT_FALSE(after.is_over());
}

TEST(EngineDraws, LosingSideTakesADrawByRepetition) {
    // International: Black's lone king faces two kings and five men; it repeats for the draw.
    const Shuffle s{VariantId::International,
                    "W:WK47,K48,32,33,34,35,40:BK3",
                    {"47-42", "3-9", "42-47", "9-3", "47-42", "3-9", "42-47"},
                    "9-3"};
    const ShuffleAnswer a = answer_shuffle(s, 6);
    EXPECT_EQ(a.text, s.repeating);  // empty, and so failing, when there is no move
    EXPECT_EQ(a.result.score, 0);
}

}  // namespace
}  // namespace papan::engine
