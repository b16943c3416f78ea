#include <papan/server/elo.hpp>

#include <cmath>

namespace papan::server {

std::pair<int, int> elo_update(int rating_a, int rating_b, double score_a) {
    const double expected_a = 1.0 / (1.0 + std::pow(10.0, (rating_b - rating_a) / 400.0));
    const double delta      = kEloK * (score_a - expected_a);
    const auto d            = static_cast<int>(std::lround(delta));
    return {rating_a + d, rating_b - d};
}

}  // namespace papan::server
