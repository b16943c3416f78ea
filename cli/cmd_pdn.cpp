// `papan pdn check FILE... [--variant V] [--json]`: import every game of every file through the
// rules, one line per game (ok with the variant and what settled it, or the error naming file,
// game and move); exit 1 if any game is bad or any file cannot be read.
// `papan pdn convert FILE [--variant V] [--to pdn|fen] [-o OUT] [--normalise] [--strict]`: write
// every good game again (as read, or in the canonical form), or one FEN per position after each
// move with a "# game N" header per game; the bad games are listed (game, move, reason) and left
// out, and the exit code is 1 when any was; --strict writes nothing unless every game is good.
// Without --variant the variant of a game without GameType is detected (docs/pdn.md); with it,
// that variant is used. Files are decoded from UTF-8, UTF-16 (with BOM), Latin-1, Windows-1252 or
// Windows-1251 (detected, or --encoding); all output is UTF-8.
#include "commands.hpp"
#include "variant_option.hpp"

#include <papan/core/notation/encoding.hpp>
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
    std::string variant;  // empty: detect
    std::string encoding = "auto";
    bool json            = false;
    bool no_forced       = false;
    bool lenient_setup   = false;
    bool strict          = false;
    bool normalise       = false;
    std::string to       = "pdn";
    std::string output;
};

// What a subcommand reads with: the reader's options and the file encoding (nullopt = detect).
struct ReadSettings {
    core::PdnReadOptions options;
    std::optional<core::TextEncoding> encoding;
};

// Reads a whole file; false with an error text when it cannot be read.
bool read_file(const std::string& path, std::string& bytes, std::string& error) {
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
    bytes = ss.str();
    return true;
}

// The settings from the command line, or nullopt after reporting the error.
std::optional<ReadSettings> read_settings(const PdnOptions& o, CommandContext& ctx) {
    ReadSettings s;
    if (!o.variant.empty()) {
        const auto v = lookup_variant(ctx, o.variant);
        if (!v) {
            return std::nullopt;
        }
        s.options.default_variant = *v;
    } else {
        s.options.detect_variant = true;
    }
    s.options.movegen.forced_capture = !o.no_forced;
    s.options.lenient_setup          = o.lenient_setup;
    if (o.encoding != "auto") {
        s.encoding = core::encoding_from_key(o.encoding);
        if (!s.encoding) {
            fail(ctx,
                 "unknown encoding '" + o.encoding +
                     "' (known: auto, utf-8, utf-16le, utf-16be, latin-1, cp1252, cp1251)");
            return std::nullopt;
        }
    }
    return s;
}

core::PdnDocument read_document(const std::string& bytes, const ReadSettings& s) {
    return s.encoding ? core::read_pdn_document(bytes, *s.encoding, s.options)
                      : core::read_pdn_document(bytes, s.options);
}

void note(const std::string& message) {
    std::cerr << "papan: note: " << message << '\n';
}

// Says so when a file was not UTF-8.
void note_encoding(const std::string& path, core::TextEncoding e) {
    if (e != core::TextEncoding::Utf8 && e != core::TextEncoding::Utf8Bom) {
        note(path + ": not UTF-8: read as " + std::string(core::encoding_name(e)));
    }
}

void note_entry(const std::string& path, const core::PdnEntry& e) {
    for (const std::string& n : e.notes) {
        note(path + ": game " + std::to_string(e.number) + ": " + n);
    }
}

// The error of a bad game, with the option that would help where there is one.
std::string error_text(const core::PdnEntry& e) {
    switch (e.error_kind) {
    case core::PdnErrorKind::SetupPromotionRow:
        return e.error + "; --lenient-setup reads it as a king";
    case core::PdnErrorKind::VariantTie:
        return e.error + " (--variant)";
    case core::PdnErrorKind::None:
    case core::PdnErrorKind::Syntax:
    case core::PdnErrorKind::GameType:
    case core::PdnErrorKind::Setup:
    case core::PdnErrorKind::Move:
    case core::PdnErrorKind::AmbiguousMove:
    case core::PdnErrorKind::NoVariant:
        break;
    }
    return e.error;
}

std::string basis_text(core::PdnVariantBasis b) {
    switch (b) {
    case core::PdnVariantBasis::GameType:
        return "by GameType";
    case core::PdnVariantBasis::Default:
        return "by --variant";
    case core::PdnVariantBasis::Setup:
        return "by setup";
    case core::PdnVariantBasis::Moves:
        return "by moves";
    case core::PdnVariantBasis::File:
        return "by file";
    case core::PdnVariantBasis::Notation:
        return "by notation";
    case core::PdnVariantBasis::None:
        break;
    }
    return "undecided";
}

