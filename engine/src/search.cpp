// Searcher<V>: iterative deepening PVS, specialised per variant at compile time and entered once
// per search through run_search()'s switch. Positions are copy-made on the stack; the per-ply
// move lists live in SearchState::frames, so nothing is allocated inside the tree.
//
// Draws: a position repeated since the last irreversible move (in the game or in the tree) scores
// 0; so does a position where one of the root's move-limit counters (Game::move_limits()) runs
// out. Scores are from the side to move, so a winning side avoids those and a losing side seeks
// them.
#include "search.hpp"

#include "eval.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace papan::engine::detail {

namespace {

using core::Bitboard;
using core::Color;
using core::Move;
using core::MoveList;
using core::Position;
using core::VariantId;
using Clock = std::chrono::steady_clock;

// What resets a move-limit counter in the tree.
enum class Reset : std::uint8_t {
    Never,       // the total move limit
    ManMove,     // a capture or any man move
    ManAdvance,  // a capture or a man moving forward (Turkish)
    Crowning,    // a capture or a crowning (other 8x8 variants; the endgame rules)
};

inline constexpr std::int16_t kNoCounter = std::numeric_limits<std::int16_t>::max();
inline constexpr int kMaxCounters        = 4;

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

template <VariantId V>
class Searcher {
public:
    Searcher(const core::Game& game, const SearchParams& params, SearchState& state)
        : game_(game)
        , p_(params)
        , st_(state)
        , forced_(game.options().forced_capture)
        , pv_(static_cast<std::size_t>(kMaxPly + 1)) {}

    SearchResult run();

private:
    static constexpr const core::RuleSet& R = core::rule_set<V>;
    static constexpr bool kTurkish          = R.topology == core::Topology::Orthogonal8;

    using PvLine = std::array<Move, kMaxPly + 1>;

    int search(const Position& pos, int alpha, int beta, int depth, int ply, bool pv_node);
    int qsearch(const Position& pos, int alpha, int beta, int ply, int qply);

    // Drops the moves of SearchParams::excluded from the root list (keeping the generator's order).
    void exclude_root_moves(MoveList& moves) const noexcept {
        if (p_.excluded.empty()) {
            return;
        }
        std::size_t kept = 0;
        for (const Move& m : moves) {
            const bool out = std::any_of(p_.excluded.begin(),
                                         p_.excluded.end(),
                                         [&](const Move& x) { return x.same_as(m); });
            if (!out) {
                moves[kept++] = m;
            }
        }
        moves.truncate(kept);
    }

    [[nodiscard]] static bool irreversible(const Position& pos, const Move& m) noexcept {
        if (m.is_capture()) {
            return true;
        }
        if (core::has(pos.kings, m.from)) {
            return false;
        }
        if constexpr (kTurkish) {
            return (m.from >> 3) != (m.to >> 3);  // sideways man moves can be undone
        }
        return true;
    }

    [[nodiscard]] static bool resets(Reset r, const Position& pos, const Move& m) noexcept {
        switch (r) {
        case Reset::Never:
            return false;
        case Reset::ManMove:
            return m.is_capture() || !core::has(pos.kings, m.from);
        case Reset::ManAdvance:
            return m.is_capture() || (!core::has(pos.kings, m.from) && irreversible(pos, m));
        case Reset::Crowning:
            return m.is_capture() || m.promotes;
        }
        return false;
    }

    // Sets the child's keys and counters; true when a move-limit draw happens in the child.
    bool enter_child(const Position& pos, const Position& child, const Move& m, int ply) noexcept {
        const std::size_t i = root_index_ + static_cast<std::size_t>(ply);
        keys_[i + 1]        = child.key();
        rev_[i + 1]         = irreversible(pos, m) ? 0 : rev_[i] + 1;
        if (counters_ == 0) {
            return false;
        }
        const auto& left = st_.frames[static_cast<std::size_t>(ply)].left;
        auto& next       = st_.frames[static_cast<std::size_t>(ply + 1)].left;
        bool draw        = false;
        for (int c = 0; c < counters_; ++c) {
            const auto k = static_cast<std::size_t>(c);
            if (left[k] == kNoCounter || resets(reset_[k], pos, m)) {
                next[k] = kNoCounter;
            } else {
                next[k] = static_cast<std::int16_t>(left[k] - 1);
                draw    = draw || next[k] <= 0;
            }
        }
        return draw;
    }

