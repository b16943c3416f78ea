// The load tool behind `papan loadtest` (issue 6, items 3 and 4): N concurrent games of random
// legal moves over real WebSockets (hot-seat: one connection plays both sides; friend: two
// players on two connections, possibly on two server nodes), ack latency per move, optional
// reconnection when the server drops the sockets (the fault tests kill it), and a check of every
// game against what the server stored (GET /api/games/{id}) for lost or duplicated moves.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace papan::loadtest {

enum class Mode {
    Hotseat,  // one connection per game plays both sides
    Friend,   // player 1 creates a friend game, player 2 joins it by the invite token
};

struct Options {
    std::vector<std::string> urls;  // ws://HOST:PORT/PATH, one or more (server nodes)
    Mode mode      = Mode::Hotseat;
    bool reconnect = false;                 // a dropped connection reconnects and resumes
    double stall   = 5.0;                   // with reconnect: seconds a move waits for its ack
                                            // before the game is resumed and the move resent
    std::string variant = "international";  // a key of /api/variants
    int games           = 10;               // concurrent games
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
inline constexpr int kMaxUrls            = 16;

struct Url {
    std::string host;
    std::string port;
    std::string path;
};

// Parses ws://HOST[:PORT][/PATH]; returns an error text (empty when fine).
[[nodiscard]] std::string parse_url(const std::string& text, Url& out);

// The --url values split at commas, blanks trimmed, empty parts dropped.
[[nodiscard]] std::vector<std::string> split_urls(const std::vector<std::string>& values);

[[nodiscard]] std::optional<Mode> parse_mode(const std::string& text);
[[nodiscard]] std::string mode_name(Mode mode);

// An error text for options out of range (empty when fine).
[[nodiscard]] std::string validate(const Options& options);

// Reconnection: the wait before attempt `attempt` (0, 1, ...): 100 ms doubling to at most 1 s.
[[nodiscard]] std::int64_t backoff_ms(int attempt);
// The URL (index into the list) of player `player` (0 or 1) of game slot `slot`: the players of
// the slots go round robin over the list, so with two URLs the two players of a friend game are
// on different nodes.
[[nodiscard]] std::size_t initial_url(int slot, int player, std::size_t url_count);
// The URL a reconnection tries next: the one after `current`.
[[nodiscard]] std::size_t next_url(std::size_t current, std::size_t url_count);

// What became of the move in flight when a connection dropped, judged from the game's state as
// the server gives it after the resume.
enum class InFlight {
    NotStored,   // the server's ply is still the move's ply: send it again
    Stored,      // the server has the move at its ply: stored, its ack was not seen
    Different,   // the server has another move at that ply
    RolledBack,  // the server is behind the move's ply: acknowledged moves are missing
};
[[nodiscard]] InFlight classify_in_flight(int pending_ply,
                                          const std::string& sent_text,
                                          int server_ply,
                                          const std::vector<std::string>& server_moves);
[[nodiscard]] std::string in_flight_name(InFlight f);

struct LatencySummary {
    double p50_ms  = 0;
    double p95_ms  = 0;
    double p99_ms  = 0;
    double max_ms  = 0;
    double mean_ms = 0;
};

// Nearest-rank percentiles of samples in microseconds.
[[nodiscard]] LatencySummary summarize(std::vector<std::int64_t> samples_us);

// Whether a game went on after its connections dropped: it "continued" when, after the last
// drop, it got at least one more acknowledged move or ended by the rules.
struct Continuity {
    int drops             = 0;  // drops of the game's connections while it was in play
    int acks_since_drop   = 0;
    bool ended_since_drop = false;

    void on_drop() {
        ++drops;
        acks_since_drop  = 0;
        ended_since_drop = false;
    }

    void on_ack() { ++acks_since_drop; }

    void on_end() { ended_since_drop = true; }

    [[nodiscard]] bool interrupted() const { return drops > 0; }

