// `papan variants [--json]`: the variant table.
#include "commands.hpp"

#include <papan/core/geometry.hpp>
#include <papan/core/rules/registry.hpp>

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>

namespace papan::cli {

namespace {

std::string board_text(const core::RuleSet& r) {
    switch (r.topology) {
    case core::Topology::Diagonal8:
        return "8x8 diagonal";
    case core::Topology::Diagonal10:
        return "10x10 diagonal";
    case core::Topology::Orthogonal8:
        return "8x8 orthogonal";
    }
    return "?";
}

}  // namespace

void register_variants_command(CLI::App& app, CommandContext& ctx) {
    auto* cmd =
        app.add_subcommand("variants", "List the variants: id, name, board, GameType, start FEN");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "JSON output");
    cmd->callback([json, &ctx] {
        (void)ctx;
        if (*json) {
            nlohmann::ordered_json out = nlohmann::ordered_json::array();
            for (const core::RuleSet& r : core::all_variants()) {
                out.push_back({
                    {"id", r.key},
                    {"name", r.name},
                    {"board", board_text(r)},
                    {"size", r.board().size},
                    {"squares", r.board().squares},
                    {"game_type", r.game_type},
                    {"start_fen", r.start_fen},
                    {"first_to_move", r.first_to_move == core::Color::White ? "white" : "black"},
                    {"notation",
                     r.notation == core::NotationStyle::Algebraic ? "algebraic" : "numeric"},
                    {"optional_capture", r.optional_capture_house_rule},
                });
            }
            std::cout << out.dump() << '\n';
            return;
        }
        for (const core::RuleSet& r : core::all_variants()) {
            std::cout << std::left << std::setw(14) << r.key << std::setw(24) << r.name
                      << std::setw(16) << board_text(r) << std::setw(16) << r.game_type
                      << r.start_fen << '\n';
        }
    });
}

}  // namespace papan::cli
