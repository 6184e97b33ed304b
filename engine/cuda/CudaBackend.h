// The CUDA backend's interface to the rest of the engine. Plain C++ (no CUDA types), so code that
// is built without nvcc includes it too: without the toolkit `built()` is false and
// `deviceCount()` is 0 (engine/cuda/CudaUnavailable.cpp), and nothing else may be called.
//
// Contract with the runtime (engine/runtime/Devices, the executor and the eager context):
// - A GPU kernel gets every input in its device's memory, except the op's `hostInputs` (shape
//   arguments, axes, sizes), which arrive in host memory. Outputs come from
//   `KernelContext::allocateOutput`, which allocates on the kernel's device.
// - Kernels are asynchronous on the device's stream; host reads go through
//   `Allocator::copyToHost`, which waits for the stream.
// - Variables placed on a GPU live in its memory; ref-input kernels (Assign, Apply*) update them
//   in place there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tlens {
class Allocator;
class KernelRegistry;
class Tensor;
}  // namespace tlens

namespace tlens::cuda {

/// Whether this binary was built with the CUDA backend.
bool built();
/// The number of usable CUDA devices; 0 when not built, without a driver or without a device.
/// Never throws; the first call initialises the runtime.
int deviceCount();
/// "NVIDIA H200" (the device's name as the driver reports it).
std::string deviceName(int index);
/// Total memory of the device in bytes.
size_t totalMemory(int index);
/// Why no device is usable (driver missing, no device, ...) when deviceCount() is 0.
std::string unavailableReason();

/// The caching allocator of device `index`: freed blocks are reused; bytes in use and the peak
/// are tracked (Allocator's counters); an allocation the device cannot meet throws
/// ResourceExhausted naming the consumer (node) and the sizes. `hostAccessible()` is false and
/// the copy methods move bytes between host and device.
Allocator* allocator(int index);

/// Registers every CUDA kernel under (op type, Device::GPU).
void registerKernels(KernelRegistry& r);
/// Whether the registered GPU kernel of op `type` can run in this process. The convolutions need
/// cuDNN, which is loaded with dlopen the first time this is asked about one of them: when it
/// cannot be loaded the answer is false, and placement runs them on the CPU as in a build without
/// cuDNN. True for every other op (whether it has a GPU kernel at all is the registry's answer).
bool gpuKernelUsable(std::string_view type);

/// Check-numerics on the device: one fused reduction over `t` (a floating tensor in device
/// memory). Returns true when every element is finite; otherwise counts NaN and Inf elements.
bool allFinite(const Tensor& t, int64_t* nanCount = nullptr, int64_t* infCount = nullptr);

/// Batched check-numerics (an addition by the backend, for the <= 3% overhead target): a
/// synchronous allFinite per output costs one host synchronisation each. Instead, an executor
/// calls beginFiniteScans(device, n) once per run, queueFiniteScan(t, slot) for each floating
/// output (slot < n, e.g. in node order; asynchronous, no sync) and finiteScanResults(device)
/// once at the end (one sync), then reports the first slot with NaN or Inf.
struct FiniteScan {
  int64_t nan = 0, inf = 0;
  bool finite() const { return nan == 0 && inf == 0; }
};
void beginFiniteScans(int index, int count);
void queueFiniteScan(const Tensor& t, int slot);
std::vector<FiniteScan> finiteScanResults(int index);

/// Waits until the device's stream has finished all work.
void synchronize(int index);

}  // namespace tlens::cuda
