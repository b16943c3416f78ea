// Searcher<V>: iterative deepening PVS, specialised per variant at compile time and entered once
// per search through run_search()'s switch (search.cpp). Positions are copy-made on the stack;
// the per-ply move lists live in the thread's ThreadData::frames, so nothing is allocated inside
// the tree. With Lazy SMP (search.cpp) one Searcher runs on each thread.
// Scores are from the side to move, so a winning side avoids draws and a losing side seeks them.
//
// Its parts, one file each:
//   iterative_deepening.cpp  run(): the root moves, iterative deepening with aspiration windows,
//                            search_root(): one pass over the root moves
//   alphabeta.cpp            search(): the PVS alpha-beta node (TT, LMR, killers, history)
//   quiescence.cpp           qsearch(): capture sequences to a quiet position
//   move_order.hpp           move scores, selection, reductions, history update
//   draw_tracker.hpp         repetitions and move-limit counters along the line
//   root_choice.hpp          the weaker levels' noisy choice among the root moves
#pragma once

#include "egdb_probe.hpp"
#include "search.hpp"
#include "search/draw_tracker.hpp"

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/core/position.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace papan::engine::detail {

template <core::VariantId V>
class Searcher {
public:
    // A search of game.position() by one thread: `helper` = 0 for the main thread, whose result
    // is the search's; k > 0 for the k-th Lazy SMP helper. `shared` is null in a search of one
    // thread.
    Searcher(const core::Game& game,
             const SearchParams& params,
             SearchState& state,
             ThreadData& thread,
             SharedSearch* shared,
             int helper)
        : game_(game)
        , p_(params)
        , st_(state)
        , td_(thread)
        , shared_(shared)
        , helper_(helper)
        , forced_(game.options().forced_capture)
        , pv_(thread.pv) {}

    SearchResult run();

private:
    using Clock                             = std::chrono::steady_clock;
    static constexpr const core::RuleSet& R = core::rule_set<V>;
    static constexpr bool kTurkish          = R.topology == core::Topology::Orthogonal8;

    // One pass over the root moves (in `order`) with the window (alpha, beta).
    struct RootIteration {
        std::size_t best     = 0;
        int score            = -kInfinite;
        std::size_t searched = 0;
        std::vector<core::Move> pv;
    };

    RootIteration search_root(const core::Position& pos,
                              Frame& root,
                              const std::vector<std::size_t>& order,
                              int depth,
                              int alpha,
                              int beta,
                              bool multi,
                              std::vector<int>& root_scores);

    int search(const core::Position& pos, int alpha, int beta, int depth, int ply, bool pv_node);
    int qsearch(const core::Position& pos, int alpha, int beta, int ply, int qply);
    // A quiet quiescence node whose side to move can crown: the best of standing pat (`stand`)
    // and the crowning moves.
    int
    qsearch_crowning(const core::Position& pos, int alpha, int beta, int ply, int qply, int stand);

    // Drops the moves of SearchParams::excluded from the root list (keeping the generator's order).
    void exclude_root_moves(core::MoveList& moves) const noexcept;

    // Counts a node and sets aborted_ when a limit is reached or a stop is asked for (the clock
    // and the stop flags are read every kPollNodes nodes). With several threads the node limit
    // is on all threads' nodes, which each adds to SharedSearch::nodes every kPollNodes.
    void count_node() noexcept {
        ++nodes_;
        if (shared_ == nullptr && p_.limits.nodes != 0 && nodes_ >= p_.limits.nodes) {
            aborted_ = true;
        }
        if ((nodes_ & (kPollNodes - 1)) == 0) {
            poll();
        }
    }

    void poll() noexcept {
        if (shared_ != nullptr) {
            const std::uint64_t all =
                shared_->nodes.fetch_add(kPollNodes, std::memory_order_relaxed) + kPollNodes;
            if ((p_.limits.nodes != 0 && all >= p_.limits.nodes) ||
                shared_->stop.load(std::memory_order_relaxed)) {
                aborted_ = true;
                return;
            }
        }
        if (st_.stop_requested()) {
            aborted_ = true;
        } else if (p_.hard_time > 0 && elapsed() >= p_.hard_time) {
            aborted_ = true;
        }
    }

    // The nodes searched so far: this thread's, or with helpers all threads' (up to the nodes
    // not yet added by the others).
    [[nodiscard]] std::uint64_t searched_nodes() const noexcept {
        if (shared_ == nullptr) {
            return nodes_;
        }
        return shared_->nodes.load(std::memory_order_relaxed) + (nodes_ & (kPollNodes - 1));
    }

    [[nodiscard]] double elapsed() const noexcept {
        return std::chrono::duration<double>(Clock::now() - start_).count();
    }

    // The line at `ply` becomes m followed by the child's line.
    void update_pv(int ply, const core::Move& m) noexcept {
        auto& line                          = pv_[static_cast<std::size_t>(ply)];
        const auto& child                   = pv_[static_cast<std::size_t>(ply + 1)];
        line[static_cast<std::size_t>(ply)] = m;
        const int child_len                 = pv_len_[static_cast<std::size_t>(ply + 1)];
        for (int j = ply + 1; j < child_len; ++j) {
            line[static_cast<std::size_t>(j)] = child[static_cast<std::size_t>(j)];
        }
        pv_len_[static_cast<std::size_t>(ply)] = std::max(child_len, ply + 1);
    }

    const core::Game& game_;
    const SearchParams& p_;
    SearchState& st_;
    ThreadData& td_;
    SharedSearch* shared_;
    int helper_;
    bool forced_;

    DrawTracker<V> draws_;
    EgdbPolicy egdb_;

    std::uint64_t nodes_ = 0;
    int seldepth_        = 0;
    bool aborted_        = false;
    Clock::time_point start_;

    std::vector<PvLine>& pv_;  // ThreadData::pv
    std::array<int, kMaxPly + 1> pv_len_{};
};

}  // namespace papan::engine::detail
