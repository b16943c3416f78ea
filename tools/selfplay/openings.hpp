// Opening suites of papan_selfplay: files of short opening lines, one per line, and the generator
// that makes the suites of the variants without a published one (tools/selfplay/openings/README.md
// says how each file was made).
//
// File format: one opening per line, its moves from the variant's start position in the
// variant's notation separated by spaces; `#` starts a comment; blank lines are skipped.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/move.hpp>
#include <papan/core/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace papan::selfplay {

struct Opening {
    std::string text;  // the moves as written
    std::vector<core::Move> moves;
};

// Reads and checks a suite: every move legal in turn, the game not over after the line.
[[nodiscard]] core::Expected<std::vector<Opening>> load_openings(core::VariantId variant,
                                                                 const std::string& path);

struct GenerateOptions {
    int plies          = 4;     // every line of this many plies from the start is a candidate
    int depth          = 10;    // search depth of the balance check
    int max_score      = 25;    // keep a line when |score| <= this (hundredths of a man)
    std::size_t count  = 200;   // stop once this many are kept
    std::size_t sample = 1000;  // search at most this many candidates (drawn by the seed)
    std::uint64_t seed = 1;
};

struct GeneratedSuite {
    std::vector<Opening> openings;
    std::vector<int> scores;     // the balance check's score of each kept opening
    std::size_t candidates = 0;  // distinct positions after `plies` plies
    std::size_t searched   = 0;
};

// Enumerates every line of `plies` plies, keeps one line per distinct resulting position, draws
// up to `sample` of them in a seeded order and keeps those a depth-`depth` search (level max, a
// fresh engine each) scores within +-max_score. Deterministic for the options.
[[nodiscard]] GeneratedSuite generate_openings(core::VariantId variant, const GenerateOptions& o);

}  // namespace papan::selfplay
