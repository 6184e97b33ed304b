// UnsortedSegmentSum and SegmentSum / SegmentMean / SegmentMax on the CPU.
#include <limits>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

void unsortedSegmentSumKernel(KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& ids = c.input(1);
  const int64_t n = c.input(2).getInt(0);
  if (n < 0) c.fail("num_segments must be >= 0, got " + std::to_string(n));
  ConcreteShape os{n};
  os.insert(os.end(), data.shape().begin() + ids.rank(), data.shape().end());
  Tensor& out = c.allocateOutput(0, os, data.dtype());
  const int64_t m = ids.numElements();
  const int64_t inner = m == 0 ? 1 : data.numElements() / m;
  const std::vector<int64_t> v = ids.toInt64Vector();
  dispatchNumeric(data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    const T* x = data.data<T>();
    std::fill(o, o + out.numElements(), T(0));
    for (int64_t k = 0; k < m; ++k) {
      const int64_t s = v[static_cast<size_t>(k)];
      if (s < 0) continue;  // dropped, as TensorFlow does
      if (s >= n)
        c.fail("segment_ids[" + std::to_string(k) + "] = " + std::to_string(s) + " is out of range [0, " +
               std::to_string(n) + ")");
      for (int64_t j = 0; j < inner; ++j) o[s * inner + j] = static_cast<T>(o[s * inner + j] + x[k * inner + j]);
    }
  });
}

enum class Seg { Sum, Mean, Max };

template <Seg kOp>
void segmentKernel(KernelContext& c) {
  const Tensor& data = c.input(0);
  const Tensor& ids = c.input(1);
  const std::vector<int64_t> v = ids.toInt64Vector();
  const int64_t m = static_cast<int64_t>(v.size());
  for (int64_t k = 0; k < m; ++k) {
    if (v[static_cast<size_t>(k)] < 0) c.fail("segment ids must be >= 0");
    if (k && v[static_cast<size_t>(k)] < v[static_cast<size_t>(k - 1)]) c.fail("segment ids are not increasing");
  }
  const int64_t n = m ? v.back() + 1 : 0;
  ConcreteShape os{n};
  os.insert(os.end(), data.shape().begin() + 1, data.shape().end());
  Tensor& out = c.allocateOutput(0, os, data.dtype());
  const int64_t inner = data.dim(0) == 0 ? 1 : data.numElements() / data.dim(0);
  dispatchNumeric(data.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    const T* x = data.data<T>();
    std::fill(o, o + out.numElements(), T(0));
    int64_t k = 0;
    while (k < m) {
      const int64_t s = v[static_cast<size_t>(k)];
      int64_t e = k;
      while (e < m && v[static_cast<size_t>(e)] == s) ++e;
      T* row = o + s * inner;
      for (int64_t j = 0; j < inner; ++j) {
        T acc = x[k * inner + j];
        for (int64_t i = k + 1; i < e; ++i) {
          const T xi = x[i * inner + j];
          if (kOp == Seg::Max) acc = (xi > acc || xi != xi) && acc == acc ? xi : acc;
          else acc = static_cast<T>(acc + xi);
        }
        if (kOp == Seg::Mean) acc = static_cast<T>(acc / static_cast<T>(e - k));
        row[j] = acc;
      }
      k = e;
    }
  });
}

}  // namespace

void registerCpuSegmentKernels(KernelRegistry& r) {
  r.add("UnsortedSegmentSum", Device::CPU, unsortedSegmentSumKernel);
  r.add("SegmentSum", Device::CPU, segmentKernel<Seg::Sum>);
  r.add("SegmentMean", Device::CPU, segmentKernel<Seg::Mean>);
  r.add("SegmentMax", Device::CPU, segmentKernel<Seg::Max>);
}

}  // namespace tlens
