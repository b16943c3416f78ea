#include "game_json.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/server/wire/game_writer.hpp>
#include <papan/server/wire/names.hpp>

#include <cstddef>

namespace papan::wasm {

namespace wire = server::wire;

void write_move(JsonOut& out,
                const core::Position& pos,
                const core::Move& m,
                const core::MoveList& legal) {
    out.begin_object()
        .field("from", core::square_of_bit(pos.variant, m.from))
        .field("to", core::square_of_bit(pos.variant, m.to));
    wire::write_path_fields(out, pos.variant, m);
    out.field("text", core::move_text(pos, m, legal)).end_object();
}

void write_game(JsonOut& out, const core::Game& game) {
    const core::Position& pos = game.position();
    out.begin_object();
    out.field("variant", game.rules().key);
    out.field("start_fen", core::to_fen(game.start_position()));
    out.field("fen", core::to_fen(pos));
    out.field("turn", wire::name(pos.side));
    out.field("ply", game.ply());
    out.key("position");
    wire::write_pieces(out, pos);

    out.key("legal_moves").begin_array();
    for (const core::Move& m : game.legal_moves()) {
        write_move(out, pos, m, game.legal_moves());
    }
    out.end_array();
    out.key("capturers");
    wire::write_squares(
        out, pos.variant, game.options().forced_capture ? core::capturers(pos) : core::Bitboard{0});

    // Every move with the position it was played from, so a page can show any ply at once.
    out.key("moves");
    wire::write_moves(out, game);
    out.key("fens").begin_array();
    for (const core::Position& p : game.positions()) {
        out.value(core::to_fen(p));
    }
    out.end_array();

    out.key("move_limits");
    wire::write_move_limits(out, game, true);

    out.key("result");
    if (game.is_over()) {
        out.begin_object();
        wire::write_result_fields(
            out, game.result().outcome, wire::end_reason(game.result().reason), game.result_text());
        out.end_object();
    } else {
        out.null();
    }
    out.end_object();
}

}  // namespace papan::wasm
