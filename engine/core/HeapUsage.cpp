#include "engine/core/HeapUsage.h"

#include <malloc.h>

#include <cstdint>

// jemalloc's control interface: present only when the binary is linked with jemalloc.
extern "C" int mallctl(const char*, void*, size_t*, void*, size_t) __attribute__((weak));

namespace tlens {

size_t heapBytesInUse() {
  if (mallctl) {
    uint64_t epoch = 1;
    size_t len = sizeof epoch;
    mallctl("epoch", &epoch, &len, &epoch, len);  // refreshes the statistics
    size_t allocated = 0;
    len = sizeof allocated;
    if (mallctl("stats.allocated", &allocated, &len, nullptr, 0) == 0) return allocated;
  }
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;  // small blocks in use and the mmapped ones (big vectors)
}

}  // namespace tlens
