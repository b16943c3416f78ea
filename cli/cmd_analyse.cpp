// `papan analyse`: registered here; the engine work of issue 3 fills it in.
#include "commands.hpp"

namespace papan::cli {

void register_analyse_command(CLI::App& app, CommandContext& ctx) {
    auto* cmd = app.add_subcommand("analyse", "(engine: not built yet)");
    cmd->callback([&ctx] { fail(ctx, "analyse: not built yet"); });
}

}  // namespace papan::cli
