// Kernel instantiation for Turkish (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_turkish() noexcept {
    return make_ops<VariantId::Turkish>();
}

}  // namespace papan::core::detail
