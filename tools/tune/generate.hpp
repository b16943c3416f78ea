// Self-play game generation for the training set: games of the engine against itself from random
// openings, at a node budget drawn for every move between 0.75 and 1.25 times `nodes` (so one
// opening gives many games), every quiet position kept with the game's result.
//
// Quiet (docs/engine.md, "Training"): the side to move has no capture, the other side would have
// none if it were to move, and the side to move cannot crown at once (the search resolves those;
// the static evaluation is only asked about positions like these).
//
// Deterministic: game i depends only on (seed, i, options), never on the thread count or timing;
// the samples come out ordered by game.
#pragma once

#include "samples.hpp"

#include <papan/core/position.hpp>
#include <papan/engine/engine.hpp>

#include <cstdint>
#include <functional>
#include <memory>

namespace papan::tune {

struct GenerateOptions {
    core::VariantId variant  = core::VariantId::International;
    std::uint32_t games      = 100;
    std::uint32_t first_game = 0;     // game indices first_game .. first_game + games - 1
    std::uint64_t nodes      = 4000;  // mean budget per move
    std::uint64_t seed       = 1;
    int threads              = 1;
    int opening_min_plies    = 2;  // random legal moves before the engine plays
    int opening_max_plies    = 8;
    int max_plies            = 400;  // a game still going then is scored a draw
    std::size_t hash_mb      = 4;
    std::shared_ptr<const engine::EvalWeights> weights;  // null: the compiled-in set
};

struct GenerateStats {
    std::uint32_t games      = 0;
    std::uint32_t white_wins = 0;
    std::uint32_t black_wins = 0;
    std::uint32_t draws      = 0;
    std::uint32_t capped     = 0;  // reached max_plies
    std::uint64_t plies      = 0;
    std::uint64_t nodes      = 0;
};

// True when `pos` is quiet in the sense above (legal: the position's legal moves, forced capture).
[[nodiscard]] bool is_quiet(const core::Position& pos, const core::MoveList& legal);

using Progress = std::function<void(std::uint32_t games_done, const GenerateStats&)>;

[[nodiscard]] SampleSet
generate(const GenerateOptions& options, GenerateStats& stats, const Progress& progress = {});

}  // namespace papan::tune
