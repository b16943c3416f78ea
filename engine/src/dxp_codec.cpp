// DXP message codec (see dxp.hpp and docs/engine-protocols.md): parsing and writing the
// fixed-width messages, and the position strings. Pure: no I/O.
#include <papan/core/notation/squares.hpp>
#include <papan/engine/dxp.hpp>
#include <papan/engine/hub.hpp>

#include <algorithm>
#include <optional>

namespace papan::engine {

namespace {

// ---------------------------------------------------------------------------------------------
// Codec helpers

std::optional<int> read_digits(std::string_view s, std::size_t pos, std::size_t width) {
    if (pos + width > s.size()) {
        return std::nullopt;
    }
    int value = 0;
    for (std::size_t i = pos; i < pos + width; ++i) {
        if (s[i] < '0' || s[i] > '9') {
            return std::nullopt;
        }
        value = value * 10 + (s[i] - '0');
    }
    return value;
}

std::string zero_pad(int value, int width) {
    int limit = 1;
    for (int i = 0; i < width; ++i) {
        limit *= 10;
    }
    std::string s = std::to_string(std::clamp(value, 0, limit - 1));
    while (s.size() < static_cast<std::size_t>(width)) {
        s.insert(s.begin(), '0');
    }
    return s;
}

char printable(char c) {
    return c >= ' ' && c <= '~' ? c : '?';
}

std::string name_field(std::string_view name) {
    while (!name.empty() && name.front() == ' ') {
        name.remove_prefix(1);
    }
    std::string s;
    for (const char c : name.substr(0, kDxpNameWidth)) {
        s += printable(c);
    }
    if (s.empty()) {
        s.push_back('?');  // not `s = "?"`: GCC 12 misreads that here (-Wrestrict)
    }
    s.resize(kDxpNameWidth, ' ');
    return s;
}

std::string trim_right(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
        s.remove_suffix(1);
    }
    return std::string(s);
}

std::optional<core::Color> colour_of(char c) {
    if (c == 'W' || c == 'w') {
        return core::Color::White;
    }
    if (c == 'Z' || c == 'z' || c == 'B' || c == 'b') {
        return core::Color::Black;
    }
    return std::nullopt;
}

core::Error malformed(std::string_view text, const std::string& why) {
    std::string shown;
    for (const char c : text.substr(0, 60)) {
        shown += printable(c);
    }
    return core::Error{"malformed DXP message \"" + shown + (text.size() > 60 ? "..." : "") +
                       "\": " + why};
}

}  // namespace

char dxp_colour(core::Color c) noexcept {
    return c == core::Color::White ? 'W' : 'Z';
}

