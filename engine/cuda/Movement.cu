// Data movement by element size: strided copies (transpose, slices, pads, concatenation, splits,
// broadcasts), fills, tiles, gathers, one-hot. One instantiation per element width serves every
// dtype, as engine/kernels/cpu/DataMovement.h does.
#include "engine/cuda/DeviceUtil.cuh"

namespace tlens::cuda {

using namespace dev;

namespace {

template <typename U>
__global__ void stridedCopyKernel(const U* __restrict__ src, U* __restrict__ dst, StridedCopy c, int64_t n) {
  TLENS_GRID_LOOP(i, n) {
    int64_t so, d;
    copyOffsets(c, i, &so, &d);
    dst[d] = src[so];
  }
}

template <typename U>
__global__ void fillKernel(U* __restrict__ dst, int64_t n, const U* __restrict__ value) {
  const U v = *value;
  TLENS_GRID_LOOP(i, n) dst[i] = v;
}

template <typename U>
__global__ void fillValueKernel(U* __restrict__ dst, int64_t n, U v) {
  TLENS_GRID_LOOP(i, n) dst[i] = v;
}

struct Dims {
  int rank;
  int64_t out[kMaxDims], in[kMaxDims];
};

template <typename U>
__global__ void tileKernel(const U* __restrict__ src, U* __restrict__ dst, Dims d, int64_t n) {
  TLENS_GRID_LOOP(i, n) {
    int64_t r = i, off = 0, stride = 1;
    for (int k = d.rank - 1; k >= 0; --k) {
      const int64_t p = r % d.out[k];
      r /= d.out[k];
      off += (p % d.in[k]) * stride;
      stride *= d.in[k];
    }
    dst[i] = src[off];
  }
}

template <typename U, typename I>
__global__ void gatherKernel(const U* __restrict__ params, const I* __restrict__ idx, U* __restrict__ out,
                             int64_t limit, int64_t m, int64_t inner, int64_t n, int* bad) {
  TLENS_GRID_LOOP(u, n) {
    const int64_t i = u % inner, rest = u / inner;
    const int64_t k = rest % m, o = rest / m;
    const int64_t j = static_cast<int64_t>(idx[k]);
    if (j < 0 || j >= limit) {
      *bad = 1;
      out[u] = U(0);
    } else {
      out[u] = params[(o * limit + j) * inner + i];
    }
  }
}

template <typename T>
__device__ __forceinline__ void atomicAddAny(T* p, T v) {
  if constexpr (std::is_same_v<T, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));  // two's complement
  } else {
    atomicAdd(p, v);
  }
}

template <typename T, typename I>
__global__ void gatherGradKernel(const T* __restrict__ dy, const I* __restrict__ idx, T* __restrict__ out,
                                 int64_t limit, int64_t m, int64_t inner, int64_t n, int* bad) {
  TLENS_GRID_LOOP(u, n) {
    const int64_t i = u % inner, rest = u / inner;
    const int64_t k = rest % m, o = rest / m;
    const int64_t j = static_cast<int64_t>(idx[k]);
    if (j < 0 || j >= limit) *bad = 1;
    else atomicAddAny(out + (o * limit + j) * inner + i, dy[u]);
  }
}

template <typename U, typename I>
__global__ void oneHotKernel(const I* __restrict__ idx, const U* __restrict__ on, const U* __restrict__ off,
                             U* __restrict__ out, int64_t depth, int64_t suffix, int64_t n) {
  const U vOn = *on, vOff = *off;
  TLENS_GRID_LOOP(u, n) {  // u = (p * depth + x) * suffix + s
    const int64_t s = u % suffix, rest = u / suffix;
    const int64_t x = rest % depth, p = rest / depth;
    out[u] = static_cast<int64_t>(idx[p * suffix + s]) == x ? vOn : vOff;
  }
}

}  // namespace

