// The move generation kernel, specialised per variant at compile time: every rule of the
// variant's RuleSet row is a constant here, so direction loops, king range, removal timing and
// precedence cost nothing at run time. Instantiated once per variant in movegen_<variant>.cpp.
//
// Allocation-free: moves go into a caller-provided MoveList; the capture search keeps its path
// on a small fixed stack.
#pragma once

#include "movegen_ops.hpp"

#include <papan/core/bitboard.hpp>
#include <papan/core/move.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>
#include <papan/core/rules/registry.hpp>

#include <array>
#include <cstdint>

namespace papan::core::detail {

template <VariantId V, bool Distinct>
class CaptureSearch {
public:
    static constexpr const RuleSet& R  = rule_set<V>;
    static constexpr const Geometry& G = R.board();
    static constexpr bool kImmediate   = R.removal == CapturedRemoval::Immediately;
    static constexpr bool kFlying      = R.king_range == KingRange::Flying;
    static constexpr bool kBehind      = R.king_landing == KingLanding::DirectlyBehind;

    CaptureSearch(const Position& pos, MoveList& out) noexcept
        : out_(out)
        , start_(out.size())
        , us_(pos.side)
        , kings_(pos.kings) {
        opponents_ = pos.of(opposite(us_));
        occupied_  = pos.occupied();
    }

    // Searches all captures of the men and kings in `men` / `kings`; returns true if any found.
    bool search_men(Bitboard men) noexcept {
        const std::size_t before = out_.size();
        const Bitboard jumpable  = R.man_captures_king ? opponents_ : (opponents_ & ~kings_);
        men &= men_with_a_jump(men, jumpable);
        while (men != 0) {
            from_             = pop_lsb(men);
            const Bitboard oc = occupied_ & ~bit(from_);
            man_capture(from_, 0, oc, jumpable, opponents_, 0);
        }
        return out_.size() != before || found_any_;
    }

    bool search_kings(Bitboard kings) noexcept {
        const std::size_t before = out_.size();
        while (kings != 0) {
            from_             = pop_lsb(kings);
            const Bitboard oc = occupied_ & ~bit(from_);
            king_capture(from_, 0, oc, opponents_, 0, -1, false);
        }
        return out_.size() != before || found_any_;
    }

private:
    // The men that have a first jump, found set-wise so the search visits only those.
    [[nodiscard]] Bitboard men_with_a_jump(Bitboard men, Bitboard jumpable) const noexcept {
        const Bitboard empty = G.all & ~occupied_;
        const unsigned dirs  = man_direction_mask(R.man_captures, R.topology, us_);
        Bitboard result      = 0;
        for (int d = 0; d < 4; ++d) {
            if ((dirs & (1U << d)) == 0) {
                continue;
            }
            const auto du = static_cast<std::size_t>(d);
            const int dl  = G.delta[du];
            result |= shift(shift(empty, -dl) & jumpable, -dl) & men & G.can_jump[du];
        }
        return result;
    }

    // Men: one adjacent piece per jump, landing right behind it.
    // `jumpable_man` is what a man may take; `jumpable` what the piece may take once crowned.
    void man_capture(int sq,
                     Bitboard captured,
                     Bitboard occ,
                     Bitboard jumpable_man,
                     Bitboard jumpable,
                     int depth) noexcept {
        bool any                  = false;
        constexpr unsigned mask   = man_direction_mask(R.man_captures, R.topology, Color::White);
        constexpr unsigned mask_b = man_direction_mask(R.man_captures, R.topology, Color::Black);
        const unsigned dirs       = us_ == Color::White ? mask : mask_b;
        for (int d = 0; d < 4; ++d) {
            if ((dirs & (1U << d)) == 0) {
                continue;
            }
            const auto du = static_cast<std::size_t>(d);
            if (!has(G.can_jump[du], sq)) {
                continue;
            }
            const int over = sq + G.delta[du];
            const int land = over + G.delta[du];
            if (!has(jumpable_man, over) || has(occ, land)) {
                continue;
            }
            any                                     = true;
            const Bitboard ob                       = bit(over);
            const Bitboard ncap                     = captured | ob;
            const Bitboard nocc                     = kImmediate ? (occ & ~ob) : occ;
            order_[static_cast<std::size_t>(depth)] = static_cast<std::uint8_t>(over);
            path_[static_cast<std::size_t>(depth)]  = static_cast<std::uint8_t>(land);
            if (has(G.promotion[static_cast<std::size_t>(us_)], land)) {
                if constexpr (R.mid_capture_promotion == MidCapturePromotion::CrownAndStop) {
                    record(land, ncap, depth + 1, true, false);
                    continue;
                } else if constexpr (R.mid_capture_promotion ==
                                     MidCapturePromotion::CrownAndContinue) {
                    if (!king_capture(land, ncap, nocc, jumpable & ~ob, depth + 1, d, true)) {
                        record(land, ncap, depth + 1, true, false);
                    }
                    continue;
                }
            }
            man_capture(land, ncap, nocc, jumpable_man & ~ob, jumpable & ~ob, depth + 1);
        }
        if (!any && depth > 0) {
            record(sq, captured, depth, has(G.promotion[static_cast<std::size_t>(us_)], sq), false);
        }
    }

