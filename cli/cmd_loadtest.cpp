// `papan loadtest --url ws://HOST:PORT/ws --games N --rate R --duration S [--variant V] [--json]`.
// Plays N concurrent hot-seat games of random legal moves against a running server, then checks
// every game against the store. Exit code 1 when a move was lost or duplicated, when no move was
// acknowledged, or when errors exceed --max-errors. With --json the last stdout line is the report.
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/loadtest/loadtest.hpp>

#include <iostream>
#include <memory>
#include <stdexcept>

namespace papan::cli {

namespace {

struct LoadtestCliOptions {
    loadtest::Options run;
    bool json = false;
};

}  // namespace

void register_loadtest_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<LoadtestCliOptions>();
    auto* cmd = app.add_subcommand(
        "loadtest", "Play concurrent games of random moves against a server; check the store");
    cmd->add_option("--url", opts->run.url, "WebSocket URL of the server (ws://HOST:PORT/ws)")
        ->required();
    cmd->add_option("--games,-n", opts->run.games, "Concurrent games (one connection each)")
        ->required();
    cmd->add_option("--rate", opts->run.rate, "New games started per second")->required();
    cmd->add_option("--duration", opts->run.duration, "Seconds of play")->required();
    cmd->add_option("--variant,-v", opts->run.variant, "Variant id (default international)");
    cmd->add_option("--seed", opts->run.seed, "Seed of the random choice of moves (default 1)");
    cmd->add_option("--think",
                    opts->run.think_ms,
                    "Milliseconds between an ack and the game's next move (default 0)");
    cmd->add_option("--max-games",
                    opts->run.max_games,
                    "Games created in all, finished ones replaced (default 10 x --games)");
    cmd->add_option("--max-errors", opts->run.max_errors, "Errors tolerated (default 0)");
    cmd->add_option(
        "--drain", opts->run.drain, "Seconds to wait for acks in flight at the end (default 10)");
    cmd->add_option("--threads", opts->run.threads, "Client I/O threads (default 1)");
    cmd->add_flag("--json", opts->json, "JSON report as the last line");
    cmd->callback([opts, &ctx] {
        std::string error;
        const auto v = lookup_variant(opts->run.variant, error);
        if (!v) {
            fail(ctx, error);
            return;
        }
        opts->run.variant = std::string(core::rules(*v).key);
        loadtest::Report report;
        try {
            report = loadtest::run(opts->run);
        } catch (const std::exception& e) {
            fail(ctx, std::string("loadtest: ") + e.what());
            return;
        }
        if (opts->json) {
            std::cout << report.to_json().dump() << '\n';
        } else {
            std::cout << report.to_text();
        }
        if (!report.ok) {
            ctx.exit_code = 1;
        }
    });
}

}  // namespace papan::cli
