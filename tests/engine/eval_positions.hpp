// What the evaluation and tuner tests share: positions from seeded random playouts of every
// variant, the colour-flipped mirror of a position, and random weight sets (so the pattern
// tables are exercised whatever the compiled-in set holds). Header-only.
#pragma once

#include <papan/core/geometry.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/engine/evaluation.hpp>
#include <papan/engine/weights.hpp>

#include <cstdint>
#include <vector>

namespace papan::test {

inline std::uint64_t next_random(std::uint64_t& x) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x >> 33;
}

// Positions met along random playouts from the start (every ply, up to `count`).
inline std::vector<core::Position>
playout_positions(core::VariantId v, std::size_t count, std::uint64_t seed) {
    std::vector<core::Position> out;
    std::uint64_t x = seed;
    core::MoveList moves;
    while (out.size() < count) {
        core::Position pos = core::start_position(v);
        for (int ply = 0; ply < 150 && out.size() < count; ++ply) {
            core::generate_moves(pos, moves);
            if (moves.empty()) {
                break;
            }
            out.push_back(pos);
            pos = core::make_move(pos, moves[next_random(x) % moves.size()]);
        }
    }
    return out;
}

// The board turned 180 degrees with the colours swapped and the other side to move: the same
// position for the other player.
inline core::Position mirror(const core::Position& p) {
    const core::Geometry& g = core::geometry(core::rules(p.variant).topology);
    const auto turn         = [&g](core::Bitboard b) {
        core::Bitboard out = 0;
        while (b != 0) {
            const int bit   = core::pop_lsb(b);
            const int plain = g.plain_of[static_cast<std::size_t>(bit)];
            out |= core::bit(g.bit_of[static_cast<std::size_t>(g.squares - 1 - plain)]);
        }
        return out;
    };
    core::Position m = p;
    m.pieces[0]      = turn(p.pieces[1]);
    m.pieces[1]      = turn(p.pieces[0]);
    m.kings          = turn(p.kings);
    m.side           = core::opposite(p.side);
    return m;
}

// Every weight random in [-spread, spread] (engine units), the man and king values sensible.
inline engine::EvalWeights random_weights(core::VariantId v, std::uint64_t seed, int spread) {
    std::vector<std::int16_t> w(engine::eval_layout(v).weight_count);
    std::uint64_t x = seed;
    for (auto& value : w) {
        value = static_cast<std::int16_t>(
            static_cast<int>(next_random(x) % static_cast<std::uint64_t>(2 * spread + 1)) - spread);
    }
    w[0] = w[1] = 800;   // man
    w[2] = w[3] = 2400;  // king
    return std::move(engine::EvalWeights::from_values(v, std::move(w))).value();
}

}  // namespace papan::test
