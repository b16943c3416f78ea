#include "movegen_ops.hpp"

#include <papan/core/perft.hpp>

#include <optional>

namespace papan::core {

std::uint64_t perft(const Position& pos, int depth, CountMode mode) {
    const auto& o = detail::ops(pos.variant);
    return mode == CountMode::Distinct ? o.perft(pos, depth) : o.perft_routes(pos, depth);
}

namespace {

class PerftTable {
public:
    explicit PerftTable(std::size_t mb) {
        std::size_t n = 1;
        while (n * 2 * sizeof(detail::PerftEntry) <= mb * 1024 * 1024) {
            n *= 2;
        }
        entries_.resize(n);
        mask_ = n - 1;
    }

    [[nodiscard]] detail::PerftEntry* data() noexcept { return entries_.data(); }

    [[nodiscard]] std::uint64_t mask() const noexcept { return mask_; }

private:
    std::vector<detail::PerftEntry> entries_;
    std::uint64_t mask_ = 0;
};

std::uint64_t run_hashed(const Position& pos, int depth, CountMode mode, PerftTable& table) {
    const auto& o = detail::ops(pos.variant);
    return mode == CountMode::Distinct
               ? o.perft_hashed(pos, depth, table.data(), table.mask())
               : o.perft_hashed_routes(pos, depth, table.data(), table.mask());
}

}  // namespace

std::uint64_t perft_hashed(const Position& pos, int depth, CountMode mode, std::size_t table_mb) {
    if (table_mb == 0) {
        return perft(pos, depth, mode);
    }
    PerftTable table(table_mb);
    return run_hashed(pos, depth, mode, table);
}

std::vector<DivideEntry> perft_divide(const Position& pos,
                                      int depth,
                                      CountMode mode,
                                      const std::function<void(std::size_t, std::size_t)>& progress,
                                      std::size_t table_mb) {
    std::optional<PerftTable> table;
    if (table_mb > 0) {
        table.emplace(table_mb);
    }
    MoveList list;
    if (mode == CountMode::Distinct) {
        generate_moves(pos, list);
    } else {
        generate_routes(pos, list);
    }
    std::vector<DivideEntry> out;
    out.reserve(list.size());
    for (const Move& m : list) {
        const Position child  = make_move(pos, m);
        const std::uint64_t n = depth <= 1 ? 1
                                : table    ? run_hashed(child, depth - 1, mode, *table)
                                           : perft(child, depth - 1, mode);
        out.push_back({m, n});
        if (progress) {
            progress(out.size(), list.size());
        }
    }
    return out;
}

}  // namespace papan::core
