// The material proof of a puzzle: plain minimax over the rules core's legal moves, every move
// searched to a fixed horizon and every capture sequence resolved past it, scoring material
// only (a man 100, a king 300, no legal move a lost game). No evaluation and no pruning beyond
// alpha-beta, so a value is a fact about the position within the horizon, not a judgement of
// the engine. The shipped set's test checks the same facts with its own copy of this minimax
// (tests/engine/material_proof.hpp), so the two must keep these exact semantics.
#pragma once

#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

#include <cstdint>
#include <vector>

namespace papan::server::puzzles {

inline constexpr int kMaterialLoss = -100000;  // the side to move has no legal move
inline constexpr int kManValue     = 100;
inline constexpr int kKingValue    = 300;

// Material from the side to move's point of view.
[[nodiscard]] int material(const core::Position& p) noexcept;

// With a transposition table of its own (values do not depend on the path: no draw rule counts
// here), kept between calls: the positions of one game share most of their subtrees.
class MaterialSearch {
public:
    // `table_bits`: the table holds 2^table_bits entries of 16 bytes (20: 16 MB).
    explicit MaterialSearch(int table_bits = 20);

    // The material the side to move can force within `depth` plies (captures resolved beyond),
    // exact inside (alpha, beta), a bound outside it (fail-soft).
    [[nodiscard]] int value(const core::Position& p, int depth, int alpha, int beta);
    [[nodiscard]] int exact(const core::Position& p, int depth);
    // The value of playing m in p for p's side to move, `depth` plies in all (m included).
    [[nodiscard]] int after(const core::Position& p, const core::Move& m, int depth);
    // True when playing m reaches at least `target` within depth plies (a null-window test).
    [[nodiscard]] bool reaches(const core::Position& p, const core::Move& m, int depth, int target);

    [[nodiscard]] std::uint64_t nodes() const noexcept { return nodes_; }

private:
    enum class Bound : std::uint8_t {
        None,
        Exact,
        Lower,
        Upper,
    };

    struct Entry {
        std::uint64_t key  = 0;
        std::int32_t value = 0;
        Bound bound        = Bound::None;
    };

    std::uint64_t nodes_ = 0;
    std::vector<Entry> table_;
    std::size_t mask_ = 0;
};

}  // namespace papan::server::puzzles
