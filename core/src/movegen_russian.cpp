// Kernel instantiation for Russian (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_russian() noexcept {
    return make_ops<VariantId::Russian>();
}

}  // namespace papan::core::detail
