// Kernel instantiation for Spanish (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_spanish() noexcept {
    return make_ops<VariantId::Spanish>();
}

}  // namespace papan::core::detail
