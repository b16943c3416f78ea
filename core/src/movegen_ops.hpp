// Per-variant entry points of the kernel: one table of function pointers per variant, each
// instantiated in its own movegen_<variant>.cpp so the kernel instantiations build in parallel;
// ops() picks the variant's table through core::with_variant (rules/dispatch.hpp).
#pragma once

#include <papan/core/move.hpp>
#include <papan/core/movegen.hpp>
#include <papan/core/position.hpp>

#include <cstdint>

namespace papan::core::detail {

struct PerftEntry {
    std::uint64_t key   = 0;
    std::uint64_t count = 0;
};

struct VariantOps {
    void (*generate)(const Position&, MoveList&, MoveGenOptions) noexcept;
    void (*generate_routes)(const Position&, MoveList&, MoveGenOptions) noexcept;
    std::uint64_t (*count)(const Position&) noexcept;
    std::uint64_t (*count_routes)(const Position&) noexcept;
    bool (*has_capture)(const Position&) noexcept;
    std::uint64_t (*perft)(const Position&, int) noexcept;
    std::uint64_t (*perft_routes)(const Position&, int) noexcept;
    std::uint64_t (*perft_hashed)(const Position&, int, PerftEntry*, std::uint64_t) noexcept;
    std::uint64_t (*perft_hashed_routes)(const Position&, int, PerftEntry*, std::uint64_t) noexcept;
};

// The table of variant V (movegen_instance.hpp; instantiated by movegen_<variant>.cpp).
template <VariantId V>
const VariantOps& ops_of() noexcept;

const VariantOps& ops(VariantId v) noexcept;

}  // namespace papan::core::detail
