// The parts of a game both the server's messages and the browser build's answers carry, written
// with JsonWriter in the one form docs/protocol.md ("Game state") gives: the pieces, a move,
// the legal moves, the moves played, the move-limit counters and a result's fields.
#pragma once

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/core/position.hpp>
#include <papan/server/game_kinds.hpp>
#include <papan/server/wire/json_writer.hpp>

#include <string_view>

namespace papan::server::wire {

// Square numbers of the set bits, ascending, as an array.
void write_squares(JsonWriter& out, core::VariantId v, core::Bitboard b);

// {"white","white_kings","black","black_kings"}.
void write_pieces(JsonWriter& out, const core::Position& pos);

// The path and captures of a move: the fields "path" and "captures" of the object being written.
void write_path_fields(JsonWriter& out, core::VariantId v, const core::Move& m);

// {"ply","color","text","path","captures"}: the move played on `ply` from `before`, `text` in
// the variant's short notation.
void write_played_move(JsonWriter& out,
                       int ply,
                       const core::Position& before,
                       const core::Move& m,
                       std::string_view text);

// [{"text","path","captures"}...]: the legal moves of the current position of `game` (an empty
// array when `show` is false: the game is not being played).
void write_legal_moves(JsonWriter& out, const core::Game& game, bool show);

// [{"ply","color","text","path","captures"}...]: every move of the game (each text made against
// the legal moves of its position, as a move's event writes it).
void write_moves(JsonWriter& out, const core::Game& game);

// [{"rule","text","limit_moves","moves_left","plies_left","kind"?}...]: the move-limit
// counters that apply now (an empty array when `show` is false: the game is over).
void write_move_limits(JsonWriter& out, const core::Game& game, bool show);

// The fields "outcome", "reason" and "text" of a result object.
void write_result_fields(JsonWriter& out,
                         core::Outcome outcome,
                         EndReason reason,
                         std::string_view text);

}  // namespace papan::server::wire
