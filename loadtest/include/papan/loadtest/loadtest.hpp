// The load tool behind `papan loadtest` (issue 6, item 3): N concurrent hot-seat games of random
// legal moves over real WebSockets, ack latency per move, and a check of every game against what
// the server stored (GET /api/games/{id}) for lost or duplicated moves.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace papan::loadtest {

struct Options {
    std::string url;                        // ws://HOST:PORT/PATH (the only host contacted)
    std::string variant = "international";  // a key of /api/variants
    int games           = 10;               // concurrent games (one connection each)
    double rate         = 10.0;             // new games started per second
    double duration     = 10.0;             // seconds of play; then no new moves are sent
    int max_games       = 0;                // games created in all (0: 10 x games)
    int think_ms        = 0;                // pause between an ack and the next move of a game
    double drain        = 10.0;             // seconds to wait for outstanding acks after duration
    int threads         = 1;                // client I/O threads
    std::uint64_t seed  = 1;                // seeds the random choice of moves
    int max_errors      = 0;                // more errors than this fail the run
};

// Limits checked by validate().
inline constexpr int kMaxConcurrentGames = 20000;
inline constexpr double kMaxDuration     = 3600.0;
inline constexpr int kMaxThreads         = 64;

struct Url {
    std::string host;
    std::string port;
    std::string path;
};

// Parses ws://HOST[:PORT][/PATH]; returns an error text (empty when fine).
[[nodiscard]] std::string parse_url(const std::string& text, Url& out);

// An error text for options out of range (empty when fine).
[[nodiscard]] std::string validate(const Options& options);

struct LatencySummary {
    double p50_ms  = 0;
    double p95_ms  = 0;
    double p99_ms  = 0;
    double max_ms  = 0;
    double mean_ms = 0;
};

// Nearest-rank percentiles of samples in microseconds.
[[nodiscard]] LatencySummary summarize(std::vector<std::int64_t> samples_us);

// What the tool saw of one game, and what the check found.
struct GameCheck {
    std::string id;
    std::vector<std::string> sent;        // by ply: the text of the move sent for it (all plies)
    std::vector<bool> acked;              // by ply: acknowledged by a move event
    std::vector<std::string> acked_text;  // by ply: the text in the acknowledging event
};

struct VerifyCounts {
    std::int64_t lost       = 0;  // acknowledged, not stored at its ply
    std::int64_t duplicated = 0;  // stored, never acknowledged nor sent for that ply (extra)
    // Sent and stored, but the ack was not seen (in flight when the run ended): not an error.
    std::int64_t stored_unacked = 0;
    std::string first_mismatch;  // the first ply that differs, for the report (empty if none)
};

// Whether two texts name the same move ("22x24" and "22x33x24": a capture given by its ends or
// by every landing square).
[[nodiscard]] bool same_move(const std::string& a, const std::string& b);

// Compares one game's stored move texts (by ply) with what the tool sent and saw acknowledged.
[[nodiscard]] VerifyCounts compare_game(const GameCheck& game,
                                        const std::vector<std::string>& stored);

struct Report {
    Options options;
    int connections          = 0;  // sessions started
    int games_created        = 0;
    int games_finished       = 0;  // ended by the rules during the run
    int peak_games           = 0;  // most games in play at once
    std::int64_t moves       = 0;  // acknowledged moves
    std::int64_t messages_in = 0;  // WebSocket messages received from the server
    double elapsed_s         = 0;  // first connection to the last ack
    double moves_per_s       = 0;
    LatencySummary ack;
    std::map<std::string, std::int64_t> errors;  // by code (server codes and client-side ones)
    std::int64_t error_total = 0;
    int verified_games       = 0;
    VerifyCounts verify;
    std::vector<std::string> mismatches;  // the first mismatch of up to 10 games
    bool ok = false;  // moves > 0, nothing lost or duplicated, errors <= max_errors

    [[nodiscard]] nlohmann::ordered_json to_json() const;
    [[nodiscard]] std::string to_text() const;
};

// Runs the load; throws std::runtime_error when the options or the URL are unusable.
[[nodiscard]] Report run(const Options& options);

}  // namespace papan::loadtest
