// Move text in each variant's customary notation (notation.md): numeric "32-28" / "28x19", or
// algebraic "c3-d4" / "c3:e5" (Russian) / "d3xd5" (Turkish). The full landing path is written
// ("28x19x10") only when another legal move shares the same from and to squares.
#pragma once

#include <papan/core/expected.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace papan::core {

// Square numbers of the move's landing path, starting with the from square.
[[nodiscard]] std::vector<int> path_squares(VariantId v, const Move& m);

// Square numbers of the captured pieces, ascending.
[[nodiscard]] std::vector<int> captured_squares(VariantId v, const Move& m);

// Text of `m`, a move of `legal` (the legal moves of `pos`).
[[nodiscard]] std::string move_text(const Position& pos, const Move& m, const MoveList& legal);
[[nodiscard]] std::string move_text(const Position& pos, const Move& m);

// The text with the whole landing path, whatever the ambiguity.
[[nodiscard]] std::string move_text_full(const Position& pos, const Move& m);

// Finds the legal move a text names. Accepts numbers or algebraic squares, separators - x : *,
// the short form "from-to" or any full or partial landing path. Errors say whether the text is
// malformed, names no legal move, or is ambiguous.
[[nodiscard]] Expected<Move>
parse_move(const Position& pos, std::string_view text, MoveGenOptions options = {});

// Every legal move the text can name (at least one), for readers that settle an ambiguous text
// themselves (the PDN reader looks ahead in the game). The same errors as parse_move, except
// that an ambiguous text gives its moves instead of an error.
[[nodiscard]] Expected<std::vector<Move>>
parse_move_candidates(const Position& pos, std::string_view text, MoveGenOptions options = {});

// Finds the legal move with these from/to square numbers and this set of captured square
// numbers (the move identity of Hub and DXP messages).
[[nodiscard]] Expected<Move> find_move(const Position& pos,
                                       int from,
                                       int to,
                                       const std::vector<int>& captured,
                                       MoveGenOptions options = {});

}  // namespace papan::core
