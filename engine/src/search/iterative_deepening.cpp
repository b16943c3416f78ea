// Searcher<V>::run: the root of a search. The root moves (the game's legal moves, less the
// excluded ones and those an endgame table shows to spoil the result), ordered by the previous
// search's move and then by captures; iterative deepening from depth 1 with aspiration windows
// around the previous score; the time and mate conditions that end it; and, for the weaker
// levels, their choice among the root moves (root_choice.hpp).
#include "search/move_order.hpp"
#include "search/root_choice.hpp"
#include "search/searcher.hpp"
#include "search/variants.hpp"

#include <papan/core/movegen.hpp>

#include <cstdlib>
#include <optional>

namespace papan::engine::detail {

namespace {

// Aspiration windows (hundredths of a man): the first window is +-kAspirationWindow around the
// previous iteration's score from depth kAspirationDepth on; it doubles on each failure and is
// opened fully past kAspirationMax.
inline constexpr int kAspirationDepth  = 4;
inline constexpr int kAspirationWindow = 25;
inline constexpr int kAspirationMax    = 400;

}  // namespace

template <core::VariantId V>
void Searcher<V>::exclude_root_moves(core::MoveList& moves) const noexcept {
    if (p_.excluded.empty()) {
        return;
    }
    std::size_t kept = 0;
    for (const core::Move& m : moves) {
        const bool out = std::any_of(p_.excluded.begin(),
                                     p_.excluded.end(),
                                     [&](const core::Move& x) { return x.same_as(m); });
        if (!out) {
            moves[kept++] = m;
        }
    }
    moves.truncate(kept);
}

template <core::VariantId V>
typename Searcher<V>::RootIteration Searcher<V>::search_root(const core::Position& pos,
                                                             Frame& root,
                                                             const std::vector<std::size_t>& order,
                                                             int depth,
                                                             int alpha,
                                                             int beta,
                                                             bool multi,
                                                             std::vector<int>& root_scores) {
    RootIteration it;
    it.best = order[0];
    for (std::size_t n = 0; n < order.size(); ++n) {
        const std::size_t i        = order[n];
        const core::Move& m        = root.moves[i];
        const core::Position child = core::make_move(pos, m);
        const bool draw            = draws_.enter_child(pos, child, m, 0);
        int score                  = 0;
        if (draw) {
            score      = 0;
            pv_len_[1] = 1;
        } else if (n == 0 || multi) {
            score = -search(child, -beta, -alpha, depth - 1, 1, true);
        } else {
            score = -search(child, -alpha - 1, -alpha, depth - 1, 1, false);
            if (score > alpha && score < beta && !aborted_) {
                score = -search(child, -beta, -alpha, depth - 1, 1, true);
            }
        }
        if (aborted_) {
            break;
        }
        ++it.searched;
        root_scores[i] = score;
        if (score > it.score) {
            it.score = score;
            it.best  = i;
            update_pv(0, m);
            it.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
            if (!multi) {
                alpha = std::max(alpha, score);
                if (score >= beta) {
                    break;  // fail high: the caller widens the window
                }
            }
        }
    }
    return it;
}

template <core::VariantId V>
SearchResult Searcher<V>::run() {
    start_ = Clock::now();
    SearchResult result;
    td_.stats = {};

    // Root move list: the game's legal moves (they honour the game's options).
    Frame& root = td_.frames[0];
    root.moves  = game_.legal_moves();
    exclude_root_moves(root.moves);
    egdb_            = EgdbPolicy(p_.egdb, game_, root.moves);  // may drop spoiling moves
    const auto count = root.moves.size();
    if (count == 0) {
        return result;
    }
    const core::Position pos = game_.position();

    draws_.start(game_);

    // Root ordering: the previous search's move first, then captures.
    std::uint16_t tt_move = kNoMove;
    if (TTEntry e; st_.tt.probe(draws_.key(0), e)) {
        tt_move = e.move < count ? e.move : kNoMove;
    }
    score_moves(root, pos, tt_move, td_.history);
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return root.order_score[a] > root.order_score[b];
    });

    const Handicap& hc = p_.handicap;
    const bool multi   = hc.noise != 0 || hc.temperature != 0;
    int max_depth      = kMaxPly - 28;  // papan_selfplay reads it as kSearchedOutDepth
    if (p_.limits.depth > 0 && helper_ == 0) {
        // The depth limit is the main thread's: helpers go on filling the table until it ends.
        max_depth = std::min(max_depth, p_.limits.depth);
    }
    if (hc.max_depth > 0) {
        max_depth = std::min(max_depth, hc.max_depth);
    }

    std::size_t best_index = order[0];
    int best_score         = 0;
    std::vector<core::Move> best_pv{root.moves[best_index]};
    std::vector<int> root_scores(count, -kInfinite);
    std::vector<int> final_scores;
    int completed = 0;

    // A forced move under a clock: play it at once. Not when other moves were excluded (the one
    // left is not forced in the game) nor when analysis asks for it to be searched.
    const bool timed = p_.limits.move_time > 0 || p_.limits.time_left >= 0;
    if (count == 1 && timed && !p_.limits.infinite && !p_.limits.search_forced &&
        p_.excluded.empty()) {
        max_depth  = 0;
        best_score = 0;
    }

    // Lazy SMP: every odd-numbered helper runs each iteration one ply deeper than the main
    // thread, so the threads' trees differ more than by timing alone.
    const int first_depth = 1 + (helper_ % 2);
    for (int depth = first_depth; depth <= max_depth; ++depth) {
        // Aspiration: a window around the previous score, widened on each failure. Not for the
        // weaker levels, which need every root move's exact score.
        int delta = kAspirationWindow;
        int alpha = -kInfinite;
        int beta  = kInfinite;
        if (!multi && depth >= kAspirationDepth && std::abs(best_score) < kMateBound) {
            alpha = best_score - delta;
            beta  = best_score + delta;
        }
        RootIteration it;
        std::optional<RootIteration> failed_high;  // the move that beat beta, for an abort
        for (;;) {
            it = search_root(pos, root, order, depth, alpha, beta, multi, root_scores);
            if (aborted_) {
                break;
            }
            if (it.score <= alpha && alpha > -kInfinite) {
                beta  = (alpha + beta) / 2;
                alpha = std::max(it.score - delta, -kInfinite);
            } else if (it.score >= beta && beta < kInfinite) {
                beta          = std::min(it.score + delta, kInfinite);
                failed_high   = it;
                const auto at = std::find(order.begin(), order.end(), it.best);
                std::rotate(order.begin(), at, at + 1);
            } else {
                break;
            }
            delta *= 2;
            if (delta > kAspirationMax) {
                alpha = -kInfinite;
                beta  = kInfinite;
            }
        }
        if (aborted_) {
            // A move of the unfinished iteration that beat the first one was fully searched; a
            // move that failed high beat the previous best.
            if (!multi && it.searched > 1 && it.best != order[0]) {
                best_index = it.best;
                best_score = it.score;
                best_pv    = it.pv;
            } else if (!multi && failed_high) {
                best_index = failed_high->best;
                best_score = failed_high->score;
                best_pv    = failed_high->pv;
            }
            break;
        }
        const std::size_t iter_best      = it.best;
        const int iter_score             = it.score;
        std::vector<core::Move>& iter_pv = it.pv;
        completed                        = depth;
        best_index                       = iter_best;
        best_score                       = iter_score;
        best_pv                          = iter_pv;
        final_scores                     = root_scores;
        // The best move first next time; the others keep their order.
        const auto first = std::find(order.begin(), order.end(), best_index);
        std::rotate(order.begin(), first, first + 1);

        if (helper_ != 0) {
            continue;  // a helper's iterations end at max_depth or when the main thread stops it
        }
        if (p_.on_info) {
            SearchInfo info;
            info.depth    = depth;
            info.seldepth = seldepth_;
            info.score    = best_score;
            info.nodes    = searched_nodes();
            info.seconds  = elapsed();
            info.pv       = best_pv;
            p_.on_info(info);
        }
        if (!p_.limits.infinite) {
            if (p_.soft_time > 0 && elapsed() >= p_.soft_time) {
                break;
            }
            if (std::abs(best_score) >= kMateBound &&
                depth > 2 * (kMateScore - std::abs(best_score)) + 4) {
                break;  // a forced end of game, proven
            }
        }
    }

    // The weaker levels: noise on each root move's score, then a softmax choice among them.
    if (multi && helper_ == 0 && completed > 0 && count > 1 && best_score < kMateBound) {
        const std::size_t chosen = weaker_level_choice(
            root.moves, final_scores, best_index, best_score, hc, p_.seed, draws_.key(0));
        if (chosen != best_index) {
            best_index = chosen;
            best_score = final_scores[chosen];
            best_pv    = {root.moves[chosen]};
        }
    }

    result.best    = root.moves[best_index];
    result.score   = best_score;
    result.depth   = completed;
    result.nodes   = nodes_;
    result.seconds = elapsed();
    if (best_pv.empty() || !best_pv.front().same_as(*result.best)) {
        best_pv = {*result.best};
    }
    result.pv    = best_pv;
    result.stats = td_.stats;
    if (best_pv.size() > 1) {
        result.ponder = best_pv[1];
    }
    return result;
}

#define PAPAN_INSTANTIATE(V) template SearchResult Searcher<core::VariantId::V>::run();
PAPAN_FOR_EACH_VARIANT(PAPAN_INSTANTIATE)
#undef PAPAN_INSTANTIATE

}  // namespace papan::engine::detail
