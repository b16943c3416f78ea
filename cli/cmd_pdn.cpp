// `papan pdn check|convert`: placeholder registration until the PDN reader lands.
#include "commands.hpp"

namespace papan::cli {

void register_pdn_command(CLI::App& app, CommandContext& ctx) {
    auto* pdn = app.add_subcommand("pdn", "Check or convert PDN files");
    pdn->callback([&ctx] { fail(ctx, "pdn: not built yet"); });
}

}  // namespace papan::cli
