#include "movegen_ops.hpp"

#include <papan/core/perft.hpp>

namespace papan::core {

std::uint64_t perft(const Position& pos, int depth, CountMode mode) {
    const auto& o = detail::ops(pos.variant);
    return mode == CountMode::Distinct ? o.perft(pos, depth) : o.perft_routes(pos, depth);
}

std::vector<DivideEntry> perft_divide(
    const Position& pos, int depth, CountMode mode,
    const std::function<void(std::size_t, std::size_t)>& progress) {
    MoveList list;
    if (mode == CountMode::Distinct) {
        generate_moves(pos, list);
    } else {
        generate_routes(pos, list);
    }
    std::vector<DivideEntry> out;
    out.reserve(list.size());
    for (const Move& m : list) {
        const std::uint64_t n = depth <= 1 ? 1 : perft(make_move(pos, m), depth - 1, mode);
        out.push_back({m, n});
        if (progress) {
            progress(out.size(), list.size());
        }
    }
    return out;
}

}  // namespace papan::core
