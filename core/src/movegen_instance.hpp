// Builds the VariantOps table of one variant from the kernel; included once per variant TU, which
// instantiates it with PAPAN_MOVEGEN_INSTANCE.
#pragma once

#include "movegen_kernel.hpp"
#include "movegen_ops.hpp"

namespace papan::core::detail {

template <VariantId V>
const VariantOps& ops_of() noexcept {
    using K = Kernel<V>;
    static constexpr VariantOps table{
        &K::template generate<true>,
        &K::template generate<false>,
        &K::template count<true>,
        &K::template count<false>,
        &K::any_capture,
        &K::template perft<true>,
        &K::template perft<false>,
        &K::template perft_hashed<true>,
        &K::template perft_hashed<false>,
    };
    return table;
}

}  // namespace papan::core::detail

#define PAPAN_MOVEGEN_INSTANCE(V)                                                                  \
    template const papan::core::detail::VariantOps&                                                \
    papan::core::detail::ops_of<papan::core::VariantId::V>() noexcept;
