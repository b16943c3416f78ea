// `papan bench [--depth D] [--positions DIR] [--variant V] [--weights FILE] [--json]
// [--time-to-depth] [--threads N]`: the bench signature (Stockfish's habit). Searches every
// position of <positions>/<variant>.fen to a fixed depth, one thread, a fresh engine per position
// with a fixed table size, and prints the nodes per variant and the total. The total ("Bench: N")
// is the same on every run of the same binary and changes whenever the search or the evaluation
// changes behaviour; bench/signature records it and a test compares. nodes/s is the speed figure:
// the searches' time only (not the engines' set-up, nor the one-time unpacking of the weights).
//
// --threads N (default 1) searches with N threads (Lazy SMP), for speed figures only: the node
// counts of more than one thread vary from run to run, so that total is not the signature.
//
// --time-to-depth instead searches each position for up to --max-time seconds and prints, per
// variant, the mean time at which each depth was completed (over the positions that reached it).
//
// The positions are found next to the program (<dir of papan>/bench/positions, copied there by
// the build) unless --positions names a folder.
#include "commands.hpp"
#include "variant_option.hpp"
#include "weights_option.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/engine.hpp>
#include <papan/engine/weights.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace papan::cli {

namespace {

constexpr int kDefaultDepth        = 10;
constexpr std::size_t kBenchHashMb = 16;

// A fresh engine per position, the same for the signature and time to depth: a fixed table, no
// randomness, no endgame tables (they would make the signature depend on the machine's files).
engine::EngineOptions bench_options(const std::shared_ptr<const engine::EvalWeights>& weights,
                                    int threads) {
    return engine::EngineOptions{
        .hash_mb = kBenchHashMb, .seed = 0, .weights = weights, .egdb_dir = {}, .threads = threads};
}

struct BenchOptions {
    int depth = kDefaultDepth;
    std::string positions_dir;  // empty = next to the program
    std::string variant;        // empty = all
    bool json          = false;
    bool time_to_depth = false;
    double max_time    = 2.0;
    int threads        = 1;
    std::string weights;      // a weight file for its variant (the others keep their defaults)
    std::uint64_t nodes = 0;  // > 0: search each position to this many nodes instead of a depth
};

std::string default_positions_dir() {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ((ec ? std::filesystem::path(".") : self.parent_path()) / "bench" / "positions")
        .string();
}

// The games of a variant's bench file; false (with the error reported) when unreadable.
bool load_positions(CommandContext& ctx,
                    const std::string& dir,
                    core::VariantId v,
                    std::vector<core::Game>& out) {
    const std::string path = dir + "/" + std::string(core::rules(v).key) + ".fen";
    std::ifstream in(path);
    if (!in) {
        fail(ctx, "bench: cannot read " + path + " (--positions DIR)");
        return false;
    }
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        if (line.empty() || line.front() == '#') {
            continue;
        }
        const auto pos = core::parse_fen(v, line);
        if (!pos) {
            fail(ctx, path + ":" + std::to_string(line_no) + ": " + pos.error());
            return false;
        }
        core::Game game(*pos);
        if (game.is_over()) {
            fail(ctx, path + ":" + std::to_string(line_no) + ": the game is over");
            return false;
        }
        out.push_back(std::move(game));
    }
    return true;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void print_time_to_depth(const std::string& key,
                         const std::vector<core::Game>& games,
                         double max_time,
                         const std::shared_ptr<const engine::EvalWeights>& weights,
                         int threads) {
    std::map<int, std::pair<double, int>> at;  // depth -> (sum of seconds, positions)
    for (const core::Game& g : games) {
        engine::Engine eng(bench_options(weights, threads));
        engine::SearchLimits limits;
        limits.move_time = max_time;
        (void)eng.search(g, limits, engine::Level::Max, [&](const engine::SearchInfo& info) {
            auto& slot = at[info.depth];
            slot.first += info.seconds;
            slot.second += 1;
        });
    }
    std::cout << key << ": time to depth (mean s over " << games.size() << " positions, "
              << max_time << " s each at most):";
    for (const auto& [depth, slot] : at) {
        if (slot.second == static_cast<int>(games.size()) || depth % 2 == 0) {
            char buf[64];
            std::snprintf(buf, sizeof buf, " d%d %.3f", depth, slot.first / slot.second);
            std::cout << buf;
            if (slot.second < static_cast<int>(games.size())) {
                std::cout << " (" << slot.second << ")";
            }
        }
    }
    std::cout << '\n' << std::flush;
}

}  // namespace

