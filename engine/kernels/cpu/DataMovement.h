// Building blocks for the CPU kernels of data-movement ops (transpose, slicing, concatenation,
// padding, gathering). They move elements by size, not by type, so one instantiation per element
// width (1, 2, 4, 8 bytes) serves every dtype: bool, uint8, float16, int32, float32, int64, float64.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/runtime/Kernel.h"

namespace tlens::cpu::movement {

/// Calls f(U{}) with an unsigned integer type as wide as one element of `dtype`.
template <typename F>
decltype(auto) dispatchBySize(DType dtype, F&& f) {
  switch (dtypeSize(dtype)) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

/// Copies a strided block: for every index p over `sizes` (row-major),
///   dst[dstBase + sum p_i * dstStrides_i] = src[srcBase + sum p_i * srcStrides_i]
/// (offsets and strides in elements, strides may be negative). Adjacent dims are merged where
/// both sides allow it; contiguous rows are memcpy'd; large copies run on the intra-op pool.
void stridedCopy(const Tensor& src, Tensor& dst, const std::vector<int64_t>& sizes,
                 const std::vector<int64_t>& srcStrides, int64_t srcBase,
                 const std::vector<int64_t>& dstStrides, int64_t dstBase);

/// The elements of an integer tensor (indices, perms) as int64.
std::vector<int64_t> indexValues(const Tensor& t);

/// Row-major strides (in elements) of a concrete shape.
std::vector<int64_t> rowMajorStrides(const ConcreteShape& s);

/// Fills `t` with copies of the single element `value` (same dtype).
void fillWith(Tensor& t, const Tensor& value);

/// Concatenation along an axis, as [outer, chunk_i] blocks: out row o = in_0 row o ++ in_1 row o ...
/// `chunks[i]` is the number of elements of input i per outer index.
void concatRows(const std::vector<const Tensor*>& ins, const std::vector<int64_t>& chunks, int64_t outer,
                Tensor& out);
/// The inverse: output i row o = in row o [offset_i, offset_i + chunk_i).
void splitRows(const Tensor& in, int64_t outer, const std::vector<int64_t>& chunks, std::vector<Tensor*>& outs);

}  // namespace tlens::cpu::movement
