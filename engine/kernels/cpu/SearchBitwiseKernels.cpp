// CPU kernels of engine/ops/defs/SearchBitwiseOps.cpp: LowerBound / UpperBound (std::lower_bound
// and std::upper_bound per row, NaN ordered after every number as numpy sorts it) and the integer
// bit operations.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

template <typename T>
bool isNanV(T v) {
  if constexpr (std::is_integral_v<T>) return false;
  else return std::isnan(static_cast<double>(v));
}

/// a < b with NaN greater than every number (and equal to NaN).
template <typename T>
bool lessNanLast(T a, T b) {
  if (isNanV(b)) return !isNanV(a);
  if (isNanV(a)) return false;
  return a < b;
}

template <bool Upper>
void boundKernel(KernelContext& c) {
  const Tensor& s = c.input(0);
  const Tensor& v = c.input(1);
  Tensor& out = c.allocateOutput(0);
  const int64_t rows = s.dim(0), m = s.dim(1), n = v.dim(1);
  const bool wide = out.dtype() == DType::Int64;
  dispatchNumeric(s.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* sp = s.data<T>();
    const T* vp = v.data<T>();
    parallelFor(rows * n, 4096, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T* row = sp + (i / n) * m;
        const T x = vp[i];
        const T* at = Upper ? std::upper_bound(row, row + m, x, lessNanLast<T>)
                            : std::lower_bound(row, row + m, x, lessNanLast<T>);
        const int64_t k = at - row;
        if (wide) out.data<int64_t>()[i] = k;
        else out.data<int32_t>()[i] = static_cast<int32_t>(k);
      }
    });
  });
}

template <typename F>
void intBinary(KernelContext& c, F f) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) cpu::binaryKernel<T, T>(c, [&](T a, T b) { return static_cast<T>(f(a, b)); });
  });
}

void invertKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>)
      cpu::unaryKernel<T>(c, [](const auto& x) { return x.unaryExpr([](T a) { return static_cast<T>(~a); }); });
  });
}

}  // namespace

void registerCpuSearchBitwiseKernels(KernelRegistry& r) {
  r.add("LowerBound", Device::CPU, boundKernel<false>);
  r.add("UpperBound", Device::CPU, boundKernel<true>);
  r.add("BitwiseAnd", Device::CPU, [](KernelContext& c) { intBinary(c, [](auto a, auto b) { return a & b; }); });
  r.add("BitwiseOr", Device::CPU, [](KernelContext& c) { intBinary(c, [](auto a, auto b) { return a | b; }); });
  r.add("BitwiseXor", Device::CPU, [](KernelContext& c) { intBinary(c, [](auto a, auto b) { return a ^ b; }); });
  r.add("Invert", Device::CPU, invertKernel);
}

}  // namespace tlens
