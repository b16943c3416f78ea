// Kernel instantiation for Czech (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

PAPAN_MOVEGEN_INSTANCE(Czech)
