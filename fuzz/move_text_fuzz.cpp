// libFuzzer target: the move text parser. Byte 0 picks the variant ((byte + 2) % 10: '0'..'9'
// give VariantId 0..9); byte 1 picks one of a few fixed positions of that variant (low 6 bits,
// modulo their number), the "no forced capture" house rule (bit 7) and the function (bit 6).
// Bit 6 clear: the rest of the input is a text for core::parse_move. Bit 6 set: it is a list of
// little-endian 16-bit numbers (from, to, captured...) for core::find_move. A move found must be
// a legal move matching what was asked, and its texts must read back to the same move; an error
// for a text that is UTF-8 must be UTF-8.
#include "fuzz_check.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/encoding.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

#include <climits>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace papan::fuzz::move_text_fuzz {

using namespace papan::core;

namespace {

constexpr Checker check{"fuzz_move_text"};

// Positions with captures, several capture routes and kings (the first, third and sixth from
// tests/core/move_text_test.cpp, the others made up for this target).
struct Extra {
    VariantId v;
    const char* fen;
};

constexpr std::array<Extra, 9> kExtras{{
    {VariantId::American, "W:W30:B10,17,18,25,26"},  // two routes 30x7
    {VariantId::American, "W:W22,31:B18"},
    {VariantId::International, "W:W28:B32,33"},
    {VariantId::International, "W:WK46,K28:B7,9,12,13,19,22,23,32,33,38"},
    {VariantId::Russian, "W:Wc3,Ke1,g3:Bd6,f6,b6,d4"},
    {VariantId::Italian, "W:WK24:BK11,K19,K20,27,K28"},
    {VariantId::Turkish, "W:W20,K30:B28,36,44,K50"},
    {VariantId::Brazilian, "W:WK29,22:B18,11,10,26"},
    {VariantId::Thai, "W:WK29,22:B18,11,10,26"},
}};

// Per variant: the start position, positions of a fixed playout and the extra positions.
std::array<std::vector<Position>, kVariantCount> make_positions() {
    std::array<std::vector<Position>, kVariantCount> out;
    for (int i = 0; i < kVariantCount; ++i) {
        const auto v = static_cast<VariantId>(i);
        Position pos = start_position(v);
        out[static_cast<std::size_t>(i)].push_back(pos);
        for (int ply = 1; ply <= 40; ++ply) {
            MoveList legal;
            generate_moves(pos, legal);
            if (legal.empty()) {
                break;
            }
            pos = make_move(pos, legal[static_cast<std::size_t>(ply * 7 + 3) % legal.size()]);
            if (ply % 8 == 0) {
                out[static_cast<std::size_t>(i)].push_back(pos);
            }
        }
    }
    for (const Extra& e : kExtras) {
        const auto p = parse_fen(e.v, e.fen);
        if (p.ok()) {
            out[static_cast<std::size_t>(e.v)].push_back(*p);
        }
    }
    return out;
}

const std::array<std::vector<Position>, kVariantCount>& positions() {
    static const auto all = make_positions();
    return all;
}

bool is_legal(const Move& m, const MoveList& legal) {
    return std::any_of(legal.begin(), legal.end(), [&](const Move& l) { return l.same_as(m); });
}

// The text and the full text of a legal move read back to that move.
void check_texts(const Position& pos, const Move& m, const MoveList& legal, MoveGenOptions o) {
    const std::string t = move_text(pos, m, legal);
    const auto back     = parse_move(pos, t, o);
    check(back.ok() && back->same_as(m), "move_text does not read back", t);
    const std::string full = move_text_full(pos, m);
    const auto back_full   = parse_move(pos, full, o);
    check(back_full.ok() && back_full->same_as(m), "move_text_full does not read back", full);
}

int number(const std::uint8_t* p) {
    const auto raw = static_cast<std::uint16_t>(p[0] | (p[1] << 8));
    if (raw == 0x7fff) {
        return INT_MAX;
    }
    if (raw == 0x8000) {
        return INT_MIN;
    }
    return static_cast<std::int16_t>(raw);
}

}  // namespace

// One input; returns 0. A finding aborts (or throws Finding in the regression test).
int one_input(const std::uint8_t* data, std::size_t size) {
    if (size < 2) {
        return 0;
    }
    const auto v        = static_cast<VariantId>((data[0] + 2) % kVariantCount);
    const auto& list    = positions()[static_cast<std::size_t>(v)];
    const Position& pos = list[(data[1] & 0x3fU) % list.size()];
    MoveGenOptions options;
    options.forced_capture = (data[1] & 0x80U) == 0;
    const bool find_mode   = (data[1] & 0x40U) != 0;
    data += 2;
    size -= 2;

    MoveList legal;
    generate_moves(pos, legal, options);

    if (!find_mode) {
        const std::string_view text(reinterpret_cast<const char*>(data), size);
        const auto m = parse_move(pos, text, options);
        if (!m.ok()) {
            check(!m.error().empty(), "an error without a message", text);
            // Errors reach JSON output: text that is UTF-8 gives an error that is UTF-8.
            check(!is_valid_utf8(text) || is_valid_utf8(m.error()),
                  "an error that is not UTF-8",
                  text);
            return 0;
        }
        check(is_legal(*m, legal), "parse_move gives an illegal move", text);
        check_texts(pos, *m, legal, options);
        return 0;
    }

    if (size < 4) {
        return 0;
    }
    const int from = number(data);
    const int to   = number(data + 2);
    std::vector<int> captured;
    for (std::size_t i = 4; i + 1 < size && captured.size() < 32; i += 2) {
        captured.push_back(number(data + i));
    }
    const auto m = find_move(pos, from, to, captured, options);
    if (!m.ok()) {
        check(!m.error().empty(), "an error without a message", "find_move");
        return 0;
    }
    check(is_legal(*m, legal), "find_move gives an illegal move", "find_move");
    const auto path = path_squares(v, *m);
    check(!path.empty() && path.front() == from && path.back() == to,
          "find_move gives a move with other squares",
          "find_move");
    auto wanted = captured;
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    check(captured_squares(v, *m) == wanted,
          "find_move gives a move with other captures",
          "find_move");
    check_texts(pos, *m, legal, options);
    return 0;
}

}  // namespace papan::fuzz::move_text_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::move_text_fuzz::one_input)
