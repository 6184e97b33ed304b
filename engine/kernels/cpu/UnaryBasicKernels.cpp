// Unary arithmetic on the CPU: Neg, Abs, Sign, Square, Reciprocal, Floor, Ceil, Round and the
// float classifications IsNan / IsInf / IsFinite. Floating types go through Eigen arrays or plain
// loops the compiler vectorises; integers wrap instead of overflowing.
#include <limits>
#include <type_traits>

#include <cmath>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

/// out[i] = f(in[i]) with a scalar f, over threads for large tensors.
template <typename Tin, typename Tout, typename F>
void mapLoop(KernelContext& c, F f) {
  Tensor& out = c.allocateOutput(0);
  const Tin* s = c.input(0).data<Tin>();
  Tout* d = out.data<Tout>();
  parallelFor(out.numElements(), cpu::kElementwiseGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] = f(s[i]);
  });
}

/// -x for integers without signed overflow (INT_MIN stays INT_MIN, as two's complement does).
template <typename T>
T wrapNeg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U(0) - static_cast<U>(x));
}

void negKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) mapLoop<T, T>(c, [](T x) { return wrapNeg(x); });
    else cpu::unaryKernel<T>(c, [](const auto& x) { return -x; });
  });
}

void absKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
      mapLoop<T, T>(c, [](T x) { return x < 0 ? wrapNeg(x) : x; });
    else if constexpr (std::is_integral_v<T>)
      c.setOutput(0, c.input(0));
    else
      cpu::unaryKernel<T>(c, [](const auto& x) { return x.abs(); });
  });
}

void signKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    // Zero and NaN map to themselves.
    if constexpr (std::is_unsigned_v<T>) mapLoop<T, T>(c, [](T x) { return x > T(0) ? T(1) : T(0); });
    else mapLoop<T, T>(c, [](T x) { return x > T(0) ? T(1) : (x < T(0) ? T(-1) : x); });
  });
}

void squareKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      mapLoop<T, T>(c, [](T x) { return static_cast<T>(static_cast<U>(x) * static_cast<U>(x)); });
    } else {
      cpu::unaryKernel<T>(c, [](const auto& x) { return x * x; });
    }
  });
}

void reciprocalKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) {
      const Tensor& in = c.input(0);
      const T* p = in.data<T>();
      for (int64_t i = 0; i < in.numElements(); ++i)
        if (p[i] == 0) c.fail("Integer division by zero");
      mapLoop<T, T>(c, [](T x) { return static_cast<T>(T(1) / x); });
    } else {
      cpu::unaryKernel<T>(c, [](const auto& x) { return x.inverse(); });
    }
  });
}

void floorKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    // std::floor per element: Eigen's emulated packet floor and ceil (a build without SSE4.1's
    // round instruction, as the sanitizer build is) lose the sign of a zero result: ceil(-0.5)
    // must be -0.0, as in numpy and TensorFlow.
    cpu::unaryKernel<T>(c, [](const auto& x) { return x.unaryExpr([](T v) { return static_cast<T>(std::floor(v)); }); });
  });
}

void ceilKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::unaryKernel<T>(c, [](const auto& x) { return x.unaryExpr([](T v) { return static_cast<T>(std::ceil(v)); }); });
  });
}

void roundKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) {
      c.setOutput(0, c.input(0));  // integers are already round
    } else {
      // rint rounds halves to even in the default rounding mode: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.
      // std::rint per element keeps the sign of zero (-0.4 -> -0.0, as numpy and TensorFlow):
      // Eigen's packet rint without SSE4.1 adds and subtracts 2^23, which gives +0.0.
      using F = std::conditional_t<std::is_same_v<T, half>, float, T>;
      mapLoop<T, T>(c, [](T x) { return static_cast<T>(std::rint(static_cast<F>(x))); });
    }
  });
}

template <typename P>
void classify(KernelContext& c, P p) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    mapLoop<T, bool>(c, [&](T x) { return p(static_cast<std::conditional_t<std::is_same_v<T, half>, float, T>>(x)); });
  });
}

void isNanKernel(KernelContext& c) { classify(c, [](auto x) { return x != x; }); }
void isInfKernel(KernelContext& c) {
  classify(c, [](auto x) { return x == std::numeric_limits<decltype(x)>::infinity() ||
                                  x == -std::numeric_limits<decltype(x)>::infinity(); });
}
void isFiniteKernel(KernelContext& c) {
  // x - x is 0 for finite x and NaN for inf and NaN.
  classify(c, [](auto x) { return x - x == decltype(x)(0); });
}

}  // namespace

void registerCpuUnaryBasicKernels(KernelRegistry& r) {
  r.add("Neg", Device::CPU, negKernel);
  r.add("Abs", Device::CPU, absKernel);
  r.add("Sign", Device::CPU, signKernel);
  r.add("Square", Device::CPU, squareKernel);
  r.add("Reciprocal", Device::CPU, reciprocalKernel);
  r.add("Floor", Device::CPU, floorKernel);
  r.add("Ceil", Device::CPU, ceilKernel);
  r.add("Round", Device::CPU, roundKernel);
  r.add("IsNan", Device::CPU, isNanKernel);
  r.add("IsInf", Device::CPU, isInfKernel);
  r.add("IsFinite", Device::CPU, isFiniteKernel);
}

}  // namespace tlens
