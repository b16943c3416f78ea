// The `--weights FILE` option of analyse, bench and hub: a weight file replacing the compiled-in
// evaluation weights of its variant (docs/engine.md, "Weight files").
#pragma once

#include "commands.hpp"

#include <papan/core/types.hpp>
#include <papan/engine/weights.hpp>

#include <memory>
#include <optional>
#include <string>

namespace papan::cli {

// The weights of `path` (null when `path` is empty), or nullopt after fail() with the reason. When
// `variant` is given, a file of another variant is refused too.
[[nodiscard]] std::optional<std::shared_ptr<const engine::EvalWeights>>
load_weights_option(CommandContext& ctx,
                    const std::string& path,
                    std::optional<core::VariantId> variant = std::nullopt);

}  // namespace papan::cli
