// `papan puzzles`: the puzzle miner (docs/engine.md, "Puzzles").
//   papan puzzles mine --variant V [--seed S] [--target N] [--threads T] [--out FILE]
//       mines self-play games until N puzzles are kept; writes the set (one JSON line each) and
//       prints the miner's figures as one JSON object.
//   papan puzzles pdn FILE [--variant V] [--out FILE]
//       mines the games of a PDN file.
//   papan puzzles prove --variant V --fen F
//       proves one position: prints the puzzle's JSON line, or why it is not one (exit 1).
#include "commands.hpp"
#include "puzzle_serve_options.hpp"
#include "variant_option.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/puzzle_miner.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace papan::cli {

namespace {

struct PuzzleOptions {
    std::string variant;
    std::string fen;
    std::string out;
    std::string pdn;
    std::uint64_t seed = 1;
    std::size_t target = 300;
    std::size_t games  = 20000;
    double max_seconds = 0;
    int threads        = 1;
    bool quiet         = false;
    server::ProofSettings proof;
};

void add_proof_options(CLI::App* cmd, PuzzleOptions& o) {
    cmd->add_option("--depth", o.proof.depth, "The engine's proof depth (plies)")
        ->check(CLI::Range(2, 40));
    cmd->add_option("--filter-depth", o.proof.filter_depth, "The quick search's depth")
        ->check(CLI::Range(1, 30));
    cmd->add_option("--margin", o.proof.margin, "Key's score minus the next move's, at least")
        ->check(CLI::Range(1, 10000));
    cmd->add_option("--horizon", o.proof.max_horizon, "Plies of the material proof, at most")
        ->check(CLI::Range(1, 15));
}

nlohmann::ordered_json stats_json(const server::MineStats& s) {
    return {{"games", s.games},
            {"positions", s.positions},
            {"candidates", s.candidates},
            {"no_material_proof", s.no_material_proof},
            {"engine_disagrees", s.engine_disagrees},
            {"small_margin", s.small_margin},
            {"later_not_unique", s.later_not_unique},
            {"proven", s.proven},
            {"duplicates", s.duplicates},
            {"kept", s.kept},
            {"engine_nodes", s.engine_nodes},
            {"material_nodes", s.material_nodes}};
}

bool write_file(CommandContext& ctx, const std::string& path, const std::string& text) {
    if (path.empty() || path == "-") {
        std::cout << text;
        return true;
    }
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f) {
        fail(ctx, "cannot write " + path);
        return false;
    }
    return true;
}

void run_mine(CommandContext& ctx, const PuzzleOptions& o) {
    const auto v = lookup_variant(ctx, o.variant);
    if (!v) {
        return;
    }
    server::MineOptions mo;
    mo.variant     = *v;
    mo.seed        = o.seed;
    mo.target      = o.target;
    mo.max_games   = o.games;
    mo.max_seconds = o.max_seconds;
    mo.threads     = o.threads;
    mo.proof       = o.proof;
    if (!o.quiet) {
        mo.log = [](const std::string& line) { std::cerr << line << '\n'; };
    }
    const auto r = server::mine_selfplay(mo);
    if (!write_file(ctx, o.out, server::write_puzzle_set(r.puzzles))) {
        return;
    }
    auto j              = stats_json(r.stats);
    j["variant"]        = core::rules(*v).key;
    j["seed"]           = o.seed;
    j["depth"]          = o.proof.depth;
    j["margin"]         = o.proof.margin;
    j["horizon"]        = o.proof.max_horizon;
    j["thread_seconds"] = std::llround(r.stats.seconds);
    j["wall_seconds"]   = std::llround(r.wall_seconds);
    if (r.out_of_time) {
        j["out_of_time"] = true;
    }
    (o.out.empty() || o.out == "-" ? std::cerr : std::cout) << j.dump() << '\n';
    if (r.out_of_time) {
        std::cerr << "papan: out of time after " << r.stats.games << " games: kept "
                  << r.puzzles.size() << " of " << o.target << " (the same set again: --games "
                  << r.stats.games << ")\n";
        return;
    }
    if (r.puzzles.size() < o.target) {
        fail(ctx,
             "kept " + std::to_string(r.puzzles.size()) + " puzzles, fewer than " +
                 std::to_string(o.target) + " (raise --games)");
    }
}

void run_pdn(CommandContext& ctx, const PuzzleOptions& o) {
    std::ifstream f(o.pdn, std::ios::binary);
    if (!f) {
        fail(ctx, "cannot read " + o.pdn);
        return;
    }
    std::stringstream buf;
    buf << f.rdbuf();
    core::PdnReadOptions ro;
    ro.detect_variant = o.variant.empty();
    if (!o.variant.empty()) {
        const auto v = lookup_variant(ctx, o.variant);
        if (!v) {
            return;
        }
        ro.default_variant = *v;
    }
    const auto doc = core::read_pdn_document(buf.str(), ro);
    server::Prover prover(o.proof);
    std::vector<server::Puzzle> out;
    std::set<std::string> ids;
    for (const auto& e : doc.entries) {
        if (!e.ok()) {
            std::cerr << "papan: skipped: " << e.error << '\n';
            continue;
        }
        const auto& g = e.game;
        auto game     = core::Game::create(g.start);
        if (!game) {
            continue;
        }
        for (const auto& m : g.moves) {
            if (!game.value().play(m)) {
                break;
            }
        }
        for (auto& p : prover.mine_game(*game, "pdn:" + std::to_string(e.number), 0)) {
            if (ids.insert(p.id).second) {
                out.push_back(std::move(p));
            }
        }
    }
    if (!write_file(ctx, o.out, server::write_puzzle_set(out))) {
        return;
    }
    auto stats = prover.stats();
    stats.kept = out.size();
    (o.out.empty() || o.out == "-" ? std::cerr : std::cout) << stats_json(stats).dump() << '\n';
}

