#include "analysis.hpp"

#include "game_json.hpp"
#include "json_out.hpp"

#include <papan/core/notation/move_text.hpp>

#include <string>
#include <vector>

namespace papan::wasm {

namespace {

using engine::AnalysisLine;

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

void write_line(JsonOut& out,
                const core::Game& game,
                const AnalysisLine& line,
                const Totals& totals) {
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

std::string line_json(const core::Game& game, const AnalysisLine& line, const Totals& totals) {
    JsonOut out;
    write_line(out, game, line, totals);
    return out.str();
}

std::string
final_json(const core::Game& game, const std::vector<AnalysisLine>& lines, const Totals& totals) {
    JsonOut out;
    out.begin_object().field("nodes", totals.nodes).field("seconds", totals.seconds);
    out.key("lines").begin_array();
    for (const AnalysisLine& l : lines) {
        write_line(out, game, l, totals);
    }
    out.end_array().end_object();
    return out.str();
}

}  // namespace

std::string analyse(engine::Engine& engine,
                    const core::Game& game,
                    const AnalysisRequest& req,
                    const InfoSink& on_info) {
    const engine::AnalysisResult r =
        engine::analyse_lines(engine,
                              game,
                              {.depth = req.depth, .seconds = req.seconds, .nodes = req.nodes},
                              req.lines,
                              [&](const AnalysisLine& line, std::uint64_t nodes, double seconds) {
                                  on_info(line_json(game, line, {nodes, seconds}));
                              });
    return final_json(game, r.lines, {r.nodes, r.seconds});
}

}  // namespace papan::wasm
