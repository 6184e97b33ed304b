// Allocators own device memory and count it. Every tensor buffer comes from one, so the bytes in
// use per device are always known, and a failed or over-limit allocation becomes a
// ResourceExhaustedError that names the size and the limit instead of a crash.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/core/Device.h"

namespace tlens {

class Allocator {
 public:
  virtual ~Allocator() = default;
  /// Throws EngineError(ResourceExhausted) when the request cannot be met. `what` names the
  /// consumer (a node name) for the message.
  virtual void* allocate(size_t bytes, const char* what = nullptr) = 0;
  virtual void deallocate(void* p, size_t bytes) = 0;
  virtual Device device() const = 0;

  /// Whether the CPU may read and write this allocator's memory directly (the host and virtual
  /// GPUs: yes; a CUDA device: no). Code that reads elements (numerics, debugger, fetches) copies
  /// a tensor whose memory is not host-accessible to the host first (`Tensor::toHost`).
  virtual bool hostAccessible() const { return true; }
  /// Copies between this allocator's memory and host memory, or within this allocator's memory.
  /// The defaults are memcpy; a device allocator overrides them (the CUDA backend: cudaMemcpyAsync
  /// on the device's stream; copyToHost returns only when the bytes are on the host).
  virtual void copyFromHost(void* dst, const void* src, size_t bytes);
  virtual void copyToHost(void* dst, const void* src, size_t bytes);
  virtual void copyWithin(void* dst, const void* src, size_t bytes);

  size_t bytesInUse() const { return inUse_.load(std::memory_order_relaxed); }
  size_t peakBytes() const { return peak_.load(std::memory_order_relaxed); }
  void resetPeak() { peak_.store(bytesInUse()); }
  /// 0 means unlimited.
  void setLimit(size_t bytes) { limit_ = bytes; }
  size_t limit() const { return limit_; }

 protected:
  /// Counts `bytes` against the limit; throws when it would pass it.
  void reserve(size_t bytes, const char* what);
  void release(size_t bytes) { inUse_.fetch_sub(bytes, std::memory_order_relaxed); }

 private:
  std::atomic<size_t> inUse_{0};
  std::atomic<size_t> peak_{0};
  size_t limit_ = 0;
};

/// The host allocator: 64-byte aligned memory, glibc tuned so that freed GEMM scratch and tensor
/// buffers are not returned to the kernel after every op.
Allocator* cpuAllocator();

/// Human-readable byte counts: "1.5 MiB".
std::string formatBytes(size_t bytes);

}  // namespace tlens
