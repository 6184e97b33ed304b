// HeapUsage: how many bytes the process has allocated and not freed, by the allocator's own
// count: jemalloc's statistics when the binary is linked with it (cmake/Allocator.cmake), glibc's
// mallinfo2 otherwise. For benchmarks and the language server's trace, not for decisions.
#pragma once

#include <cstddef>

namespace tlens {

size_t heapBytesInUse();

}  // namespace tlens
