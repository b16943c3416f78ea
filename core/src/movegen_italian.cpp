// Kernel instantiation for Italian (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_italian() noexcept {
    return make_ops<VariantId::Italian>();
}

}  // namespace papan::core::detail
