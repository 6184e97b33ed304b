// Broadcasting binary math on the CPU: FloorDiv, FloorMod, Pow, Maximum, Minimum,
// SquaredDifference. Integer division by zero and integers to negative powers are errors, as in
// TensorFlow; INT_MIN // -1 wraps rather than trapping.
#include <cmath>
#include <type_traits>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

/// The type float16 computes in.
template <typename T>
using Calc = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <typename T>
bool anyZero(const Tensor& t) {
  const T* p = t.data<T>();
  for (int64_t i = 0; i < t.numElements(); ++i)
    if (p[i] == T(0)) return true;
  return false;
}

template <typename T>
T wrapNeg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U(0) - static_cast<U>(x));
}

template <typename T>
struct FloorDivF {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return wrapNeg(a);
        T q = static_cast<T>(a / b);
        if (a % b != 0 && ((a < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<T>(a / b);
      }
    } else {
      return T(std::floor(Calc<T>(a) / Calc<T>(b)));
    }
  }
};

template <typename T>
struct FloorModF {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (b == T(-1)) return T(0);
        T m = static_cast<T>(a % b);
        if (m != 0 && ((m < 0) != (b < 0))) m = static_cast<T>(m + b);
        return m;
      } else {
        return static_cast<T>(a % b);
      }
    } else {
      const Calc<T> y = Calc<T>(b);
      Calc<T> m = std::fmod(Calc<T>(a), y);
      if (m != 0 && ((m < 0) != (y < 0))) m += y;
      return T(m);
    }
  }
};

template <typename T>
struct PowF {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      // Exponentiation by squaring, wrapping on overflow; b >= 0 was checked.
      using U = std::make_unsigned_t<T>;
      U base = static_cast<U>(a), result = 1;
      for (T e = b; e > 0; e = static_cast<T>(e >> 1)) {
        if (e & 1) result = static_cast<U>(result * base);
        base = static_cast<U>(base * base);
      }
      return static_cast<T>(result);
    } else {
      return T(std::pow(Calc<T>(a), Calc<T>(b)));
    }
  }
};

template <typename T>
bool isNan(T x) {
  if constexpr (std::is_integral_v<T>) return false;
  else return x != x;
}

// NaN in either operand gives NaN; ties return x.
template <typename T>
struct MaxF {
  T operator()(T a, T b) const { return (a >= b || isNan(a)) ? a : b; }
};
template <typename T>
struct MinF {
  T operator()(T a, T b) const { return (a <= b || isNan(a)) ? a : b; }
};

template <typename T>
struct SquaredDifferenceF {
  T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      const U d = static_cast<U>(static_cast<U>(a) - static_cast<U>(b));
      return static_cast<T>(d * d);
    } else {
      const T d = a - b;
      return d * d;
    }
  }
};

template <template <typename> class Fn>
void numericBinary(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::binaryKernel<T, T>(c, Fn<T>{});
  });
}

/// FloorDiv / FloorMod: an integer divisor of zero is an error (only when there is output to
/// compute, as in TensorFlow).
template <template <typename> class Fn>
void divisionKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T>) {
      if (c.outputType(0).shape.numElements().value_or(1) > 0 && anyZero<T>(c.input(1)))
        c.fail("Integer division by zero");
    }
    cpu::binaryKernel<T, T>(c, Fn<T>{});
  });
}

void powKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      const Tensor& y = c.input(1);
      const T* p = y.data<T>();
      if (c.outputType(0).shape.numElements().value_or(1) > 0)
        for (int64_t i = 0; i < y.numElements(); ++i)
          if (p[i] < 0) c.fail("Integers to negative integer powers are not allowed");
    }
    const Tensor& x = c.input(0);
    const Tensor& y = c.input(1);
    if constexpr (!std::is_integral_v<T>) {
      // x ** 2 (squared errors): x * x is exactly what pow rounds to, and it vectorises.
      if (y.numElements() == 1 && x.numElements() == c.outputType(0).shape.numElements().value_or(-1) &&
          y.data<T>()[0] == T(2)) {
        Tensor& out = c.allocateOutput(0);
        cpu::mapUnary<T, T>(x, out, [](const auto& v) { return v * v; });
        return;
      }
    }
    cpu::binaryKernel<T, T>(c, PowF<T>{});
  });
}

}  // namespace

void registerCpuMathBinaryKernels(KernelRegistry& r) {
  r.add("FloorDiv", Device::CPU, divisionKernel<FloorDivF>);
  r.add("FloorMod", Device::CPU, divisionKernel<FloorModF>);
  r.add("Pow", Device::CPU, powKernel);
  r.add("Maximum", Device::CPU, numericBinary<MaxF>);
  r.add("Minimum", Device::CPU, numericBinary<MinF>);
  r.add("SquaredDifference", Device::CPU, numericBinary<SquaredDifferenceF>);
}

}  // namespace tlens
