// BoardIndex: the perfect-ish index of the positions of one material slice on one board.
//
// Positions are normalised so that White is to move: a position with Black to move is rotated
// by 180 degrees and its colours swapped (the move rules of every variant are symmetric under
// that map; tests/engine/egdb_test.cpp checks it against the move generator). The index of a
// normalised position of material (own men a, own kings b, opponent men c, opponent kings d) is
//
//   ((rank(own men) * C(M, c) + rank(opp men)) * C(F, b) + rank(own kings)) * C(F - b, d)
//       + rank(opp kings)
//
// with colex ranks of square sets: men among the M squares a man of that colour may stand on
// (all but its promotion row), kings among the F = squares - a - c squares the men leave free
// (the opponent's kings among those the own kings leave). One "men configuration" (both sides'
// men) is thus a contiguous range of C(F, b) * C(F - b, d) indices; configurations where the
// two sides' men overlap are impossible and never probed (about 3% of an 8x8 6-piece set).
#pragma once

#include <papan/core/bitboard.hpp>
#include <papan/core/geometry.hpp>
#include <papan/core/position.hpp>
#include <papan/engine/egdb.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace papan::engine::egdb::detail {

inline constexpr int kMaxIndexedPieces = 8;

// C(n, k) for n <= 64, k <= kMaxIndexedPieces.
[[nodiscard]] std::uint64_t binomial(int n, int k) noexcept;

// The material of a normalised position (White to move).
[[nodiscard]] Material material_of(const core::Position& norm) noexcept;

// A small dense id of a material with at most kMaxIndexedPieces pieces per count.
inline constexpr int kMaterialIds = 9 * 9 * 9 * 9;

[[nodiscard]] constexpr int material_id(const Material& m) noexcept {
    return ((m.own_men * 9 + m.own_kings) * 9 + m.opp_men) * 9 + m.opp_kings;
}

class BoardIndex {
public:
    explicit BoardIndex(core::Topology t);

    [[nodiscard]] const core::Geometry& geometry() const noexcept { return g_; }

    [[nodiscard]] int men_squares() const noexcept { return men_squares_; }

    // Number of indices of the slice.
    [[nodiscard]] std::uint64_t size(const Material& m) const noexcept;
    // Indices per men configuration.
    [[nodiscard]] std::uint64_t king_placements(const Material& m) const noexcept;

    // The same position with White to move (rotated and colours swapped when Black is to move).
    [[nodiscard]] core::Position normalise(const core::Position& pos) const noexcept;

    // Precondition: norm.side == White and m == material_of(norm).
    [[nodiscard]] std::uint64_t index(const core::Position& norm, const Material& m) const noexcept;

    // The normalised position of an index; false for an impossible placement (men overlap).
    [[nodiscard]] bool position_at(const Material& m,
                                   std::uint64_t idx,
                                   core::VariantId v,
                                   core::Position& out) const noexcept;

    // Sum of the men's advancement (ranks from their own back row): a man's forward move
    // raises it by one, a king's move and a Turkish sideways move keep it.
    [[nodiscard]] int progress(const core::Position& norm) const noexcept;

    // The internal bit of the j-th square (plain order) a man of colour c may stand on.
    [[nodiscard]] int man_square_bit(core::Color c, int j) const noexcept {
        return men_bit_[static_cast<std::size_t>(c)][static_cast<std::size_t>(j)];
    }

    [[nodiscard]] int plain(int bit) const noexcept {
        return plain_[static_cast<std::size_t>(bit)];
    }

    [[nodiscard]] int bit_of_plain(int p) const noexcept {
        return bit_[static_cast<std::size_t>(p)];
    }

private:
    [[nodiscard]] core::Bitboard rotate(core::Bitboard b) const noexcept;

    const core::Geometry& g_;
    int men_squares_ = 0;
    std::array<std::uint8_t, 64> rot_{};                      // internal bit -> rotated bit
    std::array<std::uint8_t, 64> plain_{};                    // internal bit -> plain index
    std::array<std::uint8_t, 64> bit_{};                      // plain index -> internal bit
    std::array<std::array<std::int8_t, 64>, 2> men_dense_{};  // bit -> men square number
    std::array<std::array<std::uint8_t, 64>, 2> men_bit_{};   // men square number -> bit
    std::array<std::array<std::uint8_t, 64>, 2> advance_{};   // bit -> advancement by colour
};

// Iterates the positions of one men configuration in index order, from any index on.
class KingCursor {
public:
    // own/opp men as internal bitboards; first = rank within the configuration to start at.
    KingCursor(const BoardIndex& bi,
               const Material& m,
               core::Bitboard own_men,
               core::Bitboard opp_men,
               std::uint64_t first) noexcept;

    [[nodiscard]] core::Bitboard own_kings() const noexcept { return own_kings_; }

    [[nodiscard]] core::Bitboard opp_kings() const noexcept { return opp_kings_; }

    // Moves to the next placement; false after the last one.
    bool next() noexcept;

private:
    void place_own() noexcept;
    void place_opp() noexcept;

    int free_count_ = 0;
    std::array<std::uint8_t, 64> free_bits_{};  // internal bits of the free squares, plain order
    std::array<std::uint8_t, 64> rest_bits_{};  // the free squares the own kings leave
    int own_k_                = 0;
    int opp_k_                = 0;
    std::uint64_t own_mask_   = 0;  // dense subset of free squares (colex order = numeric order)
    std::uint64_t opp_mask_   = 0;  // dense subset of rest squares
    core::Bitboard own_kings_ = 0;
    core::Bitboard opp_kings_ = 0;
};

// A men configuration of a slice: both sides' men and the first index of its range. Numbered by
// its "men rank" rank(own men) * C(M, c) + rank(opp men), so first = rank * king_placements.
struct MenConfig {
    core::Bitboard own_men = 0;
    core::Bitboard opp_men = 0;
    std::uint64_t first    = 0;
    int progress           = 0;
};

// Number of men ranks of the slice (some are impossible: the men overlap).
[[nodiscard]] std::uint64_t men_ranks(const BoardIndex& bi, const Material& m) noexcept;

// The configuration of a men rank; false when it is impossible.
[[nodiscard]] bool
men_config(const BoardIndex& bi, const Material& m, std::uint64_t rank, MenConfig& out) noexcept;

}  // namespace papan::engine::egdb::detail
