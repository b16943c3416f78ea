// Kernel instantiation for International (rules: core/include/papan/core/rules/registry.hpp).
#include "movegen_instance.hpp"

PAPAN_MOVEGEN_INSTANCE(International)