    [[nodiscard]] bool is_repetition(int ply) const noexcept {
        const std::size_t i = root_index_ + static_cast<std::size_t>(ply);
        const int rev       = rev_[i];
        for (int back = 2; back <= rev && static_cast<std::size_t>(back) <= i; back += 2) {
            if (keys_[i - static_cast<std::size_t>(back)] == keys_[i]) {
                return true;
            }
        }
        return false;
    }

    void count_node() noexcept {
        ++nodes_;
        if (p_.limits.nodes != 0 && nodes_ >= p_.limits.nodes) {
            aborted_ = true;
        }
        if ((nodes_ & 1023U) == 0) {
            if (st_.stop_requested()) {
                aborted_ = true;
            } else if (p_.hard_time > 0 && elapsed() >= p_.hard_time) {
                aborted_ = true;
            }
        }
    }

    [[nodiscard]] double elapsed() const noexcept {
        return std::chrono::duration<double>(Clock::now() - start_).count();
    }

    void update_pv(int ply, const Move& m) noexcept {
        auto& line                          = pv_[static_cast<std::size_t>(ply)];
        const auto& child                   = pv_[static_cast<std::size_t>(ply + 1)];
        line[static_cast<std::size_t>(ply)] = m;
        const int child_len                 = pv_len_[static_cast<std::size_t>(ply + 1)];
        for (int j = ply + 1; j < child_len; ++j) {
            line[static_cast<std::size_t>(j)] = child[static_cast<std::size_t>(j)];
        }
        pv_len_[static_cast<std::size_t>(ply)] = std::max(child_len, ply + 1);
    }

    void score_moves(Frame& f, const Position& pos, std::uint16_t tt_move) const noexcept {
        const auto& hist = st_.history[static_cast<std::size_t>(pos.side)];
        for (std::size_t i = 0; i < f.moves.size(); ++i) {
            const Move& m = f.moves[i];
            int s         = 0;
            if (i == tt_move) {
                s = 1 << 30;
            } else if (m.is_capture()) {
                s = (1 << 28) + 64 * m.capture_count() +
                    16 * core::popcount(m.captured & pos.kings);
            } else if (m.promotes) {
                s = (1 << 27) + 8;
            } else if (m.from == f.killers[0].from && m.to == f.killers[0].to &&
                       !f.killers[0].is_capture()) {
                s = (1 << 27) + 2;
            } else if (m.from == f.killers[1].from && m.to == f.killers[1].to &&
                       !f.killers[1].is_capture()) {
                s = (1 << 27) + 1;
            } else {
                s = hist[m.from][m.to];
            }
            f.order_score[i] = s;
        }
    }

    // Selection step: brings the best remaining move to position n of the order and returns
    // its index in the list.
    [[nodiscard]] static std::size_t pick(Frame& f,
                                          std::array<std::uint16_t, core::kMaxMoves>& idx,
                                          std::size_t n,
                                          std::size_t size) noexcept {
        std::size_t best = n;
        for (std::size_t j = n + 1; j < size; ++j) {
            if (f.order_score[idx[j]] > f.order_score[idx[best]]) {
                best = j;
            }
        }
        std::swap(idx[n], idx[best]);
        return idx[n];
    }

    void reward_quiet(Color us, const Move& m, int bonus) noexcept {
        int& h = st_.history[static_cast<std::size_t>(us)][m.from][m.to];
        h += bonus - h * std::abs(bonus) / 16384;
    }

