// Builds the VariantOps table of one variant from the kernel; included once per variant TU.
#pragma once

#include "movegen_kernel.hpp"
#include "movegen_ops.hpp"

namespace papan::core::detail {

template <VariantId V>
const VariantOps& make_ops() noexcept {
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
