#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>

namespace papan::core {

namespace {

bool is_separator(char c) noexcept {
    return c == '-' || c == 'x' || c == 'X' || c == ':' || c == '*';
}

std::string join_squares(VariantId v, const std::vector<int>& squares, char sep) {
    std::string s;
    for (std::size_t i = 0; i < squares.size(); ++i) {
        if (i > 0) {
            s += sep;
        }
        s += square_text(v, squares[i]);
    }
    return s;
}

std::optional<int> parse_square_token(VariantId v, std::string_view t) {
    if (t.empty()) {
        return std::nullopt;
    }
    if (std::isdigit(static_cast<unsigned char>(t[0])) != 0) {
        int n          = 0;
        const auto res = std::from_chars(t.data(), t.data() + t.size(), n);
        if (res.ec != std::errc{} || res.ptr != t.data() + t.size() || !bit_of_square(v, n)) {
            return std::nullopt;
        }
        return n;
    }
    return square_from_algebraic(v, t);
}

std::string_view trim_space(std::string_view text) noexcept {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
        text.remove_suffix(1);
    }
    return text;
}

// A route's landing squares, from square first.
bool path_contains_in_order(const std::vector<int>& path, const std::vector<int>& wanted) {
    std::size_t j = 0;
    for (std::size_t i = 1; i + 1 < path.size() && j < wanted.size(); ++i) {
        if (path[i] == wanted[j]) {
            ++j;
        }
    }
    return j == wanted.size();
}

}  // namespace

std::vector<int> path_squares(VariantId v, const Move& m) {
    std::vector<int> p{square_of_bit(v, m.from)};
    if (m.path_len == 0) {
        p.push_back(square_of_bit(v, m.to));
    } else {
        for (int i = 0; i < m.path_len; ++i) {
            p.push_back(square_of_bit(v, m.path[static_cast<std::size_t>(i)]));
        }
    }
    return p;
}

std::vector<int> captured_squares(VariantId v, const Move& m) {
    std::vector<int> c;
    Bitboard b = m.captured;
    while (b != 0) {
        c.push_back(square_of_bit(v, pop_lsb(b)));
    }
    std::sort(c.begin(), c.end());
    return c;
}

std::string move_text_full(const Position& pos, const Move& m) {
    const RuleSet& r = pos.rules();
    const char sep   = m.is_capture() ? r.capture_separator : '-';
    return join_squares(pos.variant, path_squares(pos.variant, m), sep);
}

std::string move_text(const Position& pos, const Move& m, const MoveList& legal) {
    const bool ambiguous = std::any_of(legal.begin(), legal.end(), [&](const Move& o) {
        return o.from == m.from && o.to == m.to && !o.same_as(m);
    });
    if (ambiguous) {
        return move_text_full(pos, m);
    }
    const RuleSet& r = pos.rules();
    const char sep   = m.is_capture() ? r.capture_separator : '-';
    return join_squares(
        pos.variant, {square_of_bit(pos.variant, m.from), square_of_bit(pos.variant, m.to)}, sep);
}

std::string move_text(const Position& pos, const Move& m) {
    MoveList legal;
    generate_moves(pos, legal);
    return move_text(pos, m, legal);
}

