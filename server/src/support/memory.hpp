// Memory handed back: after rooms leave memory, the heap they used is free but the allocator
// keeps it for the next allocation (glibc never returns the free pages in the middle of its
// heaps on its own). hand_back_free_memory() returns them to the operating system
// (docs/operations.md, "Throughput and memory").
#pragma once

namespace papan::server {

void hand_back_free_memory() noexcept;

}  // namespace papan::server
