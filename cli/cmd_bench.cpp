// `papan bench [--depth D] [--positions DIR] [--variant V] [--weights FILE] [--json]`: the bench
// signature (Stockfish's habit). Searches every position of bench/positions/<variant>.fen to a
// fixed depth, one thread, a fresh engine per position with a fixed table size, and prints the
// nodes per variant and the total. The total ("Bench: N") is the same on every run of the same
// binary and changes whenever the search or the evaluation changes behaviour; nodes/s is the speed
// figure.
#include "commands.hpp"
#include "variant_option.hpp"
#include "weights_option.hpp"

#include <papan/core/game.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/engine/engine.hpp>

#include <chrono>
#include <fstream>
#include <iostream>

#ifndef PAPAN_BENCH_POSITIONS_DIR
#define PAPAN_BENCH_POSITIONS_DIR "bench/positions"
#endif

namespace papan::cli {

namespace {

constexpr int kDefaultDepth        = 13;
constexpr std::size_t kBenchHashMb = 16;

struct BenchOptions {
    int depth                 = kDefaultDepth;
    std::string positions_dir = PAPAN_BENCH_POSITIONS_DIR;
    std::string variant;  // empty = all
    bool json = false;
    std::string weights;  // a weight file for its variant (the others keep their defaults)
};

}  // namespace

void register_bench_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<BenchOptions>();
    auto* cmd = app.add_subcommand("bench", "Fixed-depth search over the bench positions");
    cmd->add_option("--depth,-d", opts->depth, "Search depth in plies")->check(CLI::Range(1, 40));
    cmd->add_option("--positions", opts->positions_dir, "Folder of <variant>.fen files");
    cmd->add_option("--variant,-v", opts->variant, "Only this variant");
    cmd->add_flag("--json", opts->json, "JSON summary as the last line");
    cmd->add_option("--weights", opts->weights, "Evaluation weight file for its variant");
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
        std::uint64_t total                = 0;
        double total_seconds               = 0;
        nlohmann::ordered_json per_variant = nlohmann::ordered_json::object();
        for (const core::VariantId v : variants) {
            const std::string key(core::rules(v).key);
            const std::string path = opts->positions_dir + "/" + key + ".fen";
            std::ifstream in(path);
            if (!in) {
                fail(ctx, "bench: cannot read " + path);
                return;
            }
            std::uint64_t nodes = 0;
            double seconds      = 0;
            int count           = 0;
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
                    return;
                }
                const core::Game game(*pos);
                if (game.is_over()) {
                    fail(ctx, path + ":" + std::to_string(line_no) + ": the game is over");
                    return;
                }
                engine::Engine eng(engine::EngineOptions{
                    .hash_mb = kBenchHashMb, .seed = 0, .weights = *weights, .egdb_dir = {}});
                engine::SearchLimits limits;
                limits.depth     = opts->depth;
                const auto start = std::chrono::steady_clock::now();
                const auto r     = eng.search(game, limits, engine::Level::Max);
                seconds +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                nodes += r.nodes;
                ++count;
            }
            const auto nps =
                seconds > 0 ? static_cast<std::uint64_t>(static_cast<double>(nodes) / seconds) : 0;
            if (!opts->json) {
                std::cout << key << ": positions " << count << "  Nodes searched: " << nodes
                          << "  nodes/s: " << nps << '\n'
                          << std::flush;
            }
            per_variant[key] = {{"positions", count}, {"nodes", nodes}, {"nps", nps}};
            total += nodes;
            total_seconds += seconds;
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
                                                {"seconds", total_seconds}}
                             .dump()
                      << '\n';
            return;
        }
        std::cout << "===========================\n"
                  << "Total time (s): " << total_seconds << '\n'
                  << "Nodes/second  : " << nps << '\n'
                  << "Bench: " << total << '\n';
    });
}

}  // namespace papan::cli
