// The elementwise functors of the GPU kernels (unary math and activations, binary math,
// comparisons, activation gradients), compiled for device and host: Elementwise.cu applies them
// on the device, and tests/cuda checks them on the host against the CPU kernels, device or not.
// Semantics follow engine/kernels/cpu: integer arithmetic wraps, NaN propagates through
// Maximum/Minimum/Relu, comparisons with NaN are false.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/cuda/IndexMath.h"
#include "engine/cuda/Launch.h"

namespace tlens::cuda::fns {

#if !defined(__CUDACC__)
// Host: the float overloads of the math functions (device code has CUDA's own).
using std::ceil;
using std::cos;
using std::exp;
using std::fabs;
using std::floor;
using std::fmod;
using std::isinf;
using std::log;
using std::log1p;
using std::pow;
using std::rint;
using std::sin;
using std::sqrt;
using std::tanh;
#endif

constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;

template <typename T>
TLENS_HD T wrapNeg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U(0) - static_cast<U>(x));
}

template <typename T>
TLENS_HD T softplusBig() {
  // Above -log(eps) - 2, log(exp(x) + 1) == x to T's precision (CPU: UnaryActivationKernels.cpp).
  if constexpr (std::is_same_v<T, double>) return T(34.04365338911715);  // -log(2^-52) - 2
  else return T(13.942385152878742);                                     // -log(2^-23) - 2
}

template <UOp OP, typename C>
TLENS_HD auto unaryFn(C x, C alpha) {
  if constexpr (OP == UOp::Neg) {
    if constexpr (std::is_integral_v<C>) return wrapNeg(x);
    else return C(-x);
  } else if constexpr (OP == UOp::Abs) {
    if constexpr (std::is_integral_v<C>) return x < 0 ? wrapNeg(x) : x;
    else return C(fabs(x));
  } else if constexpr (OP == UOp::Sign) {
    return x > C(0) ? C(1) : (x < C(0) ? C(-1) : x);
  } else if constexpr (OP == UOp::Square) {
    if constexpr (std::is_integral_v<C>) {
      using U = std::make_unsigned_t<C>;
      return static_cast<C>(static_cast<U>(x) * static_cast<U>(x));
    } else {
      return C(x * x);
    }
  } else if constexpr (OP == UOp::Reciprocal) {
    if constexpr (std::is_integral_v<C>) return x == 0 ? C(0) : static_cast<C>(C(1) / x);  // zero checked on host
    else return C(C(1) / x);
  } else if constexpr (OP == UOp::Floor) {
    return C(floor(x));
  } else if constexpr (OP == UOp::Ceil) {
    return C(ceil(x));
  } else if constexpr (OP == UOp::Round) {
    return C(rint(x));  // halves to even, as the CPU's rint
  } else if constexpr (OP == UOp::Exp) {
    return C(exp(x));
  } else if constexpr (OP == UOp::Log) {
    return C(log(x));
  } else if constexpr (OP == UOp::Log1p) {
    return C(log1p(x));
  } else if constexpr (OP == UOp::Sqrt) {
    return C(sqrt(x));
  } else if constexpr (OP == UOp::Rsqrt) {
    return C(C(1) / sqrt(x));
  } else if constexpr (OP == UOp::Sin) {
    return C(sin(x));
  } else if constexpr (OP == UOp::Cos) {
    return C(cos(x));
  } else if constexpr (OP == UOp::Tanh) {
    return C(tanh(x));
  } else if constexpr (OP == UOp::Sigmoid) {
    return C(C(1) / (C(1) + exp(-x)));
  } else if constexpr (OP == UOp::Relu) {
    return !(x <= C(0)) ? x : C(0);  // keeps NaN
  } else if constexpr (OP == UOp::Relu6) {
    return x <= C(0) ? C(0) : (x >= C(6) ? C(6) : x);
  } else if constexpr (OP == UOp::Elu) {
    return x < C(0) ? C(exp(x) - C(1)) : x;
  } else if constexpr (OP == UOp::Selu) {
    return x < C(0) ? C((exp(x) - C(1)) * C(kSeluScale * kSeluAlpha)) : C(x * C(kSeluScale));
  } else if constexpr (OP == UOp::Softplus) {
    return x > softplusBig<C>() ? x : C(log1p(exp(x)));
  } else if constexpr (OP == UOp::LeakyRelu) {
    return x > C(0) ? x : C(x * alpha);
  } else if constexpr (OP == UOp::IsNan) {
    return x != x;
  } else if constexpr (OP == UOp::IsInf) {
    return isinf(x) != 0;
  } else if constexpr (OP == UOp::IsFinite) {
    return x - x == C(0);
  } else {  // LogicalNot
    return !x;
  }
}



template <BOp OP>
constexpr bool boolResult() {
  return OP == BOp::Equal || OP == BOp::NotEqual || OP == BOp::Less || OP == BOp::LessEqual ||
         OP == BOp::Greater || OP == BOp::GreaterEqual || OP == BOp::LogicalAnd || OP == BOp::LogicalOr;
}

