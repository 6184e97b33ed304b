// registerKernels (every GPU kernel, by family) and the device-side check-numerics scan.
#include <cmath>

#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

void registerKernels(KernelRegistry& r) {
  registerElementwiseKernels(r);
  registerReductionKernels(r);
  registerNNKernels(r);
  registerMatMulKernels(r);
  registerConvKernels(r);
  registerMovementKernels(r);
  registerStateKernels(r);
}

bool gpuKernelUsable(std::string_view type) { return convKernelUsable(type); }

bool allFinite(const Tensor& t, int64_t* nanCount, int64_t* infCount) {
  if (nanCount) *nanCount = 0;
  if (infCount) *infCount = 0;
  if (!isFloating(t.dtype()) || t.numElements() == 0) return true;
  unsigned long long counts[2] = {0, 0};
  if (t.hostAccessible()) {  // not the intended use, but answer correctly
    for (int64_t i = 0; i < t.numElements(); ++i) {
      const double v = t.getDouble(i);
      counts[0] += std::isnan(v);
      counts[1] += std::isinf(v);
    }
  } else {
    const int index = t.device().index;
    DeviceState& st = deviceState(index);
    useDevice(index);
    const ET et = t.dtype() == DType::Float32 ? ET::F32 : t.dtype() == DType::Float64 ? ET::F64 : ET::F16;
    checkCuda(cudaMemsetAsync(st.counters, 0, 2 * sizeof(unsigned long long), st.stream),
              "cudaMemsetAsync (allFinite counters)");
    checkCuda(launchCountNonFinite(et, t.raw(), t.numElements(), st.counters, st.stream), "launchCountNonFinite");
    checkCuda(cudaMemcpyAsync(counts, st.counters, sizeof counts, cudaMemcpyDeviceToHost, st.stream),
              "cudaMemcpyAsync (allFinite counters)");
    checkCuda(cudaStreamSynchronize(st.stream), "cudaStreamSynchronize (allFinite)");
  }
  if (nanCount) *nanCount = static_cast<int64_t>(counts[0]);
  if (infCount) *infCount = static_cast<int64_t>(counts[1]);
  return counts[0] == 0 && counts[1] == 0;
}

void beginFiniteScans(int index, int count) {
  if (count < 0) throwError(ErrorCode::InvalidArgument, "beginFiniteScans: negative count");
  DeviceState& st = deviceState(index);
  useDevice(index);
  if (count > st.scanCapacity) {
    int cap = 64;
    while (cap < count) cap *= 2;
    checkCuda(cudaStreamSynchronize(st.stream), "cudaStreamSynchronize (finite scans)");
    if (st.scans) checkCuda(cudaFree(st.scans), "cudaFree (finite scans)");
    st.scans = nullptr;
    st.scanCapacity = 0;
    checkCuda(cudaMalloc(reinterpret_cast<void**>(&st.scans), static_cast<size_t>(cap) * 2 * sizeof(unsigned long long)),
              "cudaMalloc (finite scans)");
    st.scanCapacity = cap;
  }
  st.scanCount = count;
  if (count)
    checkCuda(cudaMemsetAsync(st.scans, 0, static_cast<size_t>(count) * 2 * sizeof(unsigned long long), st.stream),
              "cudaMemsetAsync (finite scans)");
}

void queueFiniteScan(const Tensor& t, int slot) {
  if (!isFloating(t.dtype()) || t.numElements() == 0) return;
  if (t.hostAccessible())
    throwError(ErrorCode::InvalidArgument, "queueFiniteScan: the tensor is in host memory (use tlens::allFinite)");
  const int index = t.device().index;
  DeviceState& st = deviceState(index);
  if (slot < 0 || slot >= st.scanCount)
    throwError(ErrorCode::InvalidArgument, "queueFiniteScan: slot " + std::to_string(slot) + " outside the " +
                                               std::to_string(st.scanCount) + " slots of beginFiniteScans");
  useDevice(index);
  const ET et = t.dtype() == DType::Float32 ? ET::F32 : t.dtype() == DType::Float64 ? ET::F64 : ET::F16;
  checkCuda(launchCountNonFinite(et, t.raw(), t.numElements(), st.scans + 2 * slot, st.stream),
            "launchCountNonFinite");
}

std::vector<FiniteScan> finiteScanResults(int index) {
  DeviceState& st = deviceState(index);
  useDevice(index);
  std::vector<unsigned long long> raw(static_cast<size_t>(st.scanCount) * 2);
  if (!raw.empty())
    checkCuda(cudaMemcpyAsync(raw.data(), st.scans, raw.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                              st.stream),
              "cudaMemcpyAsync (finite scans)");
  checkCuda(cudaStreamSynchronize(st.stream), "cudaStreamSynchronize (finite scans)");
  std::vector<FiniteScan> out(static_cast<size_t>(st.scanCount));
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].nan = static_cast<int64_t>(raw[2 * i]);
    out[i].inf = static_cast<int64_t>(raw[2 * i + 1]);
  }
  return out;
}

}  // namespace tlens::cuda
