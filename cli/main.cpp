// papan: the one program of Papan. Subcommands are registered from cli/cmd_*.cpp.
#include "commands.hpp"

#include <iostream>

namespace papan::cli {

void fail(CommandContext& ctx, const std::string& message) {
    std::cerr << "papan: error: " << message << '\n';
    ctx.exit_code = 1;
}

}  // namespace papan::cli

int main(int argc, char** argv) {
    CLI::App app{"Papan: draughts for every variant (rules, engine and game server)", "papan"};
    app.require_subcommand(1);
    papan::cli::CommandContext ctx;
    papan::cli::register_variants_command(app, ctx);
    papan::cli::register_moves_command(app, ctx);
    papan::cli::register_perft_command(app, ctx);
    papan::cli::register_pdn_command(app, ctx);
    papan::cli::register_analyse_command(app, ctx);
    papan::cli::register_bench_command(app, ctx);
    papan::cli::register_hub_command(app, ctx);
    papan::cli::register_dxp_command(app, ctx);
    papan::cli::register_serve_command(app, ctx);
    papan::cli::register_egdb_command(app, ctx);
    papan::cli::register_worker_command(app, ctx);
    papan::cli::register_puzzles_command(app, ctx);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::cerr << "papan: error: " << e.what() << '\n';
        return 1;
    }
    return ctx.exit_code;
}
