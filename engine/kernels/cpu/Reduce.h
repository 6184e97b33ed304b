// Reductions over arbitrary axes for the CPU backend. Adjacent dims with the same role are merged
// first, so the common layouts (everything, the last axis, the first axis, a middle block) run as
// contiguous row or column reductions; anything else falls back to a strided walk.
#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
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

/// Reducers: an accumulator type, an identity `init()`, an associative `combine(a, b)`, a fold
/// `span(p, n)` of a contiguous span (vectorised where Eigen can), and optionally `lift(x)` to
/// turn one element into an accumulator (a static_cast otherwise). Used through reduceWith(); `reduce` below wraps a plain
/// lambda into one.
template <typename T>
constexpr bool isNaNValue(T x) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Eigen::half>) return x != x;
  else return false;
}

template <typename T, typename Acc, typename Op>
struct FnReducer {
  Acc id;
  Op op;
  Acc init() const { return id; }
  Acc combine(Acc a, Acc b) const { return op(a, b); }
  Acc span(const T* p, int64_t n) const {
    Acc a = id;
    for (int64_t i = 0; i < n; ++i) a = op(a, static_cast<Acc>(p[i]));
    return a;
  }
};

namespace detail {

/// Scratch storage for accumulators (std::vector<bool> has no data()).
template <typename A>
struct Buffer {
  std::unique_ptr<A[]> p;
  explicit Buffer(size_t n) : p(new A[n]()) {}
  Buffer(size_t n, A v) : p(new A[n]) { std::fill(p.get(), p.get() + n, v); }
  A& operator[](size_t i) { return p[i]; }
  A* data() { return p.get(); }
};

/// One element as an accumulator: red.lift(x) when the reducer has one, else a conversion.
template <typename R, typename T>
auto lift(const R& red, T x) {
  if constexpr (requires { red.lift(x); }) return red.lift(x);
  else return static_cast<decltype(red.init())>(x);
}

template <typename R, typename T, typename Acc>
void reduceImpl(const R& red, const T* src, const ConcreteShape& shape, const std::vector<char>& reducedAxes,
                Acc* tmp, int64_t outN) {
  constexpr int64_t kBlock = int64_t{1} << 16;  // elements per task
  const ReduceLayout l = collapse(shape, reducedAxes);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::fill(tmp, tmp + outN, red.init());
  if (n == 0) return;
  if (l.dims.empty() || (l.dims.size() == 1 && !l.reduced[0])) {  // nothing reduced
    parallelFor(n, kBlock, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) tmp[i] = red.combine(red.init(), lift(red, src[i]));
    });
    return;
  }
  if (l.dims.size() <= 2 && l.reduced.back()) {  // [R] or [K, R]: contiguous rows
    const int64_t rows = l.dims.size() == 2 ? l.dims[0] : 1, cols = l.dims.back();
    const int64_t nb = (cols + kBlock - 1) / kBlock;  // blocks per row (fixed: deterministic)
    if (nb == 1) {
      parallelFor(rows, std::max<int64_t>(1, kBlock / cols), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) tmp[r] = red.combine(red.init(), red.span(src + r * cols, cols));
      });
      return;
    }
    Buffer<Acc> part(static_cast<size_t>(rows * nb));
    parallelFor(rows * nb, 1, [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t r = t / nb, k = t % nb;
        const int64_t s = k * kBlock, len = std::min(kBlock, cols - s);
        part[static_cast<size_t>(t)] = red.span(src + r * cols + s, len);
      }
    });
    for (int64_t r = 0; r < rows; ++r) {
      Acc a = red.init();
      for (int64_t k = 0; k < nb; ++k) a = red.combine(a, part[static_cast<size_t>(r * nb + k)]);
      tmp[r] = a;
    }
    return;
  }
  if (l.dims.size() == 2) {  // [R, K]: columns
    const int64_t rows = l.dims[0], cols = l.dims[1];
    auto accumulate = [&](Acc* q, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
      for (int64_t r = r0; r < r1; ++r) {
        const T* p = src + r * cols;
        for (int64_t c = c0; c < c1; ++c) q[c] = red.combine(q[c], lift(red, p[c]));
      }
    };
    const int64_t rowsPerBlock = std::max<int64_t>(1, kBlock / cols);
    const int64_t nb = (rows + rowsPerBlock - 1) / rowsPerBlock;
    if (cols >= 1024 || nb <= 1) {
      parallelFor(cols, std::max<int64_t>(64, kBlock / std::max<int64_t>(rows, 1)),
                  [&](int64_t b, int64_t e) { accumulate(tmp, 0, rows, b, e); });
      return;
    }
    // Few columns, many rows: partial results per block of rows, combined in order. Within a
    // block, g consecutive rows are one contiguous span folded into a g*cols-wide accumulator
    // (vectorises even for 2 or 3 columns), folded down to cols at the end.
    Buffer<Acc> part(static_cast<size_t>(nb * cols), red.init());
    const int64_t g = std::max<int64_t>(1, 256 / cols), wideLen = g * cols;
    parallelFor(nb, 1, [&](int64_t b, int64_t e) {
      Buffer<Acc> wide(static_cast<size_t>(wideLen));
      Acc* w = wide.data();
      for (int64_t k = b; k < e; ++k) {
        Acc* q = part.data() + k * cols;
        const int64_t r0 = k * rowsPerBlock, r1 = std::min(rows, (k + 1) * rowsPerBlock);
        std::fill(w, w + wideLen, red.init());
        int64_t r = r0;
        for (; r + g <= r1; r += g) {
          const T* p = src + r * cols;
          for (int64_t j = 0; j < wideLen; ++j) w[j] = red.combine(w[j], lift(red, p[j]));
        }
        accumulate(q, r, r1, 0, cols);
        for (int64_t i = 0; i < g; ++i)
          for (int64_t c = 0; c < cols; ++c) q[c] = red.combine(q[c], w[i * cols + c]);
      }
    });
    for (int64_t k = 0; k < nb; ++k) {
      const Acc* q = part.data() + k * cols;
      for (int64_t c = 0; c < cols; ++c) tmp[c] = red.combine(tmp[c], q[c]);
    }
    return;
  }
  if (l.dims.size() == 3 && !l.reduced[0]) {  // [K, R, K2]
    const int64_t outer = l.dims[0], mid = l.dims[1], inner = l.dims[2];
    const int64_t ic = std::min(inner, std::max<int64_t>(256, kBlock / mid));  // inner chunk
    const int64_t nic = (inner + ic - 1) / ic;
    parallelFor(outer * nic, std::max<int64_t>(1, kBlock / std::max<int64_t>(1, mid * ic)),
                [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        const int64_t o = t / nic, c0 = (t % nic) * ic, c1 = std::min(inner, c0 + ic);
        Acc* q = tmp + o * inner;
        for (int64_t m = 0; m < mid; ++m) {
          const T* p = src + (o * mid + m) * inner;
          for (int64_t c = c0; c < c1; ++c) q[c] = red.combine(q[c], lift(red, p[c]));
        }
      }
    });
    return;
  }
  if (l.dims.size() == 3) {  // [R, K, R2]
    const int64_t outer = l.dims[0], mid = l.dims[1], inner = l.dims[2];
    parallelFor(mid, std::max<int64_t>(1, kBlock / std::max<int64_t>(1, outer * inner)), [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        Acc a = red.init();
        for (int64_t o = 0; o < outer; ++o) a = red.combine(a, red.span(src + (o * mid + k) * inner, inner));
        tmp[k] = a;
      }
    });
    return;
  }
  // General: walk rows of the innermost collapsed dim, their output offset kept by an odometer.
  const size_t r = l.dims.size();
  std::vector<int64_t> ostride(r, 0);
  int64_t s = 1;
  for (size_t i = r; i-- > 0;)
    if (!l.reduced[i]) {
      ostride[i] = s;
      s *= l.dims[i];
    }
  const int64_t inner = l.dims[r - 1];
  const bool innerReduced = l.reduced[r - 1];
  std::vector<int64_t> idx(r - 1, 0);
  int64_t off = 0;
  for (int64_t row = 0; row < n / inner; ++row) {
    const T* p = src + row * inner;
    if (innerReduced) tmp[off] = red.combine(tmp[off], red.span(p, inner));
    else
      for (int64_t c = 0; c < inner; ++c) tmp[off + c] = red.combine(tmp[off + c], lift(red, p[c]));
    for (size_t d = r - 1; d-- > 0;) {
      off += ostride[d];
      if (++idx[d] < l.dims[d]) break;
      off -= ostride[d] * l.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace detail

/// out = reduction of `in` over `reducedAxes` with reducer `red` (see SumReducer, MaxReducer...).
/// Empty reductions give red.init(). Results do not depend on the number of threads.
template <typename T, typename R>
void reduceWith(const Tensor& in, const std::vector<char>& reducedAxes, Tensor& out, const R& red) {
  using Acc = decltype(red.init());
  const int64_t outN = out.numElements();
  T* dst = out.data<T>();
  if constexpr (std::is_same_v<Acc, T>) {
    detail::reduceImpl(red, in.data<T>(), in.shape(), reducedAxes, dst, outN);
  } else {
    detail::Buffer<Acc> tmp(static_cast<size_t>(outN));
    detail::reduceImpl(red, in.data<T>(), in.shape(), reducedAxes, tmp.data(), outN);
    for (int64_t i = 0; i < outN; ++i) dst[i] = static_cast<T>(tmp[static_cast<size_t>(i)]);
  }
}

/// out[j] = fold over reduced elements of in with `op(acc, x)` starting from `init`.
/// Acc is the accumulator type (double for float sums of float16, etc.).
template <typename T, typename Acc, typename Op>
void reduce(const Tensor& in, const std::vector<char>& reducedAxes, Tensor& out, Acc init, Op op) {
  reduceWith<T>(in, reducedAxes, out, FnReducer<T, Acc, Op>{init, op});
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


/// Sum with SumAcc accumulators; float spans are summed by Eigen (vectorised, several partial
/// sums, so also more accurate than one running sum).
template <typename T>
struct SumReducer {
  using Acc = SumAcc<T>;
  Acc init() const { return Acc(0); }
  Acc combine(Acc a, Acc b) const { return a + b; }
  Acc span(const T* p, int64_t n) const {
    if constexpr (std::is_same_v<T, Acc> && std::is_floating_point_v<T>) {
      return n ? Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(p, n).sum() : Acc(0);
    } else {
      Acc a = Acc(0);
      for (int64_t i = 0; i < n; ++i) a += static_cast<Acc>(p[i]);
      return a;
    }
  }
};

/// Product; integer overflow wraps (computed unsigned, as two's complement).
template <typename T>
struct ProdReducer {
  using Acc = SumAcc<T>;
  Acc init() const { return Acc(1); }
  Acc combine(Acc a, Acc b) const {
    if constexpr (std::is_integral_v<Acc> && std::is_signed_v<Acc>) {
      using U = std::make_unsigned_t<Acc>;
      return static_cast<Acc>(static_cast<U>(a) * static_cast<U>(b));
    } else {
      return static_cast<Acc>(a * b);
    }
  }
  Acc span(const T* p, int64_t n) const {
    if constexpr (std::is_same_v<T, Acc> && std::is_floating_point_v<T>) {
      return n ? Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(p, n).prod() : Acc(1);
    } else {
      Acc a = Acc(1);
      for (int64_t i = 0; i < n; ++i) a = combine(a, static_cast<Acc>(p[i]));
      return a;
    }
  }
};

/// The accumulator type for Max/Min: float for float16, T otherwise.
template <typename T>
using ExtremumAcc = std::conditional_t<std::is_same_v<T, Eigen::half>, float, T>;

/// Max; NaN propagates. Empty: -inf for floats, the lowest value for integers (as TensorFlow).
template <typename T>
struct MaxReducer {
  using Acc = ExtremumAcc<T>;
  Acc init() const {
    if constexpr (std::numeric_limits<Acc>::has_infinity) return -std::numeric_limits<Acc>::infinity();
    else return std::numeric_limits<Acc>::lowest();
  }
  Acc combine(Acc a, Acc b) const { return (b > a || isNaNValue(b)) ? b : a; }
  Acc span(const T* p, int64_t n) const {
    if (n == 0) return init();
    if constexpr (std::is_same_v<T, Acc> && std::is_floating_point_v<T>) {
      return Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(p, n).template maxCoeff<Eigen::PropagateNaN>();
    } else {
      Acc a = init();
      for (int64_t i = 0; i < n; ++i) a = combine(a, static_cast<Acc>(p[i]));
      return a;
    }
  }
};

/// Min; NaN propagates. Empty: +inf for floats, the highest value for integers.
template <typename T>
struct MinReducer {
  using Acc = ExtremumAcc<T>;
  Acc init() const {
    if constexpr (std::numeric_limits<Acc>::has_infinity) return std::numeric_limits<Acc>::infinity();
    else return std::numeric_limits<Acc>::max();
  }
  Acc combine(Acc a, Acc b) const { return (b < a || isNaNValue(b)) ? b : a; }
  Acc span(const T* p, int64_t n) const {
    if (n == 0) return init();
    if constexpr (std::is_same_v<T, Acc> && std::is_floating_point_v<T>) {
      return Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(p, n).template minCoeff<Eigen::PropagateNaN>();
    } else {
      Acc a = init();
      for (int64_t i = 0; i < n; ++i) a = combine(a, static_cast<Acc>(p[i]));
      return a;
    }
  }
};

/// Logical or / and over bools. Empty: false / true.
struct AnyReducer {
  bool init() const { return false; }
  bool combine(bool a, bool b) const { return a || b; }
  bool span(const bool* p, int64_t n) const {
    for (int64_t i = 0; i < n; ++i)
      if (p[i]) return true;
    return false;
  }
};
struct AllReducer {
  bool init() const { return true; }
  bool combine(bool a, bool b) const { return a && b; }
  bool span(const bool* p, int64_t n) const {
    for (int64_t i = 0; i < n; ++i)
      if (!p[i]) return false;
    return true;
  }
};

/// Calls f(inBegin, outOffset, len, innerReduced) for every row of the innermost collapsed dim
/// of `shape` (reduced per `reducedAxes`): elements [inBegin, inBegin + len) of the input map to
/// output element outOffset (innerReduced) or outOffset + i. Rows are visited in parallel.
template <typename F>
void forEachReduceRow(const ConcreteShape& shape, const std::vector<char>& reducedAxes, F f) {
  const ReduceLayout l = collapse(shape, reducedAxes);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n == 0) return;
  if (l.dims.empty()) {
    f(int64_t{0}, int64_t{0}, n, false);
    return;
  }
  const size_t r = l.dims.size();
  std::vector<int64_t> ostride(r, 0);
  int64_t s = 1;
  for (size_t i = r; i-- > 0;)
    if (!l.reduced[i]) {
      ostride[i] = s;
      s *= l.dims[i];
    }
  const int64_t inner = l.dims[r - 1];
  const bool innerReduced = l.reduced[r - 1];
  parallelFor(n / inner, std::max<int64_t>(1, 16384 / inner), [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      int64_t off = 0, rem = row;
      for (size_t d = r - 1; d-- > 0;) {
        off += (rem % l.dims[d]) * ostride[d];
        rem /= l.dims[d];
      }
      f(row * inner, off, inner, innerReduced);
    }
  });
}

}  // namespace tlens::cpu