void register_bench_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<BenchOptions>();
    auto* cmd = app.add_subcommand("bench", "Fixed-depth search over the bench positions");
    cmd->add_option("--depth,-d", opts->depth, "Search depth in plies (default 10)")
        ->check(CLI::Range(1, 40));
    cmd->add_option("--positions", opts->positions_dir, "Folder of <variant>.fen files");
    cmd->add_option("--variant,-v", opts->variant, "Only this variant");
    cmd->add_flag("--json", opts->json, "JSON summary as the last line");
    cmd->add_option("--weights", opts->weights, "Evaluation weight file for its variant");
    cmd->add_flag("--time-to-depth", opts->time_to_depth, "Mean time to complete each depth");
    cmd->add_option("--max-time", opts->max_time, "Seconds per position for --time-to-depth")
        ->check(CLI::Range(0.01, 3600.0));
    cmd->add_option("--nodes",
                    opts->nodes,
                    "Search each position to this many nodes instead of a depth, and report the "
                    "mean depth completed (not the signature)");
    cmd->add_option("--threads", opts->threads, "Search threads (default 1; speed figures only)")
        ->check(CLI::Range(1, engine::kMaxThreads));
    cmd->callback([opts, &ctx] {
        std::vector<core::VariantId> variants;
        if (opts->variant.empty()) {
            for (const core::RuleSet& r : core::all_variants()) {
                variants.push_back(r.id);
            }
        } else {
            const auto v = lookup_variant(ctx, opts->variant);
            if (!v) {
                return;
            }
            variants.push_back(*v);
        }
        std::optional<core::VariantId> only;
        if (!opts->variant.empty()) {
            only = variants.front();
        }
        const auto weights = load_weights_option(ctx, opts->weights, only);
        if (!weights) {
            return;
        }
        // The built-in weight sets are unpacked into the search's form on first use, once per
        // process (all ten at once): before the clock, so that nodes/s is the search's speed.
        (void)engine::EvalWeights::builtin(variants.front());
        const std::string dir =
            opts->positions_dir.empty() ? default_positions_dir() : opts->positions_dir;
        std::uint64_t total  = 0;
        double total_seconds = 0;
        engine::SearchStats all_stats;
        int all_depths                     = 0;
        std::size_t all_positions          = 0;
        nlohmann::ordered_json per_variant = nlohmann::ordered_json::object();
        for (const core::VariantId v : variants) {
            const std::string key(core::rules(v).key);
            std::vector<core::Game> games;
            if (!load_positions(ctx, dir, v, games)) {
                return;
            }
            if (opts->time_to_depth) {
                print_time_to_depth(key, games, opts->max_time, *weights, opts->threads);
                continue;
            }
            std::uint64_t nodes = 0;
            double seconds      = 0;
            int depths          = 0;
            engine::SearchStats stats;
            for (const core::Game& game : games) {
                engine::Engine eng(bench_options(*weights, opts->threads));
                engine::SearchLimits limits;
                limits.depth     = opts->nodes > 0 ? 0 : opts->depth;
                limits.nodes     = opts->nodes;
                const auto start = std::chrono::steady_clock::now();
                const auto r     = eng.search(game, limits, engine::Level::Max);
                seconds += seconds_since(start);
                nodes += r.nodes;
                depths += r.depth;
                stats.cut_nodes += r.stats.cut_nodes;
                stats.first_move_cut_nodes += r.stats.first_move_cut_nodes;
            }
            const auto nps =
                seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(nodes) / seconds) : 0;
            const double first_cuts = stats.cut_nodes > 0
                                          ? static_cast<double>(stats.first_move_cut_nodes) /
                                                static_cast<double>(stats.cut_nodes)
                                          : 0.0;
            const double mean_depth = static_cast<double>(depths) /
                                      static_cast<double>(std::max<std::size_t>(1, games.size()));
            if (!opts->json) {
                char buf[160];
                std::snprintf(buf,
                              sizeof buf,
                              "  first-move cut-offs %.1f%%  mean depth %.2f",
                              100.0 * first_cuts,
                              mean_depth);
                std::cout << key << ": positions " << games.size() << "  Nodes searched: " << nodes
                          << "  nodes/s: " << nps << buf << '\n'
                          << std::flush;
            }
            per_variant[key] = {{"positions", games.size()},
                                {"nodes", nodes},
                                {"nps", nps},
                                {"first_move_cutoffs", first_cuts},
                                {"mean_depth", mean_depth}};
            total += nodes;
            total_seconds += seconds;
            all_stats.cut_nodes += stats.cut_nodes;
            all_stats.first_move_cut_nodes += stats.first_move_cut_nodes;
            all_depths += depths;
            all_positions += games.size();
        }
        if (opts->time_to_depth) {
            return;
        }
        const auto nps =
            total_seconds > 0
                ? static_cast<std::uint64_t>(static_cast<double>(total) / total_seconds)
                : 0;
        if (opts->json) {
            std::cout << nlohmann::ordered_json{{"depth", opts->depth},
                                                {"variants", per_variant},
                                                {"bench", total},
                                                {"nps", nps},
                                                {"seconds", total_seconds},
                                                {"threads", opts->threads}}
                             .dump()
                      << '\n';
            return;
        }
        char cuts[128];
        std::snprintf(cuts,
                      sizeof cuts,
                      "%.1f%% of %llu cut nodes",
                      all_stats.cut_nodes > 0
                          ? 100.0 * static_cast<double>(all_stats.first_move_cut_nodes) /
                                static_cast<double>(all_stats.cut_nodes)
                          : 0.0,
                      static_cast<unsigned long long>(all_stats.cut_nodes));
        std::cout << "===========================\n"
                  << "Total time (s): " << total_seconds << '\n'
                  << "Nodes/second  : " << nps << '\n'
                  << "First-move cut-offs: " << cuts << '\n'
                  << "Mean depth    : "
                  << static_cast<double>(all_depths) /
                         static_cast<double>(std::max<std::size_t>(1, all_positions))
                  << '\n'
                  << "Bench: " << total
                  << (opts->nodes > 0 ? " (a node limit: not the signature)" : std::string())
                  << (opts->threads > 1
                          ? " (" + std::to_string(opts->threads) + " threads: not the signature)"
                          : std::string())
                  << '\n';
    });
}

}  // namespace papan::cli
