// The subcommands of `papan`. Each lives in cli/cmd_<name>.cpp and registers itself on the app;
// its callback stores the process exit code in the context. Errors go to stderr as one line
// "papan: error: <what and where>" with a non-zero exit code; nothing here may crash on input.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace papan::cli {

struct CommandContext {
    int exit_code = 0;
};

// Prints "papan: error: <message>" to stderr and records exit code 1.
void fail(CommandContext& ctx, const std::string& message);

void register_variants_command(CLI::App& app, CommandContext& ctx);
void register_moves_command(CLI::App& app, CommandContext& ctx);
void register_perft_command(CLI::App& app, CommandContext& ctx);
void register_pdn_command(CLI::App& app, CommandContext& ctx);
void register_analyse_command(CLI::App& app, CommandContext& ctx);
void register_bench_command(CLI::App& app, CommandContext& ctx);
void register_hub_command(CLI::App& app, CommandContext& ctx);
void register_dxp_command(CLI::App& app, CommandContext& ctx);
void register_serve_command(CLI::App& app, CommandContext& ctx);
void register_egdb_command(CLI::App& app, CommandContext& ctx);
void register_worker_command(CLI::App& app, CommandContext& ctx);
void register_puzzles_command(CLI::App& app, CommandContext& ctx);

}  // namespace papan::cli
