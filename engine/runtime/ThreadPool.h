// Intra-op parallelism: one process-wide pool of worker threads (all cores by default), used by
// kernels through parallelFor (GEMMs included: they split into blocks on this pool).
#pragma once

#include <cstdint>
#include <functional>

namespace tlens {

/// Number of intra-op threads (default: hardware concurrency), used by every kernel.
void setIntraOpThreads(int n);
int intraOpThreads();

/// Runs f(begin, end) over [0, n) split into chunks of at least `grain` items, in parallel when
/// worthwhile; blocks until all chunks are done. Runs inline for small n.
void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f);

}  // namespace tlens
