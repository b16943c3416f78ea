// `papan perft --variant V [--fen F] --depth D [--divide] [--json] [--routes]`.
// Progress goes to stderr for long runs; the last stdout line is the JSON summary with --json.
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/perft.hpp>

#include <chrono>
#include <iostream>

namespace papan::cli {

namespace {

constexpr int kMaxDepth = 30;

struct PerftOptions {
    std::string variant;
    std::string fen;
    int depth           = 0;
    bool divide         = false;
    bool json           = false;
    bool routes         = false;
    std::size_t hash_mb = 0;
};

}  // namespace

void register_perft_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<PerftOptions>();
    auto* cmd =
        app.add_subcommand("perft", "Count leaf positions at a depth (move generator check)");
    cmd->add_option("--variant,-v", opts->variant, "Variant id")->required();
    cmd->add_option("--fen", opts->fen, "Position (default: the start position)");
    cmd->add_option("--depth,-d", opts->depth, "Depth in plies (1-30)")->required();
    cmd->add_flag("--divide", opts->divide, "Count per root move");
    cmd->add_flag("--json", opts->json, "JSON summary as the last line");
    cmd->add_flag("--routes",
                  opts->routes,
                  "Count every capture route instead of distinct moves (kish's Turkish counts)");
    cmd->add_option("--hash",
                    opts->hash_mb,
                    "Table of counts in MB (reuses transpositions; same counts, faster deep runs)")
        ->check(CLI::Range(0, 65536));
    cmd->callback([opts, &ctx] {
        const auto v = lookup_variant(ctx, opts->variant);
        if (!v) {
            return;
        }
        if (opts->depth < 1 || opts->depth > kMaxDepth) {
            fail(ctx,
                 "depth " + std::to_string(opts->depth) + " is out of range (1-" +
                     std::to_string(kMaxDepth) + ")");
            return;
        }
        const std::string fen = fen_or_start(*v, opts->fen);
        const auto pos        = parse_position(ctx, *v, fen);
        if (!pos) {
            return;
        }
        const auto mode     = opts->routes ? core::CountMode::Routes : core::CountMode::Distinct;
        const auto start    = std::chrono::steady_clock::now();
        std::uint64_t nodes = 0;
        const bool long_run = opts->depth >= 9;
        if (opts->divide || long_run) {
            core::MoveList legal;
            core::generate_moves(*pos, legal);
            const auto entries = core::perft_divide(
                *pos,
                opts->depth,
                mode,
                [&](std::size_t done, std::size_t total) {
                    if (long_run) {
                        std::cerr << "perft: " << done << "/" << total << " root moves\r"
                                  << std::flush;
                    }
                },
                opts->hash_mb);
            if (long_run) {
                std::cerr << '\n';
            }
            for (const auto& e : entries) {
                nodes += e.nodes;
                if (opts->divide) {
                    std::cout << core::move_text(*pos, e.move, legal) << ' ' << e.nodes << '\n';
                }
            }
        } else {
            nodes = core::perft_hashed(*pos, opts->depth, mode, opts->hash_mb);
        }
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - start)
                            .count();
        if (opts->json) {
            std::cout << nlohmann::ordered_json{{"variant", std::string(core::rules(*v).key)},
                                                {"fen", fen},
                                                {"depth", opts->depth},
                                                {"nodes", nodes},
                                                {"ms", ms}}
                             .dump()
                      << '\n';
        } else {
            std::cout << "nodes " << nodes << " time " << ms << " ms\n";
        }
    });
}

}  // namespace papan::cli
