// `papan bench`: registered here; the engine work of issue 3 fills it in.
#include "commands.hpp"

namespace papan::cli {

void register_bench_command(CLI::App& app, CommandContext& ctx) {
    auto* cmd = app.add_subcommand("bench", "(engine: not built yet)");
    cmd->callback([&ctx] { fail(ctx, "bench: not built yet"); });
}

}  // namespace papan::cli