template <BOp OP, typename C>
TLENS_HD auto binaryFn(C a, C b, C alpha) {
  if constexpr (OP == BOp::Add || OP == BOp::Sub || OP == BOp::Mul) {
    if constexpr (std::is_integral_v<C> && !std::is_same_v<C, bool>) {
      using U = std::make_unsigned_t<C>;
      const U x = static_cast<U>(a), y = static_cast<U>(b);
      return static_cast<C>(OP == BOp::Add ? U(x + y) : OP == BOp::Sub ? U(x - y) : U(x * y));
    } else {
      return C(OP == BOp::Add ? a + b : OP == BOp::Sub ? a - b : a * b);
    }
  } else if constexpr (OP == BOp::Div) {
    if constexpr (std::is_integral_v<C>) {
      if (b == C(-1)) return wrapNeg(a);
      return b == 0 ? C(0) : static_cast<C>(a / b);
    } else {
      return C(a / b);
    }
  } else if constexpr (OP == BOp::FloorDiv) {
    if constexpr (std::is_integral_v<C>) {
      if (b == C(-1)) return wrapNeg(a);
      if (b == 0) return C(0);
      C q = static_cast<C>(a / b);
      if (a % b != 0 && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return C(floor(a / b));
    }
  } else if constexpr (OP == BOp::FloorMod) {
    if constexpr (std::is_integral_v<C>) {
      if (b == C(-1) || b == 0) return C(0);
      C m = static_cast<C>(a % b);
      if (m != 0 && ((m < 0) != (b < 0))) m = static_cast<C>(m + b);
      return m;
    } else {
      C m = fmod(a, b);
      if (m != 0 && ((m < 0) != (b < 0))) m += b;
      return m;
    }
  } else if constexpr (OP == BOp::Pow) {
    if constexpr (std::is_integral_v<C>) {
      using U = std::make_unsigned_t<C>;
      U base = static_cast<U>(a), result = 1;
      for (C e = b; e > 0; e = static_cast<C>(e >> 1)) {
        if (e & 1) result = static_cast<U>(result * base);
        base = static_cast<U>(base * base);
      }
      return static_cast<C>(result);
    } else {
      return C(pow(a, b));
    }
  } else if constexpr (OP == BOp::Maximum) {
    return (a >= b || isNaN(a)) ? a : b;
  } else if constexpr (OP == BOp::Minimum) {
    return (a <= b || isNaN(a)) ? a : b;
  } else if constexpr (OP == BOp::SquaredDifference) {
    if constexpr (std::is_integral_v<C>) {
      using U = std::make_unsigned_t<C>;
      const U d = static_cast<U>(static_cast<U>(a) - static_cast<U>(b));
      return static_cast<C>(d * d);
    } else {
      const C d = a - b;
      return C(d * d);
    }
  } else if constexpr (OP == BOp::Equal) {
    return a == b;
  } else if constexpr (OP == BOp::NotEqual) {
    return a != b;
  } else if constexpr (OP == BOp::Less) {
    return a < b;
  } else if constexpr (OP == BOp::LessEqual) {
    return a <= b;
  } else if constexpr (OP == BOp::Greater) {
    return a > b;
  } else if constexpr (OP == BOp::GreaterEqual) {
    return a >= b;
  } else if constexpr (OP == BOp::LogicalAnd) {
    return a && b;
  } else if constexpr (OP == BOp::LogicalOr) {
    return a || b;
  } else if constexpr (OP == BOp::ReluGrad) {  // (dy, x)
    return b > C(0) ? a : C(0);
  } else if constexpr (OP == BOp::Relu6Grad) {
    return (b > C(0) && b < C(6)) ? a : C(0);
  } else if constexpr (OP == BOp::EluGrad) {  // (dy, y)
    return b < C(0) ? C(a * (b + C(1))) : a;
  } else if constexpr (OP == BOp::SeluGrad) {
    return b < C(0) ? C(a * (b + C(kSeluScale * kSeluAlpha))) : C(a * C(kSeluScale));
  } else if constexpr (OP == BOp::SoftplusGrad) {  // (dy, x)
    return C(a / (exp(-b) + C(1)));
  } else if constexpr (OP == BOp::LeakyReluGrad) {  // (dy, x)
    return b > C(0) ? a : C(a * alpha);
  } else if constexpr (OP == BOp::SigmoidGrad) {  // (y, dy)
    return C(b * a * (C(1) - a));
  } else if constexpr (OP == BOp::TanhGrad) {
    return C(b * (C(1) - a * a));
  } else if constexpr (OP == BOp::SqrtGrad) {
    return C(C(0.5) * b / a);
  } else if constexpr (OP == BOp::RsqrtGrad) {
    return C(C(-0.5) * b * a * a * a);
  } else if constexpr (OP == BOp::Atan2) {  // (y, x)
    return C(atan2(a, b));
  } else {  // ReciprocalGrad
    return C(-b * a * a);
  }
}

}  // namespace tlens::cuda::fns
