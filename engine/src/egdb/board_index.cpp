#include "egdb/board_index.hpp"

#include <bit>
#include <cassert>

namespace papan::engine::egdb::detail {

using core::Bitboard;
using core::Color;
using core::Position;

namespace {

struct Binomials {
    std::array<std::array<std::uint64_t, kMaxIndexedPieces + 1>, 65> c{};

    constexpr Binomials() {
        for (std::size_t n = 0; n <= 64; ++n) {
            c[n][0] = 1;
            for (std::size_t k = 1; k <= kMaxIndexedPieces; ++k) {
                c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
            }
        }
    }
};

constexpr Binomials kBinomials{};

// Colex rank of a set given its members' numbers in increasing order, one call per member.
struct ColexRank {
    std::uint64_t rank = 0;
    int k              = 0;

    void add(int x) noexcept { rank += binomial(x, ++k); }
};

// The members of the colex-rank-r k-subset, in increasing order, into out[0..k).
void colex_unrank(std::uint64_t r, int k, int n, int* out) noexcept {
    int x = n - 1;
    for (int i = k; i >= 1; --i) {
        while (x >= 0 && binomial(x, i) > r) {
            --x;
        }
        out[i - 1] = x;
        r -= binomial(x, i);
        --x;
    }
}

// Gosper's hack: the next larger number with the same popcount (colex successor of a subset).
// Precondition: x != 0 and x is not the last subset (see last_subset).
std::uint64_t next_subset(std::uint64_t x) noexcept {
    const std::uint64_t c = x & (~x + 1);
    const std::uint64_t r = x + c;
    return (((r ^ x) >> 2) / c) | r;
}

// The last k-subset of n in colex order: the top k of the n numbers.
std::uint64_t last_subset(int k, int n) noexcept {
    if (k == 0) {
        return 0;
    }
    const std::uint64_t low = k == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << k) - 1;
    return low << (n - k);
}

std::uint64_t subset_of_rank(std::uint64_t r, int k, int n) noexcept {
    std::array<int, kMaxIndexedPieces> m{};
    colex_unrank(r, k, n, m.data());
    std::uint64_t mask = 0;
    for (int i = 0; i < k; ++i) {
        mask |= std::uint64_t{1} << m[static_cast<std::size_t>(i)];
    }
    return mask;
}

}  // namespace

