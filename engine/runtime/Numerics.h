// Numerics: the fast NaN/Inf scan used by check-numerics mode, and tensor summaries
// (min, max, mean, std, NaN/Inf/zero counts, histogram) shown by the debugger and `--dump`.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engine/core/Tensor.h"

namespace tlens {

struct NonFiniteCounts {
  int64_t nan = 0, posInf = 0, negInf = 0;
  bool any() const { return nan || posInf || negInf; }
};

/// True when every element of a floating tensor is finite (non-floating tensors: true). A
/// vectorised bit test over the whole buffer; counting happens only when something is found.
bool allFinite(const Tensor& t);
/// The same test on raw elements of a floating dtype (kernels call it on chunks they just wrote).
bool allFinite(DType dtype, const void* data, int64_t n);
template <typename T>
bool allFiniteSpan(const T* data, int64_t n) { return allFinite(DTypeOf<T>::value, data, n); }
NonFiniteCounts countNonFinite(const Tensor& t);

/// True when `t` is one of `inputs`' buffers (Identity, Reshape): check-numerics already scanned it
/// when it was produced.
bool sharesBufferWith(const Tensor& t, const std::vector<Tensor>& inputs);

/// Statistics over the finite elements; NaN/Inf are counted separately. One pass for the
/// moments and counts, a second over the (by then cached) data for the histogram.
struct TensorSummary {
  int64_t count = 0;      ///< all elements
  int64_t finite = 0;
  int64_t nan = 0, posInf = 0, negInf = 0, zero = 0;
  double min = 0, max = 0, mean = 0, std = 0;  ///< over finite elements (0 when none)
  /// Histogram over [min, max] of the finite elements in kBins equal-width bins.
  static constexpr int kBins = 16;
  std::array<int64_t, kBins> histogram{};

  /// "min=-1.2 max=3.4 mean=0.01 std=0.5 nan=0 inf=0"
  std::string line() const;
  /// The histogram as a text sparkline: "▁▂▅█▅▂▁"
  std::string sparkline() const;
};

TensorSummary summarize(const Tensor& t);

}  // namespace tlens
