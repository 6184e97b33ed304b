// Elementwise kernels: unary maps, numpy-broadcasting binary ops (one kernel template, one
// functor per op), selects, clipping, casts, the logistic loss. Semantics follow the CPU kernels
// (engine/kernels/cpu/Unary*.cpp, Math*.cpp, Comparison*.cpp): integer arithmetic wraps, NaN
// propagates through Maximum/Minimum/Relu, comparisons with NaN are false.
#include "engine/cuda/DeviceUtil.cuh"

namespace tlens::cuda {

using namespace dev;

namespace {

constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;

template <typename T>
__device__ __forceinline__ T wrapNeg(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U(0) - static_cast<U>(x));
}

template <typename T>
__device__ __forceinline__ T softplusBig() {
  // Above -log(eps) - 2, log(exp(x) + 1) == x to T's precision (CPU: UnaryActivationKernels.cpp).
  if constexpr (std::is_same_v<T, double>) return T(34.04365338911715);  // -log(2^-52) - 2
  else return T(13.942385152878742);                                     // -log(2^-23) - 2
}

template <UOp OP, typename C>
__device__ __forceinline__ auto unaryFn(C x, C alpha) {
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

/// Elements per thread per grid pass in the contiguous kernels: independent loads in flight, so
/// memory-bound ops approach the copy bandwidth. Element i of a pass is base + u * stride (u < 4),
/// so a warp's accesses stay coalesced.
constexpr int kUnroll = 4;

template <UOp OP, typename T, typename To>
__global__ void unaryKernel(const T* __restrict__ x, To* __restrict__ y, int64_t n, Calc<T> alpha) {
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t base = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; base < n; base += kUnroll * stride) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * stride;
      if (i < n) st(y, i, unaryFn<OP>(ld(x, i), alpha));
    }
  }
}

template <UOp OP, typename T, typename To>
cudaError_t runUnary(const void* x, void* y, int64_t n, double alpha, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  unaryKernel<OP, T, To><<<blocksFor((n + kUnroll - 1) / kUnroll), kThreads, 0, s>>>(
      static_cast<const T*>(x), static_cast<To*>(y), n, static_cast<Calc<T>>(alpha));
  return launched();
}

/// The elementwise type sets add float16 (loaded as float32, computed in float32, stored back).
template <typename F>
cudaError_t dispatchFloatH(ET t, F&& f) {
  if (t == ET::F16) return f(__half{});
  return dispatchFloat(t, f);
}
template <typename F>
cudaError_t dispatchNumericH(ET t, F&& f) {
  if (t == ET::F16) return f(__half{});
  return dispatchNumeric(t, f);
}

template <UOp OP>
cudaError_t unaryNumeric(ET t, const void* x, void* y, int64_t n, double a, cudaStream_t s) {
  return dispatchNumericH(t, [&](auto z) { using T = decltype(z); return runUnary<OP, T, T>(x, y, n, a, s); });
}
template <UOp OP>
cudaError_t unaryFloat(ET t, const void* x, void* y, int64_t n, double a, cudaStream_t s) {
  return dispatchFloatH(t, [&](auto z) { using T = decltype(z); return runUnary<OP, T, T>(x, y, n, a, s); });
}
template <UOp OP>
cudaError_t unaryClassify(ET t, const void* x, void* y, int64_t n, cudaStream_t s) {
  return dispatchFloatH(t, [&](auto z) { using T = decltype(z); return runUnary<OP, T, bool>(x, y, n, 0, s); });
}

// ---- binary ----

template <BOp OP>
constexpr bool boolResult() {
  return OP == BOp::Equal || OP == BOp::NotEqual || OP == BOp::Less || OP == BOp::LessEqual ||
         OP == BOp::Greater || OP == BOp::GreaterEqual || OP == BOp::LogicalAnd || OP == BOp::LogicalOr;
}

template <BOp OP, typename C>
__device__ __forceinline__ auto binaryFn(C a, C b, C alpha) {
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
  } else {  // ReciprocalGrad
    return C(-b * a * a);
  }
}

template <BOp OP, typename T, typename To>
__global__ void binaryKernel(const T* __restrict__ a, const T* __restrict__ b, To* __restrict__ o, int64_t n,
                             Strided3 ix, Calc<T> alpha) {
  if (ix.mode[0] != 2 && ix.mode[1] != 2) {  // contiguous or scalar operands: unrolled passes
    const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
    const bool sa = ix.mode[0] == 1, sb = ix.mode[1] == 1;
    for (int64_t base = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; base < n;
         base += kUnroll * stride) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const int64_t i = base + u * stride;
        if (i < n) st(o, i, binaryFn<OP>(ld(a, sa ? 0 : i), ld(b, sb ? 0 : i), alpha));
      }
    }
    return;
  }
  TLENS_GRID_LOOP(i, n) {
    const Calc<T> x = ld(a, operandOffset(ix, 0, i));
    const Calc<T> y = ld(b, operandOffset(ix, 1, i));
    st(o, i, binaryFn<OP>(x, y, alpha));
  }
}

