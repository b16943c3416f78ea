#include "support/memory.hpp"

// <cstdlib> first: it defines __GLIBC__ (through <features.h>), which the test below needs; without
// it the test was false and the hand-back did nothing.
#include <cstdlib>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace papan::server {

void hand_back_free_memory() noexcept {
#if defined(__GLIBC__)
    // Every arena, not only the main heap: rooms live on the io threads' arenas.
    (void)::malloc_trim(0);
#endif
}

}  // namespace papan::server