    // Kings (and Russian men crowned mid-capture). Returns true if a capture from `sq` exists;
    // the moves found are recorded. `came` is the direction of the previous jump (-1 at the
    // start); with `skip_same`, direction `came` is left out because it was already searched
    // from the farthest landing square of the same run.
    bool king_capture(int sq,
                      Bitboard captured,
                      Bitboard occ,
                      Bitboard jumpable,
                      int depth,
                      int came,
                      bool crowned,
                      bool skip_same = false) noexcept {
        bool any = false;
        for (int d = 0; d < 4; ++d) {
            if (came >= 0 && d == reverse(came) && !R.king_may_reverse) {
                continue;  // blocked by the dead piece, or (Turkish) a forbidden 180-degree turn
            }
            if (skip_same && d == came) {
                continue;
            }
            if (try_king_jump(sq, d, captured, occ, jumpable, depth, crowned)) {
                any = true;
            }
        }
        return any;
    }

    bool try_king_jump(int sq,
                       int d,
                       Bitboard captured,
                       Bitboard occ,
                       Bitboard jumpable,
                       int depth,
                       bool crowned) noexcept {
        const auto du       = static_cast<std::size_t>(d);
        const int delta     = G.delta[du];
        const Bitboard step = G.can_step[du];
        int s               = sq;
        if constexpr (kFlying) {
            while (has(step, s) && !has(occ, s + delta)) {
                s += delta;
            }
        }
        if (!has(step, s)) {
            return false;
        }
        const int over = s + delta;
        if (!has(jumpable, over) || !has(step, over)) {
            return false;
        }
        int land = over + delta;
        if (has(occ, land)) {
            return false;
        }
        const Bitboard ob                       = bit(over);
        const Bitboard ncap                     = captured | ob;
        const Bitboard nocc                     = kImmediate ? (occ & ~ob) : occ;
        const Bitboard njmp                     = jumpable & ~ob;
        order_[static_cast<std::size_t>(depth)] = static_cast<std::uint8_t>(over);
        if constexpr (!kFlying || kBehind) {
            path_[static_cast<std::size_t>(depth)] = static_cast<std::uint8_t>(land);
            if (!king_capture(land, ncap, nocc, njmp, depth + 1, d, crowned)) {
                record(land, ncap, depth + 1, crowned, true);
            }
            return true;
        } else {
            // Landing run: every empty square beyond the captured piece.
            std::array<std::uint8_t, 10> landings{};
            int n                                   = 0;
            landings[static_cast<std::size_t>(n++)] = static_cast<std::uint8_t>(land);
            while (has(step, land) && !has(nocc, land + delta)) {
                land += delta;
                landings[static_cast<std::size_t>(n++)] = static_cast<std::uint8_t>(land);
            }
            bool cont = false;
            for (int i = 0; i < n; ++i) {
                const int l                            = landings[static_cast<std::size_t>(i)];
                path_[static_cast<std::size_t>(depth)] = static_cast<std::uint8_t>(l);
                // Continuing in the same direction reaches the same piece from every square of
                // the run; search it once, from the farthest square, unless every route counts.
                const bool skip_same = Distinct && i + 1 < n;
                if (king_capture(l, ncap, nocc, njmp, depth + 1, d, crowned, skip_same)) {
                    cont = true;
                }
            }
            if (!cont) {
                // No continuation from any landing square: each one ends the move. (A landing
                // square from which the capture can go on may not be chosen to stop on.)
                for (int i = 0; i < n; ++i) {
                    const int l                            = landings[static_cast<std::size_t>(i)];
                    path_[static_cast<std::size_t>(depth)] = static_cast<std::uint8_t>(l);
                    record(l, ncap, depth + 1, crowned, true);
                }
            }
            return true;
        }
    }

