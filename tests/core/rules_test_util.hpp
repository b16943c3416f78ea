// Helpers for the hand-built rule tests (tests/core/rules_<variant>_test.cpp): the complete set
// of legal moves of a FEN as sorted strings, so each test states the whole move set it expects.
//
// Move string format (independent of the variant's own notation, always square numbers):
//   quiet move   "22-18"
//   capture      "18x11 [15,22]"   from x to, then the captured squares ascending
//   a trailing "=K" when the moving man ends the move crowned (Move::promotes).
#pragma once

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/core/position.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace papan::core::rules_test {

[[nodiscard]] inline std::string move_string(VariantId v, const Move& m) {
    const std::vector<int> path = path_squares(v, m);
    std::string s               = std::to_string(path.front());
    s += m.is_capture() ? 'x' : '-';
    s += std::to_string(path.back());
    if (m.is_capture()) {
        s += " [";
        const std::vector<int> caps = captured_squares(v, m);
        for (std::size_t i = 0; i < caps.size(); ++i) {
            if (i > 0) {
                s += ',';
            }
            s += std::to_string(caps[i]);
        }
        s += ']';
    }
    if (m.promotes) {
        s += "=K";
    }
    return s;
}

[[nodiscard]] inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// The position of a FEN; a bad FEN is a test failure (and an empty position).
[[nodiscard]] inline Position position(VariantId v, std::string_view fen) {
    const auto pos = parse_fen(v, fen);
    if (!pos.ok()) {
        ADD_FAILURE() << "bad FEN '" << fen << "': " << pos.error();
        Position p;
        p.variant = v;
        return p;
    }
    return *pos;
}

// Every legal move of the FEN as a sorted list of move strings (duplicates kept, so a move
// listed twice shows up as a failure).
[[nodiscard]] inline std::vector<std::string>
legal_moves(VariantId v, std::string_view fen, MoveGenOptions options = {}) {
    const Position pos = position(v, fen);
    MoveList list;
    generate_moves(pos, list, options);
    std::vector<std::string> out;
    for (const Move& m : list) {
        out.push_back(move_string(v, m));
    }
    return sorted(out);
}

// The legal move of the FEN whose move string is `wanted` (a failure when none matches).
[[nodiscard]] inline Move find_legal(VariantId v, std::string_view fen, std::string_view wanted) {
    const Position pos = position(v, fen);
    MoveList list;
    generate_moves(pos, list);
    for (const Move& m : list) {
        if (move_string(v, m) == wanted) {
            return m;
        }
    }
    ADD_FAILURE() << "no legal move '" << wanted << "' in '" << fen << "'";
    return Move{};
}

// The FEN after playing the legal move `wanted` (a move string) in the FEN.
[[nodiscard]] inline std::string
fen_after(VariantId v, std::string_view fen, std::string_view wanted) {
    const Position pos = position(v, fen);
    const Move m       = find_legal(v, fen, wanted);
    return to_fen(make_move(pos, m));
}

// Square numbers of a bitboard, ascending.
[[nodiscard]] inline std::vector<int> squares_of(VariantId v, Bitboard b) {
    std::vector<int> out;
    while (b != 0) {
        out.push_back(square_of_bit(v, pop_lsb(b)));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The landing path (from square first) of the legal move `wanted`.
[[nodiscard]] inline std::vector<int>
path_of(VariantId v, std::string_view fen, std::string_view wanted) {
    return path_squares(v, find_legal(v, fen, wanted));
}

}  // namespace papan::core::rules_test

// Compares the complete legal move set of `fen` with the listed move strings (any order).
#define EXPECT_MOVES(variant, fen, ...)                                                            \
    EXPECT_EQ(::papan::core::rules_test::legal_moves(variant, fen),                                \
              ::papan::core::rules_test::sorted(std::vector<std::string>{__VA_ARGS__}))            \
        << "FEN " << (fen)

#define EXPECT_MOVES_OPT(variant, fen, options, ...)                                               \
    EXPECT_EQ(::papan::core::rules_test::legal_moves(variant, fen, options),                       \
              ::papan::core::rules_test::sorted(std::vector<std::string>{__VA_ARGS__}))            \
        << "FEN " << (fen)
