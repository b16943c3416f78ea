#include <papan/core/movegen.hpp>
#include <papan/core/notation/move_text.hpp>
#include <papan/core/notation/squares.hpp>
#include <papan/server/wire/game_writer.hpp>
#include <papan/server/wire/names.hpp>

#include <algorithm>
#include <array>

namespace papan::server::wire {

namespace {

// Square numbers of a capture: at most the pieces of one side.
using SquareList = std::array<int, 64>;

std::size_t squares_of(core::VariantId v, core::Bitboard b, SquareList& out) {
    std::size_t n = 0;
    while (b != 0 && n < out.size()) {
        out[n++] = core::square_of_bit(v, core::pop_lsb(b));
    }
    std::sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n));
    return n;
}

}  // namespace

void write_squares(JsonWriter& out, core::VariantId v, core::Bitboard b) {
    SquareList list{};
    const auto n = squares_of(v, b, list);
    out.value(std::span<const int>(list.data(), n));
}

void write_pieces(JsonWriter& out, const core::Position& pos) {
    const auto v = pos.variant;
    out.begin_object();
    out.key("white");
    write_squares(out, v, pos.men(core::Color::White));
    out.key("white_kings");
    write_squares(out, v, pos.kings_of(core::Color::White));
    out.key("black");
    write_squares(out, v, pos.men(core::Color::Black));
    out.key("black_kings");
    write_squares(out, v, pos.kings_of(core::Color::Black));
    out.end_object();
}

void write_path_fields(JsonWriter& out, core::VariantId v, const core::Move& m) {
    out.key("path").begin_array();
    out.value(core::square_of_bit(v, m.from));
    for (std::size_t i = 0; i < m.path_len; ++i) {
        out.value(core::square_of_bit(v, m.path[i]));
    }
    if (m.path_len == 0) {
        out.value(core::square_of_bit(v, m.to));
    }
    out.end_array();
    out.key("captures");
    write_squares(out, v, m.captured);
}

void write_played_move(JsonWriter& out,
                       int ply,
                       const core::Position& before,
                       const core::Move& m,
                       std::string_view text) {
    out.begin_object().field("ply", ply).field("color", name(before.side)).field("text", text);
    write_path_fields(out, before.variant, m);
    out.end_object();
}

void write_legal_moves(JsonWriter& out, const core::Game& game, bool show) {
    out.begin_array();
    if (show) {
        const auto& pos   = game.position();
        const auto& legal = game.legal_moves();
        for (const auto& m : legal) {
            out.begin_object().field("text", core::move_text(pos, m, legal));
            write_path_fields(out, pos.variant, m);
            out.end_object();
        }
    }
    out.end_array();
}

void write_moves(JsonWriter& out, const core::Game& game) {
    out.begin_array();
    const auto positions = game.positions();
    const auto moves     = game.moves();
    core::MoveList legal;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const auto& before = positions[i];
        core::generate_moves(before, legal, game.movegen_options());
        write_played_move(
            out, static_cast<int>(i), before, moves[i], core::move_text(before, moves[i], legal));
    }
    out.end_array();
}

void write_move_limits(JsonWriter& out, const core::Game& game, bool show) {
    out.begin_array();
    if (show) {
        for (const auto& d : game.move_limits()) {
            // Counters count plies, but the Russian three-kings rule counts the stronger side's
            // moves.
            const int moves =
                d.rule == core::DrawRule::RussianThreeKings ? d.limit : (d.limit + 1) / 2;
            out.begin_object()
                .field("rule", d.key)
                .field("text", d.text)
                .field("limit_moves", moves)
                .field("moves_left", d.moves_left)
                .field("plies_left", d.plies_left);
            if (d.rule == core::DrawRule::NoProgress && d.progress != core::NoProgressRule::None) {
                out.field("kind", name(d.progress));
            }
            out.end_object();
        }
    }
    out.end_array();
}

void write_result_fields(JsonWriter& out,
                         core::Outcome outcome,
                         EndReason reason,
                         std::string_view text) {
    out.field("outcome", name(outcome)).field("reason", name(reason)).field("text", text);
}

}  // namespace papan::server::wire
