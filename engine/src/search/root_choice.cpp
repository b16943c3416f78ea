#include "search/root_choice.hpp"

#include <algorithm>
#include <cmath>

namespace papan::engine::detail {

std::size_t weaker_level_choice(const core::MoveList& moves,
                                const std::vector<int>& scores,
                                std::size_t best_index,
                                int best_score,
                                const Handicap& handicap,
                                std::uint64_t seed,
                                std::uint64_t key) {
    const std::size_t count = moves.size();
    std::vector<double> weight(count, 0.0);
    int top = -kInfinite;
    std::vector<int> noisy(count, -kInfinite);
    for (std::size_t i = 0; i < count; ++i) {
        const core::Move& m = moves[i];
        int s               = scores[i];
        if (s <= -kMateBound && best_score > -kMateBound) {
            continue;  // never choose a lost move when something else is not lost
        }
        if (handicap.noise > 0) {
            const std::uint64_t h = splitmix64(seed ^ key ^ (m.captured * 0x9E37U) ^
                                               (std::uint64_t{m.from} << 8) ^ m.to);
            s += static_cast<int>(h % static_cast<std::uint64_t>(2 * handicap.noise + 1)) -
                 handicap.noise;
        }
        noisy[i] = s;
        top      = std::max(top, s);
    }
    double total = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (noisy[i] == -kInfinite) {
            continue;
        }
        const double t = std::max(handicap.temperature, 1);
        weight[i]      = std::exp(static_cast<double>(noisy[i] - top) / t);
        total += weight[i];
    }
    const std::uint64_t h = splitmix64(seed ^ key ^ 0x5bd1e995ULL);
    double u              = static_cast<double>(h >> 11) * 0x1.0p-53 * total;
    std::size_t chosen    = best_index;
    for (std::size_t i = 0; i < count; ++i) {
        if (weight[i] <= 0) {
            continue;
        }
        chosen = i;
        u -= weight[i];
        if (u <= 0) {
            break;
        }
    }
    return chosen;
}

}  // namespace papan::engine::detail
