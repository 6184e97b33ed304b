// Elementwise kernels: unary maps, numpy-broadcasting binary ops (one kernel template, one
// functor per op), selects, clipping, casts, the logistic loss. Semantics follow the CPU kernels
// (engine/kernels/cpu/Unary*.cpp, Math*.cpp, Comparison*.cpp): integer arithmetic wraps, NaN
// propagates through Maximum/Minimum/Relu, comparisons with NaN are false.
#include "engine/cuda/DeviceUtil.cuh"
#include "engine/cuda/ElementwiseFns.h"

namespace tlens::cuda {

using namespace dev;
using namespace fns;

namespace {

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
    case BOp::Atan2: return binaryFloat<BOp::Atan2>(t, a, b, o, n, ix, al, s);
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
