// What the browser is told about a game: the position, its legal moves with full landing paths,
// the moves played with the FEN before and after each, the result and the move-limit counters.
// The parts the server's game state has too are written by the same code (papan_wire,
// papan/server/wire/game_writer.hpp), in the same form, so the board component takes either.
#pragma once

#include "json_out.hpp"

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

namespace papan::wasm {

// {"from","to","path","captures","text"}: `m` is a move of `legal`, the moves of `pos`.
void write_move(JsonOut& out,
                const core::Position& pos,
                const core::Move& m,
                const core::MoveList& legal);

// The whole state of `game` (see docs/web.md, "The analysis worker").
void write_game(JsonOut& out, const core::Game& game);

}  // namespace papan::wasm
