// Multi-line analysis (papan/engine/analysis.hpp).
#include <papan/engine/analysis.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace papan::engine {

namespace {

using Clock = std::chrono::steady_clock;

// The search gives up iterating at this depth (search/iterative_deepening.cpp caps it below
// kMaxPly).
constexpr int kDepthCap = 99;

// A forced game end found and proven deep enough that deeper searches cannot change it (the
// search's own rule for ending its iterations).
bool proven(const AnalysisLine& l) {
    const int s = std::abs(l.score);
    return s >= kMateBound && l.depth > 2 * (kMateScore - s) + 4;
}

AnalysisResult analyse_one(Engine& engine,
                           const core::Game& game,
                           const AnalysisLimits& req,
                           const AnalysisCallback& on_line) {
    SearchLimits limits;
    limits.depth         = req.depth;
    limits.move_time     = req.seconds;
    limits.nodes         = req.nodes;
    limits.search_forced = true;
    int seldepth         = 0;
    const auto r         = engine.search(game, limits, Level::Max, [&](const SearchInfo& info) {
        seldepth = info.seldepth;
        if (on_line) {
            on_line({1, info.depth, info.seldepth, info.score, info.pv}, info.nodes, info.seconds);
        }
    });
    AnalysisResult out;
    out.nodes   = r.nodes;
    out.seconds = r.seconds;
    if (r.best) {
        out.lines.push_back({1, r.depth, seldepth, r.score, r.pv});
    }
    return out;
}

AnalysisResult analyse_many(Engine& engine,
                            const core::Game& game,
                            const AnalysisLimits& req,
                            int count,
                            const AnalysisCallback& on_line) {
    const auto start   = Clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    AnalysisResult out;
    std::vector<AnalysisLine>& done = out.lines;  // the last depth completed for every rank
    const int max_depth             = req.depth > 0 ? std::min(req.depth, kDepthCap) : kDepthCap;
    for (int d = 1; d <= max_depth; ++d) {
        std::vector<core::Move> excluded;
        std::vector<AnalysisLine> lines;
        bool cut = false;
        for (int k = 0; k < count; ++k) {
            SearchLimits limits;
            limits.depth         = d;
            limits.search_forced = true;
            if (req.seconds > 0) {
                limits.move_time = req.seconds - elapsed();
                cut              = limits.move_time <= 0.001;
            }
            if (req.nodes > 0) {
                cut          = cut || out.nodes >= req.nodes;
                limits.nodes = req.nodes - std::min(req.nodes, out.nodes);
            }
            if (cut) {
                break;
            }
            int seldepth = 0;
            const auto r = engine.search_excluding(
                game, excluded, limits, Level::Max, [&](const SearchInfo& info) {
                    seldepth = info.seldepth;
                });
            out.nodes += r.nodes;
            if (!r.best || r.depth < d) {
                cut = true;  // out of time or nodes inside this depth: its lines are incomplete
                break;
            }
            AnalysisLine l{k + 1, r.depth, seldepth, r.score, r.pv};
            if (on_line) {
                on_line(l, out.nodes, elapsed());
            }
            excluded.push_back(*r.best);
            lines.push_back(std::move(l));
        }
        // A depth cut short keeps the previous depth's lines, except at depth 1 (nothing else).
        if ((!cut || done.empty()) && lines.size() >= done.size()) {
            done = std::move(lines);
        }
        // Every line proven: deeper searches change nothing.
        const bool all_proven =
            !done.empty() &&
            std::all_of(done.begin(), done.end(), [](const AnalysisLine& l) { return proven(l); });
        if (cut || all_proven) {
            break;
        }
    }
    out.seconds = elapsed();
    return out;
}

}  // namespace

AnalysisResult analyse_lines(Engine& engine,
                             const core::Game& game,
                             const AnalysisLimits& limits,
                             int lines,
                             const AnalysisCallback& on_line) {
    if (game.is_over()) {
        return {};
    }
    const int legal = static_cast<int>(game.legal_moves().size());
    const int count = std::clamp(std::min(lines, legal), 1, kMaxAnalysisLines);
    if (count == 1) {
        return analyse_one(engine, game, limits, on_line);
    }
    return analyse_many(engine, game, limits, count, on_line);
}

}  // namespace papan::engine
