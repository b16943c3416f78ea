// Writes a weight set as the generated C++ source of its compiled-in default
// (engine/src/eval/weights/<variant>.cpp), with the training record in its header comment.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/engine/weights.hpp>

#include <string>

namespace papan::tune {

// `record`: lines (the command, seed, games, positions, losses) copied into the header comment.
[[nodiscard]] core::Expected<bool> export_source(const engine::EvalWeights& weights,
                                                 const std::string& path,
                                                 const std::string& record);

}  // namespace papan::tune