    // Precedence rank of the route just completed: larger is better.
    [[nodiscard]] std::uint64_t rank(Bitboard captured, int count, bool by_king) const noexcept {
        if constexpr (R.precedence == CapturePrecedence::Majority) {
            return static_cast<std::uint64_t>(count);
        } else if constexpr (R.precedence == CapturePrecedence::MajorityThenKings) {
            return (static_cast<std::uint64_t>(count) << 8) |
                   static_cast<std::uint64_t>(popcount(captured & kings_));
        } else if constexpr (R.precedence == CapturePrecedence::Italian) {
            // (1) most pieces, (2) by a king, (3) most kings, (4) kings earliest: bit (19 - i)
            // marks a king as the i-th piece taken, so an earlier king weighs more.
            std::uint64_t early = 0;
            for (int i = 0; i < count; ++i) {
                if (has(kings_, order_[static_cast<std::size_t>(i)])) {
                    early |= std::uint64_t{1} << (kMaxPath - 1 - i);
                }
            }
            return (static_cast<std::uint64_t>(count) << 40) |
                   (static_cast<std::uint64_t>(by_king ? 1 : 0) << 39) |
                   (static_cast<std::uint64_t>(popcount(captured & kings_)) << 32) | early;
        } else {
            (void)captured;
            (void)count;
            (void)by_king;
            return 0;
        }
    }

    void record(int to, Bitboard captured, int count, bool promotes, bool by_king) noexcept {
        found_any_ = true;
        if constexpr (R.precedence != CapturePrecedence::Free &&
                      R.precedence != CapturePrecedence::KingsFirst) {
            const std::uint64_t r = rank(captured, count, by_king);
            if (r < best_) {
                return;
            }
            if (r > best_) {
                best_ = r;
                out_.truncate(start_);
            }
        } else {
            (void)by_king;
        }
        if constexpr (Distinct) {
            for (std::size_t i = start_; i < out_.size(); ++i) {
                const Move& m = out_[i];
                if (m.captured == captured && m.to == to && m.from == from_) {
                    return;
                }
            }
        }
        Move& m    = out_.push();
        m.captured = captured;
        m.from     = static_cast<std::uint8_t>(from_);
        m.to       = static_cast<std::uint8_t>(to);
        m.path_len = static_cast<std::uint8_t>(count);
        m.promotes = promotes;
        for (int i = 0; i < count; ++i) {
            m.path[static_cast<std::size_t>(i)] = path_[static_cast<std::size_t>(i)];
        }
    }

    MoveList& out_;
    std::size_t start_;
    Color us_;
    Bitboard kings_;
    Bitboard opponents_ = 0;
    Bitboard occupied_  = 0;
    int from_           = 0;
    std::uint64_t best_ = 0;
    bool found_any_     = false;
    std::array<std::uint8_t, kMaxPath> path_;  // written before read, depth by depth
    std::array<std::uint8_t, kMaxPath> order_;
};

template <VariantId V>
struct Kernel {
    static constexpr const RuleSet& R  = rule_set<V>;
    static constexpr const Geometry& G = R.board();
    static constexpr bool kFlying      = R.king_range == KingRange::Flying;

    template <bool Distinct>
    static void captures(const Position& pos, MoveList& out) noexcept {
        const Color us = pos.side;
        if constexpr (R.precedence == CapturePrecedence::KingsFirst) {
            // Czech: if a king can capture, a king capture must be played.
            CaptureSearch<V, Distinct> kings(pos, out);
            if (kings.search_kings(pos.kings_of(us))) {
                return;
            }
            CaptureSearch<V, Distinct> men(pos, out);
            (void)men.search_men(pos.men(us));
        } else {
            CaptureSearch<V, Distinct> search(pos, out);
            (void)search.search_men(pos.men(us));
            (void)search.search_kings(pos.kings_of(us));
        }
    }

    static void quiet(const Position& pos, MoveList& out) noexcept {
        const Color us       = pos.side;
        const auto ui        = static_cast<std::size_t>(us);
        const Bitboard empty = G.all & ~pos.occupied();
        const unsigned dirs  = man_direction_mask(R.man_moves, R.topology, us);
        const Bitboard men   = pos.men(us);
        for (int d = 0; d < 4; ++d) {
            if ((dirs & (1U << d)) == 0) {
                continue;
            }
            const auto du    = static_cast<std::size_t>(d);
            Bitboard targets = shift(men & G.can_step[du], G.delta[du]) & empty;
            while (targets != 0) {
                const int to = pop_lsb(targets);
                out.push_quiet(to - G.delta[du], to, has(G.promotion[ui], to));
            }
        }
        Bitboard kings = pos.kings_of(us);
        while (kings != 0) {
            const int from = pop_lsb(kings);
            for (std::size_t d = 0; d < 4; ++d) {
                int s = from;
                while (has(G.can_step[d], s) && has(empty, s + G.delta[d])) {
                    s += G.delta[d];
                    out.push_quiet(from, s, false);
                    if constexpr (!kFlying) {
                        break;
                    }
                }
            }
        }
    }

