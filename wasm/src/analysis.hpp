// Analysis for the browser: the engine's search of a game's current position with up to three
// principal variations, reported as JSON per completed depth and line.
//
// One line is one Engine::search(), exactly what `papan analyse` runs (so node counts and best
// moves can be compared with the native binary). Several lines are found by exclusion, depth by
// depth: at depth d, line k is Engine::search_excluding() with the first moves of lines 1..k-1
// of that depth taken away. The transposition table stays warm between those searches, so the
// shallower iterations each of them repeats cost little. A position with a single legal move
// under a time limit goes the same depth-by-depth way (the engine would answer it at once).
#pragma once

#include <papan/core/game.hpp>
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

inline constexpr int kMaxLines = 3;

// Called with one JSON object per completed depth of one line (docs/web.md, "info").
using InfoSink = std::function<void(const std::string& json)>;

// Searches game.position() and returns the final JSON (the last complete line of each rank).
// Precondition: at least one of depth, seconds and nodes is set.
[[nodiscard]] std::string analyse(engine::Engine& engine,
                                  const core::Game& game,
                                  const AnalysisRequest& request,
                                  const InfoSink& on_info);

}  // namespace papan::wasm
