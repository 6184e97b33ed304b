// LRN and LRNGrad on the CPU, in double per pixel (the channel window sums). Ranks and shapes are
// the shape functions' (engine/ops/defs/LRNOps.cpp), which runOp runs first: asserted here.
#include <cassert>
#include <cmath>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

struct Params {
  int64_t r;
  double bias, alpha, beta;
};

Params params(KernelContext& c) {
  return {c.getInt("depth_radius", 5), c.getFloat("bias", 1.0), c.getFloat("alpha", 1.0), c.getFloat("beta", 0.5)};
}

void lrnKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  assert(x.rank() == 4);
  const Params p = params(c);
  Tensor& out = c.allocateOutput(0, x.shape(), x.dtype());
  const int64_t depth = x.dim(3), pixels = depth ? x.numElements() / depth : 0;
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = x.data<T>();
    T* o = out.data<T>();
    parallelFor(pixels, 64, [&](int64_t b, int64_t e) {
      for (int64_t px = b; px < e; ++px) {
        const T* v = in + px * depth;
        for (int64_t d = 0; d < depth; ++d) {
          double s = 0;
          for (int64_t k = std::max<int64_t>(0, d - p.r); k <= std::min(depth - 1, d + p.r); ++k)
            s += static_cast<double>(v[k]) * static_cast<double>(v[k]);
          o[px * depth + d] = static_cast<T>(static_cast<double>(v[d]) * std::pow(p.bias + p.alpha * s, -p.beta));
        }
      }
    });
  });
}

void lrnGradKernel(KernelContext& c) {
  const Tensor& dy = c.input(0);
  const Tensor& x = c.input(1);
  assert(x.rank() == 4 && dy.shape() == x.shape() && c.input(2).shape() == x.shape());
  const Params p = params(c);
  Tensor& out = c.allocateOutput(0, x.shape(), x.dtype());
  const int64_t depth = x.dim(3), pixels = depth ? x.numElements() / depth : 0;
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = x.data<T>();
    const T* g = dy.data<T>();
    T* o = out.data<T>();
    parallelFor(pixels, 16, [&](int64_t b, int64_t e) {
      std::vector<double> norm(static_cast<size_t>(depth)), acc(static_cast<size_t>(depth));
      for (int64_t px = b; px < e; ++px) {
        const T* v = in + px * depth;
        const T* gv = g + px * depth;
        for (int64_t j = 0; j < depth; ++j) {
          double s = 0;
          for (int64_t k = std::max<int64_t>(0, j - p.r); k <= std::min(depth - 1, j + p.r); ++k)
            s += static_cast<double>(v[k]) * static_cast<double>(v[k]);
          norm[static_cast<size_t>(j)] = p.bias + p.alpha * s;
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        // y_j = x_j N_j^-b: dy_j/dx_d = [j == d] N_j^-b - 2 a b x_j x_d N_j^(-b-1), d in window(j).
        for (int64_t j = 0; j < depth; ++j) {
          const double nj = norm[static_cast<size_t>(j)], gj = static_cast<double>(gv[j]);
          const double pw = std::pow(nj, -p.beta);
          acc[static_cast<size_t>(j)] += gj * pw;
          const double common = -2.0 * p.alpha * p.beta * gj * static_cast<double>(v[j]) * pw / nj;
          for (int64_t d = std::max<int64_t>(0, j - p.r); d <= std::min(depth - 1, j + p.r); ++d)
            acc[static_cast<size_t>(d)] += common * static_cast<double>(v[d]);
        }
        for (int64_t d = 0; d < depth; ++d) o[px * depth + d] = static_cast<T>(acc[static_cast<size_t>(d)]);
      }
    });
  });
}

}  // namespace

void registerCpuLRNKernels(KernelRegistry& r) {
  r.add("LRN", Device::CPU, lrnKernel);
  r.add("LRNGrad", Device::CPU, lrnGradKernel);
}

}  // namespace tlens
