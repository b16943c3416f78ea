// AiPool: the computer players think here, off the network threads, on a small bounded pool
// (ServerOptions::ai_threads threads, ai_queue searches waiting). Each worker thread has its own
// engine. When the queue is full a request is answered at once by the quick built-in player,
// so a flood of AI games can never delay the network threads or human games.
#pragma once

#include <papan/core/game.hpp>

#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace papan::server {

class AiPool {
public:
    using Done = std::function<void(std::optional<core::Move>)>;

    // egdb_dir: the engines' endgame databases (opened here once; a log line says what was found).
    AiPool(int threads,
           std::size_t max_pending,
           std::uint64_t max_nodes,
           std::uint64_t seed,
           std::string egdb_dir = {});
    ~AiPool();
    AiPool(const AiPool&)            = delete;
    AiPool& operator=(const AiPool&) = delete;

    // Chooses a move for the side to move at `level` (easy | normal | hard); `done` runs on a
    // worker thread (or the caller's, when the queue is full). nullopt when the game is over.
    void think(core::Game game, std::string level, Done done);
    void stop();

private:
    struct Engines;  // the workers' engines, so stop() can end their searches
    std::unique_ptr<Engines> engines_;
    boost::asio::thread_pool pool_;
    std::atomic<std::size_t> pending_{0};
    std::size_t max_pending_;
    std::uint64_t max_nodes_;
    std::uint64_t seed_;
    std::string egdb_dir_;
};

// The quick built-in player: a capture taking the most pieces, else a crowning, else a move that
// does not hang a piece to an immediate capture if one exists; ties by the seeded RNG.
[[nodiscard]] std::optional<core::Move> quick_move(const core::Game& game, std::uint64_t seed);

}  // namespace papan::server