    [[nodiscard]] bool continued() const {
        return drops == 0 || acks_since_drop > 0 || ended_since_drop;
    }
};

// What the tool saw of one game, and what the check found.
struct GameCheck {
    std::string id;
    std::vector<std::string> sent;        // by ply: the text of the move sent for it (all plies)
    std::vector<bool> acked;              // by ply: acknowledged by a move event
    std::vector<std::string> acked_text;  // by ply: the text in the acknowledging event
    // Friend games, by ply: whether the other player's connection saw the acknowledged move (an
    // event or a state past the ply) by the end of the run.
    std::vector<bool> opponent_seen;
    Continuity continuity;
};

// Acknowledged moves of a friend game the other player's connection never saw.
[[nodiscard]] std::int64_t count_opponent_missed(const GameCheck& game);

struct VerifyCounts {
    std::int64_t lost       = 0;  // acknowledged, not stored at its ply
    std::int64_t duplicated = 0;  // stored, never acknowledged nor sent for that ply (extra)
    // Sent and stored, but the ack was not seen (in flight when the run ended or when the
    // connection dropped): not an error.
    std::int64_t stored_unacked = 0;
    std::string first_mismatch;  // the first ply that differs, for the report (empty if none)
};

// Whether two texts name the same move ("22x24" and "22x33x24": a capture given by its ends or
// by every landing square).
[[nodiscard]] bool same_move(const std::string& a, const std::string& b);

// Compares one game's stored move texts (by ply) with what the tool sent and saw acknowledged.
[[nodiscard]] VerifyCounts compare_game(const GameCheck& game,
                                        const std::vector<std::string>& stored);

// Reconnection figures (all zero without --reconnect).
struct ReconnectReport {
    std::int64_t drops           = 0;  // established connections lost
    std::int64_t reconnects      = 0;  // connections made again (welcome received) after a drop
    std::int64_t failed_attempts = 0;  // reconnection attempts that failed (server down)
    LatencySummary resume;             // drop to the game resumed (or the welcome, between games)
    std::int64_t resumed_samples = 0;
    // Moves in flight at a drop (or stalled) that the server turned out to have stored: stored,
    // not acknowledged.
    std::int64_t in_flight_stored = 0;
    // ... of which the resume had answered "resumed" (nothing missed) although the move's event
    // had been missed: a server whose stored version lags its events (0 when versions are right).
    std::int64_t resumed_but_stored = 0;
    std::int64_t resent             = 0;  // moves sent again (in flight at a drop, or stalled)
    std::int64_t creates_unanswered = 0;  // creates in flight at a drop: the game is unknown
    std::int64_t stalls             = 0;  // moves that waited --stall seconds: resumed and resent
    std::int64_t request_timeouts   = 0;  // resumes or joins unanswered for 1 s: sent again
    int games_interrupted           = 0;  // games whose connections dropped while in play
    int games_continued             = 0;  // ... and that went on afterwards (see Continuity)
    std::vector<std::string> not_continued;  // ids of up to 10 that did not
};

struct Report {
    Options options;
    int connections          = 0;  // connections opened at first (not counting reconnections)
    int games_created        = 0;
    int games_finished       = 0;  // ended by the rules during the run
    int peak_games           = 0;  // most games in play at once
    std::int64_t moves       = 0;  // acknowledged moves
    std::int64_t messages_in = 0;  // WebSocket messages received from the server
    double played_s          = 0;  // start to the end of play (--duration, or a signal)
    bool stopped_by_signal   = false;
    double elapsed_s         = 0;  // first connection to the last ack
    double moves_per_s       = 0;
    LatencySummary ack;
    std::map<std::string, std::int64_t> errors;  // by code (server codes and client-side ones)
    std::int64_t error_total     = 0;
    std::int64_t opponent_missed = 0;  // friend games: acked moves the opponent never saw
    ReconnectReport reconnect;
    int verified_games = 0;
    VerifyCounts verify;
    std::vector<std::string> mismatches;  // the first mismatch of up to 10 games
    // moves > 0, nothing lost or duplicated, errors <= max_errors, and with --reconnect every
    // interrupted game continued.
    bool ok = false;

    [[nodiscard]] nlohmann::ordered_json to_json() const;
    [[nodiscard]] std::string to_text() const;
};

// Runs the load; throws std::runtime_error when the options or the URLs are unusable. SIGINT or
// SIGTERM during the run ends the play at once (as if --duration were over): the moves in flight
// drain, the store is checked and the report is returned as usual.
[[nodiscard]] Report run(const Options& options);

}  // namespace papan::loadtest
