#include "weights_option.hpp"

#include <papan/core/rules/registry.hpp>

namespace papan::cli {

std::optional<std::shared_ptr<const engine::EvalWeights>> load_weights_option(
    CommandContext& ctx, const std::string& path, std::optional<core::VariantId> variant) {
    if (path.empty()) {
        return std::shared_ptr<const engine::EvalWeights>{};
    }
    auto w = engine::load_weights(path);
    if (!w) {
        fail(ctx, "--weights: " + w.error());
        return std::nullopt;
    }
    if (variant && (*w)->variant() != *variant) {
        fail(ctx,
             "--weights: " + path + " holds " + std::string(core::rules((*w)->variant()).key) +
                 " weights, not " + std::string(core::rules(*variant).key));
        return std::nullopt;
    }
    return *w;
}

}  // namespace papan::cli
