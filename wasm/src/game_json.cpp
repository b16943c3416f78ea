#include "game_json.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/notation/fen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>

#include <cstddef>

namespace papan::wasm {

std::string_view color_key(core::Color c) noexcept {
    return c == core::Color::White ? "white" : "black";
}

std::string_view outcome_key(core::Outcome o) noexcept {
    switch (o) {
    case core::Outcome::Ongoing:
        return "";
    case core::Outcome::WhiteWins:
        return "white_wins";
    case core::Outcome::BlackWins:
        return "black_wins";
    case core::Outcome::Draw:
        return "draw";
    }
    return "";
}

// The server's reason keys (docs/protocol.md, "Game state").
std::string_view reason_key(core::Reason r) noexcept {
    switch (r) {
    case core::Reason::None:
        return "";
    case core::Reason::NoPieces:
        return "no_pieces";
    case core::Reason::NoMoves:
        return "no_moves";
    case core::Reason::Resignation:
        return "resignation";
    case core::Reason::Timeout:
        return "timeout";
    case core::Reason::Agreement:
        return "agreement";
    case core::Reason::Repetition:
        return "repetition";
    case core::Reason::NoProgress:
        return "no_progress";
    case core::Reason::MoveLimit:
        return "move_limit";
    case core::Reason::EndgameRule:
        return "endgame_rule";
    case core::Reason::InsufficientMaterial:
        return "insufficient_material";
    case core::Reason::TimeoutWithDrawClaimable:
        return "timeout_draw_claimable";
    case core::Reason::TimeoutOpponentCannotWin:
        return "timeout_opponent_cannot_win";
    }
    return "";
}

void write_move(JsonOut& out,
                const core::Position& pos,
                const core::Move& m,
                const core::MoveList& legal) {
    const auto path = core::path_squares(pos.variant, m);
    out.begin_object()
        .field("from", path.front())
        .field("to", path.back())
        .field("path", path)
        .field("captures", core::captured_squares(pos.variant, m))
        .field("text", core::move_text(pos, m, legal))
        .end_object();
}

namespace {

std::vector<int> squares_of(core::VariantId v, core::Bitboard b) {
    std::vector<int> out;
    const int n = core::square_count(v);
    for (int sq = 1; sq <= n; ++sq) {
        const auto bit = core::bit_of_square(v, sq);
        if (bit && core::has(b, static_cast<core::Bit>(*bit))) {
            out.push_back(sq);
        }
    }
    return out;
}

}  // namespace

void write_pieces(JsonOut& out, const core::Position& pos) {
    const auto v = pos.variant;
    out.begin_object()
        .field("white", squares_of(v, pos.men(core::Color::White)))
        .field("white_kings", squares_of(v, pos.kings_of(core::Color::White)))
        .field("black", squares_of(v, pos.men(core::Color::Black)))
        .field("black_kings", squares_of(v, pos.kings_of(core::Color::Black)))
        .end_object();
}

void write_game(JsonOut& out, const core::Game& game) {
    const core::Position& pos = game.position();
    out.begin_object();
    out.field("variant", game.rules().key);
    out.field("start_fen", core::to_fen(game.start_position()));
    out.field("fen", core::to_fen(pos));
    out.field("turn", color_key(pos.side));
    out.field("ply", game.ply());
    out.key("position");
    write_pieces(out, pos);

    out.key("legal_moves").begin_array();
    for (const core::Move& m : game.legal_moves()) {
        write_move(out, pos, m, game.legal_moves());
    }
    out.end_array();
    out.field("capturers",
              game.options().forced_capture ? squares_of(pos.variant, core::capturers(pos))
                                            : std::vector<int>{});

    // Every move with the position it was played from, so a page can show any ply at once.
    out.key("moves").begin_array();
    const auto positions = game.positions();
    const auto moves     = game.moves();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const core::Position& before = positions[i];
        core::MoveList legal;
        core::generate_moves(before, legal, game.movegen_options());
        const auto path = core::path_squares(before.variant, moves[i]);
        out.begin_object()
            .field("ply", static_cast<int>(i))
            .field("color", color_key(before.side))
            .field("text", core::move_text(before, moves[i], legal))
            .field("path", path)
            .field("captures", core::captured_squares(before.variant, moves[i]))
            .end_object();
    }
    out.end_array();
    out.key("fens").begin_array();
    for (const core::Position& p : positions) {
        out.value(core::to_fen(p));
    }
    out.end_array();

    out.key("move_limits").begin_array();
    for (const core::DrawCounter& c : game.move_limits()) {
        out.begin_object()
            .field("rule", c.key)
            .field("text", c.text)
            .field("moves_left", c.moves_left)
            .field("plies_left", c.plies_left)
            .end_object();
    }
    out.end_array();

    out.key("result");
    if (game.is_over()) {
        out.begin_object()
            .field("outcome", outcome_key(game.result().outcome))
            .field("reason", reason_key(game.result().reason))
            .field("text", game.result_text())
            .end_object();
    } else {
        out.null();
    }
    out.end_object();
}

}  // namespace papan::wasm
