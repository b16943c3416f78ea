// DrawTracker<V>: the search's view of the draws that depend on history rather than on the
// position alone. A position repeated since the last irreversible move (in the game or in the
// tree) scores 0; so does a position where one of the root's move-limit counters
// (Game::move_limits()) runs out. It holds the keys of the game's positions followed by those of
// the current line of the tree, the count of reversible plies before each, and the plies left
// on each counter at each ply of the line.
#pragma once

#include "search.hpp"

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/core/position.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace papan::engine::detail {

// What resets a move-limit counter in the tree.
enum class Reset : std::uint8_t {
    Never,       // the total move limit
    ManMove,     // a capture or any man move
    ManAdvance,  // a capture or a man moving forward (Turkish)
    Crowning,    // a capture or a crowning (other 8x8 variants; the endgame rules)
};

inline constexpr std::int16_t kNoCounter = std::numeric_limits<std::int16_t>::max();
inline constexpr int kMaxCounters        = 4;

template <core::VariantId V>
class DrawTracker {
public:
    // Takes the game's history and the move-limit counters that apply at its current position
    // (the root, ply 0). Call once per search, before the tree.
    void start(const core::Game& game);

    // The key of the position at `ply` of the current line.
    [[nodiscard]] std::uint64_t key(int ply) const noexcept {
        return keys_[root_index_ + static_cast<std::size_t>(ply)];
    }

    // Whether m can never be undone (so no position before it can repeat after it).
    [[nodiscard]] static bool irreversible(const core::Position& pos,
                                           const core::Move& m) noexcept {
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

    // Records m from pos (at `ply`) to child as the line's next step; true when a move-limit
    // draw happens in the child.
    bool enter_child(const core::Position& pos,
                     const core::Position& child,
                     const core::Move& m,
                     int ply) noexcept {
        const std::size_t i = root_index_ + static_cast<std::size_t>(ply);
        keys_[i + 1]        = child.key();
        rev_[i + 1]         = irreversible(pos, m) ? 0 : rev_[i] + 1;
        if (counters_ == 0) {
            return false;
        }
        const auto& left = left_[static_cast<std::size_t>(ply)];
        auto& next       = left_[static_cast<std::size_t>(ply + 1)];
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

    // Whether the position at `ply` repeats one since the last irreversible move.
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

    // Plies left on the nearest move-limit counter at a node qply plies into quiescence (a
    // lower bound there: captures only reset counters); the int maximum when none applies.
    [[nodiscard]] int left_at(int ply, int qply) const noexcept {
        int left       = std::numeric_limits<int>::max();
        const auto& at = left_[static_cast<std::size_t>(ply - qply)];
        for (int c = 0; c < counters_; ++c) {
            const int k = at[static_cast<std::size_t>(c)];
            if (k != kNoCounter) {
                left = std::min(left, k - qply);
            }
        }
        return left;
    }

private:
    static constexpr const core::RuleSet& R = core::rule_set<V>;
    static constexpr bool kTurkish          = R.topology == core::Topology::Orthogonal8;

    [[nodiscard]] static bool
    resets(Reset r, const core::Position& pos, const core::Move& m) noexcept {
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

    // What resets a counter of `rule` under the game's options; nullopt for a rule that is not
    // a move-limit counter.
    [[nodiscard]] static std::optional<Reset> reset_of(core::DrawRule rule,
                                                       const core::GameOptions& options) noexcept;

    std::vector<std::uint64_t> keys_;  // the game's positions, then the line's
    std::vector<int> rev_;             // reversible plies before each of keys_
    std::size_t root_index_ = 0;       // the root's index in keys_ and rev_
    std::array<Reset, kMaxCounters> reset_{};
    int counters_ = 0;  // how many move-limit counters apply
    // Plies left on each counter, per ply of the line (kNoCounter: reset in the line).
    std::vector<std::array<std::int16_t, kMaxCounters>> left_;
};

}  // namespace papan::engine::detail
