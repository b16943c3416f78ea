// Kernel instantiation for Czech (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

namespace papan::core::detail {

const VariantOps& ops_czech() noexcept {
    return make_ops<VariantId::Czech>();
}

}  // namespace papan::core::detail
