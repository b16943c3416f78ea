#include "movegen_ops.hpp"

#include <papan/core/movegen.hpp>
#include <papan/core/rules/dispatch.hpp>

#include <array>
#include <cstddef>

namespace papan::core {

namespace detail {

const VariantOps& ops(VariantId v) noexcept {
    // Looked up once per variant (with_variant), then one load per call: this is on the search's
    // hot path.
    static const auto kTables = [] {
        std::array<const VariantOps*, kVariantCount> t{};
        for (std::size_t i = 0; i < t.size(); ++i) {
            t[i] = &with_variant(static_cast<VariantId>(i),
                                 []<VariantId V>() -> const VariantOps& { return ops_of<V>(); });
        }
        return t;
    }();
    return *kTables[static_cast<std::size_t>(v)];
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
