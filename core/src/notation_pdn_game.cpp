// The PDN game record (PdnGame), results and dates, and the text helpers the PDN reader and
// writer share (pdn_syntax.hpp).
#include "pdn_syntax.hpp"

#include <papan/core/rules/registry.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace papan::core {

namespace pdn {

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

bool iequals(std::string_view a, std::string_view b) noexcept {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string_view trim(std::string_view s) noexcept {
    while (!s.empty() && is_space(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && is_space(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

std::string collapse_space(std::string_view s) {
    std::string out;
    bool pending = false;
    for (const char c : s) {
        if (is_space(c)) {
            pending = !out.empty();
            continue;
        }
        if (pending) {
            out += ' ';
            pending = false;
        }
        out += c;
    }
    return out;
}

const char* color_name(Color c) noexcept {
    return c == Color::White ? "white" : "black";
}

const std::string* find_tag_ci(const PdnGame& g, std::string_view name) {
    for (const auto& [k, v] : g.tags) {
        if (iequals(k, name)) {
            return &v;
        }
    }
    return nullptr;
}

std::string syntax_message(int game, int line, const std::string& what) {
    return "game " + std::to_string(game) + ", line " + std::to_string(line) + ": " + what;
}

}  // namespace pdn

namespace {

using pdn::is_digit;
using pdn::trim;

std::optional<int> parse_small_int(std::string_view s) {
    int v = 0;
    if (s.empty() || s.size() > 9) {
        return std::nullopt;
    }
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc{} || res.ptr != s.data() + s.size()) {
        return std::nullopt;
    }
    return v;
}

}  // namespace

// --- PdnGame -------------------------------------------------------------------------------------

const std::string* PdnGame::tag(std::string_view name) const {
    for (const auto& [k, v] : tags) {
        if (k == name) {
            return &v;
        }
    }
    return nullptr;
}

void PdnGame::set_tag(std::string_view name, std::string value) {
    for (auto& [k, v] : tags) {
        if (k == name) {
            v = std::move(value);
            return;
        }
    }
    tags.emplace_back(std::string(name), std::move(value));
}

Position PdnGame::position_before(std::size_t ply) const {
    Position p    = start;
    std::size_t s = 0;
    for (std::size_t k = 0;; ++k) {
        while (s < setups.size() && setups[s].ply == k) {
            p = setups[s++].position;
        }
        if (k >= ply || k >= moves.size()) {
            return p;
        }
        p = make_move(p, moves[k]);
    }
}

PdnGame make_pdn_game(VariantId v) {
    PdnGame g;
    g.variant  = v;
    g.start    = start_position(v);
    g.comments = {""};
    return g;
}

// --- results -------------------------------------------------------------------------------------

std::optional<PdnResult> parse_pdn_result(std::string_view text) noexcept {
    text = trim(text);
    if (text == "1-0" || text == "2-0") {
        return PdnResult::FirstWins;
    }
    if (text == "0-1" || text == "0-2") {
        return PdnResult::SecondWins;
    }
    if (text == "1/2-1/2" || text == "1-1" || text == "\xC2\xBD-\xC2\xBD") {
        return PdnResult::Draw;
    }
    if (text == "0-0") {
        return PdnResult::BothLose;
    }
    if (text == "*" || text == "-") {
        return PdnResult::Unknown;
    }
    return std::nullopt;
}

bool uses_international_results(VariantId v) noexcept {
    return rules(v).topology == Topology::Diagonal10;
}

std::string_view pdn_result_text(PdnResult r, VariantId v) noexcept {
    const bool intl = uses_international_results(v);
    switch (r) {
    case PdnResult::FirstWins:
        return intl ? "2-0" : "1-0";
    case PdnResult::SecondWins:
        return intl ? "0-2" : "0-1";
    case PdnResult::Draw:
        return intl ? "1-1" : "1/2-1/2";
    case PdnResult::BothLose:
        return "0-0";
    case PdnResult::Unknown:
        return "*";
    }
    return "*";
}

std::string convert_pdn_result(std::string_view text, VariantId v) {
    const auto r = parse_pdn_result(text);
    return std::string(pdn_result_text(r ? *r : PdnResult::Unknown, v));
}

std::string normalize_pdn_date(std::string_view date) {
    date = trim(date);
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= date.size() && parts.size() < 3; ++i) {
        if (i == date.size() || date[i] == '.' || date[i] == '-' || date[i] == '/') {
            parts.push_back(date.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.resize(3);
    const auto all_digits = [](std::string_view s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
    };
    if (!(all_digits(parts[0]) && parts[0].size() == 4) && all_digits(parts[2]) &&
        parts[2].size() == 4) {
        std::swap(parts[0], parts[2]);  // DD.MM.YYYY
    }
    std::string out = all_digits(parts[0]) && parts[0].size() == 4 ? std::string(parts[0]) : "????";
    const auto two  = [&](std::string_view s, int max) -> std::string {
        if (!all_digits(s) || s.size() > 2) {
            return "??";
        }
        const int n = *parse_small_int(s);
        if (n < 1 || n > max) {
            return "??";
        }
        std::string two_digits = std::to_string(n);
        if (n < 10) {
            two_digits.insert(two_digits.begin(), '0');
        }
        return two_digits;
    };
    out += '.';
    out += two(parts[1], 12);
    out += '.';
    out += two(parts[2], 31);
    return out;
}

std::string resolve_pdn_result(const std::string* tag, std::string_view terminator) {
    const PdnResult term = parse_pdn_result(terminator).value_or(PdnResult::Unknown);
    const PdnResult from_tag =
        tag != nullptr ? parse_pdn_result(*tag).value_or(PdnResult::Unknown) : PdnResult::Unknown;
    if (from_tag != PdnResult::Unknown && from_tag != term) {
        return std::string(trim(*tag));
    }
    return parse_pdn_result(terminator) ? std::string(trim(terminator)) : std::string("*");
}

std::string_view pdn_variant_basis_key(PdnVariantBasis b) noexcept {
    switch (b) {
    case PdnVariantBasis::GameType:
        return "game_type";
    case PdnVariantBasis::Default:
        return "default";
    case PdnVariantBasis::Setup:
        return "setup";
    case PdnVariantBasis::Moves:
        return "moves";
    case PdnVariantBasis::File:
        return "file";
    case PdnVariantBasis::Notation:
        return "notation";
    case PdnVariantBasis::None:
        return "none";
    }
    return "none";
}

std::string_view pdn_error_kind_key(PdnErrorKind k) noexcept {
    switch (k) {
    case PdnErrorKind::None:
        return "";
    case PdnErrorKind::Syntax:
        return "syntax";
    case PdnErrorKind::GameType:
        return "game_type";
    case PdnErrorKind::Setup:
        return "setup";
    case PdnErrorKind::SetupPromotionRow:
        return "setup_promotion_row";
    case PdnErrorKind::Move:
        return "move";
    case PdnErrorKind::AmbiguousMove:
        return "ambiguous_move";
    case PdnErrorKind::NoVariant:
        return "no_variant";
    case PdnErrorKind::VariantTie:
        return "variant_tie";
    }
    return "";
}

}  // namespace papan::core
