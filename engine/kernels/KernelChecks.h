// Argument checks and index layouts that every backend's kernels share (engine/kernels/cpu and
// engine/cuda), so a bad axis or permutation fails with the same message on the CPU and the GPU.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/runtime/Kernel.h"

namespace tlens {

/// outer x n x inner view of a shape around one axis.
struct AxisView {
  int64_t outer = 1, n = 1, inner = 1;
};

/// The view around `axisValue` (negative counts from the end); fails with TensorFlow's message
/// when the axis is out of range.
AxisView viewAround(KernelContext& c, const ConcreteShape& s, int64_t axisValue);

/// ArgMax/ArgMin: the view around the `axis` attribute of `in` (its range and an empty axis
/// under a non-empty result are the shape function's errors).
AxisView argReductionView(KernelContext& c, const Tensor& in);

/// Transpose: `perm` must hold each of 0..rank-1 once.
void checkPermutation(KernelContext& c, const std::vector<int64_t>& perm, int rank);

}  // namespace tlens
