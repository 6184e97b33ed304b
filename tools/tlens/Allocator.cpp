// useComputeAllocatorSettings: see Allocator.h. The jemalloc half is in MallocConf.cpp, linked only
// with jemalloc; without it the weak reference below is null and there is nothing to set.
#include "tools/tlens/Allocator.h"

extern "C" void tlens_jemalloc_keep_freed_pages(long ms) __attribute__((weak));

namespace tlens::cli {

void useComputeAllocatorSettings() {
  // Kept until the program ends (-1): a finite delay does not reach the arena of allocations over
  // 8 MB, which jemalloc makes purge at once unless the default is "never". Measured on the Keras
  // MNIST MLP (784-512-10, batch 128): minor page faults 209,000 -> 126,000, CPU per step
  // 6.4 -> 5.3-5.9 ms, peak resident memory 477 -> 523 MB (freed pages are not given back).
  if (tlens_jemalloc_keep_freed_pages) tlens_jemalloc_keep_freed_pages(-1);
}

}  // namespace tlens::cli