std::uint64_t binomial(int n, int k) noexcept {
    if (n < 0 || k < 0 || k > kMaxIndexedPieces || n > 64) {
        return 0;
    }
    return kBinomials.c[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
}

Material material_of(const Position& norm) noexcept {
    return {core::popcount(norm.men(Color::White)),
            core::popcount(norm.kings_of(Color::White)),
            core::popcount(norm.men(Color::Black)),
            core::popcount(norm.kings_of(Color::Black))};
}

BoardIndex::BoardIndex(core::Topology t) : g_(core::geometry(t)) {
    const int n = g_.squares;
    for (auto& side : men_dense_) {
        side.fill(-1);
    }
    for (int s = 0; s < n; ++s) {
        const int b                              = g_.bit_of[static_cast<std::size_t>(s)];
        plain_[static_cast<std::size_t>(b)]      = static_cast<std::uint8_t>(s);
        bit_[static_cast<std::size_t>(s)]        = static_cast<std::uint8_t>(b);
        const int rotated                        = g_.bit_of[static_cast<std::size_t>(n - 1 - s)];
        rot_[static_cast<std::size_t>(b)]        = static_cast<std::uint8_t>(rotated);
        const int rank                           = g_.rank_of[static_cast<std::size_t>(s)];
        advance_[0][static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(rank);
        advance_[1][static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(g_.size - 1 - rank);
    }
    for (std::size_t c = 0; c < 2; ++c) {
        int dense = 0;
        for (int s = 0; s < n; ++s) {
            const int b = g_.bit_of[static_cast<std::size_t>(s)];
            if (core::has(g_.promotion[c], b)) {
                continue;
            }
            men_dense_[c][static_cast<std::size_t>(b)]   = static_cast<std::int8_t>(dense);
            men_bit_[c][static_cast<std::size_t>(dense)] = static_cast<std::uint8_t>(b);
            ++dense;
        }
        men_squares_ = dense;
    }
}

std::uint64_t BoardIndex::king_placements(const Material& m) const noexcept {
    const int free = g_.squares - m.own_men - m.opp_men;
    return binomial(free, m.own_kings) * binomial(free - m.own_kings, m.opp_kings);
}

std::uint64_t BoardIndex::size(const Material& m) const noexcept {
    return binomial(men_squares_, m.own_men) * binomial(men_squares_, m.opp_men) *
           king_placements(m);
}

Bitboard BoardIndex::rotate(Bitboard b) const noexcept {
    Bitboard r = 0;
    while (b != 0) {
        r |= core::bit(rot_[static_cast<std::size_t>(core::pop_lsb(b))]);
    }
    return r;
}

Position BoardIndex::normalise(const Position& pos) const noexcept {
    if (pos.side == Color::White) {
        return pos;
    }
    Position n = pos;
    n.pieces   = {rotate(pos.pieces[1]), rotate(pos.pieces[0])};
    n.kings    = rotate(pos.kings);
    n.side     = Color::White;
    return n;
}

std::uint64_t BoardIndex::index(const Position& norm, const Material& m) const noexcept {
    assert(norm.side == Color::White);
    ColexRank own_men;
    ColexRank opp_men;
    std::uint64_t men_plain = 0;
    for (Bitboard b = norm.men(Color::White); b != 0;) {
        const int sq = core::pop_lsb(b);
        own_men.add(men_dense_[0][static_cast<std::size_t>(sq)]);
        men_plain |= std::uint64_t{1} << plain_[static_cast<std::size_t>(sq)];
    }
    for (Bitboard b = norm.men(Color::Black); b != 0;) {
        const int sq = core::pop_lsb(b);
        opp_men.add(men_dense_[1][static_cast<std::size_t>(sq)]);
        men_plain |= std::uint64_t{1} << plain_[static_cast<std::size_t>(sq)];
    }
    ColexRank own_kings;
    std::uint64_t taken = men_plain;
    for (Bitboard b = norm.kings_of(Color::White); b != 0;) {
        const int p               = plain_[static_cast<std::size_t>(core::pop_lsb(b))];
        const std::uint64_t below = (std::uint64_t{1} << p) - 1;
        own_kings.add(p - std::popcount(men_plain & below));
        taken |= std::uint64_t{1} << p;
    }
    ColexRank opp_kings;
    for (Bitboard b = norm.kings_of(Color::Black); b != 0;) {
        const int p               = plain_[static_cast<std::size_t>(core::pop_lsb(b))];
        const std::uint64_t below = (std::uint64_t{1} << p) - 1;
        opp_kings.add(p - std::popcount(taken & below));
    }
    const int free = g_.squares - m.own_men - m.opp_men;
    return ((own_men.rank * binomial(men_squares_, m.opp_men) + opp_men.rank) *
                binomial(free, m.own_kings) +
            own_kings.rank) *
               binomial(free - m.own_kings, m.opp_kings) +
           opp_kings.rank;
}

bool BoardIndex::position_at(const Material& m,
                             std::uint64_t idx,
                             core::VariantId v,
                             Position& out) const noexcept {
    const int free          = g_.squares - m.own_men - m.opp_men;
    const std::uint64_t kb  = binomial(free - m.own_kings, m.opp_kings);
    const std::uint64_t kw  = binomial(free, m.own_kings);
    const std::uint64_t cb  = binomial(men_squares_, m.opp_men);
    const std::uint64_t rbk = idx % kb;
    idx /= kb;
    const std::uint64_t rwk = idx % kw;
    idx /= kw;
    const std::uint64_t rbm = idx % cb;
    const std::uint64_t rwm = idx / cb;
    if (rwm >= binomial(men_squares_, m.own_men)) {
        return false;
    }
    std::array<int, kMaxIndexedPieces> sq{};
    Bitboard own_men = 0;
    Bitboard opp_men = 0;
    colex_unrank(rwm, m.own_men, men_squares_, sq.data());
    for (int i = 0; i < m.own_men; ++i) {
        own_men |=
            core::bit(men_bit_[0][static_cast<std::size_t>(sq[static_cast<std::size_t>(i)])]);
    }
    colex_unrank(rbm, m.opp_men, men_squares_, sq.data());
    for (int i = 0; i < m.opp_men; ++i) {
        opp_men |=
            core::bit(men_bit_[1][static_cast<std::size_t>(sq[static_cast<std::size_t>(i)])]);
    }
    if ((own_men & opp_men) != 0) {
        return false;
    }
    KingCursor cursor(*this, m, own_men, opp_men, rwk * kb + rbk);
    out.pieces  = {own_men | cursor.own_kings(), opp_men | cursor.opp_kings()};
    out.kings   = cursor.own_kings() | cursor.opp_kings();
    out.side    = Color::White;
    out.variant = v;
    return true;
}

int BoardIndex::progress(const Position& norm) const noexcept {
    int p = 0;
    for (Bitboard b = norm.men(Color::White); b != 0;) {
        p += advance_[0][static_cast<std::size_t>(core::pop_lsb(b))];
    }
    for (Bitboard b = norm.men(Color::Black); b != 0;) {
        p += advance_[1][static_cast<std::size_t>(core::pop_lsb(b))];
    }
    return p;
}

KingCursor::KingCursor(const BoardIndex& bi,
                       const Material& m,
                       Bitboard own_men,
                       Bitboard opp_men,
                       std::uint64_t first) noexcept
    : own_k_(m.own_kings)
    , opp_k_(m.opp_kings) {
    const Bitboard men = own_men | opp_men;
    const int n        = bi.geometry().squares;
    for (int p = 0; p < n; ++p) {
        const int b = bi.bit_of_plain(p);
        if (!core::has(men, b)) {
            free_bits_[static_cast<std::size_t>(free_count_++)] = static_cast<std::uint8_t>(b);
        }
    }
    const std::uint64_t kb = binomial(free_count_ - own_k_, opp_k_);
    own_mask_              = subset_of_rank(first / kb, own_k_, free_count_);
    opp_mask_              = subset_of_rank(first % kb, opp_k_, free_count_ - own_k_);
    place_own();
    place_opp();
}

void KingCursor::place_own() noexcept {
    own_kings_ = 0;
    int rest   = 0;
    for (int j = 0; j < free_count_; ++j) {
        const int b = free_bits_[static_cast<std::size_t>(j)];
        if (((own_mask_ >> j) & 1U) != 0) {
            own_kings_ |= core::bit(b);
        } else {
            rest_bits_[static_cast<std::size_t>(rest++)] = static_cast<std::uint8_t>(b);
        }
    }
}

void KingCursor::place_opp() noexcept {
    opp_kings_ = 0;
    for (std::uint64_t m = opp_mask_; m != 0; m &= m - 1) {
        opp_kings_ |= core::bit(rest_bits_[static_cast<std::size_t>(std::countr_zero(m))]);
    }
}

bool KingCursor::next() noexcept {
    const int rest = free_count_ - own_k_;
    if (opp_mask_ != last_subset(opp_k_, rest)) {
        opp_mask_ = next_subset(opp_mask_);
        place_opp();
        return true;
    }
    if (own_mask_ == last_subset(own_k_, free_count_)) {
        return false;
    }
    own_mask_ = next_subset(own_mask_);
    opp_mask_ = (std::uint64_t{1} << opp_k_) - 1;
    place_own();
    place_opp();
    return true;
}

std::uint64_t men_ranks(const BoardIndex& bi, const Material& m) noexcept {
    return binomial(bi.men_squares(), m.own_men) * binomial(bi.men_squares(), m.opp_men);
}

bool men_config(const BoardIndex& bi,
                const Material& m,
                std::uint64_t rank,
                MenConfig& out) noexcept {
    const int ms            = bi.men_squares();
    const std::uint64_t opp = binomial(ms, m.opp_men);
    std::array<int, kMaxIndexedPieces> sq{};
    Bitboard own_men = 0;
    Bitboard opp_men = 0;
    colex_unrank(rank / opp, m.own_men, ms, sq.data());
    for (int i = 0; i < m.own_men; ++i) {
        own_men |= core::bit(bi.man_square_bit(Color::White, sq[static_cast<std::size_t>(i)]));
    }
    colex_unrank(rank % opp, m.opp_men, ms, sq.data());
    for (int i = 0; i < m.opp_men; ++i) {
        opp_men |= core::bit(bi.man_square_bit(Color::Black, sq[static_cast<std::size_t>(i)]));
    }
    if ((own_men & opp_men) != 0) {
        return false;
    }
    Position p;
    p.pieces     = {own_men, opp_men};
    out.own_men  = own_men;
    out.opp_men  = opp_men;
    out.first    = rank * bi.king_placements(m);
    out.progress = bi.progress(p);
    return true;
}

}  // namespace papan::engine::egdb::detail
