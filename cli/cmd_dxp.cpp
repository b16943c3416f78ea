// `papan dxp`: registered here; the engine work of issue 3 fills it in.
#include "commands.hpp"

namespace papan::cli {

void register_dxp_command(CLI::App& app, CommandContext& ctx) {
    auto* cmd = app.add_subcommand("dxp", "(engine: not built yet)");
    cmd->callback([&ctx] { fail(ctx, "dxp: not built yet"); });
}

}  // namespace papan::cli
