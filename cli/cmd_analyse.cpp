// `papan analyse --variant V [--fen F] (--depth D | --time S | --nodes N) [--level L] [--json]
// [--weights FILE] [--threads N] [--lines K]`:
// searches one position and prints an info line per completed depth, then the best move, the
// score (hundredths of a man, side to move's view) and the principal variation in the variant's
// notation. With --json, one JSON object (the iterations and the result) instead. With --lines K
// (2..3, level max) the K best lines (engine::analyse_lines, as the browser's analysis board):
// an info line per line and depth, then each line's final score, depth and moves. A single legal
// move is searched too (a game would play it at once).
#include "commands.hpp"
#include "variant_option.hpp"
#include "weights_option.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/engine/analysis.hpp>
#include <papan/engine/engine.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>

namespace papan::cli {

namespace {

struct AnalyseOptions {
    std::string variant;
    std::string fen;
    int depth           = 0;
    double time         = 0;
    std::uint64_t nodes = 0;
    std::string level   = "max";
    std::uint64_t seed  = 0;
    std::size_t hash_mb = 64;
    int threads         = 1;
    std::string egdb_dir;
    bool json             = false;
    bool optional_capture = false;
    int lines             = 1;
    std::string weights;
};

// The moves of a line in the variant's notation, each in the position it is played from.
std::vector<std::string> line_text(core::Position pos, const std::vector<core::Move>& line) {
    std::vector<std::string> out;
    for (const core::Move& m : line) {
        out.push_back(core::move_text(pos, m));
        pos = core::make_move(pos, m);
    }
    return out;
}

std::string join(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) {
        s += (s.empty() ? "" : " ") + w;
    }
    return s;
}

std::string score_text(int score) {
    if (score >= engine::kMateBound) {
        return "win in " + std::to_string(engine::kMateScore - score) + " plies";
    }
    if (score <= -engine::kMateBound) {
        return "loss in " + std::to_string(engine::kMateScore + score) + " plies";
    }
    std::ostringstream o;
    o << std::showpos << std::fixed << std::setprecision(2) << score / 100.0;
    return o.str();
}

// --lines K: the K best lines, each reported per depth.
void print_lines(engine::Engine& eng,
                 const core::Game& game,
                 const std::string& key,
                 const std::string& fen,
                 const AnalyseOptions& opts) {
    const core::Position& pos       = game.position();
    nlohmann::ordered_json progress = nlohmann::ordered_json::array();
    const auto on_line = [&](const engine::AnalysisLine& l, std::uint64_t nodes, double seconds) {
        const auto pv = line_text(pos, l.pv);
        if (opts.json) {
            progress.push_back({{"multipv", l.rank},
                                {"depth", l.depth},
                                {"seldepth", l.seldepth},
                                {"score", l.score},
                                {"nodes", nodes},
                                {"seconds", seconds},
                                {"pv", pv}});
            return;
        }
        std::cout << "info multipv " << l.rank << " depth " << l.depth << " seldepth " << l.seldepth
                  << " score " << l.score << " nodes " << nodes << " time " << std::fixed
                  << std::setprecision(3) << seconds << std::defaultfloat << " pv " << join(pv)
                  << '\n'
                  << std::flush;
    };
    const engine::AnalysisResult r =
        engine::analyse_lines(eng,
                              game,
                              {.depth = opts.depth, .seconds = opts.time, .nodes = opts.nodes},
                              opts.lines,
                              on_line);
    if (opts.json) {
        nlohmann::ordered_json lines = nlohmann::ordered_json::array();
        for (const engine::AnalysisLine& l : r.lines) {
            lines.push_back({{"multipv", l.rank},
                             {"best", move_json(pos, l.pv.front(), game.legal_moves())},
                             {"score", l.score},
                             {"depth", l.depth},
                             {"pv", line_text(pos, l.pv)}});
        }
        nlohmann::ordered_json out = {{"variant", key},
                                      {"fen", fen},
                                      {"level", "max"},
                                      {"nodes", r.nodes},
                                      {"seconds", r.seconds},
                                      {"lines", lines},
                                      {"iterations", progress}};
        std::cout << out.dump() << '\n';
        return;
    }
    for (const engine::AnalysisLine& l : r.lines) {
        std::cout << "line " << l.rank << " score " << l.score << " (" << score_text(l.score)
                  << ") depth " << l.depth << " pv " << join(line_text(pos, l.pv)) << '\n';
    }
}

}  // namespace

