// CPU kernels for NN layers: BiasAdd, BiasAddGrad, FusedBatchNormV3 and its gradient. Conv2D and
// pooling live in ConvKernels.cpp and PoolKernels.cpp and are registered from here.
//
// Per-channel ops see their input as [outer, C, inner]: NHWC (or any channel-last tensor) is
// [N*H*W, C, 1], NCHW is [N, C, H*W]. Per-channel sums accumulate in double over fixed blocks, so
// results do not depend on the number of threads.
#include <Eigen/Core>

#include <cmath>
#include <vector>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Reduce.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

void registerCpuConvKernels(KernelRegistry& r);
void registerCpuPoolKernels(KernelRegistry& r);

namespace {

struct ChannelLayout {
  int64_t outer = 1, c = 1, inner = 1;
  int64_t perChannel() const { return outer * inner; }
};

ChannelLayout channelLayout(const ConcreteShape& s, bool nchw) {
  ChannelLayout l;
  if (s.empty()) return l;
  if (nchw && s.size() >= 3) {
    l.outer = s[0];
    l.c = s[1];
    l.inner = 1;
    for (size_t i = 2; i < s.size(); ++i) l.inner *= s[i];
  } else {
    l.c = s.back();
    l.outer = 1;
    for (size_t i = 0; i + 1 < s.size(); ++i) l.outer *= s[i];
  }
  return l;
}

bool isNchw(const KernelContext& c) { return c.getString("data_format", "NHWC") == "NCHW"; }

/// Runs f(index, channel) over every element, in parallel.
template <typename F>
void forEachElement(const ChannelLayout& l, F f) {
  if (l.inner == 1) {
    parallelFor(l.outer, std::max<int64_t>(1, 16384 / std::max<int64_t>(l.c, 1)), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o)
        for (int64_t k = 0; k < l.c; ++k) f(o * l.c + k, k);
    });
  } else {
    parallelFor(l.outer * l.c, std::max<int64_t>(1, 16384 / l.inner), [&](int64_t b, int64_t e) {
      for (int64_t oc = b; oc < e; ++oc) {
        const int64_t k = oc % l.c;
        for (int64_t i = 0; i < l.inner; ++i) f(oc * l.inner + i, k);
      }
    });
  }
}

/// Per-channel sums of f(index, channel), in double.
template <typename F>
std::vector<double> channelSums(const ChannelLayout& l, F f) {
  std::vector<double> sums(static_cast<size_t>(l.c), 0.0);
  if (l.inner == 1) {
    constexpr int64_t kRows = 256;
    const int64_t blocks = (l.outer + kRows - 1) / kRows;
    std::vector<double> part(static_cast<size_t>(blocks * l.c), 0.0);
    parallelFor(blocks, 1, [&](int64_t b, int64_t e) {
      for (int64_t blk = b; blk < e; ++blk) {
        double* p = part.data() + blk * l.c;
        const int64_t r1 = std::min(l.outer, (blk + 1) * kRows);
        for (int64_t o = blk * kRows; o < r1; ++o)
          for (int64_t k = 0; k < l.c; ++k) p[k] += f(o * l.c + k, k);
      }
    });
    for (int64_t blk = 0; blk < blocks; ++blk)
      for (int64_t k = 0; k < l.c; ++k) sums[static_cast<size_t>(k)] += part[static_cast<size_t>(blk * l.c + k)];
  } else {
    parallelFor(l.c, 1, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        double s = 0;
        for (int64_t o = 0; o < l.outer; ++o) {
          const int64_t base = (o * l.c + k) * l.inner;
          for (int64_t i = 0; i < l.inner; ++i) s += f(base + i, k);
        }
        sums[static_cast<size_t>(k)] = s;
      }
    });
  }
  return sums;
}

// ---- BiasAdd ----

void biasAddKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const ChannelLayout l = channelLayout(out.shape(), isNchw(c));
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* x = c.input(0).data<T>();
    const T* b = c.input(1).data<T>();
    T* y = out.data<T>();
    forEachElement(l, [&](int64_t i, int64_t k) { y[i] = static_cast<T>(x[i] + b[k]); });
  });
}

void biasAddGradKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const Tensor& dy = c.input(0);
  const ChannelLayout l = channelLayout(dy.shape(), isNchw(c));
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    if (l.inner == 1)
      cpu::reduce<T, A>(dy.reshaped({l.outer, l.c}), {1, 0}, out, A(0), [](A a, A x) { return a + x; });
    else
      cpu::reduce<T, A>(dy.reshaped({l.outer, l.c, l.inner}), {1, 0, 1}, out, A(0),
                        [](A a, A x) { return a + x; });
  });
}

// ---- FusedBatchNormV3 ----

template <typename T, typename U>
void batchNorm(KernelContext& c) {
  const Tensor& xt = c.input(0);
  const ChannelLayout l = channelLayout(xt.shape(), isNchw(c));
  const bool training = c.getBool("is_training", true);
  const double eps = c.getFloat("epsilon", 1e-4);
  const double factor = c.getFloat("exponential_avg_factor", 1.0);
  const T* x = xt.data<T>();
  const U* scale = c.input(1).data<U>();
  const U* offset = c.input(2).data<U>();
  const size_t C = static_cast<size_t>(l.c);
  std::vector<double> mean(C), var(C);
  const double n = static_cast<double>(l.perChannel());
  if (training) {
    std::vector<double> s = channelSums(l, [&](int64_t i, int64_t) { return static_cast<double>(x[i]); });
    for (size_t k = 0; k < C; ++k) mean[k] = s[k] / n;
    std::vector<double> q = channelSums(l, [&](int64_t i, int64_t k) {
      const double d = static_cast<double>(x[i]) - mean[static_cast<size_t>(k)];
      return d * d;
    });
    for (size_t k = 0; k < C; ++k) var[k] = q[k] / n;
  } else {
    for (size_t k = 0; k < C; ++k) {
      mean[k] = static_cast<double>(c.input(3).data<U>()[k]);
      var[k] = static_cast<double>(c.input(4).data<U>()[k]);
    }
  }
  // y = x * a + b per channel.
  std::vector<U> a(C), b(C);
  for (size_t k = 0; k < C; ++k) {
    const double r = 1.0 / std::sqrt(var[k] + eps);
    a[k] = static_cast<U>(static_cast<double>(scale[k]) * r);
    b[k] = static_cast<U>(static_cast<double>(offset[k]) - mean[k] * static_cast<double>(scale[k]) * r);
  }
  T* y = c.allocateOutput(0).data<T>();
  forEachElement(l, [&](int64_t i, int64_t k) {
    y[i] = static_cast<T>(static_cast<U>(x[i]) * a[static_cast<size_t>(k)] + b[static_cast<size_t>(k)]);
  });
  U* bm = c.allocateOutput(1).data<U>();
  U* bv = c.allocateOutput(2).data<U>();
  U* r1 = c.allocateOutput(3).data<U>();
  U* r2 = c.allocateOutput(4).data<U>();
  c.allocateOutput(5);
  const double adjust = n > 1 ? n / (n - 1) : 1.0;
  for (size_t k = 0; k < C; ++k) {
    r1[k] = static_cast<U>(mean[k]);
    r2[k] = static_cast<U>(var[k]);
    if (!training) {
      bm[k] = static_cast<U>(mean[k]);
      bv[k] = static_cast<U>(var[k]);
    } else if (factor == 1.0) {
      bm[k] = static_cast<U>(mean[k]);
      bv[k] = static_cast<U>(var[k] * adjust);
    } else {
      const double m0 = static_cast<double>(c.input(3).data<U>()[k]);
      const double v0 = static_cast<double>(c.input(4).data<U>()[k]);
      bm[k] = static_cast<U>((1 - factor) * m0 + factor * mean[k]);
      bv[k] = static_cast<U>((1 - factor) * v0 + factor * var[k] * adjust);
    }
  }
}

