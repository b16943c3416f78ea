// Searcher<V>::qsearch: capture sequences followed to a quiet position, which the evaluation
// (or an endgame table) scores. In its first kCrowningPlies plies a quiet position whose side
// to move can crown at once is not simply scored: the side may stand pat or crown, and the
// crowning is searched on (the learned sets are fitted on positions with no crowning to play,
// so the evaluation does not know such positions). With optional captures (a house rule) the side
// to move may stand pat; the Easy level stops after a few capture plies (Handicap::qsearch_plies).
#include "eval.hpp"
#include "eval/terms.hpp"
#include "search/move_order.hpp"
#include "search/searcher.hpp"
#include "search/variants.hpp"

#include <papan/core/movegen.hpp>

namespace papan::engine::detail {

namespace {

inline constexpr int kCrowningPlies = 4;

}  // namespace

template <core::VariantId V>
int Searcher<V>::qsearch(const core::Position& pos, int alpha, int beta, int ply, int qply) {
    count_node();
    if (aborted_) {
        return 0;
    }
    pv_len_[static_cast<std::size_t>(ply)] = ply;
    seldepth_                              = std::max(seldepth_, ply);
    if (qply == 0 && ply > 0 && draws_.is_repetition(ply)) {
        return 0;
    }
    if (pos.of(pos.side) == 0) {
        // Every piece taken: lost, not merely "many men down" (the learned evaluation scales
        // hopeless endings, so a lost game would otherwise score near a bad but living one).
        return -kMateScore + ply;
    }
    if (ply >= kMaxPly - 1) {
        return evaluate<V>(pos, *p_.weights);
    }
    if (!core::has_capture(pos)) {
        const int stand = egdb_.leaf(
            pos, ply, draws_.left_at(ply, qply), [&] { return evaluate<V>(pos, *p_.weights); });
        if (qply >= kCrowningPlies || stand >= beta || p_.handicap.qsearch_plies != 0 ||
            egdb_.covers(pos) || !eval::can_step_to_crown<V>(pos)) {
            return stand;
        }
        return qsearch_crowning(pos, std::max(alpha, stand), beta, ply, qply, stand);
    }
    int best = -kInfinite;
    if (!forced_) {
        // Captures are optional (house rule): standing pat is a legal choice.
        best = evaluate<V>(pos, *p_.weights);
        if (best >= beta) {
            return best;
        }
        alpha = std::max(alpha, best);
    }
    if (p_.handicap.qsearch_plies != 0 && qply >= p_.handicap.qsearch_plies) {
        // The Easy level stops looking at capture sequences here.
        return evaluate<V>(pos, *p_.weights);
    }
    Frame& f = td_.frames[static_cast<std::size_t>(ply)];
    core::generate_moves(pos, f.moves);  // forced: the captures only
    const std::size_t size = f.moves.size();
    MoveOrder idx;
    init_order(idx, size);
    score_captures(f, pos);
    for (std::size_t n = 0; n < size; ++n) {
        const std::size_t i        = pick(f, idx, n, size);
        const core::Move& m        = f.moves[i];
        const core::Position child = core::make_move(pos, m);
        const int score            = -qsearch(child, -beta, -alpha, ply + 1, qply + 1);
        if (aborted_) {
            return 0;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(ply, m);
                if (score >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

template <core::VariantId V>
int Searcher<V>::qsearch_crowning(
    const core::Position& pos, int alpha, int beta, int ply, int qply, int stand) {
    int best = stand;
    Frame& f = td_.frames[static_cast<std::size_t>(ply)];
    core::generate_moves(pos, f.moves, core::MoveGenOptions{forced_});
    for (const core::Move& m : f.moves) {
        if (!m.promotes) {
            continue;
        }
        const core::Position child = core::make_move(pos, m);
        const int score            = -qsearch(child, -beta, -alpha, ply + 1, qply + 1);
        if (aborted_) {
            return 0;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(ply, m);
                if (score >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

#define PAPAN_INSTANTIATE(V)                                                                       \
    template int Searcher<core::VariantId::V>::qsearch(const core::Position&, int, int, int, int); \
    template int Searcher<core::VariantId::V>::qsearch_crowning(                                   \
        const core::Position&, int, int, int, int, int);
PAPAN_FOR_EACH_VARIANT(PAPAN_INSTANTIATE)
#undef PAPAN_INSTANTIATE

}  // namespace papan::engine::detail
