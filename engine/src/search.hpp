// The search driver: iterative deepening PVS alpha-beta with a transposition table, quiescence
// on captures, killers and history, repetition and draw-rule awareness. run_search() switches on
// the variant once and runs Searcher<V> (search/searcher.hpp, which lists the files of its
// parts), specialised at compile time.
//
// Ownership: SearchState belongs to one Engine and is used by one search at a time; `phase` and
// `stop_up_to` are touched by other threads (Engine::stop), and the table by the helper threads
// of a multi-threaded search, each of which has a ThreadData of its own.
#pragma once

#include "tt.hpp"

#include <papan/core/game.hpp>
#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>
#include <papan/engine/limits.hpp>
#include <papan/engine/weights.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

namespace papan::engine::detail {

inline constexpr int kMaxPly   = 128;
inline constexpr int kInfinite = 32000;
// The search reads the clock and the stop flags every kPollNodes nodes (a power of two).
inline constexpr std::uint64_t kPollNodes = 1024;

// What a level changes in the search (see levels in engine.cpp and docs/engine.md).
struct Handicap {
    int max_depth     = 0;  // 0 = none
    int qsearch_plies = 0;  // 0 = unlimited; else captures are followed this many plies only
    int noise         = 0;  // +- amplitude added to each root move's score
    int temperature   = 0;  // softmax temperature among root moves; 0 = always the best
};

struct SearchParams {
    SearchLimits limits;
    Handicap handicap;
    std::uint64_t seed = 0;
    // Deadlines from the start of the search, in seconds; <= 0 = none.
    double soft_time = 0;  // no new iteration after this
    double hard_time = 0;  // abort at once after this
    InfoCallback on_info;
    const EvalWeights* weights = nullptr;  // the evaluation's set for the game's variant (set)
    // Endgame databases to probe (egdb_probe.hpp); may be null.
    const egdb::Database* egdb = nullptr;
    std::vector<core::Move> excluded;  // root moves not to search (Engine::search_excluding)
    // Threads searching (Lazy SMP, search.cpp): 1 = the calling thread alone; n > 1 adds n - 1
    // helpers sharing the table, whose results are not used.
    int threads = 1;
};

// A ply's move list and its ordering (search/move_order.hpp).
struct Frame {
    core::MoveList moves;
    std::array<int, core::kMaxMoves> order_score;
    std::array<core::Move, 2> killers;
};

// History of quiet moves, by side, from-square and to-square (search/move_order.hpp).
using History = std::array<std::array<std::array<int, 64>, 64>, 2>;

// The principal variation found below a ply: line p holds moves p .. (Searcher::update_pv).
using PvLine = std::array<core::Move, kMaxPly + 1>;

// What one thread of a search keeps from one search to the next: its move lists, killers and
// history, and the room for its principal variations (made once here, not per search: a search
// of a few milliseconds would otherwise spend a good part of them clearing half a megabyte).
// Thread 0 is the main thread; threads 1.. are the Lazy SMP helpers.
struct ThreadData {
    ThreadData() : frames(kMaxPly + 8), pv(kMaxPly + 1) { clear(); }

    void clear() {
        for (auto& side : history) {
            for (auto& row : side) {
                row.fill(0);
            }
        }
        for (Frame& f : frames) {
            f.killers[0] = core::Move{};
            f.killers[1] = core::Move{};
        }
    }

    History history{};
    SearchStats stats;  // of the running search (reset at its start)
    std::vector<Frame> frames;
    std::vector<PvLine> pv;  // only entries written in the current search are read
};

// What the threads of one multi-threaded search share besides the table (search.cpp).
struct SharedSearch {
    std::atomic<bool> stop{false};        // the main thread has its result: helpers end
    std::atomic<std::uint64_t> nodes{0};  // nodes of all threads, added in steps (count_node)
};

struct SearchState {
    explicit SearchState(std::size_t hash_mb) : tt(hash_mb) {
        threads.push_back(std::make_unique<ThreadData>());
    }

    void clear_history() {
        for (auto& t : threads) {
            t->clear();
        }
    }

    // The data of thread i, made on first use. Only while no search runs (run_search calls it
    // before starting the helpers).
    ThreadData& thread(std::size_t i) {
        while (threads.size() <= i) {
            threads.push_back(std::make_unique<ThreadData>());
        }
        return *threads[i];
    }

    // Whether the running search is asked to stop (polled by the search).
    [[nodiscard]] bool stop_requested() const noexcept {
        return stop_up_to.load(std::memory_order_relaxed) >= search_id;
    }

    TranspositionTable tt;  // shared by all threads of a search
    std::vector<std::unique_ptr<ThreadData>> threads;

    // Stop requests (Engine::stop). Searches are numbered from 1 in the order they start.
    std::atomic<std::uint64_t> phase{0};       // 2n - 1 while search n runs, 2n once it returned
    std::atomic<std::uint64_t> stop_up_to{0};  // every search numbered up to this is to stop
    std::uint64_t search_id = 0;  // the running search's number (set before its threads start)
};

[[nodiscard]] SearchResult
run_search(const core::Game& game, const SearchParams& params, SearchState& state);

// splitmix64: the deterministic noise of the weaker levels.
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t x) noexcept {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace papan::engine::detail
