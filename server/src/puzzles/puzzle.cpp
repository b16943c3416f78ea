// Puzzle values: ids, themes, the first rating estimate and the JSON line of a set file.
#include "puzzles/material.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/server/puzzle.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>

namespace papan::server {

using Json = nlohmann::ordered_json;

namespace {

constexpr std::array<std::pair<Theme, std::string_view>, 7> kThemeNames{{
    {Theme::Shot, "shot"},
    {Theme::Breakthrough, "breakthrough"},
    {Theme::Tempo, "tempo"},
    {Theme::Endgame, "endgame"},
    {Theme::Capture, "capture"},
    {Theme::Win, "win"},
    {Theme::Quiet, "quiet"},
}};

constexpr int kEndgamePieces = 8;

int legal_count(const core::Position& p) {
    core::MoveList moves;
    core::generate_moves(p, moves);
    return static_cast<int>(moves.size());
}

}  // namespace

std::string_view theme_name(Theme t) noexcept {
    for (const auto& [theme, name] : kThemeNames) {
        if (theme == t) {
            return name;
        }
    }
    return "";
}

std::optional<Theme> theme_from_name(std::string_view s) noexcept {
    for (const auto& [theme, name] : kThemeNames) {
        if (name == s) {
            return theme;
        }
    }
    return std::nullopt;
}

std::string puzzle_id(core::VariantId v, std::string_view fen) {
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a, 64 bits
    const auto mix  = [&h](std::string_view s) {
        for (const char c : s) {
            h ^= static_cast<unsigned char>(c);
            h *= 1099511628211ULL;
        }
    };
    mix(core::rules(v).key);
    mix("|");
    mix(fen);
    char buf[16];
    std::snprintf(
        buf, sizeof buf, "p%012llx", static_cast<unsigned long long>(h & 0xFFFFFFFFFFFFULL));
    return buf;
}

std::vector<Theme> puzzle_themes(const core::Position& start,
                                 const std::vector<core::Move>& line,
                                 int horizon,
                                 int proven) {
    std::vector<Theme> out;
    if (line.empty()) {
        return out;
    }
    std::vector<core::Position> before{start};
    for (const auto& m : line) {
        before.push_back(core::make_move(before.back(), m));
    }
    const std::size_t n = line.size();
    bool shot           = false;
    bool crowned        = false;
    for (std::size_t i = 0; i < n; i += 2) {
        crowned = crowned || line[i].promotes;
        if (!line[i].is_capture() && i + 1 < n && line[i + 1].is_capture()) {
            for (std::size_t j = i + 2; j < n; j += 2) {
                shot = shot || line[j].capture_count() >= 2;
            }
        }
    }
    const bool quiet =
        !line[0].is_capture() && n >= 2 && !line[1].is_capture() && legal_count(before[1]) >= 2;
    bool tempo = false;
    if (quiet) {
        // The opponent's turn skipped: the solver to move again right after the key.
        core::Position skipped = before[1];
        skipped.side           = start.side;
        puzzles::MaterialSearch ms(12);
        tempo = ms.exact(skipped, std::max(horizon - 2, 0)) < proven;
    }
    const bool endgame = core::popcount(start.occupied()) <= kEndgamePieces;
    const bool capture = line[0].is_capture() && legal_count(start) >= 2;
    const bool win     = n % 2 == 1 && legal_count(before[n]) == 0;
    const std::array<std::pair<Theme, bool>, 7> found{{{Theme::Shot, shot},
                                                       {Theme::Breakthrough, crowned},
                                                       {Theme::Tempo, tempo},
                                                       {Theme::Endgame, endgame},
                                                       {Theme::Capture, capture},
                                                       {Theme::Win, win},
                                                       {Theme::Quiet, quiet && !tempo}}};
    for (const auto& [theme, yes] : found) {
        if (yes) {
            out.push_back(theme);
        }
    }
    return out;
}

int puzzle_start_rating(const Puzzle& p) {
    const int solver_moves = static_cast<int>(p.solution.size() + 1) / 2;
    int r                  = 1000 + 120 * (solver_moves - 1) + 60 * p.proof.horizon;
    const auto has         = [&](Theme t) {
        return std::find(p.themes.begin(), p.themes.end(), t) != p.themes.end();
    };
    if (has(Theme::Tempo) || has(Theme::Quiet)) {
        r += 150;
    }
    if (has(Theme::Shot)) {
        r += 50;
    }
    return std::clamp(r, 800, 2400);
}

core::Expected<std::vector<core::Move>> puzzle_line(const Puzzle& p) {
    auto pos = core::parse_fen(p.variant, p.fen);
    if (!pos) {
        return core::Error{"bad fen: " + pos.error()};
    }
    std::vector<core::Move> line;
    core::Position at = *pos;
    for (std::size_t i = 0; i < p.solution.size(); ++i) {
        auto m = core::parse_move(at, p.solution[i]);
        if (!m) {
            return core::Error{"solution move " + std::to_string(i + 1) + " '" + p.solution[i] +
                               "': " + m.error()};
        }
        line.push_back(*m);
        at = core::make_move(at, *m);
    }
    return line;
}

std::string puzzle_to_json(const Puzzle& p) {
    Json themes = Json::array();
    for (const Theme t : p.themes) {
        themes.push_back(theme_name(t));
    }
    Json wrong = Json::array();
    for (const auto& w : p.wrong) {
        wrong.push_back({{"step", w.step},
                         {"move", w.move},
                         {"reply", w.reply},
                         {"captured", w.captured},
                         {"crowns", w.crowns},
                         {"value", w.value}});
    }
    const auto& f = p.proof;
    Json j{{"id", p.id},
           {"variant", core::rules(p.variant).key},
           {"fen", p.fen},
           {"solution", p.solution},
           {"themes", themes},
           {"rating", p.rating},
           {"source", p.source},
           {"proof",
            {{"depth", f.depth},
             {"score", f.score},
             {"second", f.second},
             {"nodes", f.nodes},
             {"horizon", f.horizon},
             {"baseline", f.baseline},
             {"proven", f.proven},
             {"alternative", f.alternative}}},
           {"wrong", wrong}};
    return j.dump();
}

core::Expected<Puzzle> puzzle_from_json(std::string_view line) {
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        return core::Error{"not a JSON object"};
    }
    try {
        Puzzle p;
        p.id           = j.at("id").get<std::string>();
        const auto key = j.at("variant").get<std::string>();
        const auto v   = core::variant_from_key(key);
        if (!v) {
            return core::Error{"unknown variant '" + key + "'"};
        }
        p.variant  = *v;
        p.fen      = j.at("fen").get<std::string>();
        p.solution = j.at("solution").get<std::vector<std::string>>();
        for (const auto& t : j.at("themes")) {
            const auto theme = theme_from_name(t.get<std::string>());
            if (!theme) {
                return core::Error{"unknown theme " + t.dump()};
            }
            p.themes.push_back(*theme);
        }
        p.rating            = j.at("rating").get<int>();
        p.source            = j.at("source").get<std::string>();
        const auto& f       = j.at("proof");
        p.proof.depth       = f.at("depth").get<int>();
        p.proof.score       = f.at("score").get<int>();
        p.proof.second      = f.at("second").get<int>();
        p.proof.nodes       = f.at("nodes").get<std::uint64_t>();
        p.proof.horizon     = f.at("horizon").get<int>();
        p.proof.baseline    = f.at("baseline").get<int>();
        p.proof.proven      = f.at("proven").get<int>();
        p.proof.alternative = f.at("alternative").get<int>();
        for (const auto& w : j.at("wrong")) {
            p.wrong.push_back(WrongMove{w.at("step").get<int>(),
                                        w.at("move").get<std::string>(),
                                        w.at("reply").get<std::string>(),
                                        w.at("captured").get<int>(),
                                        w.at("crowns").get<bool>(),
                                        w.at("value").get<int>()});
        }
        if (p.solution.empty()) {
            return core::Error{"empty solution"};
        }
        return p;
    } catch (const Json::exception& e) {
        return core::Error{std::string("bad puzzle: ") + e.what()};
    }
}

core::Expected<std::vector<Puzzle>> read_puzzle_set(std::string_view text) {
    std::vector<Puzzle> out;
    int number = 0;
    while (!text.empty()) {
        const auto eol        = text.find('\n');
        std::string_view line = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        ++number;
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.empty() || line.front() == '#') {
            continue;
        }
        auto p = puzzle_from_json(line);
        if (!p) {
            return core::Error{"line " + std::to_string(number) + ": " + p.error()};
        }
        out.push_back(std::move(p).value());
    }
    return out;
}

std::string write_puzzle_set(const std::vector<Puzzle>& puzzles) {
    std::string out;
    for (const auto& p : puzzles) {
        out += puzzle_to_json(p);
        out += '\n';
    }
    return out;
}

}  // namespace papan::server
