// Internal to Game (game.cpp, game_draw_rules.cpp, game_results.cpp): the position predicates
// of the draw rules and the results they give.
#pragma once

#include <papan/core/game.hpp>

#include <string>

namespace papan::core::game_detail {

[[nodiscard]] int count(Bitboard b) noexcept;
[[nodiscard]] bool lone_king(const Position& p, Color c) noexcept;
// A man moved to another rank: forward (men never step back without capturing).
[[nodiscard]] bool man_advanced(const Position& before, const Move& m) noexcept;
// Whether a move resets a no-progress counter of this kind.
[[nodiscard]] bool
progress_resets(NoProgressRule rule, const Position& before, const Move& m) noexcept;

struct EndgameMatch {
    bool active  = false;
    Color strong = Color::White;  // the side playing against the lone king
};

// Whether an endgame rule's material holds in p.
[[nodiscard]] EndgameMatch match_endgame(DrawRule rule, const Position& p) noexcept;
[[nodiscard]] bool turkish_kings_draw(const Position& p);
// AmericanClub: one side has a lone king, the other a single piece (man or king).
[[nodiscard]] bool insufficient_material(const Position& p) noexcept;

[[nodiscard]] GameResult win_for(Color c, Reason r) noexcept;
[[nodiscard]] GameResult draw_by(Reason r, DrawRule rule, bool claimed = false) noexcept;
// "the game is over (<result text>)"
[[nodiscard]] std::string over_error(const Game& g);

}  // namespace papan::core::game_detail
