#include "export.hpp"

#include <papan/core/rules/registry.hpp>

#include <filesystem>
#include <fstream>

namespace papan::tune {

core::Expected<bool> export_weights(const engine::EvalWeights& weights,
                                    const std::string& dir,
                                    const std::string& record,
                                    const std::string& exported_by) {
    const std::filesystem::path base =
        std::filesystem::path(dir) / std::string(core::rules(weights.variant()).key);
    const std::string bin = base.string() + ".bin";
    if (const auto saved = engine::save_weights(bin, weights); !saved) {
        return saved;
    }
    const std::string txt = base.string() + ".txt";
    std::ofstream out(txt, std::ios::trunc);
    if (!out) {
        return core::Error{"cannot create " + txt};
    }
    out << record;
    if (!record.empty() && record.back() != '\n') {
        out << '\n';
    }
    out << "exported: " << exported_by << '\n';
    if (!out) {
        return core::Error{"cannot write " + txt};
    }
    return true;
}

}  // namespace papan::tune
