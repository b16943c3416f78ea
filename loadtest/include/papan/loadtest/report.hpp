// The figures of a load run, as text or as one JSON object.
#pragma once

#include <papan/loadtest/options.hpp>
#include <papan/loadtest/statistics.hpp>
#include <papan/loadtest/store_check.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace papan::loadtest {

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

// Computer games (--mode computer; all zero otherwise).
struct ComputerReport {
    std::int64_t moves = 0;  // the computer's moves received
    double moves_per_s = 0;  // ... over the time from the first connection to the last of them
    // From the first message showing the computer to move (the ack of our move, or the game's
    // first state when the computer opens) to the first message holding its move.
    LatencySummary reply;
    // Games in which a computer reply took longer than --reply-deadline or never came (still
    // awaited, for longer than the deadline, when the run ended).
    int games_late = 0;
    // ... of which the games whose computer never moved at all (it was to move, and the run or
    // the game ended first).
    int games_without_reply = 0;
    // Replies still awaited when the run ended, for less than the deadline (not counted late).
    std::int64_t replies_awaited = 0;
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
    ComputerReport computer;
    int verified_games = 0;
    VerifyCounts verify;
    std::vector<std::string> mismatches;  // the first mismatch of up to 10 games
    // moves > 0, nothing lost or duplicated, errors <= max_errors, and with --reconnect every
    // interrupted game continued.
    bool ok = false;

    [[nodiscard]] nlohmann::ordered_json to_json() const;
    [[nodiscard]] std::string to_text() const;
};

}  // namespace papan::loadtest
