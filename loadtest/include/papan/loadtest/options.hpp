// What a load run is asked to do: the options of `papan loadtest`, their limits and checks, and
// the server URLs they name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace papan::loadtest {

enum class Mode {
    Hotseat,   // one connection per game plays both sides
    Friend,    // player 1 creates a friend game, player 2 joins it by the invite token
    Computer,  // one connection per game plays white against the server's computer player
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
    std::string level   = "hard";           // computer games: easy, normal, hard or max
    // Computer games: seconds a computer reply may take before its game counts as one that got
    // no reply within the deadline.
    double reply_deadline = 10.0;
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

// The computer levels --level accepts (the engine's: easy, normal, hard, max). The tool passes
// the level on; the server decides which it offers.
[[nodiscard]] bool is_computer_level(const std::string& text);

// An error text for options out of range (empty when fine).
[[nodiscard]] std::string validate(const Options& options);

}  // namespace papan::loadtest
