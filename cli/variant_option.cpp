#include "variant_option.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>

namespace papan::cli {

std::optional<core::VariantId> lookup_variant(CommandContext& ctx, const std::string& key) {
    if (auto v = core::variant_from_key(key)) {
        return v;
    }
    std::string known;
    for (const core::RuleSet& r : core::all_variants()) {
        known += (known.empty() ? "" : ", ") + std::string(r.key);
    }
    fail(ctx, "unknown variant '" + key + "' (known: " + known + ", english)");
    return std::nullopt;
}

std::string fen_or_start(core::VariantId v, const std::string& fen) {
    return fen.empty() ? std::string(core::rules(v).start_fen) : fen;
}

std::optional<core::Position>
parse_position(CommandContext& ctx, core::VariantId v, const std::string& fen) {
    auto pos = core::parse_fen(v, fen);
    if (!pos) {
        fail(ctx, pos.error());
        return std::nullopt;
    }
    return *pos;
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
