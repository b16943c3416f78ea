// Latency percentiles of the report.
#pragma once

#include <cstdint>
#include <vector>

namespace papan::loadtest {

struct LatencySummary {
    double p50_ms  = 0;
    double p95_ms  = 0;
    double p99_ms  = 0;
    double max_ms  = 0;
    double mean_ms = 0;
};

// Nearest-rank percentiles of samples in microseconds.
[[nodiscard]] LatencySummary summarize(std::vector<std::int64_t> samples_us);

}  // namespace papan::loadtest
