// Move ordering in the tree: the scores that sort a node's moves (the transposition table's move,
// then captures, promotions, killers, history), the selection step that takes them in that
// order, the late-move reductions that order drives, and the history update on a cutoff.
#pragma once

#include "search.hpp"

#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace papan::engine::detail {

// Late-move reductions by depth and move number: round(ln(depth) x ln(n) / kLmrDivisor).
inline constexpr int kLmrSize       = 64;
inline constexpr double kLmrDivisor = 2.0;

using LmrTable = std::array<std::array<int, kLmrSize>, kLmrSize>;

extern const LmrTable kLmr;  // move_order.cpp

// Scores above every history value: the order of the special moves.
inline constexpr int kTTMoveScore   = 1 << 30;
inline constexpr int kCaptureScore  = 1 << 28;  // + 64 per piece taken + 16 per king taken
inline constexpr int kKillerBase    = 1 << 27;  // promotions and killers: above any history
inline constexpr int kPromoteScore  = kKillerBase + 8;
inline constexpr int kKiller0Score  = kKillerBase + 2;
inline constexpr int kKiller1Score  = kKillerBase + 1;
inline constexpr int kHistoryMax    = 16384;  // the history's saturation (reward_quiet)
inline constexpr int kHistoryPerLmr = 8192;   // history worth one ply of reduction

// Order scores of f.moves, by the position's side's history.
inline void score_moves(Frame& f,
                        const core::Position& pos,
                        std::uint16_t tt_move,
                        const History& history) noexcept {
    const auto& hist = history[static_cast<std::size_t>(pos.side)];
    for (std::size_t i = 0; i < f.moves.size(); ++i) {
        const core::Move& m = f.moves[i];
        int s               = 0;
        if (i == tt_move) {
            s = kTTMoveScore;
        } else if (m.is_capture()) {
            s = kCaptureScore + 64 * m.capture_count() +
                16 * core::popcount(m.captured & pos.kings);
        } else if (m.promotes) {
            s = kPromoteScore;
        } else if (m.from == f.killers[0].from && m.to == f.killers[0].to &&
                   !f.killers[0].is_capture()) {
            s = kKiller0Score;
        } else if (m.from == f.killers[1].from && m.to == f.killers[1].to &&
                   !f.killers[1].is_capture()) {
            s = kKiller1Score;
        } else {
            s = hist[m.from][m.to];
        }
        f.order_score[i] = s;
    }
}

// Order scores of a quiescence node's captures: more pieces, then more kings, then a promotion.
inline void score_captures(Frame& f, const core::Position& pos) noexcept {
    for (std::size_t i = 0; i < f.moves.size(); ++i) {
        const core::Move& m = f.moves[i];
        f.order_score[i]    = 64 * m.capture_count() + 16 * core::popcount(m.captured & pos.kings) +
                           (m.promotes ? 8 : 0);
    }
}

// The identity order 0..size-1, which pick() then sorts move by move.
using MoveOrder = std::array<std::uint16_t, core::kMaxMoves>;

inline void init_order(MoveOrder& idx, std::size_t size) noexcept {
    for (std::size_t i = 0; i < size; ++i) {
        idx[i] = static_cast<std::uint16_t>(i);
    }
}

// Selection step: brings the best remaining move to position n of the order and returns its
// index in the list.
[[nodiscard]] inline std::size_t
pick(const Frame& f, MoveOrder& idx, std::size_t n, std::size_t size) noexcept {
    std::size_t best = n;
    for (std::size_t j = n + 1; j < size; ++j) {
        if (f.order_score[idx[j]] > f.order_score[idx[best]]) {
            best = j;
        }
    }
    std::swap(idx[n], idx[best]);
    return idx[n];
}

// Late-move reduction of the n-th move (from 0) at `depth`: the table's value, one ply more at a
// node off the principal variation (kLmrNonPv), one ply less for a killer, adjusted by the
// move's history (up to two plies either way); never for a capture, a promotion or the first
// move, nor the second at a PV node, never into the quiescence search. Off the PV the second
// move is reduced too (its table value is 0, so one ply, less for a killer or a good history):
// a null-window node's moves after the first are expected to fail low.
inline constexpr int kLmrNonPv = 1;

[[nodiscard]] inline int reduction(const core::Position& pos,
                                   const core::Move& m,
                                   int order_score,
                                   int depth,
                                   std::size_t n,
                                   const History& history,
                                   bool pv_node) noexcept {
    if (depth < 3 || n < (pv_node ? 2U : 1U) || m.is_capture() || m.promotes) {
        return 0;
    }
    int r = kLmr[static_cast<std::size_t>(std::min(depth, kLmrSize - 1))]
                [std::min(n, static_cast<std::size_t>(kLmrSize - 1))];
    if (!pv_node) {
        r += kLmrNonPv;
    }
    if (order_score >= kKillerBase) {
        --r;  // a killer
    } else {
        r -= history[static_cast<std::size_t>(pos.side)][m.from][m.to] / kHistoryPerLmr;
    }
    return std::clamp(r, 0, depth - 2);
}

// History update of a quiet move: towards +-kHistoryMax, by `bonus` (negative for a move that
// was tried before the cutoff move and failed).
inline void
reward_quiet(History& history, core::Color us, const core::Move& m, int bonus) noexcept {
    int& h = history[static_cast<std::size_t>(us)][m.from][m.to];
    h += bonus - h * std::abs(bonus) / kHistoryMax;
}

// A cutoff by the quiet move m at `depth`: m becomes the first killer of the frame, its history
// rises and that of the quiet moves tried before it (`tried`, indexes into f.moves) falls.
inline void reward_cutoff(Frame& f,
                          History& history,
                          core::Color us,
                          const core::Move& m,
                          int depth,
                          const std::uint16_t* tried,
                          std::size_t tried_count) noexcept {
    if (!(f.killers[0].from == m.from && f.killers[0].to == m.to)) {
        f.killers[1] = f.killers[0];
        f.killers[0] = m;
    }
    const int bonus = std::min(depth * depth, 400);
    reward_quiet(history, us, m, bonus);
    for (std::size_t q = 0; q < tried_count; ++q) {
        reward_quiet(history, us, f.moves[tried[q]], -bonus);
    }
}

}  // namespace papan::engine::detail
