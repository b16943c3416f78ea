// `papan loadtest --url ws://HOST:PORT/ws --games N --rate R --duration S [--mode hotseat|friend]
// [--reconnect] [--json]`. Plays N concurrent games of random legal moves against one or more
// running servers (nodes), then checks every game against the store. Exit code 1 when a move was
// lost or duplicated, when no move was acknowledged, when errors exceed --max-errors, or (with
// --reconnect) when a game interrupted by a drop did not continue. With --json the last stdout
// line is the report. SIGINT/SIGTERM end the play early (drain, check, report as usual).
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/rules/registry.hpp>
#include <papan/loadtest/loadtest.hpp>

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace papan::cli {

namespace {

struct LoadtestCliOptions {
    loadtest::Options run;
    std::vector<std::string> urls;
    std::string mode = "hotseat";
    bool json        = false;
};

}  // namespace

void register_loadtest_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<LoadtestCliOptions>();
    auto* cmd = app.add_subcommand(
        "loadtest", "Play concurrent games of random moves against a server; check the store");
    cmd->add_option("--url",
                    opts->urls,
                    "WebSocket URL of a server node (ws://HOST:PORT/ws); repeat it or separate "
                    "URLs by commas for several nodes")
        ->required()
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--games,-n", opts->run.games, "Concurrent games")->required();
    cmd->add_option("--rate", opts->run.rate, "New games started per second")->required();
    cmd->add_option("--duration", opts->run.duration, "Seconds of play")->required();
    cmd->add_option("--mode",
                    opts->mode,
                    "hotseat (one connection per game, default) or friend (two players on two "
                    "connections, round robin over the URLs)")
        ->check(CLI::IsMember({"hotseat", "friend"}));
    cmd->add_flag("--reconnect",
                  opts->run.reconnect,
                  "Reconnect dropped connections (backoff, next URL), resume the games and go on");
    cmd->add_option(
        "--stall",
        opts->run.stall,
        "With --reconnect: seconds a move may wait for its ack before the game is resumed and "
        "the move sent again (default 5)");
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
        const auto v = lookup_variant(ctx, opts->run.variant);
        if (!v) {
            return;
        }
        opts->run.variant = std::string(core::rules(*v).key);
        opts->run.urls    = loadtest::split_urls(opts->urls);
        opts->run.mode    = loadtest::parse_mode(opts->mode).value_or(loadtest::Mode::Hotseat);
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
