// Reductions: Sum, Mean, Prod, Max, Min, Any, All and the half sum of squares (L2Loss) over any
// set of axes (ReduceLayout), ArgMax/ArgMin, the NaN/Inf counter behind check-numerics, and the
// pieces of the Max/Min and Prod gradients. One block reduces one output element (or one part of
// it, combined by a second pass, when there are few outputs and long groups); tiny groups run one
// thread per output. Accumulators follow the CPU (engine/kernels/cpu/Reduce.h): float for
// float32 sums, double for float64, the integer type itself (wrapping) for integers.
#include "engine/cuda/DeviceUtil.cuh"
#include "engine/cuda/ReduceFns.h"

namespace tlens::cuda {

using namespace dev;
using namespace rfns;

namespace {

/// One block per (output, part); parts == 1 writes the result, otherwise a partial accumulator.
template <ROp OP, typename T>
__global__ void reduceBlocks(const T* __restrict__ x, T* __restrict__ y, typename Red<OP, T>::Acc* partial,
                             ReduceLayout l, int64_t parts) {
  using R = Red<OP, T>;
  using Acc = typename R::Acc;
  const int64_t o = blockIdx.x / parts, p = blockIdx.x % parts;
  const int64_t chunk = (l.groupN + parts - 1) / parts;
  const int64_t g0 = p * chunk, g1 = min(l.groupN, g0 + chunk);
  const int64_t base = layoutOffset(l.keptRank, l.keptDims, l.keptStrides, o);
  Acc acc = R::init();
  for (int64_t g = g0 + threadIdx.x; g < g1; g += blockDim.x)
    acc = R::combine(acc, R::lift(x[base + layoutOffset(l.redRank, l.redDims, l.redStrides, g)]));
  acc = blockReduce(acc, [](Acc a, Acc b) { return R::combine(a, b); });
  if (threadIdx.x == 0) {
    if (parts == 1) y[o] = R::finish(acc, l.groupN);
    else partial[o * parts + p] = acc;
  }
}

template <ROp OP, typename T>
__global__ void reduceFinish(const typename Red<OP, T>::Acc* __restrict__ partial, T* __restrict__ y,
                             int64_t parts, int64_t groupN) {
  using R = Red<OP, T>;
  using Acc = typename R::Acc;
  const int64_t o = blockIdx.x;
  Acc acc = R::init();
  for (int64_t p = threadIdx.x; p < parts; p += blockDim.x) acc = R::combine(acc, partial[o * parts + p]);
  acc = blockReduce(acc, [](Acc a, Acc b) { return R::combine(a, b); });
  if (threadIdx.x == 0) y[o] = R::finish(acc, groupN);
}

/// One thread per output element (short groups).
template <ROp OP, typename T>
__global__ void reduceThreads(const T* __restrict__ x, T* __restrict__ y, ReduceLayout l) {
  using R = Red<OP, T>;
  TLENS_GRID_LOOP(o, l.outN) {
    const int64_t base = layoutOffset(l.keptRank, l.keptDims, l.keptStrides, o);
    auto acc = R::init();
    for (int64_t g = 0; g < l.groupN; ++g)
      acc = R::combine(acc, R::lift(x[base + layoutOffset(l.redRank, l.redDims, l.redStrides, g)]));
    y[o] = R::finish(acc, l.groupN);
  }
}

int64_t partsFor(const ReduceLayout& l) {
  if (l.groupN < 8192 || l.outN >= 1024) return 1;
  int64_t parts = (l.groupN + 4095) / 4096;
  const int64_t cap = 2048 / l.outN > 1 ? 2048 / l.outN : 1;
  return parts < cap ? parts : cap;
}

template <ROp OP, typename T>
cudaError_t runReduce(const void* xv, void* yv, const ReduceLayout& l, void* scratch, cudaStream_t s) {
  using Acc = typename Red<OP, T>::Acc;
  const T* x = static_cast<const T*>(xv);
  T* y = static_cast<T*>(yv);
  if (l.outN <= 0) return cudaSuccess;
  if (l.groupN <= 16 && l.outN > 1) {
    reduceThreads<OP, T><<<blocksFor(l.outN), kThreads, 0, s>>>(x, y, l);
    return launched();
  }
  const int64_t parts = partsFor(l);
  Acc* partial = static_cast<Acc*>(scratch);
  if (parts > 1 && !partial) return cudaErrorInvalidValue;
  reduceBlocks<OP, T><<<static_cast<unsigned>(l.outN * parts), kThreads, 0, s>>>(x, y, partial, l, parts);
  cudaError_t e = launched();
  if (e != cudaSuccess || parts == 1) return e;
  reduceFinish<OP, T><<<static_cast<unsigned>(l.outN), kThreads, 0, s>>>(partial, y, parts, l.groupN);
  return launched();
}

template <ROp OP, typename F>
cudaError_t dispatchReduce(ET t, F&& f) {
  if constexpr (OP == ROp::Any || OP == ROp::All) {
    if (t != ET::Bool) return cudaErrorNotSupported;
    return f(bool{});
  } else if constexpr (OP == ROp::HalfSumSquares) {
    return dispatchFloat(t, f);
  } else {
    return dispatchNumeric(t, f);
  }
}

template <ROp OP>
cudaError_t reduceOp(ET t, const void* x, void* y, const ReduceLayout& l, void* scratch, cudaStream_t s) {
  return dispatchReduce<OP>(t, [&](auto z) { return runReduce<OP, decltype(z)>(x, y, l, scratch, s); });
}

template <bool IsMax, typename T, typename O>
__global__ void argKernel(const T* __restrict__ x, O* __restrict__ out, int64_t outer, int64_t len, int64_t inner) {
  TLENS_GRID_LOOP(u, outer * inner) {
    const int64_t o = u / inner, i = u % inner;
    const T* p = x + o * len * inner + i;
    T best = p[0];
    int64_t bi = 0;
    for (int64_t k = 1; k < len; ++k) {
      const T v = p[k * inner];
      bool take;
      if (isNaN(v)) take = !isNaN(best);
      else if constexpr (IsMax) take = v > best;
      else take = v < best;
      if (take) {
        best = v;
        bi = k;
      }
    }
    out[u] = static_cast<O>(bi);
  }
}

template <typename T>
__global__ void countNonFiniteKernel(const T* __restrict__ x, int64_t n, unsigned long long* counts) {
  unsigned long long nan = 0, inf = 0;
  TLENS_GRID_LOOP(i, n) {
    const auto v = ld(x, i);
    nan += v != v;
    inf += isinf(v) ? 1 : 0;
  }
  nan = blockReduce(nan, [](unsigned long long a, unsigned long long b) { return a + b; });
  inf = blockReduce(inf, [](unsigned long long a, unsigned long long b) { return a + b; });
  if (threadIdx.x == 0 && (nan || inf)) {
    atomicAdd(counts, nan);
    atomicAdd(counts + 1, inf);
  }
}

template <typename T>
__global__ void equalMaskKernel(const T* __restrict__ x, const T* __restrict__ y, T* __restrict__ out, int64_t n,
                                Strided3 ix) {
  TLENS_GRID_LOOP(i, n) {
    const T a = x[i], b = y[operandOffset(ix, 1, i)];
    out[i] = (a == b || (isNaN(a) && isNaN(b))) ? T(1) : T(0);
  }
}

template <typename T>
struct NZ {
  T prod;
  int64_t zeros;
};

template <typename T>
__global__ void prodGroupsKernel(const T* __restrict__ x, NZ<T>* groups, ReduceLayout l) {
  TLENS_GRID_LOOP(o, l.outN) {
    const int64_t base = layoutOffset(l.keptRank, l.keptDims, l.keptStrides, o);
    NZ<T> a{T(1), 0};
    for (int64_t g = 0; g < l.groupN; ++g) {
      const T v = x[base + layoutOffset(l.redRank, l.redDims, l.redStrides, g)];
      if (v == T(0)) ++a.zeros;
      else a.prod *= v;
    }
    groups[o] = a;
  }
}

template <typename T>
__global__ void prodOthersKernel(const T* __restrict__ x, T* __restrict__ y, const NZ<T>* groups, ReduceLayout l) {
  TLENS_GRID_LOOP(u, l.outN * l.groupN) {
    const int64_t o = u / l.groupN, g = u % l.groupN;
    const int64_t off = layoutOffset(l.keptRank, l.keptDims, l.keptStrides, o) +
                        layoutOffset(l.redRank, l.redDims, l.redStrides, g);
    const NZ<T> s = groups[o];
    const T v = x[off];
    y[off] = s.zeros == 0 ? s.prod / v : (s.zeros == 1 ? (v == T(0) ? s.prod : T(0)) : T(0));
  }
}

}  // namespace

size_t reduceScratchBytes(ROp op, ET t, const ReduceLayout& l) {
  if (l.groupN <= 16 && l.outN > 1) return 0;
  const int64_t parts = partsFor(l);
  return parts > 1 ? static_cast<size_t>(l.outN * parts) * 8 : 0;  // every accumulator fits in 8 bytes
}

cudaError_t launchReduce(ROp op, ET t, const void* x, void* y, const ReduceLayout& l, void* scratch, cudaStream_t s) {
  switch (op) {
    case ROp::Sum: return reduceOp<ROp::Sum>(t, x, y, l, scratch, s);
    case ROp::Mean: return reduceOp<ROp::Mean>(t, x, y, l, scratch, s);
    case ROp::Prod: return reduceOp<ROp::Prod>(t, x, y, l, scratch, s);
    case ROp::Max: return reduceOp<ROp::Max>(t, x, y, l, scratch, s);
    case ROp::Min: return reduceOp<ROp::Min>(t, x, y, l, scratch, s);
    case ROp::Any: return reduceOp<ROp::Any>(t, x, y, l, scratch, s);
    case ROp::All: return reduceOp<ROp::All>(t, x, y, l, scratch, s);
    case ROp::HalfSumSquares: return reduceOp<ROp::HalfSumSquares>(t, x, y, l, scratch, s);
  }
  return cudaErrorNotSupported;
}

cudaError_t launchArgReduce(bool isMax, ET t, const void* x, void* out, bool out64, int64_t outer, int64_t len,
                            int64_t inner, cudaStream_t s) {
  const int64_t n = outer * inner;
  if (n <= 0 || len <= 0) return cudaSuccess;
  return dispatchNumeric(t, [&](auto z) {
    using T = decltype(z);
    const T* px = static_cast<const T*>(x);
    if (out64) {
      if (isMax) argKernel<true, T, int64_t><<<blocksFor(n), kThreads, 0, s>>>(px, static_cast<int64_t*>(out), outer, len, inner);
      else argKernel<false, T, int64_t><<<blocksFor(n), kThreads, 0, s>>>(px, static_cast<int64_t*>(out), outer, len, inner);
    } else {
      if (isMax) argKernel<true, T, int32_t><<<blocksFor(n), kThreads, 0, s>>>(px, static_cast<int32_t*>(out), outer, len, inner);
      else argKernel<false, T, int32_t><<<blocksFor(n), kThreads, 0, s>>>(px, static_cast<int32_t*>(out), outer, len, inner);
    }
    return launched();
  });
}

cudaError_t launchCountNonFinite(ET t, const void* x, int64_t n, unsigned long long* counts, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  unsigned blocks = blocksFor(n);
  if (blocks > 4096) blocks = 4096;  // grid-stride: few blocks, few atomics
  auto run = [&](auto z) {
    using T = decltype(z);
    countNonFiniteKernel<T><<<blocks, kThreads, 0, s>>>(static_cast<const T*>(x), n, counts);
    return launched();
  };
  switch (t) {
    case ET::F32: return run(float{});
    case ET::F64: return run(double{});
    case ET::F16: return run(__half{});
    default: return cudaErrorNotSupported;
  }
}

cudaError_t launchEqualMask(ET t, const void* x, const void* y, void* out, int64_t n, const Strided3& ix,
                            cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    equalMaskKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<const T*>(y),
                                                         static_cast<T*>(out), n, ix);
    return launched();
  });
}

cudaError_t launchProdOthers(ET t, const void* x, void* y, const ReduceLayout& l, void* scratch, cudaStream_t s) {
  if (l.outN <= 0 || l.groupN <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    NZ<T>* groups = static_cast<NZ<T>*>(scratch);
    prodGroupsKernel<T><<<blocksFor(l.outN), kThreads, 0, s>>>(static_cast<const T*>(x), groups, l);
    cudaError_t e = launched();
    if (e != cudaSuccess) return e;
    prodOthersKernel<T><<<blocksFor(l.outN * l.groupN), kThreads, 0, s>>>(static_cast<const T*>(x),
                                                                          static_cast<T*>(y), groups, l);
    return launched();
  });
}

}  // namespace tlens::cuda
