// libFuzzer target: the FEN reader. The first byte picks the variant ((byte + 2) % 10, so the
// digits '0'..'9' give VariantId 0..9); the rest is the FEN text given to core::parse_fen_info. A
// FEN that parses must give a consistent position, write back with to_fen and read again to the
// same position (a fixpoint from then on); its legal moves must each write as text that parse_move
// reads back to the same move.
#include "fuzz_check.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/position.hpp>
#include <papan/core/types.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace papan::fuzz::fen_fuzz {

using namespace papan::core;

namespace {

constexpr Checker check{"fuzz_fen"};

}  // namespace

// One input; returns 0. A finding aborts (or throws Finding in the regression test).
int one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const auto v = static_cast<VariantId>((data[0] + 2) % kVariantCount);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    const auto info = parse_fen_info(v, text);
    if (!info.ok()) {
        check(!info.error().empty(), "an error without a message", text);
        return 0;
    }
    const Position& pos = info->position;
    check(pos.variant == v, "position of another variant", text);
    check(pos.is_consistent(), "inconsistent position", text);

    const std::string fen = to_fen(pos);
    const auto again      = parse_fen(v, fen);
    check(again.ok(), "to_fen output does not parse", fen);
    check(*again == pos, "to_fen output parses to another position", fen);
    check(to_fen(*again) == fen, "to_fen is not a fixpoint", fen);

    // Every legal move of the position writes as text that reads back to the same move. A
    // position with more capture routes than a MoveList holds is read against its distinct
    // moves (parse_move), where a full path may then name more than one: only no crash is asked.
    MoveList legal;
    generate_moves(pos, legal);
    check(!legal.overflowed(), "more legal moves than a MoveList holds", text);
    MoveList routes;
    generate_routes(pos, routes);
    if (routes.overflowed()) {
        for (const Move& m : legal) {
            (void)parse_move(pos, move_text(pos, m, legal));
        }
        return 0;
    }
    for (const Move& m : legal) {
        const std::string t = move_text(pos, m, legal);
        const auto back     = parse_move(pos, t);
        check(back.ok(), "move_text output does not parse", t);
        check(back->same_as(m), "move_text output parses to another move", t);
        const Position next = make_move(pos, m);
        check(next.is_consistent(), "a legal move gives an inconsistent position", t);
    }
    return 0;
}

}  // namespace papan::fuzz::fen_fuzz

PAPAN_FUZZ_ENTRY(papan::fuzz::fen_fuzz::one_input)
