#include "movegen_ops.hpp"

#include <papan/core/movegen.hpp>

namespace papan::core {

namespace detail {

const VariantOps& ops(VariantId v) noexcept {
    switch (v) {
    case VariantId::American:
        return ops_american();
    case VariantId::International:
        return ops_international();
    case VariantId::Brazilian:
        return ops_brazilian();
    case VariantId::Russian:
        return ops_russian();
    case VariantId::Pool:
        return ops_pool();
    case VariantId::Spanish:
        return ops_spanish();
    case VariantId::Italian:
        return ops_italian();
    case VariantId::Czech:
        return ops_czech();
    case VariantId::Thai:
        return ops_thai();
    case VariantId::Turkish:
        return ops_turkish();
    }
    return ops_international();
}

}  // namespace detail

void generate_moves(const Position& pos, MoveList& out, MoveGenOptions options) {
    detail::ops(pos.variant).generate(pos, out, options);
}

void generate_routes(const Position& pos, MoveList& out, MoveGenOptions options) {
    detail::ops(pos.variant).generate_routes(pos, out, options);
}

std::uint64_t count_moves(const Position& pos, CountMode mode) {
    const auto& o = detail::ops(pos.variant);
    return mode == CountMode::Distinct ? o.count(pos) : o.count_routes(pos);
}

bool has_capture(const Position& pos) {
    return detail::ops(pos.variant).has_capture(pos);
}

Bitboard capturers(const Position& pos) {
    if (!has_capture(pos)) {
        return 0;
    }
    MoveList list;
    generate_moves(pos, list);
    Bitboard b = 0;
    for (const Move& m : list) {
        b |= bit(m.from);
    }
    return b;
}

}  // namespace papan::core
