// `papan pdn check FILE... [--variant V] [--json]`: import every game of every file through the
// rules, one line per game (ok, or the error naming file, game and move); exit 1 if any game is
// bad or any file cannot be read.
// `papan pdn convert FILE [--variant V] [--to pdn|fen] [-o OUT]`: re-write the games as strict
// PDN, or print one FEN per position after each move with a "# game N" header per game.
// --variant is the variant of games without a GameType tag (default: international, PDN's 20).
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/pdn.hpp>
#include <papan/core/rules/registry.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace papan::cli {

namespace {

struct PdnOptions {
    std::vector<std::string> files;
    std::string variant = "international";
    bool json           = false;
    bool no_forced      = false;
    std::string to      = "pdn";
    std::string output;
};

// Reads a whole file; false with an error text when it cannot be read.
bool read_file(const std::string& path, std::string& text, std::string& error) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        error = "cannot read " + path + ": it is a directory";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path + ": no such file or not readable";
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        error = "cannot read " + path + ": read error";
        return false;
    }
    text = ss.str();
    return true;
}

// The read options from the command line, or nullopt after reporting the error.
std::optional<core::PdnReadOptions> read_options(const PdnOptions& o, CommandContext& ctx) {
    const auto v = lookup_variant(ctx, o.variant);
    if (!v) {
        return std::nullopt;
    }
    core::PdnReadOptions options;
    options.default_variant        = *v;
    options.movegen.forced_capture = !o.no_forced;
    return options;
}

std::string tag_or(const core::PdnGame& g, std::string_view name, std::string_view fallback) {
    const std::string* v = g.tag(name);
    return (v != nullptr && !v->empty()) ? *v : std::string(fallback);
}

void run_check(const PdnOptions& o, CommandContext& ctx) {
    const auto options = read_options(o, ctx);
    if (!options) {
        return;
    }
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    bool all_ok                  = true;
    for (const std::string& path : o.files) {
        nlohmann::ordered_json file_json = {{"file", path}};
        std::string text;
        std::string error;
        if (!read_file(path, text, error)) {
            fail(ctx, error);
            all_ok             = false;
            file_json["ok"]    = false;
            file_json["error"] = error;
            files.push_back(file_json);
            continue;
        }
        const auto entries           = core::read_pdn_entries(text, *options);
        nlohmann::ordered_json games = nlohmann::ordered_json::array();
        int bad                      = 0;
        for (const core::PdnEntry& e : entries) {
            const core::PdnGame& g = e.game;
            const std::string key(core::rules(g.variant).key);
            nlohmann::ordered_json gj = {{"game", e.number}, {"line", g.line}, {"ok", e.ok()}};
            if (e.ok()) {
                gj["variant"]   = key;
                gj["white"]     = tag_or(g, "White", "?");
                gj["black"]     = tag_or(g, "Black", "?");
                gj["moves"]     = g.moves.size();
                gj["result"]    = core::convert_pdn_result(g.result, g.variant);
                gj["final_fen"] = core::to_fen(g.final_position());
                if (!o.json) {
                    std::cout << path << ": game " << e.number << ": ok (" << key << ", "
                              << g.moves.size() << " moves, " << gj["result"].get<std::string>()
                              << ")\n";
                }
            } else {
                ++bad;
                gj["error"] = e.error;
                fail(ctx, path + ": " + e.error);
            }
            games.push_back(gj);
        }
        if (entries.empty()) {
            ++bad;
            fail(ctx, path + ": no games found");
            file_json["error"] = "no games found";
        }
        all_ok             = all_ok && bad == 0;
        file_json["ok"]    = bad == 0;
        file_json["games"] = games;
        files.push_back(file_json);
    }
    if (o.json) {
        std::cout << nlohmann::ordered_json{{"ok", all_ok}, {"files", files}}.dump(2) << '\n';
    }
    std::cout.flush();
    if (!all_ok) {
        ctx.exit_code = 1;
    }
}

