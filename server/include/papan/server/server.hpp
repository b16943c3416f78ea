// The game server: `papan serve`. run_server() opens the store, resumes unfinished games,
// listens for HTTP and WebSocket on one port and returns after SIGINT or SIGTERM (graceful:
// stops accepting, closes sockets, finishes queued store writes).
#pragma once

#include <papan/server/auth_options.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace papan::server {

struct ServerOptions {
    std::string host               = "127.0.0.1";
    std::uint16_t port             = 8080;        // 0 = any free port
    std::filesystem::path data_dir = "data";      // papan.db lives here
    std::filesystem::path web_dir;                // empty: web/dist if it exists
    int io_threads                  = 2;          // network threads
    int ai_threads                  = 0;          // computer players think here (0 = one per core)
    std::size_t ai_queue            = 256;        // searches waiting; beyond, a quick move (logged)
    std::uint64_t ai_nodes          = 0;          // cap on search nodes (0 = level default)
    double hard_move_time           = 1.5;        // seconds level hard thinks in untimed games
    std::int64_t pairing_wait_ms    = 5000;       // random pairing: wait before an AI
    std::size_t max_message_bytes   = 64 * 1024;  // larger frames close the socket (1009)
    std::size_t max_queued_messages = 512;        // a client further behind is dropped
    int idle_timeout_seconds        = 60;         // WebSocket ping after this idle time
    int reward_daily_cap            = 100;        // reward points per player per UTC day
    std::int64_t invite_ttl_ms      = 24LL * 3600 * 1000;  // friend links (tests shorten it)
    // Room lifecycle (docs/operations.md, "Room lifecycle"); 0 turns each off.
    std::int64_t idle_unload_ms   = 10LL * 60 * 1000;  // an idle room leaves memory after this
    std::int64_t abandon_after_ms = 30LL * 24 * 3600 * 1000;  // untimed games untouched: abandoned
    int max_open_games            = 20;  // unfinished games one player may sit in (create)
    // A timed game whose side to move, a person, has not made its first move this long after the
    // game (or the other side's first move) began is aborted: no result, unrated (docs/protocol.md,
    // "Clocks"). 0 turns the abort off.
    std::int64_t first_move_timeout_ms = 60'000;
    // Abuse limits (docs/protocol.md, "Limits"); 0 turns a limit off.
    double ws_rate                     = 20;  // WebSocket messages per second per socket (1008)
    double ws_burst                    = 40;  // token bucket size: messages allowed at once
    std::size_t max_connections_per_ip = 64;  // concurrent connections per address (HTTP 429)
    int login_attempts                 = 5;   // failed logins per username per window (429)
    int login_attempts_per_ip          = 20;  // failed logins per address per window (429)
    int login_window_seconds           = 60;  // the failed-login window
    int registrations_per_ip           = 10;  // new accounts per address per hour (429)
    int creates_per_ip                 = 20;  // `create` messages per address per minute
    std::size_t hash_queue             = 8;   // password hashes waiting; beyond, 503
    double session_days                = 30;  // a session unused this long expires (sliding)
    // Storage and scale-out (docs/operations.md). store: empty = SQLite at data_dir/papan.db,
    // "postgresql://..." = PostgreSQL, "sqlite:PATH" = SQLite at PATH.
    std::string store;
    // bus: empty = one node; "redis://host:port" = several nodes share games through Redis.
    std::string bus;
    std::string node_id;           // a node's name on the bus (empty: host name + random suffix)
    std::int64_t lease_ms = 3000;  // a dead node's games are taken over after this long
    // A computer move not taken by an engine worker (`papan worker`) by then is thought here.
    std::int64_t worker_pickup_ms = 1000;
    // Endgame databases of the computer players (engine egdb.hpp); played without if absent.
    std::string egdb_dir = "./data/egdb";
    // The nodes' shared secret for the bus messages' HMAC (empty: PAPAN_CLUSTER_SECRET).
    std::string cluster_secret;
    // Sign-in with an OpenID Connect provider and the Telegram bot (auth_options.hpp).
    AuthOptions auth;
    // Test hook (hidden option --test-fault): an HTTP target or WebSocket text equal to it
    // throws inside the connection's code. Empty (the default): off.
    std::string test_fault;
    // Called once with the address and port actually bound when the server is ready (prints
    // the "listening" line).
    std::function<void(const std::string& host, std::uint16_t port)> on_ready;
};

// Runs until a signal; returns the process exit code. Throws std::runtime_error on start-up
// failures (database, port in use).
int run_server(const ServerOptions& options);

}  // namespace papan::server
