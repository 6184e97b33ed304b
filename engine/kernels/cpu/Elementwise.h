// Elementwise kernel templates for the CPU backend: unary maps over Eigen arrays (vectorised
// transcendental functions), and numpy-broadcasting binary ops with fast paths for the common
// layouts (same shape, scalar operand, trailing-dims operand such as a bias row).
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <vector>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens::cpu {

template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Elements per parallel chunk. Waking a pool thread costs microseconds, so tensors below a few
/// hundred kilobytes run on the calling thread (the MLP's 128x256 activations among them).
constexpr int64_t kElementwiseGrain = int64_t{1} << 16;

/// exp(x) that underflows to exactly 0 like IEEE exp. Eigen's vectorised exp clamps its input on
/// some instruction sets (returning ~1e-38 for exp(-200) in float32), which would hide the exact
/// zeros a softmax produces and that tf.log turns into -inf: the bug check-numerics exists to find.
template <typename Expr>
auto ieeeExp(const Expr& x) {
  using T = typename Expr::Scalar;
  const T cutoff = std::is_same_v<T, double> ? T(-745.2) : T(-104.0);
  return (x < cutoff).select(T(0), x.exp());
}

/// out = f(in) where f maps an Eigen array chunk to an array expression.
template <typename Tin, typename Tout, typename F>
void mapUnary(const Tensor& in, Tensor& out, F f) {
  const Tin* src = in.data<Tin>();
  Tout* dst = out.data<Tout>();
  parallelFor(in.numElements(), kElementwiseGrain, [&](int64_t b, int64_t e) {
    ConstArrayMap<Tin> x(src + b, e - b);
    ArrayMap<Tout> y(dst + b, e - b);
    y = f(x);
  });
}

/// Output 0 = f(input 0), same dtype.
template <typename T, typename F>
void unaryKernel(KernelContext& ctx, F f) {
  Tensor& out = ctx.allocateOutput(0);
  mapUnary<T, T>(ctx.input(0), out, f);
}

/// Strides (in elements) of `shape` broadcast into `outShape` (0 on broadcast dims).
inline std::vector<int64_t> broadcastStrides(const ConcreteShape& shape, const ConcreteShape& outShape) {
  const size_t r = outShape.size(), rs = shape.size();
  std::vector<int64_t> st(r, 0);
  int64_t s = 1;
  for (size_t i = 0; i < rs; ++i) {
    const size_t d = rs - 1 - i;
    const size_t o = r - 1 - i;
    st[o] = shape[d] == 1 ? 0 : s;
    s *= shape[d];
  }
  return st;
}

/// out[i] = f(a[ia], b[ib]) under numpy broadcasting; f works on scalars.
template <typename Ta, typename Tb, typename Tout, typename F>
void broadcastBinary(const Tensor& a, const Tensor& b, Tensor& out, F f) {
  const Ta* pa = a.data<Ta>();
  const Tb* pb = b.data<Tb>();
  Tout* po = out.data<Tout>();
  const int64_t n = out.numElements();
  if (n == 0) return;
  if (a.numElements() == n && b.numElements() == n) {
    parallelFor(n, kElementwiseGrain, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = f(pa[i], pb[i]);
    });
    return;
  }
  if (b.numElements() == 1 && a.numElements() == n) {
    const Tb vb = pb[0];
    parallelFor(n, kElementwiseGrain, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = f(pa[i], vb);
    });
    return;
  }
  if (a.numElements() == 1 && b.numElements() == n) {
    const Ta va = pa[0];
    parallelFor(n, kElementwiseGrain, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = f(va, pb[i]);
    });
    return;
  }
  const ConcreteShape& os = out.shape();
  const int r = static_cast<int>(os.size());
  const std::vector<int64_t> sa = broadcastStrides(a.shape(), os);
  const std::vector<int64_t> sb = broadcastStrides(b.shape(), os);
  const int64_t inner = os[static_cast<size_t>(r - 1)];
  const int64_t ia = sa[static_cast<size_t>(r - 1)], ib = sb[static_cast<size_t>(r - 1)];
  const int64_t rows = n / inner;
  parallelFor(rows, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner, 1)),
              [&](int64_t rs, int64_t re) {
    for (int64_t row = rs; row < re; ++row) {
      // Offsets of this row in a and b from its multi-index over the outer dims.
      int64_t offA = 0, offB = 0, rem = row;
      for (int d = r - 2; d >= 0; --d) {
        const int64_t dim = os[static_cast<size_t>(d)];
        const int64_t idx = rem % dim;
        rem /= dim;
        offA += idx * sa[static_cast<size_t>(d)];
        offB += idx * sb[static_cast<size_t>(d)];
      }
      Tout* o = po + row * inner;
      const Ta* x = pa + offA;
      const Tb* y = pb + offB;
      if (ia == 1 && ib == 1) for (int64_t i = 0; i < inner; ++i) o[i] = f(x[i], y[i]);
      else if (ia == 1 && ib == 0) for (int64_t i = 0; i < inner; ++i) o[i] = f(x[i], y[0]);
      else if (ia == 0 && ib == 1) for (int64_t i = 0; i < inner; ++i) o[i] = f(x[0], y[i]);
      else for (int64_t i = 0; i < inner; ++i) o[i] = f(x[i * ia], y[i * ib]);
    }
  });
}

/// Output 0 = f(input 0, input 1) with broadcasting; output dtype from inference.
template <typename T, typename Tout, typename F>
void binaryKernel(KernelContext& ctx, F f) {
  Tensor& out = ctx.allocateOutput(0);
  broadcastBinary<T, T, Tout>(ctx.input(0), ctx.input(1), out, f);
}

}  // namespace tlens::cpu

namespace tlens::cpu {

/// out = in broadcast to out's shape.
template <typename T>
void broadcastCopy(const Tensor& in, Tensor& out) {
  const T* src = in.data<T>();
  T* dst = out.data<T>();
  const int64_t n = out.numElements();
  if (n == 0) return;
  if (in.numElements() == n) {
    std::copy(src, src + n, dst);
    return;
  }
  if (in.numElements() == 1) {
    std::fill(dst, dst + n, src[0]);
    return;
  }
  const ConcreteShape& os = out.shape();
  const int r = static_cast<int>(os.size());
  const std::vector<int64_t> st = broadcastStrides(in.shape(), os);
  const int64_t inner = os[static_cast<size_t>(r - 1)];
  const int64_t is = st[static_cast<size_t>(r - 1)];
  parallelFor(n / inner, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner, 1)),
              [&](int64_t rs, int64_t re) {
    for (int64_t row = rs; row < re; ++row) {
      int64_t off = 0, rem = row;
      for (int d = r - 2; d >= 0; --d) {
        const int64_t dim = os[static_cast<size_t>(d)];
        off += (rem % dim) * st[static_cast<size_t>(d)];
        rem /= dim;
      }
      T* o = dst + row * inner;
      if (is == 1) std::copy(src + off, src + off + inner, o);
      else std::fill(o, o + inner, src[off]);
    }
  });
}

}  // namespace tlens::cpu
