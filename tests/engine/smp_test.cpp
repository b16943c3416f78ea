// Lazy SMP (EngineOptions::threads, level max): with four threads the search still honours its
// node, depth and time limits, a stop ends it promptly, and the move it returns is always legal;
// the other levels stay single-threaded (and so deterministic).
#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/engine.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>

namespace papan::engine {
namespace {

using core::Game;
using core::VariantId;

constexpr int kThreads = 4;
// Threads add their node counts to the shared total every 1024 nodes (search.hpp, kPollNodes),
// so a limit may be passed by that much per thread; a few more nodes are entered by the threads
// unwinding after the stop.
constexpr std::uint64_t kNodeSlack = kThreads * 1024 + 64;

EngineOptions four_threads(std::size_t hash_mb = 8) {
    return EngineOptions{.hash_mb = hash_mb, .seed = 0, .egdb_dir = {}, .threads = kThreads};
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

bool is_legal(const Game& g, const SearchResult& r) {
    return r.best.has_value() && g.find_legal(*r.best).has_value();
}

TEST(LazySmp, HonoursTheNodeLimit_CountingEveryThread) {
    for (const VariantId v : {VariantId::International, VariantId::American, VariantId::Turkish}) {
        const Game g(v);
        Engine eng(four_threads());
        for (const std::uint64_t limit : {5000ULL, 60000ULL}) {
            SearchLimits limits;
            limits.nodes         = limit;
            const SearchResult r = eng.search(g, limits);
            ASSERT_TRUE(is_legal(g, r)) << core::rules(v).key;
            EXPECT_GE(r.nodes, limit) << core::rules(v).key;
            EXPECT_LE(r.nodes, limit + kNodeSlack) << core::rules(v).key;
        }
    }
}

// A search that has not returned after `patience` is stopped and marked `rescued`, so a search
// whose helpers were not stopped fails the test instead of hanging it.
struct Watched {
    SearchResult result;
    bool rescued = false;
};

Watched search_watched(Engine& eng,
                       const Game& g,
                       const SearchLimits& limits,
                       const InfoCallback& on_info = {}) {
    Watched w;
    std::mutex mutex;
    std::condition_variable cv;
    bool returned = false;
    std::thread watchdog([&] {
        std::unique_lock lock(mutex);
        if (!cv.wait_for(lock, std::chrono::seconds(10), [&] { return returned; })) {
            w.rescued = true;
            eng.stop();
        }
    });
    SearchResult r = eng.search(g, limits, Level::Max, on_info);
    {
        const std::lock_guard lock(mutex);
        returned = true;
    }
    cv.notify_all();
    watchdog.join();
    w.result = std::move(r);
    return w;
}

// Helpers ignore the depth limit (they search until the main thread ends the search).
TEST(LazySmp, HonoursTheDepthLimit) {
    for (const VariantId v : {VariantId::International, VariantId::Russian}) {
        const Game g(v);
        Engine eng(four_threads());
        SearchLimits limits;
        limits.depth = 7;
        int deepest  = 0;
        const Watched w =
            search_watched(eng, g, limits, [&](const SearchInfo& info) { deepest = info.depth; });
        EXPECT_FALSE(w.rescued) << "the search did not return at its depth limit";
        const SearchResult& r = w.result;
        ASSERT_TRUE(is_legal(g, r));
        EXPECT_EQ(r.depth, 7);
        EXPECT_EQ(deepest, 7);  // only the main thread reports, and it stops at the limit
        ASSERT_FALSE(r.pv.empty());
        EXPECT_TRUE(r.pv.front().same_as(*r.best));
    }
}

TEST(LazySmp, HonoursTheMoveTime) {
    const Game g(VariantId::International);
    Engine eng(four_threads());
    SearchLimits limits;
    limits.move_time     = 0.3;
    const auto start     = std::chrono::steady_clock::now();
    const SearchResult r = eng.search(g, limits);
    const double took    = seconds_since(start);
    ASSERT_TRUE(is_legal(g, r));
    EXPECT_GE(r.depth, 1);
    EXPECT_LT(took, 2.0);  // the hard deadline of a 0.3 s move, with room for a loaded machine
}

TEST(LazySmp, StopEndsAnInfiniteSearchPromptly) {
    const Game g(VariantId::International);
    Engine eng(four_threads(16));
    SearchLimits limits;
    limits.infinite = true;
    std::chrono::steady_clock::time_point stopped_at;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        stopped_at = std::chrono::steady_clock::now();
        eng.stop();
    });
    const SearchResult r = eng.search(g, limits);
    const double after   = seconds_since(stopped_at);
    stopper.join();
    ASSERT_TRUE(is_legal(g, r));
    EXPECT_GE(r.depth, 1);
    EXPECT_LT(after, 1.0) << "seconds from stop() to the search's return";
}

// Random playouts (a fixed LCG) in every variant, a four-thread search every few plies.
TEST(LazySmp, NeverReturnsAnIllegalMove_RandomPlayouts) {
    std::uint64_t x = 0x5eed;
    for (const core::RuleSet& rules : core::all_variants()) {
        Game g(rules.id);
        Engine eng(four_threads(4));
        while (!g.is_over() && g.ply() < 60) {
            if (g.ply() % 9 == 4) {
                SearchLimits limits;
                limits.nodes         = 4000;
                const SearchResult r = eng.search(g, limits);
                ASSERT_TRUE(is_legal(g, r)) << rules.key << " " << core::to_fen(g.position());
            }
            x                 = x * 6364136223846793005ULL + 1442695040888963407ULL;
            const auto& legal = g.legal_moves();
            ASSERT_TRUE(g.play(legal[(x >> 33) % legal.size()]).ok());
        }
    }
}

// Threads are for level max only: a hard search with four threads is the one-thread search,
// node for node.
TEST(LazySmp, LevelHardSearchesOnOneThread) {
    const Game g(VariantId::International);
    SearchLimits limits;
    limits.nodes = 20000;
    Engine one(EngineOptions{.hash_mb = 8, .seed = 0, .egdb_dir = {}});
    Engine four(four_threads());
    const SearchResult a = one.search(g, limits, Level::Hard);
    const SearchResult b = four.search(g, limits, Level::Hard);
    ASSERT_TRUE(a.best && b.best);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.nodes, limits.nodes);  // one thread stops exactly at its limit
    EXPECT_TRUE(a.best->same_as(*b.best));
}

}  // namespace
}  // namespace papan::engine