cudaError_t launchStridedCopy(size_t elemSize, const void* src, void* dst, const StridedCopy& c, cudaStream_t s) {
  int64_t n = 1;
  for (int k = 0; k < c.rank; ++k) n *= c.sizes[k];
  if (n <= 0) return cudaSuccess;
  return dispatchSize(elemSize, [&](auto z) {
    using U = decltype(z);
    stridedCopyKernel<U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const U*>(src), static_cast<U*>(dst), c, n);
    return launched();
  });
}

cudaError_t launchFill(size_t elemSize, void* dst, int64_t n, const void* value, bool valueOnHost, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchSize(elemSize, [&](auto z) {
    using U = decltype(z);
    if (valueOnHost) {
      U v;
      std::memcpy(&v, value, sizeof(U));
      fillValueKernel<U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<U*>(dst), n, v);
    } else {
      fillKernel<U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<U*>(dst), n, static_cast<const U*>(value));
    }
    return launched();
  });
}

cudaError_t launchTile(size_t elemSize, const void* src, void* dst, int rank, const int64_t* outDims,
                       const int64_t* inDims, int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  if (rank > kMaxDims) return cudaErrorInvalidValue;
  Dims d{};
  d.rank = rank;
  for (int k = 0; k < rank; ++k) {
    d.out[k] = outDims[k];
    d.in[k] = inDims[k];
  }
  return dispatchSize(elemSize, [&](auto z) {
    using U = decltype(z);
    tileKernel<U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const U*>(src), static_cast<U*>(dst), d, n);
    return launched();
  });
}

cudaError_t launchGather(size_t elemSize, const void* params, const void* indices, bool idx64, void* out,
                         int64_t outer, int64_t limit, int64_t m, int64_t inner, int* bad, cudaStream_t s) {
  const int64_t n = outer * m * inner;
  if (n <= 0) return cudaSuccess;
  return dispatchSize(elemSize, [&](auto z) {
    using U = decltype(z);
    if (idx64)
      gatherKernel<U, int64_t><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const U*>(params),
                                                                 static_cast<const int64_t*>(indices),
                                                                 static_cast<U*>(out), limit, m, inner, n, bad);
    else
      gatherKernel<U, int32_t><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const U*>(params),
                                                                 static_cast<const int32_t*>(indices),
                                                                 static_cast<U*>(out), limit, m, inner, n, bad);
    return launched();
  });
}

cudaError_t launchGatherGrad(ET t, const void* dy, const void* indices, bool idx64, void* out, int64_t outer,
                             int64_t limit, int64_t m, int64_t inner, int* bad, cudaStream_t s) {
  return dispatchNumeric(t, [&](auto z) {
    using T = decltype(z);
    cudaError_t e = cudaMemsetAsync(out, 0, static_cast<size_t>(outer * limit * inner) * sizeof(T), s);
    const int64_t n = outer * m * inner;
    if (e != cudaSuccess || n <= 0) return e;
    if (idx64)
      gatherGradKernel<T, int64_t><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(dy),
                                                                     static_cast<const int64_t*>(indices),
                                                                     static_cast<T*>(out), limit, m, inner, n, bad);
    else
      gatherGradKernel<T, int32_t><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(dy),
                                                                     static_cast<const int32_t*>(indices),
                                                                     static_cast<T*>(out), limit, m, inner, n, bad);
    return launched();
  });
}

cudaError_t launchOneHot(size_t elemSize, const void* indices, bool idx64, const void* on, const void* off, void* out,
                         int64_t prefix, int64_t depth, int64_t suffix, cudaStream_t s) {
  const int64_t n = prefix * depth * suffix;
  if (n <= 0) return cudaSuccess;
  return dispatchSize(elemSize, [&](auto z) {
    using U = decltype(z);
    if (idx64)
      oneHotKernel<U, int64_t><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const int64_t*>(indices),
                                                                 static_cast<const U*>(on), static_cast<const U*>(off),
                                                                 static_cast<U*>(out), depth, suffix, n);
    else
      oneHotKernel<U, int32_t><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const int32_t*>(indices),
                                                                 static_cast<const U*>(on), static_cast<const U*>(off),
                                                                 static_cast<U*>(out), depth, suffix, n);
    return launched();
  });
}

}  // namespace tlens::cuda
