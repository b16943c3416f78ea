// Kernel instantiation for American (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_american() noexcept {
    return make_ops<VariantId::American>();
}

}  // namespace papan::core::detail
