// Multinomial and RandomShuffle on the CPU. Each run draws one key from the node's generator
// (seed/seed2 honoured, advancing across runs), as the other random kernels do.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

void multinomialKernel(KernelContext& c) {
  const Tensor& logits = c.input(0);
  const int64_t n = c.input(1).getInt(0);
  if (n < 0) c.fail("num_samples should be nonnegative, got " + std::to_string(n));
  const int64_t batch = logits.dim(0), classes = logits.dim(1);
  if (classes <= 0 && batch > 0 && n > 0) c.fail("num_classes should be positive, got: " + std::to_string(classes));
  std::mt19937_64 gen(c.rng()());
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Tensor& out = c.allocateOutput(0, {batch, n}, c.getDType("output_dtype", DType::Int64));
  std::vector<double> cdf(static_cast<size_t>(std::max<int64_t>(classes, 0)));
  for (int64_t b = 0; b < batch; ++b) {
    // softmax without normalising: exp(logit - max), non-finite logits give 0 (TF treats -inf so).
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < classes; ++k) {
      const double v = logits.getDouble(b * classes + k);
      if (std::isfinite(v)) mx = std::max(mx, v);
    }
    double run = 0;
    for (int64_t k = 0; k < classes; ++k) {
      const double v = logits.getDouble(b * classes + k);
      run += std::isfinite(v) ? std::exp(v - mx) : 0.0;
      cdf[static_cast<size_t>(k)] = run;
    }
    for (int64_t s = 0; s < n; ++s) {
      const double r = u(gen) * run;
      int64_t k = std::upper_bound(cdf.begin(), cdf.end(), r) - cdf.begin();
      if (k >= classes) k = classes - 1;
      if (out.dtype() == DType::Int32) out.data<int32_t>()[b * n + s] = static_cast<int32_t>(k);
      else out.data<int64_t>()[b * n + s] = k;
    }
  }
}

void randomShuffleKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  Tensor& out = c.allocateOutput(0, x.shape(), x.dtype());
  if (x.rank() == 0 || x.dim(0) <= 1) {
    if (x.bytes()) std::memcpy(out.raw(), x.raw(), x.bytes());
    return;
  }
  const int64_t rows = x.dim(0);
  const size_t row = x.bytes() / static_cast<size_t>(rows);
  std::vector<int64_t> perm(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) perm[static_cast<size_t>(i)] = i;
  std::mt19937_64 gen(c.rng()());
  for (int64_t i = rows - 1; i > 0; --i) {
    std::uniform_int_distribution<int64_t> pick(0, i);
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(pick(gen))]);
  }
  const char* src = static_cast<const char*>(x.raw());
  char* dst = static_cast<char*>(out.raw());
  for (int64_t i = 0; i < rows; ++i) std::memcpy(dst + i * row, src + perm[static_cast<size_t>(i)] * row, row);
}

}  // namespace

void registerCpuSamplingKernels(KernelRegistry& r) {
  r.add("Multinomial", Device::CPU, multinomialKernel);
  r.add("RandomShuffle", Device::CPU, randomShuffleKernel);
}

}  // namespace tlens
