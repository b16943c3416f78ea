// Searcher<V>::search: one node of the principal variation search. In order: draws by
// repetition, endgame tables, mate distance pruning, the transposition table's cutoff, ProbCut,
// futility; then the moves in move_order.hpp's order, the first with the full window and the rest
// with a null window (late moves reduced first), re-searched when they beat alpha. A single legal
// move is extended by one ply. A quiet move that cuts off becomes a killer and gains history.
#include "eval.hpp"
#include "search/move_order.hpp"
#include "search/searcher.hpp"
#include "search/variants.hpp"

#include <papan/core/movegen.hpp>

#include <algorithm>
#include <cstdlib>

namespace papan::engine::detail {

namespace {

// Mate scores are stored in the table relative to the node (plies to the end from there), and
// read back relative to the root.
[[nodiscard]] int score_to_tt(int s, int ply) noexcept {
    if (s >= kMateBound) {
        return s + ply;
    }
    if (s <= -kMateBound) {
        return s - ply;
    }
    return s;
}

[[nodiscard]] int score_from_tt(int s, int ply) noexcept {
    if (s >= kMateBound) {
        return s - ply;
    }
    if (s <= -kMateBound) {
        return s + ply;
    }
    return s;
}

// Neither ProbCut nor futility prunes when alpha or beta is beyond this: game-end and table
// scores.
inline constexpr int kPruningScoreLimit = 10000;

// ProbCut (docs/engine.md, "Search"): at a quiet non-PV node of depth kProbCutDepth or more, a
// null-window search of the same position at 2/5 of the depth is asked whether the node is far
// above beta; when it says so the deep search is skipped. Only the fail-high side: cutting below
// alpha lost shots. The margin grows with the depth, since a shallow search's error does.
inline constexpr int kProbCutDepth = 4;

[[nodiscard]] constexpr int probcut_margin(int depth) noexcept {
    return 10 + 3 * depth;
}

[[nodiscard]] constexpr int probcut_depth(int depth) noexcept {
    return std::max(1, depth * 2 / 5);
}

// Futility near the leaves: at a non-PV quiet node of depth 1 or 2 whose static evaluation is
// far from the window. Far above beta, with no capture threatened against the side to move, the
// node returns (reverse futility); far below alpha, a quiet move after which the opponent has no
// capture (no exchange, no shot) is not searched.
inline constexpr int kFutilityDepth = 2;

[[nodiscard]] constexpr int futility_margin(int depth) noexcept {
    return 60 * depth;
}

// Whether the opponent of the side to move could capture if it were its turn.
[[nodiscard]] bool threatens_capture(const core::Position& pos) noexcept {
    core::Position q = pos;
    q.side           = core::opposite(pos.side);
    return core::has_capture(q);
}

}  // namespace

template <core::VariantId V>
int Searcher<V>::search(
    const core::Position& pos, int alpha, int beta, int depth, int ply, bool pv_node) {
    if (depth <= 0) {
        return qsearch(pos, alpha, beta, ply, 0);
    }
    count_node();
    if (aborted_) {
        return 0;
    }
    pv_len_[static_cast<std::size_t>(ply)] = ply;
    seldepth_                              = std::max(seldepth_, ply);
    if (draws_.is_repetition(ply)) {
        return 0;
    }
    if (const auto s = egdb_.score(pos, ply, draws_.left_at(ply, 0), alpha, beta, [&] {
            return evaluate<V>(pos, *p_.weights);
        })) {
        return *s;
    }
    if (ply >= kMaxPly - 1) {
        return evaluate<V>(pos, *p_.weights);
    }
    // Mate distance pruning.
    alpha = std::max(alpha, -kMateScore + ply);
    beta  = std::min(beta, kMateScore - ply - 1);
    if (alpha >= beta) {
        return alpha;
    }

    const std::uint64_t key = draws_.key(ply);
    std::uint16_t tt_move   = kNoMove;
    if (TTEntry e; st_.tt.probe(key, e)) {
        tt_move = e.move;
        if (!pv_node && e.depth >= depth) {
            const int s = score_from_tt(e.score, ply);
            if ((e.bound == Bound::Exact) || (e.bound == Bound::Lower && s >= beta) ||
                (e.bound == Bound::Upper && s <= alpha)) {
                return s;
            }
        }
    }

    if (!pv_node && depth >= kProbCutDepth && std::abs(alpha) < kPruningScoreLimit &&
        std::abs(beta) < kPruningScoreLimit && !core::has_capture(pos) && !threatens_capture(pos)) {
        const int margin   = probcut_margin(depth);
        const int pc_depth = probcut_depth(depth);
        const int pc_beta  = beta + margin;
        if (search(pos, pc_beta - 1, pc_beta, pc_depth, ply, false) >= pc_beta) {
            return aborted_ ? 0 : beta;
        }
        if (aborted_) {
            return 0;
        }
        if (TTEntry e; tt_move == kNoMove && st_.tt.probe(key, e)) {
            tt_move = e.move;  // the shallow searches' best move orders the deep one
        }
    }

    bool futile        = false;
    int futility_value = -kInfinite;
    if (!pv_node && depth <= kFutilityDepth && std::abs(alpha) < kPruningScoreLimit &&
        std::abs(beta) < kPruningScoreLimit && !core::has_capture(pos)) {
        const int eval   = evaluate<V>(pos, *p_.weights);
        const int margin = futility_margin(depth);
        if (eval - margin >= beta && !threatens_capture(pos)) {
            return eval - margin;
        }
        futility_value = eval + margin;
        futile         = futility_value <= alpha;
    }

    Frame& f = td_.frames[static_cast<std::size_t>(ply)];
    core::generate_moves(pos, f.moves, core::MoveGenOptions{forced_});
    const std::size_t size = f.moves.size();
    if (size == 0) {
        return -kMateScore + ply;  // no piece or no move: the side to move has lost
    }
    if constexpr (kTurkish) {
        // rules.md: lone king vs lone king is drawn unless the side to move captures at once.
        if (core::popcount(pos.occupied()) == 2 && pos.kings == pos.occupied() &&
            !f.moves[0].is_capture()) {
            return 0;
        }
    }
    if (tt_move >= size) {
        tt_move = kNoMove;
    }
    score_moves(f, pos, tt_move, td_.history);
    MoveOrder idx;
    init_order(idx, size);

    const int extension     = size == 1 ? 1 : 0;
    const int alpha0        = alpha;
    int best                = -kInfinite;
    std::uint16_t best_move = kNoMove;
    std::array<std::uint16_t, 64> quiets_tried;
    std::size_t quiet_count = 0;

    for (std::size_t n = 0; n < size; ++n) {
        const std::size_t i        = pick(f, idx, n, size);
        const core::Move& m        = f.moves[i];
        const core::Position child = core::make_move(pos, m);
        if (futile && n > 0 && !m.promotes && !core::has_capture(child)) {
            best = std::max(best, futility_value);  // a bound: the move cannot reach alpha
            continue;
        }
        const bool draw     = draws_.enter_child(pos, child, m, ply);
        const int new_depth = depth - 1 + extension;
        int score           = 0;
        if (draw) {
            score                                      = 0;
            pv_len_[static_cast<std::size_t>(ply + 1)] = ply + 1;
        } else if (n == 0) {
            score = -search(child, -beta, -alpha, new_depth, ply + 1, pv_node);
        } else {
            const int r = reduction(pos, m, f.order_score[i], depth, n, td_.history);
            score       = -search(child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
            if (score > alpha && r > 0 && !aborted_) {
                score = -search(child, -alpha - 1, -alpha, new_depth, ply + 1, false);
            }
            if (score > alpha && score < beta && pv_node && !aborted_) {
                score = -search(child, -beta, -alpha, new_depth, ply + 1, true);
            }
        }
        if (aborted_) {
            return 0;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = static_cast<std::uint16_t>(i);
                alpha     = score;
                update_pv(ply, m);
                if (score >= beta) {
                    ++td_.stats.cut_nodes;
                    td_.stats.first_move_cut_nodes += n == 0 ? 1 : 0;
                    if (!m.is_capture()) {
                        reward_cutoff(
                            f, td_.history, pos.side, m, depth, quiets_tried.data(), quiet_count);
                    }
                    break;
                }
            }
        }
        if (!m.is_capture() && quiet_count < quiets_tried.size()) {
            quiets_tried[quiet_count++] = static_cast<std::uint16_t>(i);
        }
    }

    const Bound bound =
        best >= beta ? Bound::Lower : (alpha > alpha0 ? Bound::Exact : Bound::Upper);
    st_.tt.store(key, score_to_tt(best, ply), bound, depth, best_move);
    return best;
}

#define PAPAN_INSTANTIATE(V)                                                                       \
    template int Searcher<core::VariantId::V>::search(                                             \
        const core::Position&, int, int, int, int, bool);
PAPAN_FOR_EACH_VARIANT(PAPAN_INSTANTIATE)
#undef PAPAN_INSTANTIATE

}  // namespace papan::engine::detail
