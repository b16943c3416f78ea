// `papan egdb build|probe|info`: endgame databases (docs/engine.md, "Endgame databases").
//   papan egdb build --variant V --pieces N [--dir D] [--threads T]
//   papan egdb probe --variant V --fen FEN [--dir D] [--moves]
//   papan egdb info [--dir D]
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/egdb.hpp>

#include <cstdio>
#include <iostream>
#include <map>

namespace papan::cli {

namespace {

struct EgdbOptions {
    std::string variant;
    std::string fen;
    std::string dir = "./data/egdb";
    int pieces      = 0;
    int threads     = 2;
    bool moves      = false;
};

std::string megabytes(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f MB", static_cast<double>(bytes) / 1e6);
    return buf;
}

void run_build(CommandContext& ctx, const EgdbOptions& o) {
    const auto v = lookup_variant(ctx, o.variant);
    if (!v) {
        return;
    }
    engine::egdb::BuildOptions b;
    b.variant    = *v;
    b.pieces     = o.pieces;
    b.dir        = o.dir;
    b.threads    = o.threads;
    b.log        = [](const std::string& line) { std::cerr << line << std::endl; };
    const auto r = engine::egdb::build(b);
    if (!r.error.empty()) {
        fail(ctx, "egdb build: " + r.error);
        return;
    }
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f s", r.seconds);
    std::cout << "egdb build: " << core::rules(*v).key << " up to " << o.pieces
              << " pieces: " << r.slices_built << " slices built, " << r.slices_loaded
              << " already present, " << r.positions << " positions, " << megabytes(r.bytes_on_disk)
              << " on disk, " << secs << std::endl;
}

void run_probe(CommandContext& ctx, const EgdbOptions& o) {
    const auto v = lookup_variant(ctx, o.variant);
    if (!v) {
        return;
    }
    const auto pos = parse_position(ctx, *v, o.fen);
    if (!pos) {
        return;
    }
    engine::egdb::OpenReport report;
    const auto db = engine::egdb::Database::open(o.dir, report);
    for (const auto& p : report.problems) {
        std::cerr << "papan: warning: " << p << '\n';
    }
    const auto result = db->probe(*pos);
    if (!result) {
        fail(ctx,
             "egdb probe: the position (" + std::to_string(core::popcount(pos->occupied())) +
                 " pieces) is not in the " + std::string(core::rules(*v).key) + " tables of " +
                 o.dir + " (complete up to " + std::to_string(db->max_pieces(*v)) + " pieces)");
        return;
    }
    std::cout << engine::egdb::wdl_name(*result) << '\n';
    if (o.moves) {
        core::MoveList legal;
        core::generate_moves(*pos, legal);
        for (const core::Move* m : sorted_moves(*pos, legal)) {
            const auto after = db->probe(core::make_move(*pos, *m));
            std::cout << core::move_text(*pos, *m, legal) << ' '
                      << (after ? engine::egdb::wdl_name(engine::egdb::negate(*after))
                                : std::string_view("unknown"))
                      << '\n';
        }
    }
}

void run_info(CommandContext& ctx, const EgdbOptions& o) {
    engine::egdb::OpenReport report;
    const auto db = engine::egdb::Database::open(o.dir, report);
    std::cout << report.summary << '\n';
    for (const auto& p : report.problems) {
        std::cout << "refused: " << p << '\n';
    }

    struct Totals {
        int tables              = 0;
        std::uint64_t positions = 0;
        std::uint64_t bytes     = 0;
        double seconds          = 0;
        std::uint32_t max_plies = 0;
    };

    std::map<std::pair<int, int>, Totals> by_count;  // (variant, pieces)
    for (const auto& t : db->tables()) {
        auto& x = by_count[{static_cast<int>(t.variant), t.material.pieces()}];
        ++x.tables;
        x.positions += t.positions;
        x.bytes += t.file_bytes;
        x.seconds += t.build_seconds;
        x.max_plies = std::max(x.max_plies, t.max_conversion_plies);
    }
    if (!by_count.empty()) {
        std::cout << "variant        pieces  tables       positions        size   build s  "
                     "max conversion plies\n";
    }
    for (const auto& [key, x] : by_count) {
        char line[160];
        std::snprintf(line,
                      sizeof line,
                      "%-14s %6d %7d %15llu %11s %9.1f  %u\n",
                      std::string(core::rules(static_cast<core::VariantId>(key.first)).key).c_str(),
                      key.second,
                      x.tables,
                      static_cast<unsigned long long>(x.positions),
                      megabytes(x.bytes).c_str(),
                      x.seconds,
                      x.max_plies);
        std::cout << line;
    }
    if (!report.problems.empty()) {
        ctx.exit_code = 1;
    }
}

}  // namespace

void register_egdb_command(CLI::App& app, CommandContext& ctx) {
    auto opts = std::make_shared<EgdbOptions>();
    auto* cmd = app.add_subcommand("egdb", "Endgame databases: build, probe, info");
    cmd->require_subcommand(1);

    auto* build = cmd->add_subcommand(
        "build", "Build the win/loss/draw tables of every position with at most N pieces");
    build->add_option("--variant,-v", opts->variant, "Variant id")->required();
    build->add_option("--pieces,-n", opts->pieces, "Largest piece count")->required();
    build->add_option("--dir", opts->dir, "Table directory")->capture_default_str();
    build->add_option("--threads", opts->threads, "Threads")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    build->callback([opts, &ctx] { run_build(ctx, *opts); });

    auto* probe = cmd->add_subcommand("probe", "The table result of a position (side to move)");
    probe->add_option("--variant,-v", opts->variant, "Variant id")->required();
    probe->add_option("--fen", opts->fen, "Position")->required();
    probe->add_option("--dir", opts->dir, "Table directory")->capture_default_str();
    probe->add_flag("--moves", opts->moves, "Also the result after each legal move");
    probe->callback([opts, &ctx] { run_probe(ctx, *opts); });

    auto* info = cmd->add_subcommand("info", "The tables of a directory: counts, sizes, times");
    info->add_option("--dir", opts->dir, "Table directory")->capture_default_str();
    info->callback([opts, &ctx] { run_info(ctx, *opts); });
}

}  // namespace papan::cli