Expected<std::vector<Move>>
parse_move_candidates(const Position& pos, std::string_view text, MoveGenOptions options) {
    text = trim_space(text);
    // Error messages quote at most 64 bytes, never cutting a UTF-8 character in two (the
    // messages reach JSON output).
    const std::string shown(utf8_prefix(text, 64));
    if (text.empty()) {
        return Error{"empty move"};
    }
    std::vector<int> squares;
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t j = i;
        while (j < text.size() && !is_separator(text[j])) {
            ++j;
        }
        const auto sq = parse_square_token(pos.variant, text.substr(i, j - i));
        if (!sq) {
            return Error{"malformed move '" + shown + "': '" +
                         std::string(utf8_prefix(text.substr(i, j - i), 64)) +
                         "' is not a square of the " + std::string(pos.rules().name) + " board"};
        }
        squares.push_back(*sq);
        if (j < text.size()) {
            ++j;  // the separator
            if (j == text.size()) {
                return Error{"malformed move '" + shown + "': it ends with a separator"};
            }
        }
        i = j;
    }
    if (squares.size() < 2) {
        return Error{"malformed move '" + shown + "': expected from-to"};
    }
    const int from = squares.front();
    const int to   = squares.back();
    const std::vector<int> middle(squares.begin() + 1, squares.end() - 1);

    MoveList routes;
    generate_routes(pos, routes, options);
    if (routes.overflowed()) {
        // More capture routes than a list holds (a built position; see MoveList::push): read the
        // text against the distinct moves, each with the landing path of one of its routes.
        routes.clear();
        generate_moves(pos, routes, options);
        if (routes.overflowed()) {
            return Error{"cannot read move '" + shown + "': this position has more than " +
                         std::to_string(kMaxMoves) + " legal moves"};
        }
    }
    std::vector<Move> found;
    std::vector<Move> exact;  // moves with a route whose whole landing path is the text
    const auto add_once = [](std::vector<Move>& list, const Move& m) {
        if (std::none_of(list.begin(), list.end(), [&](const Move& f) { return f.same_as(m); })) {
            list.push_back(m);
        }
    };
    for (const Move& m : routes) {
        if (square_of_bit(pos.variant, m.from) != from || square_of_bit(pos.variant, m.to) != to) {
            continue;
        }
        const std::vector<int> path = path_squares(pos.variant, m);
        if (!middle.empty() && !path_contains_in_order(path, middle)) {
            continue;
        }
        add_once(found, m);
        if (path == squares) {
            add_once(exact, m);
        }
    }
    if (found.empty()) {
        return Error{"illegal move '" + shown + "'"};
    }
    // The full path move_text writes for an ambiguous move names it exactly, even when it is
    // also a part of a longer route ("23-5" beside "23-16-7-14-5").
    if (found.size() > 1 && exact.size() == 1) {
        found = exact;
    }
    // Return the representatives of the de-duplicated list (their paths are the ones shown to
    // players).
    MoveList legal;
    generate_moves(pos, legal, options);
    for (Move& f : found) {
        for (const Move& m : legal) {
            if (m.same_as(f)) {
                f = m;
                break;
            }
        }
    }
    return found;
}

Expected<Move> parse_move(const Position& pos, std::string_view text, MoveGenOptions options) {
    auto found = parse_move_candidates(pos, text, options);
    if (!found) {
        return Error{found.error()};
    }
    if (found->size() > 1) {
        const Move& m = found->front();
        return Error{"ambiguous move '" + std::string(utf8_prefix(trim_space(text), 64)) +
                     "': " + std::to_string(found->size()) + " legal moves go from " +
                     square_text(pos.variant, square_of_bit(pos.variant, m.from)) + " to " +
                     square_text(pos.variant, square_of_bit(pos.variant, m.to)) +
                     "; write the full path"};
    }
    return found->front();
}

Expected<Move> find_move(const Position& pos,
                         int from,
                         int to,
                         const std::vector<int>& captured,
                         MoveGenOptions options) {
    Bitboard want = 0;
    for (const int c : captured) {
        const auto b = bit_of_square(pos.variant, c);
        if (!b) {
            return Error{"square " + std::to_string(c) + " is not on the board"};
        }
        want |= bit(*b);
    }
    const auto fb = bit_of_square(pos.variant, from);
    const auto tb = bit_of_square(pos.variant, to);
    if (!fb || !tb) {
        return Error{"move squares " + std::to_string(from) + "-" + std::to_string(to) +
                     " are not on the board"};
    }
    MoveList legal;
    generate_moves(pos, legal, options);
    for (const Move& m : legal) {
        if (m.from == *fb && m.to == *tb && m.captured == want) {
            return m;
        }
    }
    return Error{"illegal move " + std::to_string(from) + "-" + std::to_string(to)};
}

}  // namespace papan::core
