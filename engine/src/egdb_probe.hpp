// EgdbPolicy: how the search uses the endgame databases (docs/engine.md, "Endgame databases").
// The search calls it in three places: at the root (filter the root moves), in search() (a
// table result ends the node) and at quiescence leaves (a table result instead of the static
// evaluation).
//
// - Tables are used only with forced capture (they assume it) and only at quiet nodes (no
//   capture pending: the search resolves captures itself, and the files do not store them).
// - Root in the tables: the root moves are restricted to those keeping the best table result
//   (a won position is never spoilt, a drawn one never lost); in the tree only positions after a
//   conversion (fewer pieces or fewer men than the root) are probed, so the search still looks
//   for the capture or promotion that makes progress instead of seeing "won" everywhere.
// - Root above the tables: every quiet node that fits is probed.
// - A draw is 0. A win is kEgdbWinScore - ply + the evaluation (clamped to +-kEgdbSpread), below
//   the mate range, so shorter routes to a table win and more material are preferred; a loss is
//   its negation.
// - Move-limit rules are not in the tables: a table win can be a draw by a counter. A win or
//   loss is taken as exact only when every move-limit counter of the node has more plies left
//   than the table's longest conversion and no lone-king rule that begins inside the tree
//   (International 16/5 moves, Russian official rules, the American club claim) applies to the
//   material; otherwise the result is only a bound (a table win is at least a draw) and the
//   search goes on.
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/movegen.hpp>
#include <papan/engine/egdb.hpp>
#include <papan/engine/engine.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace papan::engine::detail {

inline constexpr int kEgdbWinScore = 25000;  // below kMateBound
inline constexpr int kEgdbSpread   = 2000;   // room for the evaluation as a tie-break

class EgdbPolicy {
public:
    EgdbPolicy() = default;

    // Decides the policy for a search of game.position() and restricts root_moves (the game's
    // legal moves) as described above. db may be null (no tables).
    EgdbPolicy(const egdb::Database* db, const core::Game& game, core::MoveList& root_moves);

    // A score that ends a search() node, or nullopt. left = plies left on the nearest move-limit
    // counter at this node (large when none).
    template <class Eval>
    [[nodiscard]] std::optional<int>
    score(const core::Position& pos, int ply, int left, int alpha, int beta, Eval&& eval) const {
        if (!covers(pos) || core::has_capture(pos)) {
            return std::nullopt;
        }
        std::uint32_t margin = 0;
        const auto wdl       = db_->probe_quiet(pos, margin);
        if (!wdl) {
            return std::nullopt;
        }
        if (*wdl == egdb::Wdl::Draw) {
            return 0;
        }
        if (exact(pos, left, margin)) {
            return mapped(*wdl, ply, eval());
        }
        if ((*wdl == egdb::Wdl::Win && beta <= 0) || (*wdl == egdb::Wdl::Loss && alpha >= 0)) {
            return 0;  // the bound alone decides the node
        }
        return std::nullopt;
    }

    // The score of a quiescence leaf (no capture pending).
    template <class Eval>
    [[nodiscard]] int leaf(const core::Position& pos, int ply, int left, Eval&& eval) const {
        if (!covers(pos)) {
            return eval();
        }
        std::uint32_t margin = 0;
        const auto wdl       = db_->probe_quiet(pos, margin);
        if (!wdl) {
            return eval();
        }
        if (*wdl == egdb::Wdl::Draw) {
            return 0;
        }
        if (exact(pos, left, margin)) {
            return mapped(*wdl, ply, eval());
        }
        return *wdl == egdb::Wdl::Win ? std::max(eval(), 0) : std::min(eval(), 0);
    }

    // Whether a position of this search is probed in the tables.
    [[nodiscard]] bool covers(const core::Position& pos) const noexcept {
        if (db_ == nullptr) {
            return false;
        }
        const int n = core::popcount(pos.occupied());
        if (n > max_pieces_) {
            return false;
        }
        return !root_in_tables_ || n < root_pieces_ ||
               core::popcount(pos.occupied() & ~pos.kings) < root_men_;
    }

private:
    [[nodiscard]] bool exact(const core::Position& pos, int left, std::uint32_t margin) const;

    [[nodiscard]] static int mapped(egdb::Wdl w, int ply, int eval) noexcept {
        const int s = kEgdbWinScore - ply + std::clamp(eval, -kEgdbSpread, kEgdbSpread);
        return w == egdb::Wdl::Win ? s : -s;
    }

    const egdb::Database* db_      = nullptr;
    int max_pieces_                = 0;
    bool root_in_tables_           = false;
    int root_pieces_               = 0;
    int root_men_                  = 0;
    core::DrawRuleSet draw_rules_  = core::DrawRuleSet::Standard;
    core::EndgameDrawRule endgame_ = core::EndgameDrawRule::None;
};

}  // namespace papan::engine::detail