    static std::uint64_t count_quiet(const Position& pos) noexcept {
        const Color us       = pos.side;
        const Bitboard empty = G.all & ~pos.occupied();
        const unsigned dirs  = man_direction_mask(R.man_moves, R.topology, us);
        const Bitboard men   = pos.men(us);
        std::uint64_t n      = 0;
        for (int d = 0; d < 4; ++d) {
            if ((dirs & (1U << d)) == 0) {
                continue;
            }
            const auto du = static_cast<std::size_t>(d);
            n += static_cast<std::uint64_t>(
                popcount(shift(men & G.can_step[du], G.delta[du]) & empty));
        }
        const Bitboard kings = pos.kings_of(us);
        if constexpr (!kFlying) {
            for (std::size_t d = 0; d < 4; ++d) {
                n += static_cast<std::uint64_t>(
                    popcount(shift(kings & G.can_step[d], G.delta[d]) & empty));
            }
        } else {
            Bitboard ks = kings;
            while (ks != 0) {
                const int from = pop_lsb(ks);
                for (std::size_t d = 0; d < 4; ++d) {
                    int s = from;
                    while (has(G.can_step[d], s) && has(empty, s + G.delta[d])) {
                        s += G.delta[d];
                        ++n;
                    }
                }
            }
        }
        return n;
    }

    // Fast test: can any man of the side to move jump? (Set-wise, as in Scan.)
    static bool men_can_capture(const Position& pos) noexcept {
        const Color us          = pos.side;
        const Bitboard empty    = G.all & ~pos.occupied();
        const Bitboard opp      = pos.of(opposite(us));
        const Bitboard jumpable = R.man_captures_king ? opp : (opp & ~pos.kings);
        const unsigned dirs     = man_direction_mask(R.man_captures, R.topology, us);
        const Bitboard men      = pos.men(us);
        for (int d = 0; d < 4; ++d) {
            if ((dirs & (1U << d)) == 0) {
                continue;
            }
            const auto du       = static_cast<std::size_t>(d);
            const int dl        = G.delta[du];
            const Bitboard over = shift(men & G.can_jump[du], dl) & jumpable;
            if ((shift(over, dl) & empty) != 0) {
                return true;
            }
        }
        return false;
    }

    static bool kings_can_capture(const Position& pos) noexcept {
        const Color us     = pos.side;
        const Bitboard oc  = pos.occupied();
        const Bitboard opp = pos.of(opposite(us));
        Bitboard ks        = pos.kings_of(us);
        while (ks != 0) {
            const int from = pop_lsb(ks);
            for (std::size_t d = 0; d < 4; ++d) {
                const int dl = G.delta[d];
                int s        = from;
                if constexpr (kFlying) {
                    while (has(G.can_step[d], s) && !has(oc, s + dl)) {
                        s += dl;
                    }
                }
                if (has(G.can_jump[d], s) && has(opp, s + dl) && !has(oc, s + 2 * dl)) {
                    return true;
                }
            }
        }
        return false;
    }

    static bool any_capture(const Position& pos) noexcept {
        return men_can_capture(pos) || kings_can_capture(pos);
    }

    template <bool Distinct>
    static void generate(const Position& pos, MoveList& out, MoveGenOptions options) noexcept {
        out.clear();
        if (any_capture(pos)) {
            captures<Distinct>(pos, out);
            if (options.forced_capture) {
                return;
            }
        }
        quiet(pos, out);
    }

    template <bool Distinct>
    static std::uint64_t count(const Position& pos) noexcept {
        if (any_capture(pos)) {
            MoveList list;
            captures<Distinct>(pos, list);
            return list.size();
        }
        return count_quiet(pos);
    }

    // Perft with a transposition table of counts (always-replace, key = position key mixed
    // with the depth); nodes closer than 3 plies to the leaves are cheaper to count than to look
    // up.
    template <bool Distinct>
    static std::uint64_t
    perft_hashed(const Position& pos, int depth, PerftEntry* table, std::uint64_t mask) noexcept {
        if (depth < 3) {
            return perft<Distinct>(pos, depth);
        }
        const std::uint64_t key =
            pos.key() ^ (static_cast<std::uint64_t>(depth) * std::uint64_t{0x9e3779b97f4a7c15});
        PerftEntry& e = table[key & mask];
        if (e.key == key) {
            return e.count;
        }
        MoveList list;
        generate<Distinct>(pos, list, {});
        std::uint64_t n = 0;
        for (const Move& m : list) {
            n += perft_hashed<Distinct>(make_move(pos, m), depth - 1, table, mask);
        }
        e.key   = key;
        e.count = n;
        return n;
    }

    template <bool Distinct>
    static std::uint64_t perft(const Position& pos, int depth) noexcept {
        if (depth <= 1) {
            return depth == 1 ? count<Distinct>(pos) : 1;
        }
        MoveList list;
        generate<Distinct>(pos, list, {});
        std::uint64_t n = 0;
        for (const Move& m : list) {
            n += perft<Distinct>(make_move(pos, m), depth - 1);
        }
        return n;
    }
};

}  // namespace papan::core::detail