template <BOp OP, typename T>
cudaError_t runBinary(const void* a, const void* b, void* o, int64_t n, const Strided3& ix, double alpha,
                      cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  using To = std::conditional_t<boolResult<OP>(), bool, T>;
  const bool strided = ix.mode[0] == 2 || ix.mode[1] == 2;
  const unsigned blocks = blocksFor(strided ? n : (n + kUnroll - 1) / kUnroll);
  binaryKernel<OP, T, To><<<blocks, kThreads, 0, s>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                                     static_cast<To*>(o), n, ix, static_cast<Calc<T>>(alpha));
  return launched();
}

template <BOp OP>
cudaError_t binaryNumeric(ET t, const void* a, const void* b, void* o, int64_t n, const Strided3& ix, double al,
                          cudaStream_t s) {
  return dispatchNumericH(t, [&](auto z) { return runBinary<OP, decltype(z)>(a, b, o, n, ix, al, s); });
}
template <BOp OP>
cudaError_t binaryFloat(ET t, const void* a, const void* b, void* o, int64_t n, const Strided3& ix, double al,
                        cudaStream_t s) {
  return dispatchFloatH(t, [&](auto z) { return runBinary<OP, decltype(z)>(a, b, o, n, ix, al, s); });
}
template <BOp OP>
cudaError_t binaryEquality(ET t, const void* a, const void* b, void* o, int64_t n, const Strided3& ix,
                           cudaStream_t s) {
  return dispatchAll(t, [&](auto z) { return runBinary<OP, decltype(z)>(a, b, o, n, ix, 0, s); });
}

template <typename T>
__global__ void zeroCheckKernel(const T* __restrict__ x, int64_t n, bool negative, int* flag) {
  TLENS_GRID_LOOP(i, n) {
    const T v = x[i];
    if (negative ? v < T(0) : v == T(0)) *flag = 1;
  }
}

template <typename U>
__global__ void selectKernel(const bool* __restrict__ c, const U* __restrict__ a, const U* __restrict__ b,
                             U* __restrict__ o, int64_t n, Strided3 ix) {
  TLENS_GRID_LOOP(i, n) {
    o[i] = c[operandOffset(ix, 0, i)] ? a[operandOffset(ix, 1, i)] : b[operandOffset(ix, 2, i)];
  }
}

template <typename T>
__global__ void clipKernel(const T* __restrict__ x, const T* __restrict__ lo, const T* __restrict__ hi,
                           T* __restrict__ o, int64_t n, Strided3 ix) {
  TLENS_GRID_LOOP(i, n) {
    const T v0 = x[operandOffset(ix, 0, i)], l = lo[operandOffset(ix, 1, i)], h = hi[operandOffset(ix, 2, i)];
    const T v = v0 > h ? h : v0;  // max(min(t, hi), lo); NaN stays
    o[i] = v < l ? l : v;
  }
}

template <typename F, typename T>
__global__ void castKernel(const F* __restrict__ x, T* __restrict__ y, int64_t n) {
  TLENS_GRID_LOOP(i, n) {
    const double v = static_cast<double>(ld(x, i));
    if constexpr (std::is_same_v<T, bool>) y[i] = v != 0.0;
    else if constexpr (std::is_same_v<T, __half>) y[i] = __double2half(v);
    else y[i] = static_cast<T>(v);
  }
}

template <typename T>
__global__ void sigmoidXentKernel(const T* __restrict__ z, const T* __restrict__ x, T* __restrict__ y, int64_t n) {
  TLENS_GRID_LOOP(i, n) {
    const T xv = x[i], zv = z[i];
    // max(x, 0) - x z + log(1 + exp(-|x|)); NaN in x propagates through the log1p term.
    y[i] = (xv > T(0) ? xv : T(0)) - xv * zv + log1p(exp(-fabs(xv)));
  }
}

template <typename T>
__global__ void sigmoidXentGradKernel(const T* __restrict__ z, const T* __restrict__ x, const T* __restrict__ dy,
                                      T* __restrict__ y, int64_t n) {
  TLENS_GRID_LOOP(i, n) y[i] = dy[i] * (T(1) / (T(1) + exp(-x[i])) - z[i]);
}

}  // namespace

