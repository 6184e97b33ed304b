// Shared device-side helpers for engine/cuda/*.cu: launch geometry, index arithmetic over
// Strided3/StridedCopy, element-type dispatch, float16 loads and stores, block reductions.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <cstdint>
#include <type_traits>

#include "engine/cuda/IndexMath.h"
#include "engine/cuda/Launch.h"

namespace tlens::cuda::dev {

constexpr int kThreads = 256;

/// Blocks for a grid-stride loop over n elements (capped: each thread loops).
inline unsigned blocksFor(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  if (b < 1) b = 1;
  if (b > 65535 * 8) b = 65535 * 8;
  return static_cast<unsigned>(b);
}

#define TLENS_GRID_LOOP(i, n) \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(blockDim.x) * gridDim.x)

/// The type arithmetic runs in: float for float16, the type itself otherwise.
template <typename T> struct CalcOf { using type = T; };
template <> struct CalcOf<__half> { using type = float; };
template <typename T> using Calc = typename CalcOf<T>::type;

template <typename T>
__device__ __forceinline__ Calc<T> ld(const T* p, int64_t i) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(p[i]);
  else return p[i];
}
template <typename T, typename V>
__device__ __forceinline__ void st(T* p, int64_t i, V v) {
  if constexpr (std::is_same_v<T, __half>) p[i] = __float2half(static_cast<float>(v));
  else p[i] = static_cast<T>(v);
}


/// Calls f(T{}) for the element type; returns cudaErrorNotSupported for types outside the set.
/// Sets: F = float32/float64, N = F + int32/int64, A = N + uint8 + bool, H = F + float16.
#define TLENS_CASE(E, T) \
  case ET::E: return f(T{});

template <typename F>
cudaError_t dispatchFloat(ET t, F&& f) {
  switch (t) {
    TLENS_CASE(F32, float)
    TLENS_CASE(F64, double)
    default: return cudaErrorNotSupported;
  }
}
template <typename F>
cudaError_t dispatchNumeric(ET t, F&& f) {
  switch (t) {
    TLENS_CASE(F32, float)
    TLENS_CASE(F64, double)
    TLENS_CASE(I32, int32_t)
    TLENS_CASE(I64, int64_t)
    default: return cudaErrorNotSupported;
  }
}
template <typename F>
cudaError_t dispatchAll(ET t, F&& f) {
  switch (t) {
    TLENS_CASE(F32, float)
    TLENS_CASE(F64, double)
    TLENS_CASE(F16, __half)
    TLENS_CASE(I32, int32_t)
    TLENS_CASE(I64, int64_t)
    TLENS_CASE(U8, uint8_t)
    TLENS_CASE(Bool, bool)
    default: return cudaErrorNotSupported;
  }
}
/// Unsigned type of the element size.
template <typename F>
cudaError_t dispatchSize(size_t size, F&& f) {
  switch (size) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    default: return cudaErrorNotSupported;
  }
}

inline cudaError_t launched() { return cudaGetLastError(); }

/// Block-wide reduction of one value per thread with `op`; the result is valid in thread 0.
/// blockDim.x must be a multiple of 32, at most 1024.
template <typename A, typename Op>
__device__ A blockReduce(A v, Op op) {
  __shared__ A smem[32];  // one slot per warp (one array per accumulator type)
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));
  if (lane == 0) smem[warp] = v;
  __syncthreads();
  const int nw = (blockDim.x + 31) >> 5;
  if (threadIdx.x == 0) {
    A acc = smem[0];
    for (int k = 1; k < nw; ++k) acc = op(acc, smem[k]);
    v = acc;
  }
  __syncthreads();  // smem reusable by the caller's next blockReduce
  return v;
}

}  // namespace tlens::cuda::dev