// Recomputes the themes and the first rating estimate of each puzzle of the files (both follow
// from the line and the proof alone): what the miner of this version writes.
void run_retheme(CommandContext& ctx, const std::vector<std::string>& files) {
    for (const auto& path : files) {
        std::ifstream f(path, std::ios::binary);
        std::stringstream buf;
        buf << f.rdbuf();
        auto set = server::read_puzzle_set(buf.str());
        if (!f || !set) {
            fail(ctx, path + ": " + (set ? std::string("cannot read") : set.error()));
            return;
        }
        for (auto& p : set.value()) {
            const auto line = server::puzzle_line(p);
            const auto pos  = core::parse_fen(p.variant, p.fen);
            if (!line || !pos) {
                fail(ctx, path + ": " + p.id + ": " + (line ? pos.error() : line.error()));
                return;
            }
            p.themes = server::puzzle_themes(*pos, *line, p.proof.horizon, p.proof.proven);
            p.rating = server::puzzle_start_rating(p);
        }
        if (!write_file(ctx, path, server::write_puzzle_set(set.value()))) {
            return;
        }
    }
}

void run_prove(CommandContext& ctx, const PuzzleOptions& o) {
    const auto v = lookup_variant(ctx, o.variant);
    if (!v) {
        return;
    }
    const auto pos = parse_position(ctx, *v, o.fen);
    if (!pos) {
        return;
    }
    server::Prover prover(o.proof);
    const auto p = prover.prove(*pos, "fen");
    if (!p) {
        std::cout << stats_json(prover.stats()).dump() << '\n';
        fail(ctx, "not a puzzle");
        return;
    }
    std::cout << server::puzzle_to_json(*p) << '\n';
}

}  // namespace

void add_puzzle_serve_options(CLI::App* serve, server::PuzzleOptions& o) {
    serve->add_option("--puzzles",
                      o.set_dir,
                      "directory of the puzzle set (default: ./puzzles, else next to papan)");
    serve->add_flag("!--no-puzzle-mining",
                    o.mine,
                    "do not mine the finished games for puzzles in the background");
    serve
        ->add_option("--puzzle-rate",
                     o.requests_per_minute,
                     "puzzle requests per remote address per minute (0: no cap)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    serve
        ->add_option("--puzzle-attempts-rate",
                     o.attempts_per_minute,
                     "puzzle attempts per remote address per minute (0: no cap)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    serve
        ->add_option("--puzzle-mining-idle-ms",
                     o.mine_idle_ms,
                     "the miner's pause once every finished game is read")
        ->check(CLI::PositiveNumber)
        ->group("");
}

void register_puzzles_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<PuzzleOptions>();
    auto* cmd = app.add_subcommand("puzzles", "Find and prove puzzles with the engine");
    cmd->require_subcommand(1);

    auto* mine = cmd->add_subcommand("mine", "Mine self-play games until a target is kept");
    mine->add_option("--variant,-v", opts->variant, "Variant id")->required();
    mine->add_option("--seed", opts->seed, "Seed of the self-play games");
    mine->add_option("--target", opts->target, "Puzzles to keep")->check(CLI::Range(1, 100000));
    mine->add_option("--games", opts->games, "Games to read at most");
    mine->add_option("--max-seconds",
                     opts->max_seconds,
                     "Start no game after this many seconds (the set is then that of the games "
                     "read: rerun with --games to reproduce it)")
        ->check(CLI::NonNegativeNumber);
    mine->add_option("--threads", opts->threads, "Threads")->check(CLI::Range(1, 64));
    mine->add_option("--out,-o", opts->out, "Set file to write (default: stdout)");
    mine->add_flag("--quiet,-q", opts->quiet, "No progress lines");
    add_proof_options(mine, *opts);
    mine->callback([&ctx, opts] { run_mine(ctx, *opts); });

    auto* pdn = cmd->add_subcommand("pdn", "Mine the games of a PDN file");
    pdn->add_option("file", opts->pdn, "PDN file")->required();
    pdn->add_option("--variant,-v", opts->variant, "Variant of games without a GameType");
    pdn->add_option("--out,-o", opts->out, "Set file to write (default: stdout)");
    add_proof_options(pdn, *opts);
    pdn->callback([&ctx, opts] { run_pdn(ctx, *opts); });

    auto files    = std::make_shared<std::vector<std::string>>();
    auto* retheme = cmd->add_subcommand("retheme", "Recompute the themes of set files");
    retheme->add_option("files", *files, "Set files")->required();
    retheme->group("");
    retheme->callback([&ctx, files] { run_retheme(ctx, *files); });

    auto* prove = cmd->add_subcommand("prove", "Prove one position");
    prove->add_option("--variant,-v", opts->variant, "Variant id")->required();
    prove->add_option("--fen", opts->fen, "Position")->required();
    add_proof_options(prove, *opts);
    prove->callback([&ctx, opts] { run_prove(ctx, *opts); });
}

}  // namespace papan::cli
