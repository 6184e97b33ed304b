// Index arithmetic shared by the device kernels and the host: the offset of output element i in
// a broadcast operand (Strided3), in a reduction layout, and in a strided copy. Compiled for both
// sides, so tests/cuda checks it on the host against plain numpy-style loops, device or not.
#pragma once

#include <cstdint>
#include <type_traits>

#include "engine/cuda/Launch.h"

#if defined(__CUDACC__)
#define TLENS_HD __host__ __device__ __forceinline__
#else
#define TLENS_HD inline
#endif

namespace tlens::cuda {

/// NaN test for any element type (false for integers and bools).
template <typename T>
TLENS_HD bool isNaN(T x) {
  if constexpr (std::is_floating_point_v<T>) return x != x;
  else return false;
}

/// Offset of output index i in operand k of `ix` (mode 0: i itself, 1: a scalar, 2: strides).
TLENS_HD int64_t operandOffset(const Strided3& ix, int k, int64_t i) {
  if (ix.mode[k] == 0) return i;
  if (ix.mode[k] == 1) return 0;
  int64_t off = 0;
  for (int d = ix.rank - 1; d >= 0; --d) {
    const int64_t dim = ix.dims[d];
    off += (i % dim) * ix.st[k][d];
    i /= dim;
  }
  return off;
}

/// Offset of the i-th index (row-major over dims) under `strides`.
TLENS_HD int64_t layoutOffset(int rank, const int64_t* dims, const int64_t* strides, int64_t i) {
  int64_t off = 0;
  for (int d = rank - 1; d >= 0; --d) {
    off += (i % dims[d]) * strides[d];
    i /= dims[d];
  }
  return off;
}

/// Source and destination offsets of element i of a strided copy.
TLENS_HD void copyOffsets(const StridedCopy& c, int64_t i, int64_t* src, int64_t* dst) {
  int64_t so = c.srcBase, d = c.dstBase;
  for (int k = c.rank - 1; k >= 0; --k) {
    const int64_t p = i % c.sizes[k];
    i /= c.sizes[k];
    so += p * c.srcStrides[k];
    d += p * c.dstStrides[k];
  }
  *src = so;
  *dst = d;
}

}  // namespace tlens::cuda
