// `papan hub [--hash MB] [--seed N] [--threads N] [--weights FILE] [--egdb DIR]`: the Hub protocol
// v2 (as Scan speaks it) on stdin/stdout. stdout carries protocol lines only (flushed one by one);
// diagnostics go to stderr.
#include "commands.hpp"
#include "weights_option.hpp"

#include <papan/engine/egdb.hpp>
#include <papan/engine/hub.hpp>

#include <iostream>

namespace papan::cli {

namespace {

struct HubOptions {
    std::size_t hash_mb = 32;
    std::uint64_t seed  = 0;
    int threads         = 1;
    std::string weights;
    std::string egdb = "./data/egdb";
};

}  // namespace

void register_hub_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<HubOptions>();
    auto* cmd = app.add_subcommand(
        "hub", "Speak the Hub protocol v2 (Scan's engine protocol) on stdin/stdout");
    cmd->add_option("--hash", opts->hash_mb, "Transposition table size in MB (default 32)")
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--seed", opts->seed, "Seed of the weaker levels' randomness");
    cmd->add_option("--threads", opts->threads, "Search threads at level max (default 1)")
        ->check(CLI::Range(1, engine::kMaxThreads));
    cmd->add_option("--weights",
                    opts->weights,
                    "Evaluation weight file (used in games of its variant; default: built-in)");
    cmd->add_option("--egdb", opts->egdb, "Endgame database directory (played without if absent)")
        ->capture_default_str();
    cmd->callback([opts, &ctx] {
        const auto weights = load_weights_option(ctx, opts->weights);
        if (!weights) {
            return;
        }
        std::ios::sync_with_stdio(false);
        std::cin.tie(nullptr);
        engine::EngineOptions options;
        options.hash_mb = opts->hash_mb;
        options.seed    = opts->seed;
        options.threads = opts->threads;
        options.weights = *weights;
        // Diagnostics go to stderr: stdout is the protocol.
        engine::egdb::OpenReport report;
        (void)engine::egdb::shared_database(opts->egdb, &report);
        std::cerr << "papan hub: " << report.summary << std::endl;
        for (const auto& p : report.problems) {
            std::cerr << "papan hub: " << p << std::endl;
        }
        options.egdb_dir = opts->egdb;
        engine::HubSession session(std::cin, std::cout, options);
        ctx.exit_code = session.run();
    });
}

}  // namespace papan::cli