void register_analyse_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<AnalyseOptions>();
    auto* cmd = app.add_subcommand("analyse", "Search a position and print the best line");
    cmd->alias("analyze");
    cmd->add_option("--variant,-v", opts->variant, "Variant id")->required();
    cmd->add_option("--fen", opts->fen, "Position (default: the start position)");
    auto* depth =
        cmd->add_option("--depth,-d", opts->depth, "Depth in plies")->check(CLI::Range(1, 100));
    auto* time = cmd->add_option("--time,-t", opts->time, "Seconds to think")
                     ->check(CLI::Range(0.001, 86400.0));
    auto* nodes = cmd->add_option("--nodes,-n", opts->nodes, "Node budget");
    cmd->add_option("--level", opts->level, "easy, normal, hard or max (default max)");
    cmd->add_option("--seed", opts->seed, "Seed of the weaker levels' choices");
    cmd->add_option("--hash", opts->hash_mb, "Transposition table in MB")
        ->check(CLI::Range(1, 65536));
    cmd->add_option("--egdb", opts->egdb_dir, "Endgame database directory (default: none)");
    cmd->add_option("--threads", opts->threads, "Search threads at level max (default 1)")
        ->check(CLI::Range(1, engine::kMaxThreads));
    cmd->add_flag("--json", opts->json, "One JSON object instead of text");
    cmd->add_option("--lines", opts->lines, "Principal variations (1..3, level max; default 1)")
        ->check(CLI::Range(1, engine::kMaxAnalysisLines));
    cmd->add_option("--weights", opts->weights, "Evaluation weight file (default: built-in)");
    cmd->add_flag("--no-forced-capture",
                  opts->optional_capture,
                  "House rule: captures are optional (8x8 diagonal variants)");
    (void)depth;
    (void)time;
    (void)nodes;
    cmd->callback([opts, &ctx] {
        const auto v = lookup_variant(ctx, opts->variant);
        if (!v) {
            return;
        }
        if (opts->depth == 0 && opts->time <= 0 && opts->nodes == 0) {
            fail(ctx, "analyse: give --depth, --time or --nodes");
            return;
        }
        const auto level = engine::level_from_string(opts->level);
        if (!level) {
            fail(ctx, "unknown level '" + opts->level + "' (known: easy, normal, hard, max)");
            return;
        }
        const std::string key(core::rules(*v).key);
        if (opts->optional_capture && !core::rules(*v).optional_capture_house_rule) {
            fail(ctx, "--no-forced-capture is only for 8x8 diagonal variants, not " + key);
            return;
        }
        const std::string fen = fen_or_start(*v, opts->fen);
        const auto pos        = parse_position(ctx, *v, fen);
        if (!pos) {
            return;
        }
        core::GameOptions game_options;
        game_options.forced_capture = !opts->optional_capture;
        auto game                   = core::Game::create(*pos, game_options);
        if (!game) {
            fail(ctx, game.error());
            return;
        }
        if (game->is_over()) {
            fail(ctx, "the game is over in this position: " + game->result_text());
            return;
        }

        const auto weights = load_weights_option(ctx, opts->weights, *v);
        if (!weights) {
            return;
        }
        engine::Engine eng(engine::EngineOptions{.hash_mb  = opts->hash_mb,
                                                 .seed     = opts->seed,
                                                 .weights  = *weights,
                                                 .egdb_dir = opts->egdb_dir,
                                                 .threads  = opts->threads});
        if (opts->lines > 1) {
            if (*level != engine::Level::Max) {
                fail(ctx, "analyse: --lines needs level max");
                return;
            }
            print_lines(eng, *game, key, fen, *opts);
            return;
        }
        engine::SearchLimits limits;
        limits.depth         = opts->depth;
        limits.move_time     = opts->time;
        limits.nodes         = opts->nodes;
        limits.search_forced = true;

        nlohmann::ordered_json iterations = nlohmann::ordered_json::array();
        const auto on_info                = [&](const engine::SearchInfo& info) {
            const auto pv = line_text(*pos, info.pv);
            const auto nps =
                info.seconds > 0
                                   ? static_cast<std::uint64_t>(static_cast<double>(info.nodes) / info.seconds)
                                   : 0;
            if (opts->json) {
                iterations.push_back({{"depth", info.depth},
                                      {"seldepth", info.seldepth},
                                      {"score", info.score},
                                      {"nodes", info.nodes},
                                      {"seconds", info.seconds},
                                      {"pv", pv}});
                return;
            }
            std::cout << "info depth " << info.depth << " seldepth " << info.seldepth << " score "
                      << info.score << " nodes " << info.nodes << " nps " << nps << " time "
                      << std::fixed << std::setprecision(3) << info.seconds << std::defaultfloat
                      << " pv " << join(pv) << '\n'
                      << std::flush;
        };
        const engine::SearchResult r = eng.search(*game, limits, *level, on_info);
        if (!r.best) {
            fail(ctx, "analyse: no move found");
            return;
        }
        const auto pv = line_text(*pos, r.pv);
        if (opts->json) {
            nlohmann::ordered_json out = {
                {"variant", key},
                {"fen", fen},
                {"level", std::string(engine::level_name(*level))},
                {"best", move_json(*pos, *r.best, game->legal_moves())},
                {"score", r.score},
                {"depth", r.depth},
                {"nodes", r.nodes},
                {"seconds", r.seconds},
                {"pv", pv},
                {"iterations", iterations},
            };
            std::cout << out.dump() << '\n';
            return;
        }
        std::cout << "bestmove " << core::move_text(*pos, *r.best, game->legal_moves()) << " score "
                  << r.score << " (" << score_text(r.score) << ") depth " << r.depth << " nodes "
                  << r.nodes << '\n'
                  << "pv " << join(pv) << '\n';
    });
}

}  // namespace papan::cli
