#include "egdb_probe.hpp"

#include <vector>

namespace papan::engine::detail {

EgdbPolicy::EgdbPolicy(const egdb::Database* db, const core::Game& game, core::MoveList& root_moves)
    : draw_rules_(game.options().draw_rules)
    , endgame_(game.rules().draw.endgame) {
    if (db == nullptr || !game.options().forced_capture) {
        return;
    }
    max_pieces_ = db->max_pieces(game.variant());
    if (max_pieces_ == 0) {
        return;
    }
    db_                     = db;
    const core::Position& p = game.position();
    root_pieces_            = core::popcount(p.occupied());
    root_men_               = core::popcount(p.occupied() & ~p.kings);
    root_in_tables_         = root_pieces_ <= max_pieces_;
    if (!root_in_tables_ || root_moves.empty()) {
        return;
    }
    // Keep the moves with the best table result for the side to move.
    std::vector<egdb::Wdl> after;
    after.reserve(root_moves.size());
    egdb::Wdl best = egdb::Wdl::Loss;
    for (const core::Move& m : root_moves) {
        const auto r = db->probe(core::make_move(p, m));
        if (!r) {
            return;  // a result outside the tables: search every move
        }
        after.push_back(egdb::negate(*r));
        best = std::max(best, after.back());
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < root_moves.size(); ++i) {
        if (after[i] == best) {
            root_moves[kept++] = root_moves[i];
        }
    }
    root_moves.truncate(kept);
}

bool EgdbPolicy::exact(const core::Position& pos, int left, std::uint32_t margin) const {
    if (left <= static_cast<int>(margin)) {
        return false;
    }
    const auto w         = pos.of(core::Color::White);
    const auto b         = pos.of(core::Color::Black);
    const bool lone_king = (core::popcount(w) == 1 && (w & pos.kings) != 0) ||
                           (core::popcount(b) == 1 && (b & pos.kings) != 0);
    if (!lone_king) {
        return true;
    }
    // Lone-king rules that may begin inside the tree.
    const int other = core::popcount(pos.occupied()) - 1;
    if (endgame_ == core::EndgameDrawRule::International && other <= 3) {
        return false;  // 16 moves against three pieces, 5 against two or one
    }
    if (draw_rules_ == core::DrawRuleSet::RussianOfficial) {
        return false;  // 15 moves against three kings, 5 in the small endings
    }
    if (draw_rules_ == core::DrawRuleSet::AmericanClub && other == 1) {
        return false;  // a draw the lone king's side may claim
    }
    return true;
}

}  // namespace papan::engine::detail
