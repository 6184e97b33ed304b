// TopKV2 and InTopKV2 on the CPU: a partial sort of each row's indices (ties: lower index first).
// Ranks, k and the batch are the shape functions' (engine/ops/defs/TopKOps.cpp), which runOp
// runs first with k's value: the kernels assert them.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

void topKKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  assert(c.input(1).rank() == 0 && in.rank() >= 1);
  const int64_t k = c.input(1).getInt(0);
  const int64_t n = in.dim(in.rank() - 1);
  assert(k >= 0 && n >= k);
  ConcreteShape os = in.shape();
  os.back() = k;
  Tensor& values = c.allocateOutput(0, os, in.dtype());
  Tensor& indices = c.allocateOutput(1, os, DType::Int32);
  const int64_t rows = n == 0 ? 0 : in.numElements() / n;
  const bool sorted = c.getBool("sorted", true);
  dispatchNumeric(in.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* x = in.data<T>();
    T* v = values.data<T>();
    int32_t* ix = indices.data<int32_t>();
    parallelFor(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
      std::vector<int32_t> order(static_cast<size_t>(n));
      for (int64_t r = b; r < e; ++r) {
        const T* row = x + r * n;
        std::iota(order.begin(), order.end(), 0);
        auto greater = [row](int32_t a, int32_t bb) {
          const double va = static_cast<double>(row[a]), vb = static_cast<double>(row[bb]);
          // NaN sorts first, as the largest value (TensorFlow's comparator puts it there too).
          const bool na = std::isnan(va), nb = std::isnan(vb);
          if (na || nb) return na && (!nb || a < bb);
          return va > vb || (va == vb && a < bb);
        };
        // The output order is always descending here: unsorted=false is allowed any order in TF.
        (void)sorted;
        // A whole row (np.sort, np.median and tf.sort ask for k = n): introsort beats the heap.
        if (k == n) std::sort(order.begin(), order.end(), greater);
        else std::partial_sort(order.begin(), order.begin() + k, order.end(), greater);
        for (int64_t j = 0; j < k; ++j) {
          v[r * k + j] = row[order[static_cast<size_t>(j)]];
          ix[r * k + j] = order[static_cast<size_t>(j)];
        }
      }
    });
  });
}

void inTopKKernel(KernelContext& c) {
  const Tensor& pred = c.input(0);
  const Tensor& targets = c.input(1);
  assert(pred.rank() == 2 && targets.rank() == 1 && pred.dim(0) == targets.dim(0) && c.input(2).rank() == 0);
  const int64_t k = c.input(2).getInt(0);
  const int64_t rows = pred.dim(0), classes = pred.dim(1);
  Tensor& out = c.allocateOutput(0, {rows}, DType::Bool);
  const float* p = pred.data<float>();
  bool* o = out.data<bool>();
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t t = targets.getInt(r);
    const float* row = p + r * classes;
    if (t < 0 || t >= classes || !std::isfinite(row[t])) {
      o[r] = false;
      continue;
    }
    int64_t more = 0;
    for (int64_t j = 0; j < classes; ++j) more += row[j] > row[t];
    o[r] = more < k;
  }
}

}  // namespace

void registerCpuTopKKernels(KernelRegistry& r) {
  r.add("TopKV2", Device::CPU, topKKernel);
  r.add("InTopKV2", Device::CPU, inTopKKernel);
}

}  // namespace tlens
