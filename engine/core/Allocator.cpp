#include "engine/core/Allocator.h"

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "engine/core/Error.h"

namespace tlens {

void Allocator::reserve(size_t bytes, const char* what) {
  size_t now = inUse_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (limit_ && now > limit_) {
    inUse_.fetch_sub(bytes, std::memory_order_relaxed);
    throwError(ErrorCode::ResourceExhausted,
               "OOM when allocating tensor" + (what ? std::string(" for ") + what : std::string()) +
                   ": " + formatBytes(bytes) + " requested on " + device().str() + ", " +
                   formatBytes(now - bytes) + " in use, limit " + formatBytes(limit_));
  }
  size_t p = peak_.load(std::memory_order_relaxed);
  while (now > p && !peak_.compare_exchange_weak(p, now, std::memory_order_relaxed)) {
  }
}

void Allocator::copyFromHost(void* dst, const void* src, size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
}
void Allocator::copyToHost(void* dst, const void* src, size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
}
void Allocator::copyWithin(void* dst, const void* src, size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
}

namespace {

class CpuAllocator final : public Allocator {
 public:
  CpuAllocator() {
    // glibc trims the heap top and unmaps large blocks eagerly; for a tensor engine that frees and
    // reallocates the same sizes every step that doubles the cost of small GEMMs.
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_TOP_PAD, 64 << 20);
  }
  void* allocate(size_t bytes, const char* what) override {
    reserve(bytes, what);
    void* p = nullptr;
    size_t rounded = (bytes + 63) / 64 * 64;
    if (rounded == 0) rounded = 64;
    if (posix_memalign(&p, 64, rounded) != 0 || !p) {
      release(bytes);
      throwError(ErrorCode::ResourceExhausted,
                 "OOM when allocating tensor" + (what ? std::string(" for ") + what : std::string()) +
                     ": the host could not provide " + formatBytes(bytes));
    }
    return p;
  }
  void deallocate(void* p, size_t bytes) override {
    std::free(p);
    release(bytes);
  }
  Device device() const override { return Device::cpu(); }
};

}  // namespace

Allocator* cpuAllocator() {
  static CpuAllocator* a = new CpuAllocator();  // never destroyed: tensors may outlive statics
  return a;
}

std::string formatBytes(size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%zu B", bytes);
  else std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace tlens
