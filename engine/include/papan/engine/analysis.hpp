// Analysis: the engine's search of a game's current position with up to kMaxAnalysisLines
// principal variations, reported line by line as each depth completes. `papan analyse --lines N`
// and the browser's analysis board (wasm/src/analysis.cpp) both run it.
//
// One line is one Engine::search(), exactly what a game's search runs, so node counts and best
// moves can be compared across builds. Several lines are found by exclusion, depth by depth: at
// depth d, line k is Engine::search_excluding() with the first moves of lines 1..k-1 of that depth
// taken away. The transposition table stays warm between those searches, so the shallower
// iterations each of them repeats cost little.
//
// Every line deepens until a limit is reached: with fewer legal moves than lines asked for, each
// move gets its line and each line goes on deepening; a position with a single legal move, or a
// line left with one move once the others are excluded, is searched like any other (a game plays
// a forced move at once; analysis wants to see where it leads).
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/engine/engine.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace papan::engine {

inline constexpr int kMaxAnalysisLines = 3;

struct AnalysisLimits {
    int depth           = 0;  // plies; 0 = no depth limit
    double seconds      = 0;  // 0 = no time limit
    std::uint64_t nodes = 0;  // 0 = no node limit (summed over every line's searches)
};

struct AnalysisLine {
    int rank     = 1;  // 1 = the best line
    int depth    = 0;
    int seldepth = 0;
    int score    = 0;  // hundredths of a man, side to move's view
    std::vector<core::Move> pv;
};

struct AnalysisResult {
    std::vector<AnalysisLine> lines;  // the last complete depth of every line, best first
    std::uint64_t nodes = 0;          // every search's nodes
    double seconds      = 0;
};

// Called for each line of each completed depth, with the nodes and seconds spent so far.
using AnalysisCallback =
    std::function<void(const AnalysisLine& line, std::uint64_t nodes, double seconds)>;

// Searches game.position() at level max with min(lines, legal moves) lines (lines clamped to
// 1..kMaxAnalysisLines). Precondition: at least one limit is set. A game that is over gives no
// line.
[[nodiscard]] AnalysisResult analyse_lines(Engine& engine,
                                           const core::Game& game,
                                           const AnalysisLimits& limits,
                                           int lines,
                                           const AnalysisCallback& on_line = {});

}  // namespace papan::engine
