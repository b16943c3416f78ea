// Static evaluation per board family. All terms are computed on whole bitboards (rank masks,
// one shift per direction), so the evaluation costs a few dozen popcounts. The weights and how
// they were chosen are in docs/engine.md ("Evaluation").
#include "eval.hpp"

#include <papan/core/geometry.hpp>
#include <papan/core/rules/registry.hpp>

#include <array>
#include <cstdlib>

namespace papan::engine::detail {

namespace {

using core::Bitboard;
using core::Color;
using core::Geometry;
using core::popcount;
using core::RuleSet;
using core::Topology;
using core::VariantId;

// Bit-indexed masks derived from the geometry (computed, not typed in).
struct BoardMasks {
    std::array<std::array<Bitboard, 10>, 2> rank{};  // [colour][rank counted from its back row]
    std::array<Bitboard, 2> back{};                  // each colour's own back row
    Bitboard centre        = 0;
    Bitboard edge          = 0;  // the two side files
    Bitboard main_diagonal = 0;  // a1-h8 / a1-j10 (long diagonal), diagonal boards only
};

constexpr BoardMasks make_masks(const Geometry& g) {
    BoardMasks m{};
    const int n = g.size;
    for (int s = 0; s < g.squares; ++s) {
        const auto i     = static_cast<std::size_t>(s);
        const Bitboard b = core::bit(g.bit_of[i]);
        const int f      = g.file_of[i];
        const int r      = g.rank_of[i];
        m.rank[0][static_cast<std::size_t>(r)] |= b;
        m.rank[1][static_cast<std::size_t>(n - 1 - r)] |= b;
        if (r == 0) {
            m.back[0] |= b;
        }
        if (r == n - 1) {
            m.back[1] |= b;
        }
        if (f >= 2 && f <= n - 3 && r >= n / 2 - 2 && r <= n / 2 + 1) {
            m.centre |= b;
        }
        if (f == 0 || f == n - 1) {
            m.edge |= b;
        }
        if (f == r) {
            m.main_diagonal |= b;
        }
    }
    return m;
}

struct Weights {
    int king;
    std::array<int, 10> advance;  // per rank from the own back row
    int centre;
    int back_guard;
    int mobility;
    int king_mobility;
    int runaway_to_move;  // a man one step from crowning, free square ahead, side to move
    int runaway_waiting;  // the same for the side not to move
    int edge;             // men on a side file (negative: less active)
    int support;          // Turkish: a man with a friend right behind it
};

template <VariantId V>
constexpr Weights weights() {
    constexpr const RuleSet& R = core::rule_set<V>;
    if constexpr (R.topology == Topology::Orthogonal8) {
        return Weights{.king            = 300,
                       .advance         = {0, 0, 3, 7, 12, 18, 26, 0, 0, 0},
                       .centre          = 3,
                       .back_guard      = 0,
                       .mobility        = 1,
                       .king_mobility   = 2,
                       .runaway_to_move = 140,
                       .runaway_waiting = 40,
                       .edge            = -2,
                       .support         = 3};
    } else if constexpr (R.topology == Topology::Diagonal10) {
        return Weights{.king            = 300,
                       .advance         = {0, 1, 2, 4, 6, 8, 11, 14, 18, 0},
                       .centre          = 4,
                       .back_guard      = 4,
                       .mobility        = 2,
                       .king_mobility   = 3,
                       .runaway_to_move = 150,
                       .runaway_waiting = 40,
                       .edge            = -3,
                       .support         = 0};
    } else if constexpr (R.king_range == core::KingRange::Flying) {
        return Weights{.king            = 250,
                       .advance         = {0, 2, 4, 7, 10, 14, 18, 0, 0, 0},
                       .centre          = 5,
                       .back_guard      = 8,
                       .mobility        = 2,
                       .king_mobility   = 3,
                       .runaway_to_move = 110,
                       .runaway_waiting = 30,
                       .edge            = -3,
                       .support         = 0};
    } else {
        return Weights{.king            = 160,
                       .advance         = {0, 2, 4, 6, 9, 12, 15, 0, 0, 0},
                       .centre          = 5,
                       .back_guard      = 10,
                       .mobility        = 2,
                       .king_mobility   = 4,
                       .runaway_to_move = 50,
                       .runaway_waiting = 15,
                       .edge            = -2,
                       .support         = 0};
    }
}

// Forward directions of a colour's men (quiet moves) as a direction mask.
template <VariantId V>
constexpr unsigned man_dirs(Color c) {
    return core::man_direction_mask(core::rule_set<V>.man_moves, core::rule_set<V>.topology, c);
}

template <VariantId V, Color Us>
int side_terms(const core::Position& pos, Bitboard empty, bool to_move, int their_pieces) {
    constexpr const RuleSet& R  = core::rule_set<V>;
    constexpr const Geometry& G = core::geometry(R.topology);
    constexpr BoardMasks M      = make_masks(G);
    constexpr Weights W         = weights<V>();
    constexpr auto us           = static_cast<std::size_t>(Us);
    constexpr unsigned dirs     = man_dirs<V>(Us);

    const Bitboard men   = pos.men(Us);
    const Bitboard kings = pos.kings_of(Us);
    int s                = 0;

    for (std::size_t r = 1; r + 1 < static_cast<std::size_t>(G.size); ++r) {
        s += W.advance[r] * popcount(men & M.rank[us][r]);
    }
    s += W.centre * popcount(men & M.centre);
    s += W.edge * popcount(men & M.edge);
    // The back row keeps the opponent from crowning; it matters while he has no king yet and
    // there is still a middle game to play.
    if (pos.kings_of(core::opposite(Us)) == 0 && their_pieces >= 5) {
        s += W.back_guard * popcount(men & M.back[us]);
    }

    int mobility        = 0;
    Bitboard runaway_to = 0;
    const Bitboard near = men & M.rank[us][static_cast<std::size_t>(G.size - 2)];
    for (std::size_t d = 0; d < 4; ++d) {
        if ((dirs >> d) & 1U) {
            const Bitboard to = core::shift(men & G.can_step[d], G.delta[d]) & empty;
            mobility += popcount(to);
            runaway_to |= core::shift(near & G.can_step[d], G.delta[d]) & empty;
        }
    }
    s += W.mobility * mobility;
    if ((runaway_to & G.promotion[us]) != 0) {
        s += to_move ? W.runaway_to_move : W.runaway_waiting;
    }

    if (kings != 0) {
        int km = 0;
        for (std::size_t d = 0; d < 4; ++d) {
            km += popcount(core::shift(kings & G.can_step[d], G.delta[d]) & empty);
        }
        s += W.king_mobility * km;
    }

    if constexpr (W.support != 0) {
        // A Turkish man with a friend right behind cannot be jumped from the front.
        constexpr int back_delta = Us == Color::White ? -8 : 8;
        s += W.support * popcount(men & core::shift(pos.of(Us), -back_delta));
    }
    return s;
}

// Endgame knowledge: scales a score down when the material cannot win (the draw rules and
// the theory of each family); `strong` is the side the raw score favours.
template <VariantId V>
int scale_endgame(const core::Position& pos, int score) {
    constexpr const RuleSet& R = core::rule_set<V>;
    constexpr BoardMasks M     = make_masks(core::geometry(R.topology));
    const Color strong         = score >= 0 ? Color::White : Color::Black;
    const Color weak           = core::opposite(strong);
    const int sp               = popcount(pos.of(strong));
    const int wp               = popcount(pos.of(weak));
    const int wk               = popcount(pos.kings_of(weak));
    const int sk               = popcount(pos.kings_of(strong));
    if (wk == 0) {
        return score;
    }
    const bool lone_king = wp == 1;
    if constexpr (R.topology == Topology::Orthogonal8) {
        if (lone_king && sp == 1 && sk == 1) {
            return 0;  // rules.md: lone king vs lone king is drawn
        }
        if (lone_king && sp <= 2 && sk >= 1) {
            return score / 4;
        }
        return score;
    } else if constexpr (R.king_range == core::KingRange::Short) {
        if (lone_king && sp == 1) {
            return score / 16;  // 1 king vs 1 king (American, Italian): drawn
        }
        return score;
    } else if constexpr (R.topology == Topology::Diagonal10) {
        if (lone_king && sp <= 3) {
            return score / 16;  // one king holds 3 pieces; the 16/5-move rules end it anyway
        }
        if (lone_king && sk <= 3) {
            return score / 2;  // one king vs many men: the men must crown first
        }
        if (sp - wp <= 2 && sk >= 1) {
            return score / 2;  // kings on both sides and a small lead: drawish
        }
        return score;
    } else {
        if (lone_king && sp <= 2) {
            return score / 16;
        }
        if (lone_king && sp == 3) {
            // Three pieces beat a lone king only if it cannot reach the long diagonal.
            return (pos.kings_of(weak) & M.main_diagonal) != 0 ? score / 16 : score / 2;
        }
        if (sp - wp <= 1 && sk >= 1) {
            return score / 2;
        }
        return score;
    }
}

}  // namespace

template <VariantId V>
int evaluate(const core::Position& pos) noexcept {
    constexpr Weights W  = weights<V>();
    const Bitboard empty = core::geometry(core::rule_set<V>.topology).all & ~pos.occupied();
    const int wm         = popcount(pos.men(Color::White));
    const int bm         = popcount(pos.men(Color::Black));
    const int wk         = popcount(pos.kings_of(Color::White));
    const int bk         = popcount(pos.kings_of(Color::Black));
    const bool white     = pos.side == Color::White;

    const int material = 100 * (wm - bm) + W.king * (wk - bk);
    int score          = material;
    score += side_terms<V, Color::White>(pos, empty, white, bm + bk);
    score -= side_terms<V, Color::Black>(pos, empty, !white, wm + wk);
    // Trade down when ahead: the lead counts more as the board empties.
    const int total = wm + bm + wk + bk;
    const int full  = 2 * core::rule_set<V>.men_per_side;
    if (material >= 100) {
        score += (full - total) * 3;
    } else if (material <= -100) {
        score -= (full - total) * 3;
    }
    score = scale_endgame<V>(pos, score);
    return white ? score : -score;
}

template int evaluate<VariantId::American>(const core::Position&) noexcept;
template int evaluate<VariantId::International>(const core::Position&) noexcept;
template int evaluate<VariantId::Brazilian>(const core::Position&) noexcept;
template int evaluate<VariantId::Russian>(const core::Position&) noexcept;
template int evaluate<VariantId::Pool>(const core::Position&) noexcept;
template int evaluate<VariantId::Spanish>(const core::Position&) noexcept;
template int evaluate<VariantId::Italian>(const core::Position&) noexcept;
template int evaluate<VariantId::Czech>(const core::Position&) noexcept;
template int evaluate<VariantId::Thai>(const core::Position&) noexcept;
template int evaluate<VariantId::Turkish>(const core::Position&) noexcept;

int evaluate(const core::Position& pos) noexcept {
    switch (pos.variant) {
    case VariantId::American:
        return evaluate<VariantId::American>(pos);
    case VariantId::International:
        return evaluate<VariantId::International>(pos);
    case VariantId::Brazilian:
        return evaluate<VariantId::Brazilian>(pos);
    case VariantId::Russian:
        return evaluate<VariantId::Russian>(pos);
    case VariantId::Pool:
        return evaluate<VariantId::Pool>(pos);
    case VariantId::Spanish:
        return evaluate<VariantId::Spanish>(pos);
    case VariantId::Italian:
        return evaluate<VariantId::Italian>(pos);
    case VariantId::Czech:
        return evaluate<VariantId::Czech>(pos);
    case VariantId::Thai:
        return evaluate<VariantId::Thai>(pos);
    case VariantId::Turkish:
        return evaluate<VariantId::Turkish>(pos);
    }
    return 0;
}

int king_value(VariantId v) noexcept {
    switch (v) {
    case VariantId::American:
        return weights<VariantId::American>().king;
    case VariantId::International:
        return weights<VariantId::International>().king;
    case VariantId::Brazilian:
        return weights<VariantId::Brazilian>().king;
    case VariantId::Russian:
        return weights<VariantId::Russian>().king;
    case VariantId::Pool:
        return weights<VariantId::Pool>().king;
    case VariantId::Spanish:
        return weights<VariantId::Spanish>().king;
    case VariantId::Italian:
        return weights<VariantId::Italian>().king;
    case VariantId::Czech:
        return weights<VariantId::Czech>().king;
    case VariantId::Thai:
        return weights<VariantId::Thai>().king;
    case VariantId::Turkish:
        return weights<VariantId::Turkish>().king;
    }
    return 300;
}

}  // namespace papan::engine::detail
