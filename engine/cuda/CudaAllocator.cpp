// The caching device allocator: one per device. Requests are rounded to size classes (512-byte
// steps up to 1 MiB, eight classes per power of two above) and freed blocks go to per-class free lists that later
// requests of the same class reuse, so a training step allocates from CUDA only in its first
// iteration. Bytes in use and the peak are counted by Allocator::reserve/release on the
// requested sizes, so limits (setLimit) and out-of-memory messages work as on the host. Reuse is
// safe without events because every kernel and copy of a device runs on its one stream, in order.
//
// When cudaMalloc fails, the cache is returned to CUDA and the allocation retried once; if it
// still fails the error is ResourceExhausted naming the node, the request and the device's state.
#include <map>
#include <mutex>
#include <vector>

#include "engine/core/Allocator.h"
#include "engine/cuda/CudaRuntime.h"

namespace tlens::cuda {

namespace {

/// 512-byte steps up to 1 MiB; above, eight classes per power of two (at most 12.5% slack).
size_t sizeClass(size_t bytes) {
  constexpr size_t kSmallStep = 512, kSmallLimit = size_t{1} << 20;
  if (bytes <= kSmallLimit) return (bytes + kSmallStep - 1) / kSmallStep * kSmallStep;
  size_t p = kSmallLimit;
  while (p <= bytes / 2) p *= 2;  // the largest power of two <= bytes
  const size_t step = p / 8;
  return (bytes + step - 1) / step * step;
}

class CudaAllocator final : public Allocator {
 public:
  explicit CudaAllocator(int index) : index_(index) {}

  void* allocate(size_t bytes, const char* what) override {
    if (bytes == 0) return nullptr;  // empty tensors own no memory
    reserve(bytes, what);            // the limit, counted on requested bytes
    const size_t cls = sizeClass(bytes);
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(cls);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        cachedBytes_ -= cls;
        return p;
      }
    }
    DeviceState& st = deviceState(index_);
    (void)st;
    useDevice(index_);
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, cls);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      emptyCache();
      e = cudaMalloc(&p, cls);
    }
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      release(bytes);
      size_t freeB = 0, totalB = 0;
      const bool known = cudaMemGetInfo(&freeB, &totalB) == cudaSuccess;
      (void)cudaGetLastError();
      std::string msg = "OOM when allocating tensor" + (what ? std::string(" for ") + what : std::string()) + ": " +
                        formatBytes(bytes) + " requested on " + device().str() + ", " + formatBytes(bytesInUse()) +
                        " in use by tensors";
      if (known) msg += ", device has " + formatBytes(freeB) + " free of " + formatBytes(totalB);
      msg += " (" + cudaErrorText(e) + ")";
      throwError(ErrorCode::ResourceExhausted, msg);
    }
    std::lock_guard<std::mutex> lock(mu_);
    reservedBytes_ += cls;
    return p;
  }

  void deallocate(void* p, size_t bytes) override {
    if (!p) return;
    const size_t cls = sizeClass(bytes);
    {
      std::lock_guard<std::mutex> lock(mu_);
      free_[cls].push_back(p);
      cachedBytes_ += cls;
    }
    release(bytes);
  }

  Device device() const override { return Device::gpu(index_); }
  bool hostAccessible() const override { return false; }

  void copyFromHost(void* dst, const void* src, size_t bytes) override {
    if (!bytes) return;
    DeviceState& st = deviceState(index_);
    useDevice(index_);
    checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, st.stream),
              "cudaMemcpyAsync (host to device)");
    // A pageable source is staged before cudaMemcpyAsync returns, so the caller may free it.
  }

  void copyToHost(void* dst, const void* src, size_t bytes) override {
    if (!bytes) return;
    DeviceState& st = deviceState(index_);
    useDevice(index_);
    checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, st.stream),
              "cudaMemcpyAsync (device to host)");
    const cudaError_t e = cudaStreamSynchronize(st.stream);
    if (e != cudaSuccess)
      checkCuda(e, "cudaStreamSynchronize after a device-to-host copy (an earlier kernel on this device may have "
                   "failed)");
  }

  void copyWithin(void* dst, const void* src, size_t bytes) override {
    if (!bytes) return;
    DeviceState& st = deviceState(index_);
    useDevice(index_);
    checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st.stream),
              "cudaMemcpyAsync (device to device)");
  }

  /// Returns every cached block to CUDA (after the stream has finished with them).
  void emptyCache() {
    std::lock_guard<std::mutex> lock(mu_);
    if (free_.empty()) return;
    DeviceState& st = deviceState(index_);
    (void)cudaStreamSynchronize(st.stream);
    for (auto& [cls, blocks] : free_)
      for (void* p : blocks) {
        (void)cudaFree(p);
        reservedBytes_ -= cls;
      }
    free_.clear();
    cachedBytes_ = 0;
    (void)cudaGetLastError();
  }

 private:
  int index_;
  std::mutex mu_;
  std::map<size_t, std::vector<void*>> free_;
  size_t cachedBytes_ = 0;    ///< bytes in free lists
  size_t reservedBytes_ = 0;  ///< bytes obtained from cudaMalloc and not returned
};

}  // namespace

Allocator* allocator(int index) {
  static std::mutex mu;
  static auto* all = new std::map<int, CudaAllocator*>();  // never destroyed: tensors may outlive statics
  if (index < 0 || index >= deviceCount())
    throwError(ErrorCode::FailedPrecondition,
               "No CUDA device " + std::to_string(index) +
                   (deviceCount() == 0 ? ": " + unavailableReason()
                                       : " (" + std::to_string(deviceCount()) + " visible)"));
  std::lock_guard<std::mutex> lock(mu);
  auto& a = (*all)[index];
  if (!a) a = new CudaAllocator(index);
  return a;
}

}  // namespace tlens::cuda
