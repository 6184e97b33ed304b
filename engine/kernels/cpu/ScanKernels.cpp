// Cumsum and Cumprod on the CPU: one sequential scan per (outer, inner) column of the axis.
#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

template <bool kProd>
void scanKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  int64_t axis = c.input(1).getInt(0);
  const int64_t rank = x.rank();
  if (axis < -rank || axis >= rank)
    c.fail("ScanOp: Expected scan axis in the range [" + std::to_string(-rank) + ", " + std::to_string(rank) +
           "), but got " + std::to_string(axis));
  if (axis < 0) axis += rank;
  const bool exclusive = c.getBool("exclusive", false), reverse = c.getBool("reverse", false);
  Tensor& out = c.allocateOutput(0, x.shape(), x.dtype());
  int64_t outer = 1, inner = 1;
  const int64_t n = x.dim(static_cast<int>(axis));
  for (int64_t d = 0; d < axis; ++d) outer *= x.dim(static_cast<int>(d));
  for (int64_t d = axis + 1; d < rank; ++d) inner *= x.dim(static_cast<int>(d));
  if (x.numElements() == 0) return;
  dispatchNumeric(x.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = x.data<T>();
    T* o = out.data<T>();
    parallelFor(outer * inner, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
      for (int64_t col = b; col < e; ++col) {
        const int64_t base = (col / inner) * n * inner + col % inner;
        T acc = kProd ? T(1) : T(0);
        for (int64_t s = 0; s < n; ++s) {
          const int64_t i = base + (reverse ? n - 1 - s : s) * inner;
          if (exclusive) {
            o[i] = acc;
            acc = kProd ? static_cast<T>(acc * in[i]) : static_cast<T>(acc + in[i]);
          } else {
            acc = kProd ? static_cast<T>(acc * in[i]) : static_cast<T>(acc + in[i]);
            o[i] = acc;
          }
        }
      }
    });
  });
}

}  // namespace

void registerCpuScanKernels(KernelRegistry& r) {
  r.add("Cumsum", Device::CPU, scanKernel<false>);
  r.add("Cumprod", Device::CPU, scanKernel<true>);
}

}  // namespace tlens
