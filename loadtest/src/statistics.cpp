#include <papan/loadtest/statistics.hpp>

#include <algorithm>
#include <cmath>

namespace papan::loadtest {

LatencySummary summarize(std::vector<std::int64_t> samples) {
    LatencySummary s;
    if (samples.empty()) {
        return s;
    }
    std::sort(samples.begin(), samples.end());
    const auto at = [&](double q) {
        const auto n = samples.size();
        auto rank    = static_cast<std::size_t>(std::ceil(q * static_cast<double>(n)));
        rank         = std::clamp<std::size_t>(rank, 1, n);
        return static_cast<double>(samples[rank - 1]) / 1000.0;
    };
    s.p50_ms   = at(0.50);
    s.p95_ms   = at(0.95);
    s.p99_ms   = at(0.99);
    s.max_ms   = static_cast<double>(samples.back()) / 1000.0;
    double sum = 0;
    for (const auto v : samples) {
        sum += static_cast<double>(v);
    }
    s.mean_ms = sum / static_cast<double>(samples.size()) / 1000.0;
    return s;
}

}  // namespace papan::loadtest
