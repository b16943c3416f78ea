// PuzzleService: the server's puzzles (docs/protocol.md, "Puzzles"). It owns the puzzle store on a
// thread of its own (every job runs there, in order), adds the shipped set on first use, answers
// the HTTP handlers' questions (next, daily, one puzzle, an attempt, a history, a guest's ratings
// taken over by an account) and runs the background miner: a thread at the lowest CPU priority
// (nice 19) that reads the site's finished games in order and adds the puzzles it proves.
#pragma once

#include "puzzles/glicko2.hpp"
#include "store/puzzle_store.hpp"
#include "support/asio_config.hpp"

#include <papan/server/clock.hpp>
#include <papan/server/puzzle.hpp>
#include <papan/server/puzzle_miner.hpp>
#include <papan/server/server.hpp>

#include <boost/asio/executor_work_guard.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace papan::server {

struct PuzzleSettings {
    std::filesystem::path set_dir;       // the shipped set (puzzles/<variant>.jsonl); empty: none
    bool mine                 = true;    // the background miner on finished games
    std::int64_t mine_idle_ms = 30'000;  // its pause when no finished game is left
    ProofSettings proof;                 // its proof settings
};

// One served puzzle with its current rating.
struct ServedPuzzle {
    Puzzle puzzle;
    puzzles::Glicko rating;
    int plays  = 0;
    int solved = 0;
};

struct AttemptResult {
    bool found = false;  // the puzzle exists
    std::string error;   // the moves are not a line of the puzzle (400)
    bool solved    = false;
    int wrong_step = -1;
    bool rated     = false;  // false: replayed, or nobody to rate
    puzzles::Glicko before;
    puzzles::Glicko after;
    puzzles::Glicko puzzle_after;
};

class PuzzleService {
public:
    PuzzleService(std::unique_ptr<PuzzleStore> store, const Clock& clock, PuzzleSettings settings);
    ~PuzzleService();
    PuzzleService(const PuzzleService&)            = delete;
    PuzzleService& operator=(const PuzzleService&) = delete;

    // Starts the miner; the shipped set is added to the store (the puzzles not there yet) on the
    // first request that needs it. Returns a line for the log.
    std::string start();
    // Stops the miner and the thread after the queued jobs.
    void stop();

    // Runs fn on the service's thread (store calls belong there).
    void post(std::function<void(PuzzleService&)> fn);

    // On the service's thread:
    [[nodiscard]] std::optional<ServedPuzzle> puzzle(const std::string& id);
    // A puzzle of the variant near `target` the player has not attempted (any, when every one
    // near has been); nullopt when the variant has none.
    [[nodiscard]] std::optional<ServedPuzzle>
    next(const std::string& variant, double target, const std::string& player_id);
    [[nodiscard]] std::optional<ServedPuzzle> daily(const std::string& variant,
                                                    const std::string& day);
    // The solver's rating in a variant (a new solver's when none).
    [[nodiscard]] PuzzleRatingRow solver(const std::string& player_id, const std::string& variant);
    // Checks and records an attempt; rated once per solver and puzzle (player_id empty: never).
    // Only accounts' attempts ("u...") move the puzzle's rating.
    [[nodiscard]] AttemptResult attempt(const std::string& player_id,
                                        const std::string& puzzle_id,
                                        const std::vector<std::string>& moves,
                                        bool gave_up);
    // A streak ended at `length` solved puzzles: the solver's best is kept.
    [[nodiscard]] int
    record_streak(const std::string& player_id, const std::string& variant, int length);
    [[nodiscard]] std::vector<PuzzleRatingRow> ratings_of(const std::string& player_id);
    [[nodiscard]] std::vector<PuzzleAttemptRow> history(const std::string& player_id, int limit);
    std::vector<std::string> adopt(const std::string& guest_id, const std::string& account_id);
    [[nodiscard]] MiningCursor mining_figures();

    // Every variant with its puzzles of the shipped set and from this site's games.
    struct VariantCount {
        std::string variant;
        int set  = 0;
        int site = 0;
    };

    [[nodiscard]] std::vector<VariantCount> counts();

    // Wakes the miner (a game just finished).
    void wake_miner();

private:
    void ensure_set();
    void mine_loop();
    bool mine_batch(Prover& prover);

    PuzzleSettings settings_;
    std::unique_ptr<PuzzleStore> store_;
    const Clock& clock_;
    std::mt19937_64 rng_;
    net::io_context ioc_;
    net::executor_work_guard<IoExecutor> work_;
    std::thread thread_;
    std::thread miner_;
    std::mutex miner_mutex_;
    std::condition_variable miner_wake_;
    bool miner_woken_ = false;
    std::atomic<bool> stopping_{false};
    std::atomic<Prover*> prover_{nullptr};
    bool stopped_    = false;
    bool set_loaded_ = false;  // the service's thread only
};

// The service of `papan serve`: its store opened like the game store (--store), the set found
// (PuzzleOptions::set_dir, else ./puzzles, else `puzzles` next to the program) and started.
[[nodiscard]] std::unique_ptr<PuzzleService> start_puzzle_service(const ServerOptions& options,
                                                                  const Clock& clock);

}  // namespace papan::server