/// Training: dx = scale * r * (dy - mean(dy) - xh * mean(dy * xh)) with the batch statistics of x;
/// inference: dx = scale * r * dy with the given population statistics.
template <typename T, typename U>
void batchNormGrad(KernelContext& c) {
  const T* dy = c.input(0).data<T>();
  const Tensor& xt = c.input(1);
  const T* x = xt.data<T>();
  const U* scale = c.input(2).data<U>();
  const ChannelLayout l = channelLayout(xt.shape(), isNchw(c));
  const bool training = c.getBool("is_training", true);
  const double eps = c.getFloat("epsilon", 1e-4);
  const size_t C = static_cast<size_t>(l.c);
  const double n = static_cast<double>(l.perChannel());
  std::vector<double> mean(C), r(C);
  if (training) {
    std::vector<double> s = channelSums(l, [&](int64_t i, int64_t) { return static_cast<double>(x[i]); });
    for (size_t k = 0; k < C; ++k) mean[k] = s[k] / n;
    std::vector<double> q = channelSums(l, [&](int64_t i, int64_t k) {
      const double d = static_cast<double>(x[i]) - mean[static_cast<size_t>(k)];
      return d * d;
    });
    for (size_t k = 0; k < C; ++k) r[k] = 1.0 / std::sqrt(q[k] / n + eps);
  } else {
    for (size_t k = 0; k < C; ++k) {
      mean[k] = static_cast<double>(c.input(3).data<U>()[k]);
      r[k] = 1.0 / std::sqrt(static_cast<double>(c.input(4).data<U>()[k]) + eps);
    }
  }
  const std::vector<double> sumDy = channelSums(l, [&](int64_t i, int64_t) { return static_cast<double>(dy[i]); });
  const std::vector<double> sumDyXh = channelSums(l, [&](int64_t i, int64_t k) {
    const size_t kk = static_cast<size_t>(k);
    return static_cast<double>(dy[i]) * (static_cast<double>(x[i]) - mean[kk]) * r[kk];
  });
  T* dx = c.allocateOutput(0).data<T>();
  U* dScale = c.allocateOutput(1).data<U>();
  U* dOffset = c.allocateOutput(2).data<U>();
  c.allocateOutput(3);
  c.allocateOutput(4);
  // dx = dy * a + x * b + d per channel.
  std::vector<U> a(C), b(C), d(C);
  for (size_t k = 0; k < C; ++k) {
    const double g = static_cast<double>(scale[k]) * r[k];
    if (training) {
      const double mdy = n > 0 ? sumDy[k] / n : 0, mdx = n > 0 ? sumDyXh[k] / n : 0;
      a[k] = static_cast<U>(g);
      b[k] = static_cast<U>(-g * mdx * r[k]);
      d[k] = static_cast<U>(-g * mdy + g * mdx * r[k] * mean[k]);
    } else {
      a[k] = static_cast<U>(g);
      b[k] = U(0);
      d[k] = U(0);
    }
    dScale[k] = static_cast<U>(sumDyXh[k]);
    dOffset[k] = static_cast<U>(sumDy[k]);
  }
  forEachElement(l, [&](int64_t i, int64_t k) {
    const size_t kk = static_cast<size_t>(k);
    dx[i] = static_cast<T>(static_cast<U>(dy[i]) * a[kk] + static_cast<U>(x[i]) * b[kk] + d[kk]);
  });
}

template <template <typename, typename> class K>
void dispatchBatchNorm(KernelContext& c, DType t) {
  switch (t) {
    case DType::Float32: K<float, float>::run(c); break;
    case DType::Float64: K<double, double>::run(c); break;
    case DType::Float16: K<Eigen::half, float>::run(c); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(t)));
  }
}

template <typename T, typename U>
struct BatchNormK { static void run(KernelContext& c) { batchNorm<T, U>(c); } };
template <typename T, typename U>
struct BatchNormGradK { static void run(KernelContext& c) { batchNormGrad<T, U>(c); } };

void fusedBatchNormKernel(KernelContext& c) { dispatchBatchNorm<BatchNormK>(c, c.input(0).dtype()); }
void fusedBatchNormGradKernel(KernelContext& c) { dispatchBatchNorm<BatchNormGradK>(c, c.input(1).dtype()); }

}  // namespace

void registerCpuNNKernels(KernelRegistry& r) {
  r.add("BiasAdd", Device::CPU, biasAddKernel);
  r.add("BiasAddGrad", Device::CPU, biasAddGradKernel);
  r.add("FusedBatchNormV3", Device::CPU, fusedBatchNormKernel);
  r.add("FusedBatchNormGradV3", Device::CPU, fusedBatchNormGradKernel);
  registerCpuConvKernels(r);
  registerCpuPoolKernels(r);
}

}  // namespace tlens
