#include "puzzles/material.hpp"

#include <papan/core/movegen.hpp>

#include <algorithm>
#include <array>

namespace papan::server::puzzles {

int material(const core::Position& p) noexcept {
    const core::Color us   = p.side;
    const core::Color them = core::opposite(us);
    return kManValue * (core::popcount(p.men(us)) - core::popcount(p.men(them))) +
           kKingValue * (core::popcount(p.kings_of(us)) - core::popcount(p.kings_of(them)));
}

MaterialSearch::MaterialSearch(int table_bits)
    : table_(std::size_t{1} << table_bits)
    , mask_(table_.size() - 1) {}

int MaterialSearch::value(const core::Position& p, int depth, int alpha, int beta) {
    ++nodes_;
    core::MoveList moves;
    core::generate_moves(p, moves);
    if (moves.empty()) {
        return kMaterialLoss;
    }
    const bool capturing = moves[0].is_capture();  // forced capture: all moves are captures
    if (depth <= 0 && !capturing) {
        return material(p);
    }
    // Below the horizon only captures are searched, whatever the depth: one key for them all.
    const auto plies = static_cast<std::uint64_t>(std::max(depth, 0));
    const std::uint64_t key =
        (p.key() ^ (plies + 1) * 0x9E3779B97F4A7C15ULL ^
         (static_cast<std::uint64_t>(p.variant) + 1) * 0xC2B2AE3D27D4EB4FULL) |
        1;
    Entry& slot = table_[key & mask_];
    if (slot.key == key) {
        if (slot.bound == Bound::Exact || (slot.bound == Bound::Lower && slot.value >= beta) ||
            (slot.bound == Bound::Upper && slot.value <= alpha)) {
            return slot.value;
        }
    }
    const int alpha_in = alpha;
    // Larger captures and crownings first: they decide most lines, and alpha-beta cuts sooner.
    // The order changes the work, never the value.
    std::array<int, core::kMaxMoves> order{};
    const std::size_t n = moves.size();
    for (std::size_t i = 0; i < n; ++i) {
        order[i] = static_cast<int>(i);
    }
    const auto weight = [&](int i) {
        const core::Move& m = moves[static_cast<std::size_t>(i)];
        return m.capture_count() * 4 + (m.promotes ? 2 : 0);
    };
    std::stable_sort(order.begin(),
                     order.begin() + static_cast<std::ptrdiff_t>(n),
                     [&](int a, int b) { return weight(a) > weight(b); });
    int best = kMaterialLoss - 1;
    for (std::size_t i = 0; i < n; ++i) {
        const core::Move& m = moves[static_cast<std::size_t>(order[i])];
        const int v         = -value(core::make_move(p, m), depth - 1, -beta, -alpha);
        best                = std::max(best, v);
        alpha               = std::max(alpha, v);
        if (alpha >= beta) {
            break;
        }
    }
    slot = Entry{key,
                 best,
                 best <= alpha_in ? Bound::Upper
                 : best >= beta   ? Bound::Lower
                                  : Bound::Exact};
    return best;
}

int MaterialSearch::exact(const core::Position& p, int depth) {
    return value(p, depth, kMaterialLoss - 1, -(kMaterialLoss - 1));
}

int MaterialSearch::after(const core::Position& p, const core::Move& m, int depth) {
    return -exact(core::make_move(p, m), depth - 1);
}

bool MaterialSearch::reaches(const core::Position& p, const core::Move& m, int depth, int target) {
    // value >= target  <=>  the opponent's value <= -target: a window (-target - 1, -target + 1)
    // around it for the opponent is enough.
    return -value(core::make_move(p, m), depth - 1, -target, -target + 1) >= target;
}

}  // namespace papan::server::puzzles
