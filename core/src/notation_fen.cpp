#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/squares.hpp>

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace papan::core {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) {
        s.remove_suffix(1);
    }
    return s;
}

std::optional<int> parse_int(std::string_view s) {
    if (s.empty() || s.size() > 6) {
        return std::nullopt;
    }
    int v          = 0;
    const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc{} || res.ptr != s.data() + s.size()) {
        return std::nullopt;
    }
    return v;
}

// A square number from "12" or (8x8 boards) "c3".
std::optional<int> parse_square(VariantId v, std::string_view s) {
    if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0])) != 0) {
        const auto n = parse_int(s);
        if (!n || !bit_of_square(v, *n)) {
            return std::nullopt;
        }
        return n;
    }
    if (rules(v).board().size == 8) {
        return square_from_algebraic(v, s);
    }
    return std::nullopt;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == sep) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

}  // namespace

Expected<FenInfo> parse_fen_info(VariantId v, std::string_view text) {
    return parse_fen_info(v, text, FenReadOptions{});
}

Expected<FenInfo>
parse_fen_info(VariantId v, std::string_view text, const FenReadOptions& options) {
    const RuleSet& r     = rules(v);
    std::string_view fen = trim(text);
    if (!fen.empty() && fen.back() == '.') {
        fen.remove_suffix(1);
    }
    if (fen.empty()) {
        return Error{"empty FEN"};
    }
    const auto fields = split(fen, ':');
    FenInfo info;
    Position& p                 = info.position;
    p.variant                   = v;
    const std::string_view side = trim(fields[0]);
    if (side == "W" || side == "w") {
        p.side = Color::White;
    } else if (side == "B" || side == "b") {
        p.side = Color::Black;
    } else if (side == "?") {
        p.side = r.first_to_move;
    } else {
        return Error{"FEN side to move must be W or B, got '" + std::string(side) + "'"};
    }
    const std::string ctx = "FEN '" + std::string(fen) + "': ";
    for (std::size_t f = 1; f < fields.size(); ++f) {
        const std::string_view field = trim(fields[f]);
        if (field.empty()) {
            return Error{ctx + "empty field " + std::to_string(f + 1)};
        }
        const char tag = static_cast<char>(std::toupper(static_cast<unsigned char>(field[0])));
        if (tag == 'H' || tag == 'F') {
            const auto n = parse_int(field.substr(1));
            if (!n) {
                return Error{ctx + "bad counter '" + std::string(field) + "'"};
            }
            (tag == 'H' ? info.halfmove_clock : info.fullmove_number) = *n;
            continue;
        }
        if (tag != 'W' && tag != 'B') {
            return Error{ctx + "field '" + std::string(field) + "' must start with W or B"};
        }
        const Color c               = tag == 'W' ? Color::White : Color::Black;
        const std::string_view list = trim(field.substr(1));
        if (list.empty()) {
            continue;  // an empty side is allowed
        }
        for (std::string_view item : split(list, ',')) {
            item      = trim(item);
            bool king = false;
            if (!item.empty() && (item[0] == 'K' || item[0] == 'k')) {
                king = true;
                item = trim(item.substr(1));
            }
            if (item.empty()) {
                return Error{ctx + "empty square in the " +
                             (c == Color::White ? "white" : "black") + " list"};
            }
            int lo          = 0;
            int hi          = 0;
            const auto dash = item.find('-');
            if (dash != std::string_view::npos) {
                const auto a = parse_int(trim(item.substr(0, dash)));
                const auto b = parse_int(trim(item.substr(dash + 1)));
                if (!a || !b || *a > *b || !bit_of_square(v, *a) || !bit_of_square(v, *b)) {
                    return Error{ctx + "bad range '" + std::string(item) + "' (squares 1-" +
                                 std::to_string(square_count(v)) + ")"};
                }
                lo = *a;
                hi = *b;
            } else {
                const auto n = parse_square(v, item);
                if (!n) {
                    return Error{ctx + "'" + std::string(item) + "' is not a square of the " +
                                 std::string(r.name) + " board (1-" +
                                 std::to_string(square_count(v)) + ")"};
                }
                lo = hi = *n;
            }
            for (int n = lo; n <= hi; ++n) {
                const int b = *bit_of_square(v, n);
                if (has(p.occupied(), b)) {
                    return Error{ctx + "square " + std::to_string(n) + " is given twice"};
                }
                p.pieces[static_cast<std::size_t>(c)] |= bit(b);
                if (king) {
                    p.kings |= bit(b);
                } else if (has(r.board().promotion[static_cast<std::size_t>(c)], b)) {
                    if (!options.crown_men_on_promotion_row) {
                        return Error{ctx + (c == Color::White ? "white" : "black") + " man on " +
                                     std::to_string(n) + " stands on its promotion row"};
                    }
                    p.kings |= bit(b);
                    info.crowned.push_back(n);
                }
            }
        }
    }
    return info;
}

Expected<Position> parse_fen(VariantId v, std::string_view fen) {
    return parse_fen(v, fen, FenReadOptions{});
}

Expected<Position> parse_fen(VariantId v, std::string_view fen, const FenReadOptions& options) {
    auto info = parse_fen_info(v, fen, options);
    if (!info) {
        return Error{info.error()};
    }
    return info.value().position;
}

std::string to_fen(const Position& pos) {
    std::string s(1, pos.side == Color::White ? 'W' : 'B');
    const int count = square_count(pos.variant);
    for (const Color c : {Color::White, Color::Black}) {
        s += c == Color::White ? ":W" : ":B";
        bool first = true;
        for (int n = 1; n <= count; ++n) {
            const int b = *bit_of_square(pos.variant, n);
            if (!has(pos.of(c), b)) {
                continue;
            }
            if (!first) {
                s += ',';
            }
            first = false;
            if (has(pos.kings, b)) {
                s += 'K';
            }
            s += std::to_string(n);
        }
    }
    return s;
}

}  // namespace papan::core
