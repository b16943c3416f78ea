// Writing PDN (notation/pdn.hpp): the header in the canonical form or as read, then the move
// text (numbers, moves in the variant's notation, marks, comments, variations, setups) and the
// result, wrapped at 80 columns.
#include "pdn_syntax.hpp"

#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <array>
#include <cctype>

namespace papan::core {

namespace {

using pdn::collapse_space;
using pdn::find_tag_ci;
using pdn::iequals;
using pdn::trim;

constexpr std::size_t kLineWidth = 80;

constexpr std::array<std::string_view, 7> kSevenTags = {
    "Event", "Site", "Date", "Round", "White", "Black", "Result"};

bool is_written_specially(std::string_view name) {
    return std::any_of(kSevenTags.begin(),
                       kSevenTags.end(),
                       [&](std::string_view t) { return iequals(t, name); }) ||
           iequals(name, "GameType") || iequals(name, "FEN");
}

std::string escape_tag_value(std::string_view v) {
    std::string out;
    for (const char c : v) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n' || c == '\r' || c == '\t') {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

std::string tag_line(std::string_view name, std::string_view value) {
    std::string line(1, '[');
    line.append(name);
    line += " \"";
    line += escape_tag_value(value);
    line += "\"]\n";
    return line;
}

// Identifier characters only (a tag name as PDN allows it).
std::string clean_tag_name(std::string_view name) {
    std::string out;
    for (const char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_') {
            out += c;
        }
    }
    return out;
}

// A name as read, unless it could not be read back (then its identifier characters).
std::string readable_tag_name(std::string_view name) {
    const std::string_view t = trim(name);
    const bool readable = !t.empty() && t == name && std::none_of(t.begin(), t.end(), [](char c) {
        return c == '"' || c == '[' || c == ']' || c == '{' || c == '}' || c == '\n' || c == '\r' ||
               c == '\t';
    });
    return readable ? std::string(t) : clean_tag_name(name);
}

// Words of a bracketed text ("{...}" or "(...)"), for wrapping.
void add_bracketed_units(std::vector<std::string>& units,
                         std::string_view body,
                         char open,
                         char close) {
    std::string text = collapse_space(body);
    if (open == '{') {
        std::replace(text.begin(), text.end(), '}', ')');
    }
    if (text.empty()) {
        if (open == '(') {
            units.emplace_back("()");
        }
        return;
    }
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        words.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    words.front().insert(words.front().begin(), open);
    words.back() += close;
    for (auto& w : words) {
        units.push_back(std::move(w));
    }
}

// Lines of at most 80 columns. A unit starting with '[' or '%' never starts a line: read back,
// it would look like a tag line or a line comment (it stays on the line before, however long).
std::string wrap(const std::vector<std::string>& units) {
    std::string out;
    std::string line;
    for (const std::string& u : units) {
        const bool must_follow = !u.empty() && (u.front() == '[' || u.front() == '%');
        if (line.empty()) {
            line = u;
        } else if (line.size() + 1 + u.size() <= kLineWidth || must_follow) {
            line += ' ';
            line += u;
        } else {
            out += line;
            out += '\n';
            line = u;
        }
    }
    if (!line.empty()) {
        out += line;
        out += '\n';
    }
    return out;
}

// The start position the header gives (FEN tag, read leniently, else the standard start).
Position header_start(const PdnGame& g) {
    if (const std::string* fen = find_tag_ci(g, "FEN")) {
        if (auto p = parse_fen(g.variant, *fen, FenReadOptions{true})) {
            return *p;
        }
    }
    return start_position(g.variant);
}

std::string canonical_header(const PdnGame& g, const std::string& result) {
    const RuleSet& r = rules(g.variant);
    std::string out;
    for (const std::string_view name : kSevenTags) {
        const std::string* v = find_tag_ci(g, name);
        std::string value    = v != nullptr ? std::string(trim(*v)) : std::string();
        if (name == "Date") {
            value = normalize_pdn_date(value);
        } else if (name == "Result") {
            value = convert_pdn_result(result, g.variant);
        } else if (value.empty()) {
            value.assign(1, '?');
        }
        out += tag_line(name, value);
    }
    out += tag_line("GameType", r.game_type);
    const bool standard_start = g.start == start_position(g.variant);
    if (!standard_start) {
        out += tag_line("FEN", to_fen(g.start));
    }
    for (const auto& [name, value] : g.tags) {
        const std::string clean = clean_tag_name(name);
        if (clean.empty() || is_written_specially(clean) || trim(value).empty()) {
            continue;
        }
        if (standard_start && iequals(clean, "SetUp")) {
            continue;
        }
        out += tag_line(clean, value);
    }
    return out;
}

// The tags as read; only what would not read back to the same game is changed: a Result that
// disagrees with the result, a GameType naming another variant, a FEN that does not read.
std::string header_as_read(const PdnGame& g, const std::string& result) {
    std::string out;
    const auto wanted = parse_pdn_result(result);
    for (const auto& [name, raw_value] : g.tags) {
        const std::string n = readable_tag_name(name);
        if (n.empty()) {
            continue;
        }
        std::string value = raw_value;
        if (iequals(n, "Result") && parse_pdn_result(value) != wanted) {
            value = result;
        } else if (iequals(n, "GameType") && variant_from_game_type(value) != g.variant) {
            value = rules(g.variant).game_type;
        } else if (iequals(n, "FEN") && !parse_fen(g.variant, value, FenReadOptions{true})) {
            value = to_fen(g.start);
        }
        out += tag_line(n, value);
    }
    return out;
}

// A mark's parts: a strength ("!?") attaches to its move, NAGs and "(!)" stand alone.
void add_mark_units(std::vector<std::string>& units, std::string_view mark) {
    const std::string text = collapse_space(mark);
    std::size_t start      = 0;
    while (start < text.size()) {
        const std::size_t end  = std::min(text.find(' ', start), text.size());
        const std::string part = text.substr(start, end - start);
        const bool strength    = !part.empty() && (part.front() == '!' || part.front() == '?');
        if (strength && !units.empty()) {
            units.back() += part;
        } else {
            units.push_back(part);
        }
        start = end + 1;
    }
}

std::string move_text_units(const PdnGame& g, PdnWriteStyle style, const std::string& result) {
    const RuleSet& r = rules(g.variant);
    std::vector<std::string> units;
    if (style == PdnWriteStyle::AsRead && header_start(g) != g.start) {
        units.push_back("/FEN \"" + to_fen(g.start) + "\"/");
    }
    if (!g.comments.empty()) {
        add_bracketed_units(units, g.comments[0], '{', '}');
    }
    Position pos     = g.start;
    int number       = 1;
    bool need_number = true;
    std::size_t s    = 0;
    std::size_t var  = 0;
    std::optional<Color> last_mover;
    const auto add_variations = [&](std::size_t ply) {
        for (; var < g.variations.size() && g.variations[var].ply <= ply; ++var) {
            add_bracketed_units(units, g.variations[var].text, '(', ')');
            need_number = true;
        }
    };
    add_variations(0);
    for (std::size_t k = 0;; ++k) {
        while (s < g.setups.size() && g.setups[s].ply == k) {
            pos = g.setups[s++].position;
            units.push_back("/FEN \"" + to_fen(pos) + "\"/");
            need_number = true;
        }
        if (k >= g.moves.size()) {
            break;
        }
        const Move& m     = g.moves[k];
        const Color mover = pos.side;
        std::string text  = move_text(pos, m);
        if (mover == r.first_to_move && last_mover == r.first_to_move) {
            ++number;  // the first mover moves twice in a row (after a setup)
        }
        last_mover = mover;
        if (mover == r.first_to_move) {
            units.push_back(std::to_string(number) + ". " + text);
        } else if (need_number) {
            units.push_back(std::to_string(number) + "... " + text);
        } else {
            units.push_back(std::move(text));
        }
        need_number = false;
        if (k < g.marks.size() && !g.marks[k].empty()) {
            add_mark_units(units, g.marks[k]);
        }
        if (k + 1 < g.comments.size() && !g.comments[k + 1].empty()) {
            add_bracketed_units(units, g.comments[k + 1], '{', '}');
            need_number = true;
        }
        add_variations(k + 1);
        if (mover != r.first_to_move) {
            ++number;
        }
        pos = make_move(pos, m);
    }
    add_variations(g.moves.size() + g.variations.size());  // past the last move (not read so)
    units.push_back(style == PdnWriteStyle::Canonical ? convert_pdn_result(result, g.variant)
                                                      : result);
    return wrap(units);
}

}  // namespace

std::string write_pdn_game(const PdnGame& g, const PdnWriteOptions& options) {
    // One result for the Result tag and the terminator (they never disagree).
    const std::string* tag = g.tag("Result");
    if (tag == nullptr) {
        tag = find_tag_ci(g, "Result");
    }
    const std::string result = resolve_pdn_result(tag, g.result);
    std::string out = options.style == PdnWriteStyle::Canonical ? canonical_header(g, result)
                                                                : header_as_read(g, result);
    if (out.empty() && g.moves.empty() && g.setups.empty() && g.variations.empty()) {
        out = tag_line("Result", result);  // a result alone would read as a game separator
    }
    if (!out.empty()) {
        out += '\n';
    }
    out += move_text_units(g, options.style, result);
    return out;
}

std::string write_pdn_game(const PdnGame& game) {
    return write_pdn_game(game, PdnWriteOptions{});
}

std::string write_pdn(const std::vector<PdnGame>& games, const PdnWriteOptions& options) {
    std::string out;
    for (std::size_t i = 0; i < games.size(); ++i) {
        if (i > 0) {
            out += '\n';
        }
        out += write_pdn_game(games[i], options);
    }
    return out;
}

std::string write_pdn(const std::vector<PdnGame>& games) {
    return write_pdn(games, PdnWriteOptions{});
}

}  // namespace papan::core
