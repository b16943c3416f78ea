// Analysis for the browser: engine::analyse_lines() (papan/engine/analysis.hpp, the same search
// as `papan analyse --lines N`) with up to three principal variations, reported as JSON per
// completed depth and line.
#pragma once

#include <papan/core/game.hpp>
#include <papan/engine/analysis.hpp>
#include <papan/engine/engine.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace papan::wasm {

struct AnalysisRequest {
    int depth           = 0;  // plies; 0 = no depth limit
    double seconds      = 0;  // 0 = no time limit
    std::uint64_t nodes = 0;  // 0 = no node limit (summed over every line's searches)
    int lines           = 1;  // multi-PV: 1..3
};

inline constexpr int kMaxLines = engine::kMaxAnalysisLines;

// Called with one JSON object per completed depth of one line (docs/web.md, "info").
using InfoSink = std::function<void(const std::string& json)>;

// Searches game.position() and returns the final JSON (the last complete line of each rank).
// Precondition: at least one of depth, seconds and nodes is set.
[[nodiscard]] std::string analyse(engine::Engine& engine,
                                  const core::Game& game,
                                  const AnalysisRequest& request,
                                  const InfoSink& on_info);

}  // namespace papan::wasm
