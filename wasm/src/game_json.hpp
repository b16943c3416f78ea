// What the browser is told about a game: the position, its legal moves with full landing paths,
// the moves played with the FEN before and after each, the result and the move-limit counters.
// Field names follow the server's game state (docs/protocol.md) where the two overlap, so the
// board component takes either.
#pragma once

#include "json_out.hpp"

#include <papan/core/game.hpp>
#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

#include <string_view>

namespace papan::wasm {

[[nodiscard]] std::string_view color_key(core::Color c) noexcept;  // "white" | "black"
[[nodiscard]] std::string_view outcome_key(core::Outcome o) noexcept;
[[nodiscard]] std::string_view reason_key(core::Reason r) noexcept;

// {"from","to","path","captures","text"}: `m` is a move of `legal`, the moves of `pos`.
void write_move(JsonOut& out,
                const core::Position& pos,
                const core::Move& m,
                const core::MoveList& legal);

// {"white","white_kings","black","black_kings"}: square numbers, ascending.
void write_pieces(JsonOut& out, const core::Position& pos);

// The whole state of `game` (see docs/web.md, "The analysis worker").
void write_game(JsonOut& out, const core::Game& game);

}  // namespace papan::wasm