    const core::Game& game_;
    const SearchParams& p_;
    SearchState& st_;
    bool forced_;

    std::vector<std::uint64_t> keys_;
    std::vector<int> rev_;
    std::size_t root_index_ = 0;
    std::array<Reset, kMaxCounters> reset_{};
    int counters_ = 0;

    std::uint64_t nodes_ = 0;
    int seldepth_        = 0;
    bool aborted_        = false;
    Clock::time_point start_;

    std::vector<PvLine> pv_;
    std::array<int, kMaxPly + 1> pv_len_{};
};

template <VariantId V>
int Searcher<V>::qsearch(const Position& pos, int alpha, int beta, int ply, int qply) {
    count_node();
    if (aborted_) {
        return 0;
    }
    pv_len_[static_cast<std::size_t>(ply)] = ply;
    seldepth_                              = std::max(seldepth_, ply);
    if (qply == 0 && ply > 0 && is_repetition(ply)) {
        return 0;
    }
    if (ply >= kMaxPly - 1 || !core::has_capture(pos)) {
        return evaluate<V>(pos);
    }
    int best = -kInfinite;
    if (!forced_) {
        // Captures are optional (house rule): standing pat is a legal choice.
        best = evaluate<V>(pos);
        if (best >= beta) {
            return best;
        }
        alpha = std::max(alpha, best);
    }
    if (p_.handicap.qsearch_plies != 0 && qply >= p_.handicap.qsearch_plies) {
        return evaluate<V>(pos);  // the Easy level stops looking at capture sequences here
    }
    Frame& f = st_.frames[static_cast<std::size_t>(ply)];
    core::generate_moves(pos, f.moves);  // forced: the captures only
    const std::size_t size = f.moves.size();
    std::array<std::uint16_t, core::kMaxMoves> idx;
    for (std::size_t i = 0; i < size; ++i) {
        idx[i]           = static_cast<std::uint16_t>(i);
        const Move& m    = f.moves[i];
        f.order_score[i] = 64 * m.capture_count() + 16 * core::popcount(m.captured & pos.kings) +
                           (m.promotes ? 8 : 0);
    }
    for (std::size_t n = 0; n < size; ++n) {
        const std::size_t i  = pick(f, idx, n, size);
        const Move& m        = f.moves[i];
        const Position child = core::make_move(pos, m);
        const int score      = -qsearch(child, -beta, -alpha, ply + 1, qply + 1);
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

template <VariantId V>
int Searcher<V>::search(
    const Position& pos, int alpha, int beta, int depth, int ply, bool pv_node) {
    if (depth <= 0) {
        return qsearch(pos, alpha, beta, ply, 0);
    }
    count_node();
    if (aborted_) {
        return 0;
    }
    pv_len_[static_cast<std::size_t>(ply)] = ply;
    seldepth_                              = std::max(seldepth_, ply);
    if (is_repetition(ply)) {
        return 0;
    }
    if (ply >= kMaxPly - 1) {
        return evaluate<V>(pos);
    }
    // Mate distance pruning.
    alpha = std::max(alpha, -kMateScore + ply);
    beta  = std::min(beta, kMateScore - ply - 1);
    if (alpha >= beta) {
        return alpha;
    }

    const std::uint64_t key = keys_[root_index_ + static_cast<std::size_t>(ply)];
    std::uint16_t tt_move   = kNoMove;
    if (const TTEntry* e = st_.tt.probe(key)) {
        tt_move = e->move;
        if (!pv_node && e->depth >= depth) {
            const int s = score_from_tt(e->score, ply);
            if ((e->bound() == Bound::Exact) || (e->bound() == Bound::Lower && s >= beta) ||
                (e->bound() == Bound::Upper && s <= alpha)) {
                return s;
            }
        }
    }

    Frame& f = st_.frames[static_cast<std::size_t>(ply)];
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
    score_moves(f, pos, tt_move);
    std::array<std::uint16_t, core::kMaxMoves> idx;
    for (std::size_t i = 0; i < size; ++i) {
        idx[i] = static_cast<std::uint16_t>(i);
    }

    const int extension     = size == 1 ? 1 : 0;
    const int alpha0        = alpha;
    int best                = -kInfinite;
    std::uint16_t best_move = kNoMove;
    std::array<std::uint16_t, 64> quiets_tried;
    std::size_t quiet_count = 0;

    for (std::size_t n = 0; n < size; ++n) {
        const std::size_t i  = pick(f, idx, n, size);
        const Move& m        = f.moves[i];
        const Position child = core::make_move(pos, m);
        const bool draw      = enter_child(pos, child, m, ply);
        const int new_depth  = depth - 1 + extension;
        int score            = 0;
        if (draw) {
            score                                      = 0;
            pv_len_[static_cast<std::size_t>(ply + 1)] = ply + 1;
        } else if (n == 0) {
            score = -search(child, -beta, -alpha, new_depth, ply + 1, pv_node);
        } else {
            int r = 0;
            if (depth >= 3 && n >= 3 && !m.is_capture() && !m.promotes &&
                f.order_score[i] < (1 << 27)) {
                r = (n >= 8 && depth >= 5) ? 2 : 1;
            }
            score = -search(child, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
            if (score > alpha && r > 0) {
                score = -search(child, -alpha - 1, -alpha, new_depth, ply + 1, false);
            }
            if (score > alpha && score < beta && pv_node) {
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
                    if (!m.is_capture()) {
                        if (!(f.killers[0].from == m.from && f.killers[0].to == m.to)) {
                            f.killers[1] = f.killers[0];
                            f.killers[0] = m;
                        }
                        const int bonus = std::min(depth * depth, 400);
                        reward_quiet(pos.side, m, bonus);
                        for (std::size_t q = 0; q < quiet_count; ++q) {
                            reward_quiet(pos.side, f.moves[quiets_tried[q]], -bonus);
                        }
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

template <VariantId V>
SearchResult Searcher<V>::run() {
    start_ = Clock::now();
    st_.tt.new_search();
    SearchResult result;

    // Root move list: the game's legal moves (they honour the game's options).
    Frame& root = st_.frames[0];
    root.moves  = game_.legal_moves();
    exclude_root_moves(root.moves);
    const auto count = root.moves.size();
    if (count == 0) {
        return result;
    }
    const Position pos = game_.position();

    // Key and reversibility history of the game, then room for the tree.
    const auto positions = game_.positions();
    const auto moves     = game_.moves();
    keys_.assign(positions.size() + kMaxPly + 2, 0);
    rev_.assign(positions.size() + kMaxPly + 2, 0);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        keys_[i] = positions[i].key();
        if (i > 0) {
            rev_[i] = irreversible(positions[i - 1], moves[i - 1]) ? 0 : rev_[i - 1] + 1;
        }
    }
    root_index_ = positions.size() - 1;

    // Move-limit counters that apply at the root.
    counters_ = 0;
    for (const core::DrawCounter& c : game_.move_limits()) {
        if (counters_ == kMaxCounters || c.plies_left <= 0) {
            continue;
        }
        Reset r = Reset::Crowning;
        switch (c.rule) {
        case core::DrawRule::None:
        case core::DrawRule::Repetition:
        case core::DrawRule::InsufficientMaterial:
            continue;
        case core::DrawRule::TotalMoves:
            r = Reset::Never;
            break;
        case core::DrawRule::NoProgress:
            switch (R.draw.no_progress) {
            case core::NoProgressRule::NoCaptureNoManMove:
            case core::NoProgressRule::KingsOnlyNoCapture:
                r = Reset::ManMove;
                break;
            case core::NoProgressRule::NoCaptureNoManAdvance:
                r = Reset::ManAdvance;
                break;
            case core::NoProgressRule::None:
            case core::NoProgressRule::NoCaptureNoCrowning:
                r = game_.options().draw_rules == core::DrawRuleSet::RussianOfficial
                        ? Reset::ManMove
                        : Reset::Crowning;
                break;
            }
            break;
        case core::DrawRule::InternationalKingVsThree:
        case core::DrawRule::InternationalKingVsTwo:
        case core::DrawRule::TurkishKingVsKing:
        case core::DrawRule::RussianThreeKings:
        case core::DrawRule::RussianLongDiagonal:
        case core::DrawRule::RussianSmallEndgame:
        case core::DrawRule::RussianKingsFourFive:
        case core::DrawRule::RussianKingsSixSeven:
            r = Reset::Crowning;
            break;
        }
        const auto k = static_cast<std::size_t>(counters_);
        reset_[k]    = r;
        root.left[k] = static_cast<std::int16_t>(std::min(c.plies_left, 30000));
        ++counters_;
    }

    // Root ordering: the previous search's move first, then captures.
    std::uint16_t tt_move = kNoMove;
    if (const TTEntry* e = st_.tt.probe(keys_[root_index_])) {
        tt_move = e->move < count ? e->move : kNoMove;
    }
    score_moves(root, pos, tt_move);
    std::vector<std::size_t> order(count);
    for (std::size_t i = 0; i < count; ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return root.order_score[a] > root.order_score[b];
    });

    const Handicap& hc = p_.handicap;
    const bool multi   = hc.noise != 0 || hc.temperature != 0;
    int max_depth      = kMaxPly - 28;
    if (p_.limits.depth > 0) {
        max_depth = std::min(max_depth, p_.limits.depth);
    }
    if (hc.max_depth > 0) {
        max_depth = std::min(max_depth, hc.max_depth);
    }

    std::size_t best_index = order[0];
    int best_score         = 0;
    std::vector<Move> best_pv{root.moves[best_index]};
    std::vector<int> root_scores(count, -kInfinite);
    std::vector<int> final_scores;
    int completed = 0;

    const bool timed = p_.limits.move_time > 0 || p_.limits.time_left >= 0;
    if (count == 1 && timed && !p_.limits.infinite) {
        max_depth  = 0;  // a forced move under a clock: play it at once
        best_score = 0;
    }

    for (int depth = 1; depth <= max_depth; ++depth) {
        int alpha             = -kInfinite;
        const int beta        = kInfinite;
        std::size_t iter_best = order[0];
        int iter_score        = -kInfinite;
        std::size_t searched  = 0;
        std::vector<Move> iter_pv;
        for (std::size_t n = 0; n < count; ++n) {
            const std::size_t i  = order[n];
            const Move& m        = root.moves[i];
            const Position child = core::make_move(pos, m);
            const bool draw      = enter_child(pos, child, m, 0);
            int score            = 0;
            if (draw) {
                score      = 0;
                pv_len_[1] = 1;
            } else if (n == 0 || multi) {
                score = -search(child, -beta, -alpha, depth - 1, 1, true);
            } else {
                score = -search(child, -alpha - 1, -alpha, depth - 1, 1, false);
                if (score > alpha && !aborted_) {
                    score = -search(child, -beta, -alpha, depth - 1, 1, true);
                }
            }
            if (aborted_) {
                break;
            }
            ++searched;
            root_scores[i] = score;
            if (score > iter_score) {
                iter_score = score;
                iter_best  = i;
                update_pv(0, m);
                iter_pv.assign(pv_[0].begin(), pv_[0].begin() + pv_len_[0]);
                if (!multi) {
                    alpha = std::max(alpha, score);
                }
            }
        }
        if (aborted_) {
            // A move of the unfinished iteration that beat the first one was fully searched.
            if (!multi && searched > 1 && iter_best != order[0]) {
                best_index = iter_best;
                best_score = iter_score;
                best_pv    = iter_pv;
            }
            break;
        }
        completed    = depth;
        best_index   = iter_best;
        best_score   = iter_score;
        best_pv      = iter_pv;
        final_scores = root_scores;
        // The best move first next time; the others keep their order.
        const auto it = std::find(order.begin(), order.end(), best_index);
        std::rotate(order.begin(), it, it + 1);

        if (p_.on_info) {
            SearchInfo info;
            info.depth    = depth;
            info.seldepth = seldepth_;
            info.score    = best_score;
            info.nodes    = nodes_;
            info.seconds  = elapsed();
            info.pv       = best_pv;
            p_.on_info(info);
        }
        if (!p_.limits.infinite) {
            if (p_.soft_time > 0 && elapsed() > p_.soft_time * 0.55) {
                break;
            }
            if (std::abs(best_score) >= kMateBound &&
                depth > 2 * (kMateScore - std::abs(best_score)) + 4) {
                break;  // a forced end of game, proven
            }
        }
    }

    // The weaker levels: noise on each root move's score, then a softmax choice among them.
    if (multi && completed > 0 && count > 1 && best_score < kMateBound) {
        const std::uint64_t key = keys_[root_index_];
        std::vector<double> weight(count, 0.0);
        int top = -kInfinite;
        std::vector<int> noisy(count, -kInfinite);
        for (std::size_t i = 0; i < count; ++i) {
            const Move& m = root.moves[i];
            int s         = final_scores[i];
            if (s <= -kMateBound && best_score > -kMateBound) {
                continue;  // never choose a lost move when something else is not lost
            }
            if (hc.noise > 0) {
                const std::uint64_t h = splitmix64(p_.seed ^ key ^ (m.captured * 0x9E37U) ^
                                                   (std::uint64_t{m.from} << 8) ^ m.to);
                s += static_cast<int>(h % static_cast<std::uint64_t>(2 * hc.noise + 1)) - hc.noise;
            }
            noisy[i] = s;
            top      = std::max(top, s);
        }
        double total = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (noisy[i] == -kInfinite) {
                continue;
            }
            const double t = std::max(hc.temperature, 1);
            weight[i]      = std::exp(static_cast<double>(noisy[i] - top) / t);
            total += weight[i];
        }
        const std::uint64_t h = splitmix64(p_.seed ^ key ^ 0x5bd1e995ULL);
        double u              = static_cast<double>(h >> 11) * 0x1.0p-53 * total;
        std::size_t chosen    = best_index;
        for (std::size_t i = 0; i < count; ++i) {
            if (weight[i] <= 0) {
                continue;
            }
            chosen = i;
            u -= weight[i];
            if (u <= 0) {
                break;
            }
        }
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
    result.pv = best_pv;
    if (best_pv.size() > 1) {
        result.ponder = best_pv[1];
    }
    return result;
}

template <VariantId V>
SearchResult run(const core::Game& game, const SearchParams& params, SearchState& state) {
    Searcher<V> s(game, params, state);
    return s.run();
}

}  // namespace

SearchResult run_search(const core::Game& game, const SearchParams& params, SearchState& state) {
    switch (game.variant()) {
    case VariantId::American:
        return run<VariantId::American>(game, params, state);
    case VariantId::International:
        return run<VariantId::International>(game, params, state);
    case VariantId::Brazilian:
        return run<VariantId::Brazilian>(game, params, state);
    case VariantId::Russian:
        return run<VariantId::Russian>(game, params, state);
    case VariantId::Pool:
        return run<VariantId::Pool>(game, params, state);
    case VariantId::Spanish:
        return run<VariantId::Spanish>(game, params, state);
    case VariantId::Italian:
        return run<VariantId::Italian>(game, params, state);
    case VariantId::Czech:
        return run<VariantId::Czech>(game, params, state);
    case VariantId::Thai:
        return run<VariantId::Thai>(game, params, state);
    case VariantId::Turkish:
        return run<VariantId::Turkish>(game, params, state);
    }
    return {};
}

}  // namespace papan::engine::detail
