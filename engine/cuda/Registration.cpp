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

}  // namespace tlens::cuda
