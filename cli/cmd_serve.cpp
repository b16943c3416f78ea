// papan serve: the game server (HTTP + WebSocket on one port, SQLite in --data).
#include "commands.hpp"
#include "serve_options.hpp"

#include <papan/server/server.hpp>

#include <iostream>
#include <memory>

namespace papan::cli {

void register_serve_command(CLI::App& app, CommandContext& ctx) {
    auto opts    = std::make_shared<server::ServerOptions>();
    auto data    = std::make_shared<std::string>("./data");
    auto web     = std::make_shared<std::string>();
    auto wait    = std::make_shared<double>(5.0);
    auto ttl     = std::make_shared<double>(24.0 * 3600);
    auto lease   = std::make_shared<double>(3.0);
    auto idle    = std::make_shared<double>(600.0);
    auto abandon = std::make_shared<double>(30.0);
    auto pickup  = std::make_shared<double>(1.0);
    auto first   = std::make_shared<double>(60.0);
    auto* cmd = app.add_subcommand("serve", "Run the game server (HTTP and WebSocket on one port)");
    cmd->add_option("--port", opts->port, "TCP port; 0 picks a free one")->capture_default_str();
    cmd->add_option("--host", opts->host, "address to listen on")->capture_default_str();
    cmd->add_option("--data", *data, "directory of the database papan.db")->capture_default_str();
    cmd->add_option("--egdb",
                    opts->egdb_dir,
                    "endgame database directory (the computer plays without if absent)")
        ->capture_default_str();
    cmd->add_option("--web", *web, "directory of the built web client (default: web/dist)");
    cmd->add_option("--threads", opts->io_threads, "network threads")->capture_default_str();
    cmd->add_option("--ai-threads",
                    opts->ai_threads,
                    "threads the computer players think on (default: one per core)");
    cmd->add_option("--hard-move-time",
                    opts->hard_move_time,
                    "seconds level hard thinks per move in untimed games (timed games: the clock)")
        ->capture_default_str();
    cmd->add_option("--pairing-wait", *wait, "seconds a random seek waits before an AI opponent")
        ->capture_default_str();
    cmd->add_option("--ws-rate",
                    opts->ws_rate,
                    "WebSocket messages per second per socket, beyond the burst (0 = unlimited)")
        ->capture_default_str();
    cmd->add_option("--ws-burst", opts->ws_burst, "WebSocket messages a socket may send at once")
        ->capture_default_str();
    cmd->add_option("--max-connections-per-ip",
                    opts->max_connections_per_ip,
                    "concurrent connections per remote address; more get HTTP 429 (0 = unlimited)")
        ->capture_default_str();
    cmd->add_option("--login-attempts",
                    opts->login_attempts,
                    "failed logins per username per window before HTTP 429 (0 = unlimited)")
        ->capture_default_str();
    cmd->add_option("--login-attempts-per-ip",
                    opts->login_attempts_per_ip,
                    "failed logins per remote address per window before HTTP 429 (0 = unlimited)")
        ->capture_default_str();
    cmd->add_option(
           "--login-window", opts->login_window_seconds, "seconds failed logins are counted for")
        ->capture_default_str();
    cmd->add_option("--store",
                    opts->store,
                    "database: postgresql://user:pw@host/db, or sqlite:PATH (default: "
                    "SQLite in --data)");
    cmd->add_option("--bus",
                    opts->bus,
                    "redis://host:port to run as one of several nodes sharing games (default: "
                    "one node)");
    cmd->add_option("--cluster-secret",
                    opts->cluster_secret,
                    "the nodes' shared secret for the bus (default: env PAPAN_CLUSTER_SECRET)");
    cmd->add_option("--session-days",
                    opts->session_days,
                    "days an unused session token stays valid (sliding)")
        ->capture_default_str();
    cmd->add_option("--registrations-per-ip",
                    opts->registrations_per_ip,
                    "new accounts per remote address per hour before HTTP 429 (0 = unlimited)")
        ->capture_default_str();
    cmd->add_option(
           "--idle-unload",
           *idle,
           "seconds before a room nobody watches and no clock runs leaves memory (0: never)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option(
           "--abandon-after",
           *abandon,
           "days before an untimed unfinished game nobody touched ends abandoned (0: never)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--max-open-games",
                    opts->max_open_games,
                    "unfinished games a player may have before creating another (0: no cap)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--creates-per-ip",
                    opts->creates_per_ip,
                    "games a remote address may create per minute (0: no cap)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--worker-pickup",
                    *pickup,
                    "seconds a computer move waits for an engine worker (papan worker) to take it "
                    "before this node thinks it itself")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_option("--node-id", opts->node_id, "this node's name on the bus (default: random)");
    cmd->add_option("--lease", *lease, "seconds before a dead node's games are taken over")
        ->capture_default_str();
    add_auth_options(*cmd, opts->auth);
    // Hidden options for tests: a node cap on the computer's searches, a short invite lifetime and
    // first-move time, a fault injected into connection code.
    cmd->add_option("--ai-nodes", opts->ai_nodes, "cap on the computer's search nodes")->group("");
    cmd->add_option("--invite-ttl", *ttl, "friend link lifetime in seconds")->group("");
    cmd->add_option("--first-move-timeout",
                    *first,
                    "seconds a side of a game between people has for its first move")
        ->check(CLI::PositiveNumber)
        ->group("");
    cmd->add_option("--test-fault", opts->test_fault, "input that throws in connection code")
        ->group("");
    cmd->callback([cmd, &ctx, opts, data, web, wait, ttl, lease, idle, abandon, pickup, first] {
        apply_config_file(*cmd);
        opts->data_dir              = *data;
        opts->web_dir               = *web;
        opts->pairing_wait_ms       = static_cast<std::int64_t>(*wait * 1000);
        opts->invite_ttl_ms         = static_cast<std::int64_t>(*ttl * 1000);
        opts->lease_ms              = static_cast<std::int64_t>(*lease * 1000);
        opts->idle_unload_ms        = static_cast<std::int64_t>(*idle * 1000);
        opts->abandon_after_ms      = static_cast<std::int64_t>(*abandon * 24 * 3600 * 1000);
        opts->worker_pickup_ms      = static_cast<std::int64_t>(*pickup * 1000);
        opts->first_move_timeout_ms = static_cast<std::int64_t>(*first * 1000);
        opts->on_ready              = [](const std::string& host, std::uint16_t port) {
            std::cout << "listening on http://" << host << ":" << port << std::endl;
        };
        try {
            ctx.exit_code = server::run_server(*opts);
        } catch (const std::exception& e) {
            fail(ctx, std::string("serve: ") + e.what());
        }
    });
}

}  // namespace papan::cli