std::string tag_or(const core::PdnGame& g, std::string_view name, std::string_view fallback) {
    const std::string* v = g.tag(name);
    return (v != nullptr && !v->empty()) ? *v : std::string(fallback);
}

std::string dump(const nlohmann::ordered_json& j) {
    // Every string is UTF-8 (the files are decoded first); replacing stays a safety net only.
    return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

nlohmann::ordered_json entry_json(const core::PdnEntry& e) {
    const core::PdnGame& g    = e.game;
    nlohmann::ordered_json gj = {{"game", e.number}, {"line", g.line}, {"ok", e.ok()}};
    if (e.variant_basis != core::PdnVariantBasis::None) {
        gj["variant"]    = std::string(core::rules(g.variant).key);
        gj["variant_by"] = std::string(core::pdn_variant_basis_key(e.variant_basis));
    }
    if (e.ok()) {
        gj["white"]     = tag_or(g, "White", "?");
        gj["black"]     = tag_or(g, "Black", "?");
        gj["moves"]     = g.moves.size();
        gj["result"]    = core::convert_pdn_result(g.result, g.variant);
        gj["final_fen"] = core::to_fen(g.final_position());
    } else {
        gj["error"]      = error_text(e);
        gj["error_kind"] = std::string(core::pdn_error_kind_key(e.error_kind));
        gj["error_line"] = e.error_line;
        if (e.error_move > 0) {
            gj["error_move"] = e.error_move;
        }
        if (!e.tied_variants.empty()) {
            auto tied = nlohmann::ordered_json::array();
            for (const core::VariantId v : e.tied_variants) {
                tied.push_back(std::string(core::rules(v).key));
            }
            gj["tied_variants"] = tied;
        }
    }
    if (!e.notes.empty()) {
        gj["notes"] = e.notes;
    }
    return gj;
}

void run_check(const PdnOptions& o, CommandContext& ctx) {
    const auto settings = read_settings(o, ctx);
    if (!settings) {
        return;
    }
    nlohmann::ordered_json files = nlohmann::ordered_json::array();
    bool all_ok                  = true;
    for (const std::string& path : o.files) {
        nlohmann::ordered_json file_json = {{"file", path}};
        std::string bytes;
        std::string error;
        if (!read_file(path, bytes, error)) {
            fail(ctx, error);
            all_ok             = false;
            file_json["ok"]    = false;
            file_json["error"] = error;
            files.push_back(file_json);
            continue;
        }
        const core::PdnDocument doc  = read_document(bytes, *settings);
        file_json["encoding"]        = std::string(core::encoding_key(doc.encoding));
        nlohmann::ordered_json games = nlohmann::ordered_json::array();
        int bad                      = 0;
        note_encoding(path, doc.encoding);
        for (const core::PdnEntry& e : doc.entries) {
            const core::PdnGame& g = e.game;
            note_entry(path, e);
            if (e.ok()) {
                if (!o.json) {
                    std::cout << path << ": game " << e.number << ": ok ("
                              << core::rules(g.variant).key << ' ' << basis_text(e.variant_basis)
                              << ", " << g.moves.size() << " moves, "
                              << core::convert_pdn_result(g.result, g.variant) << ")\n";
                }
            } else {
                ++bad;
                fail(ctx, path + ": " + error_text(e));
            }
            games.push_back(entry_json(e));
        }
        if (doc.entries.empty()) {
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
        std::cout << dump(nlohmann::ordered_json{{"ok", all_ok}, {"files", files}}) << '\n';
    }
    std::cout.flush();
    if (!all_ok) {
        ctx.exit_code = 1;
    }
}

std::string fen_listing(const std::vector<const core::PdnEntry*>& good) {
    std::string out;
    for (const core::PdnEntry* e : good) {
        const core::PdnGame& g = e->game;
        out += "# game " + std::to_string(e->number) + ": " + tag_or(g, "White", "?") + " - " +
               tag_or(g, "Black", "?") + " (" + std::string(core::rules(g.variant).key) + ", " +
               core::convert_pdn_result(g.result, g.variant) + ")\n";
        out += "# start " + core::to_fen(g.start) + "\n";
        for (std::size_t ply = 1; ply <= g.moves.size(); ++ply) {
            out += core::to_fen(g.position_before(ply)) + "\n";
        }
    }
    return out;
}

bool write_output(const std::string& output, const std::string& text, CommandContext& ctx) {
    if (output.empty() || output == "-") {
        std::cout << text;
        std::cout.flush();
        return true;
    }
    std::ofstream file(output, std::ios::binary | std::ios::trunc);
    if (!file) {
        fail(ctx, "cannot write " + output);
        return false;
    }
    file << text;
    file.close();
    if (!file) {
        fail(ctx, "cannot write " + output);
        return false;
    }
    return true;
}

void run_convert(const PdnOptions& o, CommandContext& ctx) {
    if (o.to != "pdn" && o.to != "fen") {
        fail(ctx, "--to must be pdn or fen, not '" + o.to + "'");
        return;
    }
    const auto settings = read_settings(o, ctx);
    if (!settings) {
        return;
    }
    const std::string& path = o.files.front();
    std::string bytes;
    std::string error;
    if (!read_file(path, bytes, error)) {
        fail(ctx, error);
        return;
    }
    const core::PdnDocument doc = read_document(bytes, *settings);
    note_encoding(path, doc.encoding);
    if (doc.entries.empty()) {
        fail(ctx, path + ": no games found");
        return;
    }
    std::vector<const core::PdnEntry*> good;
    int bad = 0;
    for (const core::PdnEntry& e : doc.entries) {
        note_entry(path, e);
        if (e.ok()) {
            good.push_back(&e);
        } else {
            ++bad;
            fail(ctx, path + ": " + error_text(e));
        }
    }
    const std::string total = std::to_string(doc.entries.size());
    if (bad > 0 && (o.strict || good.empty())) {
        fail(ctx,
             path + ": " + std::to_string(bad) + " of " + total +
                 " games are bad: nothing written" + (o.strict ? " (--strict)" : ""));
        return;
    }
    std::string out;
    if (o.to == "pdn") {
        std::vector<core::PdnGame> games;
        games.reserve(good.size());
        for (const core::PdnEntry* e : good) {
            games.push_back(e->game);
        }
        core::PdnWriteOptions w;
        w.style = o.normalise ? core::PdnWriteStyle::Canonical : core::PdnWriteStyle::AsRead;
        out     = core::write_pdn(games, w);
    } else {
        out = fen_listing(good);
    }
    if (!write_output(o.output, out, ctx)) {
        return;
    }
    if (bad > 0) {
        fail(ctx,
             path + ": " + std::to_string(bad) + " of " + total + " games left out (" +
                 std::to_string(good.size()) + " written)");
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

// The options check and convert share.
void add_read_options(CLI::App* cmd, PdnOptions& o) {
    cmd->add_option("--variant,-v",
                    o.variant,
                    "Variant of games without a GameType tag (default: detected per game)");
    cmd->add_option("--encoding",
                    o.encoding,
                    "Text encoding: auto (default), utf-8, utf-16le, utf-16be, latin-1, cp1252, "
                    "cp1251");
    cmd->add_flag("--no-forced-capture",
                  o.no_forced,
                  "House rule: captures are optional (8x8 diagonal variants)");
    cmd->add_flag("--lenient-setup",
                  o.lenient_setup,
                  "Read a man on its own promotion row in a setup as a king (problem positions)");
}

}  // namespace

void register_pdn_command(CLI::App& app, CommandContext& ctx) {
    auto* pdn = app.add_subcommand("pdn", "Check or convert PDN files");
    pdn->require_subcommand(1);

    auto check_opts = std::make_shared<PdnOptions>();
    auto* check     = pdn->add_subcommand("check", "Import every game through the rules");
    check->add_option("files", check_opts->files, "PDN files")->required();
    add_read_options(check, *check_opts);
    check->add_flag("--json", check_opts->json, "JSON output");
    check->callback([check_opts, &ctx] { guarded(ctx, [&] { run_check(*check_opts, ctx); }); });

    auto convert_opts = std::make_shared<PdnOptions>();
    auto* convert     = pdn->add_subcommand("convert", "Re-write PDN, or list FENs");
    convert->add_option("file", convert_opts->files, "PDN file")->required()->expected(1);
    add_read_options(convert, *convert_opts);
    convert->add_option("--to", convert_opts->to, "Output: pdn (default) or fen");
    convert->add_option("-o,--output", convert_opts->output, "Output file (default stdout)");
    convert->add_flag("--normalise,--normalize",
                      convert_opts->normalise,
                      "Write the canonical form (seven tags, full GameType, result style)");
    convert->add_flag("--strict",
                      convert_opts->strict,
                      "Write nothing unless every game is good (default: leave bad games out)");
    convert->callback(
        [convert_opts, &ctx] { guarded(ctx, [&] { run_convert(*convert_opts, ctx); }); });
}

}  // namespace papan::cli
