#include "analysis.hpp"

#include "game_json.hpp"
#include "json_out.hpp"

#include <papan/core/notation/move_text.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <vector>

namespace papan::wasm {

namespace {

using Clock = std::chrono::steady_clock;

// The engine gives up iterating at this depth (engine/src/search/iterative_deepening.cpp caps it
// below kMaxPly).
constexpr int kDepthCap = 99;

struct Line {
    int rank     = 1;  // 1 = the best line
    int depth    = 0;
    int seldepth = 0;
    int score    = 0;
    std::vector<core::Move> pv;
};

struct Totals {
    std::uint64_t nodes = 0;
    double seconds      = 0;
};

// The line in the variant's notation, each move written in the position it is played from (the
// same text as `papan analyse`).
std::vector<std::string> line_text(core::Position pos, const std::vector<core::Move>& pv) {
    std::vector<std::string> out;
    for (const core::Move& m : pv) {
        out.push_back(core::move_text(pos, m));
        pos = core::make_move(pos, m);
    }
    return out;
}

void write_line(JsonOut& out, const core::Game& game, const Line& line, const Totals& totals) {
    const core::Position& pos = game.position();
    out.begin_object()
        .field("multipv", line.rank)
        .field("depth", line.depth)
        .field("seldepth", line.seldepth)
        .field("score", line.score)
        .field("nodes", totals.nodes)
        .field("seconds", totals.seconds)
        .field("nps",
               totals.seconds > 0 ? static_cast<double>(totals.nodes) / totals.seconds : 0.0);
    out.key("move");
    if (line.pv.empty()) {
        out.null();
    } else {
        write_move(out, pos, line.pv.front(), game.legal_moves());
    }
    out.field("pv", line_text(pos, line.pv)).end_object();
}

std::string line_json(const core::Game& game, const Line& line, const Totals& totals) {
    JsonOut out;
    write_line(out, game, line, totals);
    return out.str();
}

std::string
final_json(const core::Game& game, const std::vector<Line>& lines, const Totals& totals) {
    JsonOut out;
    out.begin_object().field("nodes", totals.nodes).field("seconds", totals.seconds);
    out.key("lines").begin_array();
    for (const Line& l : lines) {
        write_line(out, game, l, totals);
    }
    out.end_array().end_object();
    return out.str();
}

// A forced game end found and proven deep enough that deeper searches cannot change it (the
// engine's own rule for ending its iterations).
bool proven(const Line& l) {
    const int s = std::abs(l.score);
    return s >= engine::kMateBound && l.depth > 2 * (engine::kMateScore - s) + 4;
}

std::string analyse_one(engine::Engine& engine,
                        const core::Game& game,
                        const AnalysisRequest& req,
                        const InfoSink& on_info) {
    engine::SearchLimits limits;
    limits.depth     = req.depth;
    limits.move_time = req.seconds;
    limits.nodes     = req.nodes;
    int seldepth     = 0;
    const auto r =
        engine.search(game, limits, engine::Level::Max, [&](const engine::SearchInfo& info) {
            seldepth = info.seldepth;
            const Line l{1, info.depth, info.seldepth, info.score, info.pv};
            on_info(line_json(game, l, {info.nodes, info.seconds}));
        });
    const Line best{1, r.depth, seldepth, r.score, r.pv};
    return final_json(game, {best}, {r.nodes, r.seconds});
}

std::string analyse_many(engine::Engine& engine,
                         const core::Game& game,
                         const AnalysisRequest& req,
                         int count,
                         const InfoSink& on_info) {
    const auto start  = Clock::now();
    const bool forced = game.legal_moves().size() == 1;
    Totals totals;
    const auto elapsed = [&] {
        return std::chrono::duration<double>(Clock::now() - start).count();
    };
    std::vector<Line> done;  // the lines of the last depth completed for every rank
    const int max_depth = req.depth > 0 ? std::min(req.depth, kDepthCap) : kDepthCap;
    for (int d = 1; d <= max_depth; ++d) {
        std::vector<core::Move> excluded;
        std::vector<Line> lines;
        bool cut = false;
        for (int k = 0; k < count; ++k) {
            engine::SearchLimits limits;
            limits.depth = d;
            if (req.seconds > 0) {
                const double left = req.seconds - elapsed();
                // With one legal move a clock makes the engine answer at once without searching
                // (right in a game, not here): then only depths are given, and no new depth
                // starts after half the time (a depth costs a few times the one before).
                if (forced) {
                    cut = left <= req.seconds / 2;
                } else {
                    limits.move_time = left;
                    cut              = left <= 0.001;
                }
            }
            if (req.nodes > 0) {
                cut          = cut || totals.nodes >= req.nodes;
                limits.nodes = req.nodes - std::min(req.nodes, totals.nodes);
            }
            if (cut) {
                break;
            }
            int seldepth = 0;
            const auto r = engine.search_excluding(
                game, excluded, limits, engine::Level::Max, [&](const engine::SearchInfo& info) {
                    seldepth = info.seldepth;
                });
            totals.nodes += r.nodes;
            totals.seconds = elapsed();
            if (!r.best || r.depth < d) {
                cut = true;  // out of time or nodes inside this depth: its lines are incomplete
                break;
            }
            Line l{k + 1, r.depth, seldepth, r.score, r.pv};
            on_info(line_json(game, l, totals));
            excluded.push_back(*r.best);
            lines.push_back(std::move(l));
        }
        // A depth cut short keeps the previous depth's lines, except at depth 1 (nothing else).
        if (!cut || done.empty()) {
            if (lines.size() >= done.size()) {
                done = std::move(lines);
            }
        }
        if (cut || (!done.empty() && proven(done.front()))) {
            break;
        }
    }
    totals.seconds = elapsed();
    return final_json(game, done, totals);
}

}  // namespace

std::string analyse(engine::Engine& engine,
                    const core::Game& game,
                    const AnalysisRequest& req,
                    const InfoSink& on_info) {
    if (game.is_over()) {
        return final_json(game, {}, {});
    }
    const int legal = static_cast<int>(game.legal_moves().size());
    const int count = std::clamp(std::min(req.lines, legal), 1, kMaxLines);
    if (count == 1 && !(legal == 1 && req.seconds > 0)) {
        return analyse_one(engine, game, req, on_info);
    }
    return analyse_many(engine, game, req, count, on_info);
}

}  // namespace papan::wasm
