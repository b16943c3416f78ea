// Legal move generation, the public non-template API. Each call switches on the position's
// variant once and runs a kernel specialised for that variant at compile time
// (core/src/movegen_kernel.hpp, instantiated in movegen_<variant>.cpp).
//
// Captures are mandatory unless the options say otherwise (the "no forced capture" house rule
// for 8x8 diagonal variants); a capture once started must be completed, and the variant's
// precedence rules (majority, Spanish, Italian, Czech) choose among captures.
#pragma once

#include <papan/core/move.hpp>
#include <papan/core/position.hpp>

#include <cstdint>

namespace papan::core {

struct MoveGenOptions {
    // false = the "no forced capture" house rule: quiet moves are legal beside captures.
    bool forced_capture = true;
};

// How perft-style counting treats capture routes that share (from, to, captured set).
enum class CountMode : std::uint8_t {
    Distinct,  // one move per triple (the FMJD convention, Papan's default)
    Routes,    // every capture route counts (kish's Turkish counts)
};

// All legal moves, one entry per distinct move, each with one legal landing path.
void generate_moves(const Position& pos, MoveList& out, MoveGenOptions options = {});

// Every legal capture route (no de-duplication); for route-counting perft and diagnostics.
void generate_routes(const Position& pos, MoveList& out, MoveGenOptions options = {});

// Number of legal moves without listing quiet moves (bulk counting for perft).
[[nodiscard]] std::uint64_t count_moves(const Position& pos, CountMode mode = CountMode::Distinct);

// True when the side to move has a capture (and so, in forced-capture games, must take).
[[nodiscard]] bool has_capture(const Position& pos);

// Squares of the pieces that can capture (the pieces a client rings).
[[nodiscard]] Bitboard capturers(const Position& pos);

}  // namespace papan::core
