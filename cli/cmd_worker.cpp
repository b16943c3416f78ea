// papan worker: engine workers for the computer players of the nodes on one Redis bus
// (docs/operations.md, "Engine workers").
#include "commands.hpp"

#include <papan/server/worker.hpp>

#include <memory>

namespace papan::cli {

void register_worker_command(CLI::App& app, CommandContext& ctx) {
    auto opts  = std::make_shared<server::WorkerOptions>();
    auto claim = std::make_shared<double>(2.0);
    auto* cmd  = app.add_subcommand(
        "worker", "Think for the computer players of the nodes on a Redis bus (papan serve --bus)");
    cmd->add_option("--bus", opts->bus, "redis://[USER:PASSWORD@]HOST[:PORT][/DB] of the nodes")
        ->required();
    cmd->add_option("--threads", opts->threads, "searches at once (default: one per core)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--cluster-secret",
                    opts->cluster_secret,
                    "the nodes' shared secret for the bus (default: env PAPAN_CLUSTER_SECRET)");
    cmd->add_option(
           "--egdb", opts->egdb_dir, "endgame database directory (played without if absent)")
        ->capture_default_str();
    cmd->add_option("--name", opts->name, "this worker's name on the bus (default: host-pid)");
    cmd->add_option("--claim-idle",
                    *claim,
                    "seconds a job may sit with a silent worker before another takes it over")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_option("--hash", opts->hash_mb, "MB of transposition table per thread")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    cmd->callback([&ctx, opts, claim] {
        opts->claim_idle_ms = static_cast<std::int64_t>(*claim * 1000);
        try {
            ctx.exit_code = server::run_worker(*opts);
        } catch (const std::exception& e) {
            fail(ctx, std::string("worker: ") + e.what());
        }
    });
}

}  // namespace papan::cli
