// Kernel instantiation for Brazilian (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_brazilian() noexcept {
    return make_ops<VariantId::Brazilian>();
}

}  // namespace papan::core::detail
