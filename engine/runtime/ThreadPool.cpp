#include "engine/runtime/ThreadPool.h"

#define EIGEN_USE_THREADS
#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/ThreadPool>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

namespace tlens {

namespace {

struct PoolState {
  std::mutex mu;
  int threads = std::max(1u, std::thread::hardware_concurrency());
  std::unique_ptr<Eigen::ThreadPool> pool;
};

PoolState& state() {
  static PoolState* s = new PoolState();
  return *s;
}

Eigen::ThreadPool* pool() {
  PoolState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.pool && s.threads > 1) s.pool = std::make_unique<Eigen::ThreadPool>(s.threads);
  return s.pool.get();
}

}  // namespace

void setIntraOpThreads(int n) {
  PoolState& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  n = std::max(1, n);
  if (n != s.threads) {
    s.pool.reset();
    s.threads = n;
  }
}

int intraOpThreads() { return state().threads; }

void parallelFor(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  if (n <= 0) return;
  const int threads = intraOpThreads();
  grain = std::max<int64_t>(grain, 1);
  int64_t chunks = std::min<int64_t>(threads, (n + grain - 1) / grain);
  Eigen::ThreadPool* p = chunks > 1 ? pool() : nullptr;
  if (!p || p->CurrentThreadId() >= 0) {  // inline when small or nested
    f(0, n);
    return;
  }
  const int64_t step = (n + chunks - 1) / chunks;
  Eigen::Barrier barrier(static_cast<unsigned>(chunks - 1));
  for (int64_t c = 1; c < chunks; ++c) {
    const int64_t b = c * step, e = std::min(n, b + step);
    p->Schedule([&f, &barrier, b, e] {
      if (b < e) f(b, e);
      barrier.Notify();
    });
  }
  f(0, std::min(n, step));
  barrier.Wait();
}

}  // namespace tlens
