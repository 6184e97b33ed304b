// Reductions over arbitrary axes for the CPU backend. Adjacent dims with the same role are merged
// first, so the common layouts (everything, the last axis, the first axis, a middle block) run as
// contiguous row or column reductions; anything else falls back to a strided walk.
#pragma once

#include <Eigen/Core>

#include <vector>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens::cpu {

/// Collapsed layout: dims alternate between kept and reduced groups.
struct ReduceLayout {
  std::vector<int64_t> dims;
  std::vector<char> reduced;
};

inline ReduceLayout collapse(const ConcreteShape& shape, const std::vector<char>& reduced) {
  ReduceLayout l;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;  // size-1 dims never matter
    if (!l.dims.empty() && l.reduced.back() == reduced[i]) {
      l.dims.back() *= shape[i];
    } else {
      l.dims.push_back(shape[i]);
      l.reduced.push_back(reduced[i]);
    }
  }
  return l;
}

/// out[j] = fold over reduced elements of in with `op(acc, x)` starting from `init`.
/// Acc is the accumulator type (double for float sums of float16, etc.).
template <typename T, typename Acc, typename Op>
void reduce(const Tensor& in, const std::vector<char>& reducedAxes, Tensor& out, Acc init, Op op) {
  const T* src = in.data<T>();
  Acc* tmp = nullptr;
  std::vector<Acc> acc(static_cast<size_t>(out.numElements()), init);
  tmp = acc.data();
  const ReduceLayout l = collapse(in.shape(), reducedAxes);
  const int64_t n = in.numElements();
  if (n == 0) {
    // nothing to fold
  } else if (l.dims.empty() || (l.dims.size() == 1 && !l.reduced[0])) {
    for (int64_t i = 0; i < n; ++i) tmp[i] = op(init, static_cast<Acc>(src[i]));
  } else if (l.dims.size() == 1) {  // everything
    Acc a = init;
    for (int64_t i = 0; i < n; ++i) a = op(a, static_cast<Acc>(src[i]));
    tmp[0] = a;
  } else if (l.dims.size() == 2 && !l.reduced[0]) {  // [K, R]: rows
    const int64_t rows = l.dims[0], cols = l.dims[1];
    parallelFor(rows, std::max<int64_t>(1, 16384 / cols), [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        Acc a = init;
        const T* p = src + r * cols;
        for (int64_t c = 0; c < cols; ++c) a = op(a, static_cast<Acc>(p[c]));
        tmp[r] = a;
      }
    });
  } else if (l.dims.size() == 2) {  // [R, K]: columns
    const int64_t rows = l.dims[0], cols = l.dims[1];
    parallelFor(cols, std::max<int64_t>(64, 16384 / std::max<int64_t>(rows, 1)), [&](int64_t b, int64_t e) {
      for (int64_t r = 0; r < rows; ++r) {
        const T* p = src + r * cols;
        for (int64_t c = b; c < e; ++c) tmp[c] = op(tmp[c], static_cast<Acc>(p[c]));
      }
    });
  } else if (l.dims.size() == 3 && !l.reduced[0]) {  // [K, R, K2]
    const int64_t outer = l.dims[0], mid = l.dims[1], inner = l.dims[2];
    parallelFor(outer, 1, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o)
        for (int64_t m = 0; m < mid; ++m) {
          const T* p = src + (o * mid + m) * inner;
          Acc* q = tmp + o * inner;
          for (int64_t c = 0; c < inner; ++c) q[c] = op(q[c], static_cast<Acc>(p[c]));
        }
    });
  } else {  // general strided walk over the collapsed dims
    const size_t r = l.dims.size();
    std::vector<int64_t> ostride(r, 0);
    int64_t s = 1;
    for (size_t i = r; i-- > 0;)
      if (!l.reduced[i]) {
        ostride[i] = s;
        s *= l.dims[i];
      }
    std::vector<int64_t> idx(r, 0);
    int64_t off = 0;
    for (int64_t i = 0; i < n; ++i) {
      tmp[off] = op(tmp[off], static_cast<Acc>(src[i]));
      for (size_t d = r; d-- > 0;) {
        off += ostride[d];
        if (++idx[d] < l.dims[d]) break;
        off -= ostride[d] * l.dims[d];
        idx[d] = 0;
      }
    }
  }
  T* dst = out.data<T>();
  for (int64_t i = 0; i < out.numElements(); ++i) dst[i] = static_cast<T>(tmp[i]);
}

/// Which axes of `rank` the attribute list `axes` names (all when absent).
inline std::vector<char> reducedMask(const std::optional<std::vector<int64_t>>& axes, int rank) {
  std::vector<char> m(static_cast<size_t>(rank), axes ? 0 : 1);
  if (axes)
    for (int64_t a : *axes) {
      int64_t n = a < 0 ? a + rank : a;
      if (n >= 0 && n < rank) m[static_cast<size_t>(n)] = 1;
    }
  return m;
}

/// The accumulator type for sums of T: float for float32/float16, double for float64, T for ints.
template <typename T>
using SumAcc = std::conditional_t<std::is_floating_point_v<T> || std::is_same_v<T, Eigen::half>,
                                  std::conditional_t<std::is_same_v<T, double>, double, float>, T>;

}  // namespace tlens::cpu