void run_convert(const PdnOptions& o, CommandContext& ctx) {
    if (o.to != "pdn" && o.to != "fen") {
        fail(ctx, "--to must be pdn or fen, not '" + o.to + "'");
        return;
    }
    const auto options = read_options(o, ctx);
    if (!options) {
        return;
    }
    const std::string& path = o.files.front();
    std::string text;
    std::string error;
    if (!read_file(path, text, error)) {
        fail(ctx, error);
        return;
    }
    const auto games = core::read_pdn(text, *options);
    if (!games) {
        fail(ctx, path + ": " + games.error());
        return;
    }
    if (games->empty()) {
        fail(ctx, path + ": no games found");
        return;
    }
    std::string out;
    if (o.to == "pdn") {
        out = core::write_pdn(*games);
    } else {
        int number = 0;
        for (const core::PdnGame& g : *games) {
            ++number;
            out += "# game " + std::to_string(number) + ": " + tag_or(g, "White", "?") + " - " +
                   tag_or(g, "Black", "?") + " (" + std::string(core::rules(g.variant).key) + ", " +
                   core::convert_pdn_result(g.result, g.variant) + ")\n";
            out += "# start " + core::to_fen(g.start) + "\n";
            for (std::size_t ply = 1; ply <= g.moves.size(); ++ply) {
                out += core::to_fen(g.position_before(ply)) + "\n";
            }
        }
    }
    if (o.output.empty() || o.output == "-") {
        std::cout << out;
        std::cout.flush();
        return;
    }
    std::ofstream file(o.output, std::ios::binary | std::ios::trunc);
    if (!file) {
        fail(ctx, "cannot write " + o.output);
        return;
    }
    file << out;
    file.close();
    if (!file) {
        fail(ctx, "cannot write " + o.output);
    }
}

// Runs a subcommand body; nothing may escape as an exception.
template <class F>
void guarded(CommandContext& ctx, F&& body) {
    try {
        body();
    } catch (const std::exception& e) {
        fail(ctx, std::string("pdn: ") + e.what());
    } catch (...) {
        fail(ctx, "pdn: unexpected failure");
    }
}

}  // namespace

void register_pdn_command(CLI::App& app, CommandContext& ctx) {
    auto* pdn = app.add_subcommand("pdn", "Check or convert PDN files");
    pdn->require_subcommand(1);

    auto check_opts = std::make_shared<PdnOptions>();
    auto* check     = pdn->add_subcommand("check", "Import every game through the rules");
    check->add_option("files", check_opts->files, "PDN files")->required();
    check->add_option("--variant,-v",
                      check_opts->variant,
                      "Variant of games without a GameType tag (default international)");
    check->add_flag("--json", check_opts->json, "JSON output");
    check->add_flag("--no-forced-capture",
                    check_opts->no_forced,
                    "House rule: captures are optional (8x8 diagonal variants)");
    check->callback([check_opts, &ctx] { guarded(ctx, [&] { run_check(*check_opts, ctx); }); });

    auto convert_opts = std::make_shared<PdnOptions>();
    auto* convert     = pdn->add_subcommand("convert", "Re-write PDN strictly, or list FENs");
    convert->add_option("file", convert_opts->files, "PDN file")->required()->expected(1);
    convert->add_option("--variant,-v",
                        convert_opts->variant,
                        "Variant of games without a GameType tag (default international)");
    convert->add_option("--to", convert_opts->to, "Output: pdn (default) or fen");
    convert->add_option("-o,--output", convert_opts->output, "Output file (default stdout)");
    convert->add_flag("--no-forced-capture",
                      convert_opts->no_forced,
                      "House rule: captures are optional (8x8 diagonal variants)");
    convert->callback(
        [convert_opts, &ctx] { guarded(ctx, [&] { run_convert(*convert_opts, ctx); }); });
}

}  // namespace papan::cli
