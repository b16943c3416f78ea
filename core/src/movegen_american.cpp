// Kernel instantiation for American (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

PAPAN_MOVEGEN_INSTANCE(American)
