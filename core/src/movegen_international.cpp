// Kernel instantiation for International (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_international() noexcept {
    return make_ops<VariantId::International>();
}

}  // namespace papan::core::detail
