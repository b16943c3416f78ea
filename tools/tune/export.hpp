// Writes a weight set as the compiled-in default of its variant: the weight file
// engine/weights/<variant>.bin (embedded into the engine at build time) and beside it
// <variant>.txt, the training record (the commands, seeds, data and losses that made it).
#pragma once

#include <papan/core/expected.hpp>
#include <papan/engine/weights.hpp>

#include <string>

namespace papan::tune {

// `dir`: the folder of the compiled-in sets (engine/weights). `record`: the text of the record
// (`papan_tune fit` writes it beside its weight file); the export adds the line `exported:`.
[[nodiscard]] core::Expected<bool> export_weights(const engine::EvalWeights& weights,
                                                  const std::string& dir,
                                                  const std::string& record,
                                                  const std::string& exported_by);

}  // namespace papan::tune
