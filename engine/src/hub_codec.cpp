// Hub protocol v2 codec (see hub.hpp and docs/engine-protocols.md): line syntax, position
// strings, moves and scores. Pure: no I/O.
#include "hub_numbers.hpp"

#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/engine/hub.hpp>

#include <algorithm>
#include <cstdlib>

namespace papan::engine {

namespace {

bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_separator(char c) noexcept {
    return c == '-' || c == 'x' || c == 'X' || c == ':' || c == '*';
}

template <class T>
std::optional<T> parse_int(std::string_view s) {
    return detail::parse_hub_int<T>(s);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Line syntax

std::optional<std::string> HubLine::get(std::string_view name) const {
    for (const auto& [k, v] : args) {
        if (k == name) {
            return v;
        }
    }
    return std::nullopt;
}

bool HubLine::has_flag(std::string_view name) const {
    return std::find(flags.begin(), flags.end(), name) != flags.end();
}

HubLine parse_hub_line(std::string_view line) {
    HubLine r;
    std::size_t i       = 0;
    const std::size_t n = line.size();
    const auto skip     = [&] {
        while (i < n && is_space(line[i])) {
            ++i;
        }
    };
    skip();
    while (i < n && !is_space(line[i])) {
        r.command += line[i++];
    }
    for (;;) {
        skip();
        if (i >= n) {
            break;
        }
        std::string name;
        while (i < n && !is_space(line[i]) && line[i] != '=') {
            name += line[i++];
        }
        if (i < n && line[i] == '=') {
            ++i;
            std::string value;
            if (i < n && line[i] == '"') {
                ++i;
                while (i < n && line[i] != '"') {
                    value += line[i++];
                }
                if (i < n) {
                    ++i;  // closing quote
                }
            } else {
                while (i < n && !is_space(line[i])) {
                    value += line[i++];
                }
            }
            r.args.emplace_back(std::move(name), std::move(value));
        } else {
            r.flags.push_back(std::move(name));
        }
    }
    return r;
}

std::string hub_quote(std::string_view value) {
    bool quote = value.empty();
    std::string v;
    for (const char c : value) {
        if (is_space(c) || c == '=' || c == '"') {
            quote = true;
        }
        v += c == '"' ? '\'' : (c == '\n' || c == '\r' ? ' ' : c);
    }
    return quote ? "\"" + v + "\"" : v;
}

// ---------------------------------------------------------------------------------------------
// Positions, moves, scores

std::string hub_position(const core::Position& pos) {
    const int n = core::square_count(pos.variant);
    std::string s;
    s.reserve(static_cast<std::size_t>(n) + 1);
    s += pos.side == core::Color::White ? 'W' : 'B';
    for (int sq = 1; sq <= n; ++sq) {
        const int b     = *core::bit_of_square(pos.variant, sq);
        const bool king = core::has(pos.kings, b);
        if (core::has(pos.of(core::Color::White), b)) {
            s += king ? 'W' : 'w';
        } else if (core::has(pos.of(core::Color::Black), b)) {
            s += king ? 'B' : 'b';
        } else {
            s += 'e';
        }
    }
    return s;
}

core::Expected<core::Position> parse_hub_position(core::VariantId v, std::string_view text) {
    const int n                = core::square_count(v);
    const std::string_view key = core::rules(v).key;
    if (text.size() != static_cast<std::size_t>(n) + 1) {
        return core::Error{"position of " + std::to_string(text.size()) + " characters; " +
                           std::string(key) + " needs " + std::to_string(n + 1) +
                           " (side to move and " + std::to_string(n) + " squares)"};
    }
    core::Position pos;
    pos.variant = v;
    switch (text[0]) {
    case 'W':
    case 'w':
        pos.side = core::Color::White;
        break;
    case 'B':
    case 'b':
    case 'Z':
    case 'z':
        pos.side = core::Color::Black;
        break;
    default:
        return core::Error{"side to move must be W or B, not '" + std::string(1, text[0]) + "'"};
    }
    for (int sq = 1; sq <= n; ++sq) {
        const char c     = text[static_cast<std::size_t>(sq)];
        const auto b     = core::bit(*core::bit_of_square(v, sq));
        const auto white = static_cast<std::size_t>(core::Color::White);
        const auto black = static_cast<std::size_t>(core::Color::Black);
        switch (c) {
        case 'w':
            pos.pieces[white] |= b;
            break;
        case 'W':
            pos.pieces[white] |= b;
            pos.kings |= b;
            break;
        case 'b':
        case 'z':
            pos.pieces[black] |= b;
            break;
        case 'B':
        case 'Z':
            pos.pieces[black] |= b;
            pos.kings |= b;
            break;
        case 'e':
        case 'E':
        case '.':
            break;
        default:
            return core::Error{"bad character '" + std::string(1, c) + "' for square " +
                               std::to_string(sq) + " (w b W B e)"};
        }
    }
    if (!pos.is_consistent()) {
        return core::Error{"inconsistent position (a man on its promotion row?)"};
    }
    return pos;
}

std::string hub_move(core::VariantId v, const core::Move& m) {
    std::string s = std::to_string(core::square_of_bit(v, m.from));
    s += m.is_capture() ? 'x' : '-';
    s += std::to_string(core::square_of_bit(v, m.to));
    if (m.is_capture()) {
        for (const int c : core::captured_squares(v, m)) {
            s += 'x';
            s += std::to_string(c);
        }
    }
    return s;
}

core::Expected<core::Move>
parse_hub_move(const core::Position& pos, std::string_view text, core::MoveGenOptions options) {
    // Numbers separated by - x : * (Hub form): from, to, captured squares.
    std::vector<int> numbers;
    bool numeric  = !text.empty();
    bool capture  = false;
    std::size_t i = 0;
    while (numeric && i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && text[j] >= '0' && text[j] <= '9') {
            ++j;
        }
        const auto value = j - i <= 3 ? parse_int<int>(text.substr(i, j - i)) : std::nullopt;
        if (!value) {
            numeric = false;
            break;
        }
        numbers.push_back(*value);
        if (j == text.size()) {
            break;
        }
        if (!is_separator(text[j]) || j + 1 == text.size()) {
            numeric = false;
            break;
        }
        capture = capture || text[j] != '-';
        i       = j + 1;
    }
    if (numeric && numbers.size() >= 2) {
        const std::vector<int> captured(numbers.begin() + 2, numbers.end());
        if (!captured.empty() || !capture) {
            auto m = core::find_move(pos, numbers[0], numbers[1], captured, options);
            if (m) {
                return m;
            }
        }
    }
    auto m = core::parse_move(pos, text, options);
    if (!m) {
        return core::Error{"illegal or unreadable move '" + std::string(text) + "': " + m.error()};
    }
    return m;
}

std::string hub_score(int centi_men) {
    int value = centi_men;
    if (std::abs(value) >= kMateBound) {
        const int plies = std::clamp(kMateScore - std::abs(value), 1, 100);
        value           = (value < 0 ? -1 : 1) * (2000 - plies);
    }
    const int a   = std::abs(value);
    std::string s = value < 0 ? "-" : "";
    s += std::to_string(a / 100) + ".";
    const int frac = a % 100;
    s += static_cast<char>('0' + frac / 10);
    s += static_cast<char>('0' + frac % 10);
    return s;
}

}  // namespace papan::engine
