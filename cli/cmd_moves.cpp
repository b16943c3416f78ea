// `papan moves --variant V [--fen F] [--json]` and `--batch` (one FEN per stdin line, one JSON
// object per output line).
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>

#include <iostream>
#include <string>

namespace papan::cli {

namespace {

struct MovesOptions {
    std::string variant = "international";
    std::string fen;
    bool json             = false;
    bool batch            = false;
    bool optional_capture = false;
};

nlohmann::ordered_json moves_object(const std::string& key,
                                    const std::string& fen,
                                    const core::Position& pos,
                                    const core::MoveList& legal) {
    nlohmann::ordered_json moves = nlohmann::ordered_json::array();
    for (const core::Move* m : sorted_moves(pos, legal)) {
        moves.push_back(move_json(pos, *m, legal));
    }
    return {{"variant", key}, {"fen", fen}, {"moves", moves}};
}

}  // namespace

void register_moves_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<MovesOptions>();
    auto* cmd = app.add_subcommand("moves", "List the legal moves of a position");
    cmd->add_option("--variant,-v", opts->variant, "Variant id")->required();
    cmd->add_option("--fen", opts->fen, "Position (default: the start position)");
    cmd->add_flag("--json", opts->json, "JSON output");
    cmd->add_flag(
        "--batch", opts->batch, "Read one FEN per line from stdin, write one JSON line each");
    cmd->add_flag("--no-forced-capture",
                  opts->optional_capture,
                  "House rule: captures are optional (8x8 diagonal variants)");
    cmd->callback([opts, &ctx] {
        const auto v = lookup_variant(ctx, opts->variant);
        if (!v) {
            return;
        }
        const std::string key(core::rules(*v).key);
        if (opts->optional_capture && !core::rules(*v).optional_capture_house_rule) {
            fail(ctx, "--no-forced-capture is only for 8x8 diagonal variants, not " + key);
            return;
        }
        const core::MoveGenOptions gen{.forced_capture = !opts->optional_capture};
        if (opts->batch) {
            std::string line;
            long line_no = 0;
            while (std::getline(std::cin, line)) {
                ++line_no;
                if (!line.empty() && line.back() == '\r') {
                    line.pop_back();
                }
                if (line.find_first_not_of(" \t") == std::string::npos) {
                    continue;
                }
                const auto pos = core::parse_fen(*v, line);
                if (!pos) {
                    std::cout << nlohmann::ordered_json{{"variant", key},
                                                        {"fen", line},
                                                        {"error", pos.error()}}
                                     .dump()
                              << std::endl;
                    fail(ctx, "stdin line " + std::to_string(line_no) + ": " + pos.error());
                    continue;
                }
                core::MoveList legal;
                core::generate_moves(*pos, legal, gen);
                std::cout << moves_object(key, line, *pos, legal).dump() << '\n';
            }
            std::cout.flush();
            return;
        }
        const std::string fen = fen_or_start(*v, opts->fen);
        const auto pos        = parse_position(ctx, *v, fen);
        if (!pos) {
            return;
        }
        core::MoveList legal;
        core::generate_moves(*pos, legal, gen);
        if (opts->json) {
            std::cout << moves_object(key, fen, *pos, legal).dump() << '\n';
            return;
        }
        for (const core::Move* m : sorted_moves(*pos, legal)) {
            std::cout << core::move_text(*pos, *m, legal) << '\n';
        }
    });
}

}  // namespace papan::cli
