#include "variant_option.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>

namespace papan::cli {

std::optional<core::VariantId> lookup_variant(const std::string& key, std::string& error) {
    if (auto v = core::variant_from_key(key)) {
        return v;
    }
    std::string known;
    for (const core::RuleSet& r : core::all_variants()) {
        known += (known.empty() ? "" : ", ") + std::string(r.key);
    }
    error = "unknown variant '" + key + "' (known: " + known + ", english)";
    return std::nullopt;
}

nlohmann::ordered_json
move_json(const core::Position& pos, const core::Move& m, const core::MoveList& legal) {
    const auto path = core::path_squares(pos.variant, m);
    return {
        {"from", path.front()},
        {"to", path.back()},
        {"path", path},
        {"captures", core::captured_squares(pos.variant, m)},
        {"text", core::move_text(pos, m, legal)},
    };
}

std::vector<const core::Move*> sorted_moves(const core::Position& pos,
                                            const core::MoveList& legal) {
    std::vector<std::pair<std::vector<int>, const core::Move*>> keyed;
    for (const core::Move& m : legal) {
        auto key = core::path_squares(pos.variant, m);
        for (int c : core::captured_squares(pos.variant, m)) {
            key.push_back(c);
        }
        keyed.emplace_back(std::move(key), &m);
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<const core::Move*> out;
    for (const auto& k : keyed) {
        out.push_back(k.second);
    }
    return out;
}

}  // namespace papan::cli
