// Kernel instantiation for Pool (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_pool() noexcept {
    return make_ops<VariantId::Pool>();
}

}  // namespace papan::core::detail