cudaError_t launchUnary(UOp op, ET t, const void* x, void* y, int64_t n, double a, cudaStream_t s) {
  switch (op) {
    case UOp::Neg: return unaryNumeric<UOp::Neg>(t, x, y, n, a, s);
    case UOp::Abs: return unaryNumeric<UOp::Abs>(t, x, y, n, a, s);
    case UOp::Sign: return unaryNumeric<UOp::Sign>(t, x, y, n, a, s);
    case UOp::Square: return unaryNumeric<UOp::Square>(t, x, y, n, a, s);
    case UOp::Reciprocal: return unaryNumeric<UOp::Reciprocal>(t, x, y, n, a, s);
    case UOp::Floor: return unaryFloat<UOp::Floor>(t, x, y, n, a, s);
    case UOp::Ceil: return unaryFloat<UOp::Ceil>(t, x, y, n, a, s);
    case UOp::Round: return unaryFloat<UOp::Round>(t, x, y, n, a, s);
    case UOp::Exp: return unaryFloat<UOp::Exp>(t, x, y, n, a, s);
    case UOp::Log: return unaryFloat<UOp::Log>(t, x, y, n, a, s);
    case UOp::Log1p: return unaryFloat<UOp::Log1p>(t, x, y, n, a, s);
    case UOp::Sqrt: return unaryFloat<UOp::Sqrt>(t, x, y, n, a, s);
    case UOp::Rsqrt: return unaryFloat<UOp::Rsqrt>(t, x, y, n, a, s);
    case UOp::Sin: return unaryFloat<UOp::Sin>(t, x, y, n, a, s);
    case UOp::Cos: return unaryFloat<UOp::Cos>(t, x, y, n, a, s);
    case UOp::Tanh: return unaryFloat<UOp::Tanh>(t, x, y, n, a, s);
    case UOp::Sigmoid: return unaryFloat<UOp::Sigmoid>(t, x, y, n, a, s);
    case UOp::Relu: return unaryNumeric<UOp::Relu>(t, x, y, n, a, s);
    case UOp::Relu6: return unaryNumeric<UOp::Relu6>(t, x, y, n, a, s);
    case UOp::Elu: return unaryFloat<UOp::Elu>(t, x, y, n, a, s);
    case UOp::Selu: return unaryFloat<UOp::Selu>(t, x, y, n, a, s);
    case UOp::Softplus: return unaryFloat<UOp::Softplus>(t, x, y, n, a, s);
    case UOp::LeakyRelu: return unaryFloat<UOp::LeakyRelu>(t, x, y, n, a, s);
    case UOp::IsNan: return unaryClassify<UOp::IsNan>(t, x, y, n, s);
    case UOp::IsInf: return unaryClassify<UOp::IsInf>(t, x, y, n, s);
    case UOp::IsFinite: return unaryClassify<UOp::IsFinite>(t, x, y, n, s);
    case UOp::LogicalNot:
      if (t != ET::Bool) return cudaErrorNotSupported;
      return runUnary<UOp::LogicalNot, bool, bool>(x, y, n, 0, s);
  }
  return cudaErrorNotSupported;
}

