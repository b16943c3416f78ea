#include "support/memory.hpp"

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
