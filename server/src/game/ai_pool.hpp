// AiPool: the computer players think here, off the network threads, on a bounded pool
// (ServerOptions::ai_threads threads, ai_queue searches waiting). Each worker thread has its own
// engine. Searches of games with a running clock go first. When the queue is full a request is
// answered at once by the quick built-in player: logged and counted (fallbacks()), never silent.
// With engine workers (`papan worker`, an AiOffload) a search goes to them first and comes back
// here when none answers in time.
#pragma once

#include <papan/core/game.hpp>
#include <papan/engine/limits.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace papan::server {

// What the computer of one game is asked: the game (its history gives repetitions), the level,
// and the clock of the side to move when the game is timed.
struct AiRequest {
    core::Game game;
    engine::Level level = engine::Level::Normal;
    bool clocked        = false;
    double time_left    = -1;  // seconds on the clock of the side to move (clocked games)
    double increment    = 0;
    double byo_yomi     = 0;
    int periods         = 0;
};

struct AiSettings {
    int threads             = 1;
    std::size_t max_pending = 256;  // searches waiting; beyond, the quick player answers
    std::uint64_t max_nodes = 0;    // a cap on every search (tests); 0 = the level's own
    double hard_move_time   = 1.5;  // seconds level hard thinks per move in untimed games
    std::uint64_t seed      = 0;
    // The engines' endgame databases (opened once at start; a log line says what was found).
    std::string egdb_dir;
};

// The search limits of a level (docs/operations.md, "Computer opponents"): easy and normal by
// nodes and a short time; hard for `hard_move_time` in untimed games and by the engine's time
// management from the clock in timed ones.
[[nodiscard]] engine::SearchLimits ai_limits(const AiRequest& r, const AiSettings& s);

// What the engine workers did for this node (docs/operations.md, "Engine workers").
struct AiOffloadStats {
    int workers_alive          = 0;  // workers heard from in the last seconds
    std::uint64_t sent         = 0;  // jobs handed to the workers
    std::uint64_t answered     = 0;  // of them answered by a worker with a legal move
    std::uint64_t thought_here = 0;  // of them not answered in time: thought on this node
    std::uint64_t refused      = 0;  // answers refused (illegal move, bad MAC, unknown job)
};

using AiDone = std::function<void(std::optional<core::Move>)>;

// Where searches may go instead of this node's threads: the engine workers of `papan worker`
// (cluster/remote_ai.hpp).
class AiOffload {
public:
    virtual ~AiOffload() = default;
    // Takes the request and returns true when a worker may answer it; then exactly one of `done`
    // (a legal move a worker found) or `here` (no worker answered in time: think on this node)
    // is called later, on another thread. False: the caller thinks here at once.
    virtual bool offer(const AiRequest& request,
                       const engine::SearchLimits& limits,
                       AiDone done,
                       std::function<void()> here)     = 0;
    [[nodiscard]] virtual AiOffloadStats stats() const = 0;
};

class AiPool {
public:
    using Done = AiDone;

    explicit AiPool(AiSettings settings);
    ~AiPool();
    AiPool(const AiPool&)            = delete;
    AiPool& operator=(const AiPool&) = delete;

    // Chooses a move for the side to move; `done` runs on a worker thread (or the caller's, when
    // the queue is full). nullopt when the game is over.
    void think(AiRequest request, Done done);
    void stop();

    // Searches go to `offload` first (set once at start, before any game; null = none).
    void set_offload(AiOffload* offload) noexcept { offload_ = offload; }

    [[nodiscard]] const AiOffload* offload() const noexcept { return offload_; }

    // The quick player answered instead of the engine (queue full, or no legal move came back).
    void count_fallback();

    [[nodiscard]] std::uint64_t fallbacks() const noexcept { return fallbacks_.load(); }

    [[nodiscard]] std::size_t pending() const;

    [[nodiscard]] const AiSettings& settings() const noexcept { return settings_; }

private:
    struct Job {
        AiRequest request;
        Done done;
    };

    void worker();
    void think_here(AiRequest request, Done done);

    AiSettings settings_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> clocked_;  // games with a running clock: first
    std::deque<Job> untimed_;
    bool stopped_ = false;
    std::vector<std::thread> threads_;
    struct Engines;
    std::unique_ptr<Engines> engines_;
    std::atomic<std::uint64_t> fallbacks_{0};
    AiOffload* offload_ = nullptr;
};

// The quick built-in player: a capture taking the most pieces, else a crowning, else a move that
// does not hang a piece to an immediate capture if one exists; ties by the seeded RNG.
[[nodiscard]] std::optional<core::Move> quick_move(const core::Game& game, std::uint64_t seed);

}  // namespace papan::server
