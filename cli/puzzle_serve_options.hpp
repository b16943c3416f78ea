// The options of `papan serve` about puzzles (server::PuzzleOptions), kept with the puzzle
// command (cmd_puzzles.cpp).
#pragma once

#include <papan/server/puzzle_options.hpp>

#include <CLI/CLI.hpp>

namespace papan::cli {

void add_puzzle_serve_options(CLI::App* serve, server::PuzzleOptions& options);

}  // namespace papan::cli
