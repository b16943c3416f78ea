// Position: a small value (copy-make) holding the pieces, the side to move and the variant.
// Invariants (checked by is_consistent()): the two colours do not overlap, kings are a subset of
// the pieces, every piece is on a playable square of the variant's board, and no man stands on
// its own promotion row.
#pragma once

#include <papan/core/bitboard.hpp>
#include <papan/core/move.hpp>
#include <papan/core/rules/registry.hpp>
#include <papan/core/types.hpp>

#include <cstdint>

namespace papan::core {

struct Position {
    std::array<Bitboard, 2> pieces{};  // by Color
    Bitboard kings    = 0;
    Color side        = Color::White;
    VariantId variant = VariantId::International;

    [[nodiscard]] constexpr Bitboard occupied() const noexcept { return pieces[0] | pieces[1]; }

    [[nodiscard]] constexpr Bitboard men(Color c) const noexcept {
        return pieces[static_cast<std::size_t>(c)] & ~kings;
    }

    [[nodiscard]] constexpr Bitboard kings_of(Color c) const noexcept {
        return pieces[static_cast<std::size_t>(c)] & kings;
    }

    [[nodiscard]] constexpr Bitboard of(Color c) const noexcept {
        return pieces[static_cast<std::size_t>(c)];
    }

    [[nodiscard]] const RuleSet& rules() const noexcept { return core::rules(variant); }

    [[nodiscard]] bool is_consistent() const noexcept;

    // A 64-bit key of (pieces, kings, side): equal positions have equal keys.
    [[nodiscard]] std::uint64_t key() const noexcept;

    friend constexpr bool operator==(const Position&, const Position&) = default;
};

// The start position of a variant.
[[nodiscard]] Position start_position(VariantId v);

// Applies a legal move (copy-make). Promotion follows the move's flag. Inline: it is the inner
// loop of perft and search.
[[nodiscard]] inline Position make_move(const Position& pos, const Move& move) noexcept {
    Position p            = pos;
    const auto us         = static_cast<std::size_t>(pos.side);
    const Bitboard fromto = bit(move.from) ^ bit(move.to);  // 0 when a capture ends where it began
    p.pieces[us] ^= fromto;
    p.pieces[us ^ 1U] &= ~move.captured;
    p.kings &= ~move.captured;
    if (has(pos.kings, move.from)) {
        p.kings ^= fromto;
    } else if (move.promotes) {
        p.kings |= bit(move.to);
    }
    p.side = opposite(pos.side);
    return p;
}

}  // namespace papan::core
