// The puzzle miner: finds positions of a game where the side to move has exactly one winning
// continuation and proves it with our own engine (docs/engine.md, "Puzzles"). Used by
// `papan puzzles` (self-play and PDN files, the shipped set) and by the server, which mines its
// own finished games in the background.
//
// A position becomes a puzzle when
//   1. a quick search (filter_depth) sees more than the material on the board, and a quick
//      search without its move at least half the margin less: a candidate;
//   2. the engine, searching `depth` plies, scores every first move but its best, the key, at
//      least `margin` lower (a search without the key);
//   3. the material proof finds the smallest horizon (at most max_horizon plies, captures
//      resolved beyond) within which the key forces at least min_gain more than the baseline
//      (the material once the pending captures are resolved) and no other first move forces as
//      much;
//   4. along the line (the key, then the replies that hold the opponent's loss to the least,
//      the engine choosing among equals, then the solver's next move, ...) every later move of
//      the solver is again the only one reaching the proven material, and the engine's choice.
// The line ends when the gain is certain: the horizon is reached and no capture is pending.
//
// Deterministic: the same position and settings give the same puzzle (fixed-depth searches on
// one thread, the engine's tables cleared before each proof, no endgame databases).
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/position.hpp>
#include <papan/server/puzzle.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace papan::server {

struct ProofSettings {
    int depth           = 12;   // the engine's proof searches, plies
    int filter_depth    = 6;    // the quick search that picks candidates
    int filter_gain     = 60;   // a candidate: quick score >= baseline + this (hundredths of a man)
    int margin          = 100;  // key's score - the best other first move's score, at least
    int max_horizon     = 8;    // plies of the material proof
    int min_gain        = 100;  // material the key must win (a man)
    int max_imbalance   = 300;  // positions already this far ahead or behind are not tried
    std::size_t hash_mb = 16;
};

// Why positions were not kept: the miner's figures.
struct MineStats {
    std::uint64_t games             = 0;  // games read
    std::uint64_t positions         = 0;  // positions tried (a choice of at least two moves)
    std::uint64_t candidates        = 0;  // past the quick searches
    std::uint64_t no_material_proof = 0;  // no unique key forcing a gain within the horizon
    std::uint64_t engine_disagrees  = 0;  // another first move forces more material
    std::uint64_t small_margin      = 0;  // another first move within the margin
    std::uint64_t later_not_unique  = 0;  // a later solver move not the only one
    std::uint64_t proven            = 0;  // puzzles proven
    std::uint64_t duplicates        = 0;  // proven again: a position already kept
    std::uint64_t kept              = 0;  // in the result
    std::uint64_t engine_nodes      = 0;
    std::uint64_t material_nodes    = 0;
    double seconds                  = 0;  // spent playing and proving

    MineStats& operator+=(const MineStats& o);
};

// One prover per thread: it owns an engine.
class Prover {
public:
    explicit Prover(ProofSettings settings = {});
    ~Prover();
    Prover(const Prover&)            = delete;
    Prover& operator=(const Prover&) = delete;

    // The puzzle of this position, if it is one (`source` is stored with it).
    [[nodiscard]] std::optional<Puzzle> prove(const core::Position& pos, const std::string& source);

    // The puzzles of a game's positions, each side's (every ply from `first_ply` on, two plies
    // skipped after a kept one). `source` prefixes each puzzle's source (":<ply>" follows).
    [[nodiscard]] std::vector<Puzzle>
    mine_game(const core::Game& game, const std::string& source, int first_ply = 4);

    [[nodiscard]] const MineStats& stats() const noexcept { return stats_; }

    [[nodiscard]] const ProofSettings& settings() const noexcept { return settings_; }

    // Asks a running prove()/mine_game() to give up soon (from any thread): the server's
    // shutdown. It returns what it has.
    void stop() noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    ProofSettings settings_;
    MineStats stats_;
};

// A self-play game for mining: a few random plies from the start, then both sides played by the
// engine at weaker settings (so that shots are missed and allowed), chosen from the seed.
// Deterministic for (variant, seed, index).
[[nodiscard]] core::Game selfplay_game(core::VariantId v, std::uint64_t seed, std::uint64_t index);

struct MineOptions {
    core::VariantId variant = core::VariantId::International;
    std::uint64_t seed      = 1;
    std::size_t target      = 300;    // stop once this many are kept (after whole games)
    std::size_t max_games   = 20000;  // and never read more games than this
    // A time budget (0: none): past it no new game is started. The set is then that of the
    // games read (the figures' `games`), the same as a run with max_games = games.
    double max_seconds = 0;
    int threads        = 1;
    ProofSettings proof;
    // Progress, one line at a time (the CLI prints it).
    std::function<void(const std::string&)> log;
};

struct MineResult {
    std::vector<Puzzle> puzzles;  // in game order, then ply
    MineStats stats;              // of the games up to the last one used (seconds: thread time)
    double wall_seconds = 0;
    bool out_of_time    = false;  // the time budget ended the run before the target
};

// Mines self-play games of one variant until `target` puzzles are kept. Games are handed to the
// threads in order and the result taken from the first games in order, so the set depends on
// the options only, not on the threads or the timing.
[[nodiscard]] MineResult mine_selfplay(const MineOptions& options);

}  // namespace papan::server
