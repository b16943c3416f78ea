// Kernel instantiation for Thai (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_thai() noexcept {
    return make_ops<VariantId::Thai>();
}

}  // namespace papan::core::detail