core::Expected<DxpMessage> parse_dxp(std::string_view s) {
    if (s.empty()) {
        return malformed(s, "empty message");
    }
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u == 0 || u > 127) {
            return malformed(s, "byte outside ASCII 1-127");
        }
    }
    switch (s[0]) {
    case 'R': {
        // R vv name(32) colour minutes(3) moves(3) start [colour position]
        constexpr std::size_t kName = 3;
        constexpr std::size_t kCol  = kName + kDxpNameWidth;
        if (s.size() < kCol + 8) {
            return malformed(s, "GAMEREQ shorter than 43 characters");
        }
        DxpGameRequest r;
        const auto version = read_digits(s, 1, 2);
        const auto colour  = colour_of(s[kCol]);
        const auto minutes = read_digits(s, kCol + 1, 3);
        const auto moves   = read_digits(s, kCol + 4, 3);
        if (!version || !colour || !minutes || !moves) {
            return malformed(s, "GAMEREQ fields (version, colour W/Z, minutes, moves)");
        }
        r.version        = *version;
        r.initiator_name = trim_right(s.substr(kName, kDxpNameWidth));
        r.follower_color = *colour;
        r.minutes        = *minutes;
        r.moves          = *moves;
        const char start = s[kCol + 7];
        if (start == 'A') {
            r.custom_start = false;
        } else if (start == 'B') {
            if (s.size() < kCol + 9) {
                return malformed(s, "GAMEREQ with start B but no position");
            }
            const auto to_move = colour_of(s[kCol + 8]);
            if (!to_move) {
                return malformed(s, "GAMEREQ colour to move must be W or Z");
            }
            r.custom_start = true;
            r.to_move      = *to_move;
            r.position     = std::string(s.substr(kCol + 9));
        } else {
            return malformed(s, "GAMEREQ start must be A or B");
        }
        return DxpMessage{r};
    }
    case 'A': {
        if (s.size() < 2) {
            return malformed(s, "GAMEACC without acceptance code");
        }
        DxpGameAccept a;
        // Standard: name(32) + code; tolerate a shorter name (the code is the last character).
        const std::size_t code_at = std::min<std::size_t>(s.size() - 1, 1 + kDxpNameWidth);
        a.follower_name           = trim_right(s.substr(1, code_at - 1));
        a.code                    = s[code_at];
        if (a.code < '0' || a.code > '9') {
            return malformed(s, "GAMEACC acceptance code must be a digit");
        }
        return DxpMessage{a};
    }
    case 'M': {
        const auto seconds = read_digits(s, 1, 4);
        const auto from    = read_digits(s, 5, 2);
        const auto to      = read_digits(s, 7, 2);
        const auto n       = read_digits(s, 9, 2);
        if (!seconds || !from || !to || !n) {
            return malformed(s, "MOVE needs time(4) from(2) to(2) count(2) digits");
        }
        const auto count = static_cast<std::size_t>(*n);
        if (s.size() < 11 + 2 * count) {
            return malformed(s, "MOVE has fewer captured squares than its count");
        }
        DxpMove m;
        m.seconds = *seconds;
        m.from    = *from;
        m.to      = *to;
        for (std::size_t i = 0; i < count; ++i) {
            const auto c = read_digits(s, 11 + 2 * i, 2);
            if (!c) {
                return malformed(s, "MOVE captured square is not two digits");
            }
            m.captured.push_back(*c);
        }
        if (trim_right(s.substr(11 + 2 * count)).size() != 0) {
            return malformed(s, "MOVE has extra characters");
        }
        return DxpMessage{m};
    }
    case 'E': {
        if (s.size() < 3 || s[1] < '0' || s[1] > '9' || (s[2] != '0' && s[2] != '1')) {
            return malformed(s, "GAMEEND needs reason(1) and stop code 0/1");
        }
        return DxpMessage{DxpGameEnd{s[1], s[2]}};
    }
    case 'C':
        return DxpMessage{DxpChat{std::string(s.substr(1))}};
    case 'B': {
        const auto number = read_digits(s, 1, 3);
        const auto colour = s.size() >= 5 ? colour_of(s[4]) : std::nullopt;
        if (!number || !colour) {
            return malformed(s, "BACKREQ needs move number(3) and colour W/Z");
        }
        return DxpMessage{DxpBackRequest{*number, *colour}};
    }
    case 'K': {
        if (s.size() < 2 || s[1] < '0' || s[1] > '9') {
            return malformed(s, "BACKACC needs a code digit");
        }
        return DxpMessage{DxpBackAccept{s[1]}};
    }
    default:
        return malformed(s, "unknown message type '" + std::string(1, printable(s[0])) + "'");
    }
}

std::string encode_dxp(const DxpMessage& message) {
    struct Encoder {
        std::string operator()(const DxpGameRequest& r) const {
            // Appended piece by piece: GCC 12 misreads `"R" + std::string` (-Wrestrict).
            std::string s = "R";
            s += zero_pad(r.version, 2);
            s += name_field(r.initiator_name);
            s += dxp_colour(r.follower_color);
            s += zero_pad(r.minutes, 3);
            s += zero_pad(r.moves, 3);
            if (r.custom_start) {
                s += 'B';
                s += dxp_colour(r.to_move);
                s += r.position;
            } else {
                s += 'A';
            }
            return s;
        }

        std::string operator()(const DxpGameAccept& a) const {
            std::string s = "A";
            s += name_field(a.follower_name);
            s += a.code;
            return s;
        }

        std::string operator()(const DxpMove& m) const {
            std::string s = "M";
            s += zero_pad(m.seconds, 4);
            s += zero_pad(m.from, 2);
            s += zero_pad(m.to, 2);
            s += zero_pad(static_cast<int>(m.captured.size()), 2);
            for (const int c : m.captured) {
                s += zero_pad(c, 2);
            }
            return s;
        }

        std::string operator()(const DxpGameEnd& e) const {
            return std::string("E") + e.reason + e.stop;
        }

        std::string operator()(const DxpChat& c) const {
            std::string s = "C";
            for (const char ch : std::string_view(c.text).substr(0, kDxpMax - 1)) {
                s += printable(ch);
            }
            if (s.size() == 1) {
                s += ' ';
            }
            return s;
        }

        std::string operator()(const DxpBackRequest& b) const {
            std::string s = "B";
            s += zero_pad(b.move_number, 3);
            s += dxp_colour(b.to_move);
            return s;
        }

        std::string operator()(const DxpBackAccept& k) const { return std::string("K") + k.code; }
    };

    return std::visit(Encoder{}, message);
}

std::string dxp_squares(const core::Position& pos) {
    std::string s = hub_position(pos).substr(1);
    for (char& c : s) {
        if (c == 'b') {
            c = 'z';
        } else if (c == 'B') {
            c = 'Z';
        }
    }
    return s;
}

core::Expected<core::Position>
parse_dxp_position(core::VariantId v, core::Color to_move, std::string_view squares) {
    std::string hub(1, to_move == core::Color::White ? 'W' : 'B');
    hub += squares;
    return parse_hub_position(v, hub);
}

}  // namespace papan::engine
