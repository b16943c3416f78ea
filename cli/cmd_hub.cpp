// `papan hub`: registered here; the engine work of issue 3 fills it in.
#include "commands.hpp"

namespace papan::cli {

void register_hub_command(CLI::App& app, CommandContext& ctx) {
    auto* cmd = app.add_subcommand("hub", "(engine: not built yet)");
    cmd->callback([&ctx] { fail(ctx, "hub: not built yet"); });
}

}  // namespace papan::cli