cudaError_t launchBinary(BOp op, ET t, const void* a, const void* b, void* o, int64_t n, const Strided3& ix,
                         double al, cudaStream_t s) {
  switch (op) {
    case BOp::Add: return binaryNumeric<BOp::Add>(t, a, b, o, n, ix, al, s);
    case BOp::Sub: return binaryNumeric<BOp::Sub>(t, a, b, o, n, ix, al, s);
    case BOp::Mul: return binaryNumeric<BOp::Mul>(t, a, b, o, n, ix, al, s);
    case BOp::Div: return binaryNumeric<BOp::Div>(t, a, b, o, n, ix, al, s);
    case BOp::FloorDiv: return binaryNumeric<BOp::FloorDiv>(t, a, b, o, n, ix, al, s);
    case BOp::FloorMod: return binaryNumeric<BOp::FloorMod>(t, a, b, o, n, ix, al, s);
    case BOp::Pow: return binaryNumeric<BOp::Pow>(t, a, b, o, n, ix, al, s);
    case BOp::Maximum: return binaryNumeric<BOp::Maximum>(t, a, b, o, n, ix, al, s);
    case BOp::Minimum: return binaryNumeric<BOp::Minimum>(t, a, b, o, n, ix, al, s);
    case BOp::SquaredDifference: return binaryNumeric<BOp::SquaredDifference>(t, a, b, o, n, ix, al, s);
    case BOp::Equal: return binaryEquality<BOp::Equal>(t, a, b, o, n, ix, s);
    case BOp::NotEqual: return binaryEquality<BOp::NotEqual>(t, a, b, o, n, ix, s);
    case BOp::Less: return binaryNumeric<BOp::Less>(t, a, b, o, n, ix, al, s);
    case BOp::LessEqual: return binaryNumeric<BOp::LessEqual>(t, a, b, o, n, ix, al, s);
    case BOp::Greater: return binaryNumeric<BOp::Greater>(t, a, b, o, n, ix, al, s);
    case BOp::GreaterEqual: return binaryNumeric<BOp::GreaterEqual>(t, a, b, o, n, ix, al, s);
    case BOp::LogicalAnd:
      if (t != ET::Bool) return cudaErrorNotSupported;
      return runBinary<BOp::LogicalAnd, bool>(a, b, o, n, ix, 0, s);
    case BOp::LogicalOr:
      if (t != ET::Bool) return cudaErrorNotSupported;
      return runBinary<BOp::LogicalOr, bool>(a, b, o, n, ix, 0, s);
    case BOp::ReluGrad: return binaryNumeric<BOp::ReluGrad>(t, a, b, o, n, ix, al, s);
    case BOp::Relu6Grad: return binaryNumeric<BOp::Relu6Grad>(t, a, b, o, n, ix, al, s);
    case BOp::EluGrad: return binaryFloat<BOp::EluGrad>(t, a, b, o, n, ix, al, s);
    case BOp::SeluGrad: return binaryFloat<BOp::SeluGrad>(t, a, b, o, n, ix, al, s);
    case BOp::SoftplusGrad: return binaryFloat<BOp::SoftplusGrad>(t, a, b, o, n, ix, al, s);
    case BOp::LeakyReluGrad: return binaryFloat<BOp::LeakyReluGrad>(t, a, b, o, n, ix, al, s);
    case BOp::SigmoidGrad: return binaryFloat<BOp::SigmoidGrad>(t, a, b, o, n, ix, al, s);
    case BOp::TanhGrad: return binaryFloat<BOp::TanhGrad>(t, a, b, o, n, ix, al, s);
    case BOp::SqrtGrad: return binaryFloat<BOp::SqrtGrad>(t, a, b, o, n, ix, al, s);
    case BOp::RsqrtGrad: return binaryFloat<BOp::RsqrtGrad>(t, a, b, o, n, ix, al, s);
    case BOp::ReciprocalGrad: return binaryFloat<BOp::ReciprocalGrad>(t, a, b, o, n, ix, al, s);
  }
  return cudaErrorNotSupported;
}

cudaError_t launchAnyZeroOrNegative(ET t, const void* x, int64_t n, bool negative, int* flag, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchNumeric(t, [&](auto z) {
    using T = decltype(z);
    zeroCheckKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(x), n, negative, flag);
    return launched();
  });
}

cudaError_t launchSelect(size_t elemSize, const void* c, const void* a, const void* b, void* o, int64_t n,
                         const Strided3& ix, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchSize(elemSize, [&](auto z) {
    using U = decltype(z);
    selectKernel<U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const bool*>(c), static_cast<const U*>(a),
                                                      static_cast<const U*>(b), static_cast<U*>(o), n, ix);
    return launched();
  });
}

cudaError_t launchClip(ET t, const void* x, const void* lo, const void* hi, void* o, int64_t n, const Strided3& ix,
                       cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchNumeric(t, [&](auto z) {
    using T = decltype(z);
    clipKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<const T*>(lo),
                                                    static_cast<const T*>(hi), static_cast<T*>(o), n, ix);
    return launched();
  });
}

cudaError_t launchCast(ET from, ET to, const void* x, void* y, int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchAll(from, [&](auto zf) {
    using F = decltype(zf);
    return dispatchAll(to, [&](auto zt) {
      using T = decltype(zt);
      castKernel<F, T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const F*>(x), static_cast<T*>(y), n);
      return launched();
    });
  });
}

cudaError_t launchSigmoidXent(ET t, const void* z, const void* x, void* y, int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto zz) {
    using T = decltype(zz);
    sigmoidXentKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(z), static_cast<const T*>(x),
                                                           static_cast<T*>(y), n);
    return launched();
  });
}

cudaError_t launchSigmoidXentGrad(ET t, const void* z, const void* x, const void* dy, void* y, int64_t n,
                                  cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto zz) {
    using T = decltype(zz);
    sigmoidXentGradKernel<T><<<blocksFor(n), kThreads, 0, s>>>(
        static_cast<const T*>(z), static_cast<const T*>(x), static_cast<const T*>(dy), static_cast<T*>(y), n);
    return launched();
  });
}

}  // namespace tlens::cuda
