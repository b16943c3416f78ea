// Training samples: positions from self-play games with the game's result, and the binary file
// that holds them (tools/tune/README.md, "Sample files"). A sample file is a data set, never
// committed: `papan_tune gen` writes it, `papan_tune fit` reads it.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace papan::tune {

// The game's result from White's point of view.
enum class Result : std::uint8_t {
    BlackWin = 0,
    Draw     = 1,
    WhiteWin = 2,
};

// Target of the logistic fit: 0, 0.5 or 1 (White's score).
[[nodiscard]] constexpr double white_score(Result r) noexcept {
    return static_cast<double>(static_cast<int>(r)) / 2.0;
}

struct Sample {
    core::Position position;
    std::uint32_t game = 0;  // index of the game it comes from (held-out split by game)
    std::int16_t score = 0;  // the search's score there, side to move's view (diagnostics)
    std::uint16_t ply  = 0;  // plies played before it
    Result result      = Result::Draw;
};

struct SampleSet {
    core::VariantId variant = core::VariantId::International;
    std::vector<Sample> samples;
};

// Writes / reads a sample file. Reading checks the magic, the version, the variant and the size,
// and that every position is consistent; a bad file is an error, never a crash.
[[nodiscard]] core::Expected<bool> write_samples(const std::string& path, const SampleSet& set);
[[nodiscard]] core::Expected<SampleSet> read_samples(const std::string& path);

}  // namespace papan::tune
