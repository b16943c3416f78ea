// `papan dxp --host H --port P [--initiator] [--variant V] [--level L] [--time MIN] [--moves N]
// [--games N] [--depth D] [--move-time S] [--nodes N] [--fen F] [--name S] [--threads N]`: DXP
// games over TCP. The follower (default) listens on --host/--port (port 0 = any free port, printed
// on the first line); the initiator connects and sends GAMEREQ. Progress goes to stdout, errors to
// stderr.
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/engine/dxp.hpp>

#include <iostream>

namespace papan::cli {

namespace {

struct DxpCliOptions {
    engine::DxpOptions dxp;
    std::string variant = "international";
    std::string level   = "max";
    int games           = -1;  // -1: the role's default (initiator 1, follower unlimited)
};

}  // namespace

void register_dxp_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<DxpCliOptions>();
    auto* cmd = app.add_subcommand("dxp", "Play DXP (DamExchange) games over TCP");
    auto& d   = opts->dxp;
    cmd->add_option("--host",
                    d.host,
                    "Follower: address to listen on (default 0.0.0.0); initiator: the peer "
                    "(default 127.0.0.1)");
    cmd->add_option("--port,-p", d.port, "TCP port (default 27531; follower: 0 = any free port)")
        ->check(CLI::Range(0, 65535));
    cmd->add_flag("--initiator", d.initiator, "Connect and send GAMEREQ (default: follow)");
    cmd->add_option("--variant,-v", opts->variant, "Variant id (default international)");
    cmd->add_option("--level", opts->level, "easy, normal, hard or max (default max)");
    cmd->add_option("--time", d.minutes, "Initiator: thinking time per player in minutes")
        ->check(CLI::Range(0, 999));
    cmd->add_option("--moves", d.moves, "Initiator: moves in that time (0 = whole game)")
        ->check(CLI::Range(0, 999));
    cmd->add_option("--games",
                    opts->games,
                    "Games to play (initiator default 1, swapping colours; follower default 0 = "
                    "serve forever)")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--fen", d.fen, "Initiator: start position (default the variant's start)");
    cmd->add_option("--depth", d.depth, "Fixed search depth per move (replaces the clock)")
        ->check(CLI::Range(0, 200));
    cmd->add_option("--move-time", d.move_time, "Fixed seconds per move (replaces the clock)")
        ->check(CLI::Range(0.0, 100000.0));
    cmd->add_option("--nodes", d.nodes, "Fixed nodes per move (replaces the clock)");
    cmd->add_option("--hash", d.hash_mb, "Transposition table size in MB")
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--seed", d.seed, "Seed of the weaker levels' randomness");
    cmd->add_option("--threads", d.threads, "Search threads at level max (default 1)")
        ->check(CLI::Range(1, engine::kMaxThreads));
    cmd->add_option("--name", d.name, "Our name in GAMEREQ/GAMEACC (default Papan)");
    cmd->add_option("--timeout",
                    d.reply_timeout,
                    "Seconds to wait for GAMEACC or a GAMEEND reply (default 60)")
        ->check(CLI::Range(0.1, 100000.0));
    cmd->callback([opts, &ctx] {
        const auto v = lookup_variant(ctx, opts->variant);
        if (!v) {
            return;
        }
        const auto level = engine::level_from_string(opts->level);
        if (!level) {
            fail(ctx, "unknown level '" + opts->level + "' (easy, normal, hard, max)");
            return;
        }
        engine::DxpOptions run = opts->dxp;
        run.variant            = *v;
        run.level              = *level;
        run.games              = opts->games >= 0 ? opts->games : (run.initiator ? 1 : 0);
        if (run.initiator && run.games == 0) {
            fail(ctx, "--games must be at least 1 for the initiator");
            return;
        }
        if (run.initiator && run.port == 0) {
            fail(ctx, "--port 0 only makes sense for the follower");
            return;
        }
        ctx.exit_code = run.initiator ? engine::run_dxp_initiator(run, std::cout, std::cerr)
                                      : engine::run_dxp_follower(run, std::cout, std::cerr);
    });
}

}  // namespace papan::cli
