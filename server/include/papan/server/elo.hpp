// Elo ratings per variant: every signed-in player starts at 1200; after a rated game both
// ratings move by K * (score - expected) with K = 32 (rounded to the nearest integer).
#pragma once

#include <utility>

namespace papan::server {

inline constexpr int kInitialRating = 1200;
inline constexpr int kEloK          = 32;

// score_a: 1 win, 0.5 draw, 0 loss (for player a). Returns the new (a, b) ratings.
[[nodiscard]] std::pair<int, int> elo_update(int rating_a, int rating_b, double score_a);

}  // namespace papan::server
