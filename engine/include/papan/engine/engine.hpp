// Engine: the facade the server, the CLI and the protocols use. It searches the current
// position of a core::Game (whose history gives repetitions and the draw-rule counters) within
// SearchLimits at a Level, reports progress through a callback, and can be stopped from any
// thread. Internals (search<V>, evaluation, transposition table) stay behind this header.
//
// Determinism: for the same game, limits without time, level and seed, the result and the node
// count are the same on every run (with one search thread, the default).
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/engine/limits.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace papan::engine {

// Scores are in hundredths of a man (a man = 100) from the side to move's point of view.
inline constexpr int kMateScore = 30000;  // won game in 0 plies; kMateScore - n = win in n plies
inline constexpr int kMateBound = 29000;  // |score| >= kMateBound means a forced game end

struct SearchInfo {
    int depth           = 0;
    int seldepth        = 0;
    int score           = 0;
    std::uint64_t nodes = 0;
    double seconds      = 0;
    std::vector<core::Move> pv;
};

// How well the moves were ordered: of the nodes of the main search (not quiescence) that failed
// high, the share that did so on the first move searched (papan bench prints it).
struct SearchStats {
    std::uint64_t cut_nodes            = 0;
    std::uint64_t first_move_cut_nodes = 0;
};

struct SearchResult {
    std::optional<core::Move> best;    // empty only when the game is over
    std::optional<core::Move> ponder;  // the expected reply, if the PV has one
    int score           = 0;
    int depth           = 0;
    std::uint64_t nodes = 0;
    double seconds      = 0;
    std::vector<core::Move> pv;
    SearchStats stats;  // the main thread's
};

using InfoCallback = std::function<void(const SearchInfo&)>;

class EvalWeights;  // papan/engine/weights.hpp

struct EngineOptions {
    std::size_t hash_mb = 32;  // transposition table size
    std::uint64_t seed  = 0;   // randomness of the weaker levels
    // Evaluation weights replacing the compiled-in set of their variant (load_weights(), the
    // `--weights FILE` option); games of other variants keep their defaults. Null: defaults.
    std::shared_ptr<const EvalWeights> weights = nullptr;
    // Endgame databases (egdb.hpp) for levels hard and max; empty = none. Opened once per
    // process and directory (egdb::shared_database); a missing directory means no tables.
    std::string egdb_dir;
    // Search threads at level max (Lazy SMP: helpers share the table, the calling thread's result
    // is played); the other levels always search on one thread. 1 = single-threaded, whose
    // results and node counts are deterministic; more threads are not.
    int threads = 1;
};

class Engine {
public:
    explicit Engine(EngineOptions options = {});
    ~Engine();
    Engine(const Engine&)            = delete;
    Engine& operator=(const Engine&) = delete;

    // Forgets everything learnt (transposition table, history): the start of a new game.
    void new_game();
    void set_seed(std::uint64_t seed) noexcept;
    // EngineOptions::threads for the next searches (clamped to 1..kMaxThreads).
    void set_threads(int threads) noexcept;

    // Searches game.position(). Blocks until a limit is reached or the search is stopped;
    // returns the best move found (never an illegal one). Precondition: the game is not over.
    // One search at a time: searches are numbered 1, 2, ... in the order search() is called.
    [[nodiscard]] SearchResult search(const core::Game& game,
                                      const SearchLimits& limits,
                                      Level level                 = Level::Max,
                                      const InfoCallback& on_info = {});

    // The same search among the legal moves that are not in `excluded` (compared by
    // Move::same_as): multi-PV by exclusion, where line k is the best move once the first moves
    // of lines 1..k-1 are taken away. An empty `excluded` is search(). Precondition: some legal
    // move is not excluded (else the result has no best move).
    [[nodiscard]] SearchResult search_excluding(const core::Game& game,
                                                std::span<const core::Move> excluded,
                                                const SearchLimits& limits,
                                                Level level                 = Level::Max,
                                                const InfoCallback& on_info = {});

    // The number the next search() call will have (see stop(id)). A caller that starts the
    // search on another thread takes it before starting that thread.
    [[nodiscard]] std::uint64_t next_search_id() const noexcept;

    // Ends search number `id` soon, even when it has not started yet (it then stops at its first
    // check, with a legal move); a no-op once that search has returned, so a late request (a
    // timer firing after the search ended on its own) never reaches a later search. A request for
    // a search also ends any earlier one still running. Safe from any thread.
    void stop(std::uint64_t id) noexcept;

    // Ends the running search soon; when none runs, the next search to start (a stop issued just
    // before search() is not lost). Safe from any thread. Prefer stop(id) when the request may
    // come after the search it is meant for has ended on its own.
    void stop() noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace papan::engine
