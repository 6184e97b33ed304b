// The reducers of the GPU reductions (identity, lift, combine, finish per op and type), compiled
// for device and host: Reduce.cu folds with them on the device, and tests/cuda folds with them on
// the host against the CPU kernels. Accumulators follow the CPU (engine/kernels/cpu/Reduce.h):
// float for float32 sums, double for float64, the integer type itself (wrapping) for integers.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "engine/cuda/IndexMath.h"
#include "engine/cuda/Launch.h"

namespace tlens::cuda::rfns {

template <typename T> struct SumAccOf { using type = T; };
template <> struct SumAccOf<float> { using type = float; };
template <> struct SumAccOf<double> { using type = double; };

template <ROp OP, typename T>
struct Red {
  // Sum, Mean, Prod, HalfSumSquares
  using Acc = typename SumAccOf<T>::type;
  TLENS_HD static Acc init() { return OP == ROp::Prod ? Acc(1) : Acc(0); }
  TLENS_HD static Acc lift(T x) {
    if constexpr (OP == ROp::HalfSumSquares) return Acc(x) * Acc(x);
    else return Acc(x);
  }
  TLENS_HD static Acc combine(Acc a, Acc b) {
    if constexpr (OP == ROp::Prod) {
      if constexpr (std::is_integral_v<Acc>) {
        using U = std::make_unsigned_t<Acc>;
        return static_cast<Acc>(static_cast<U>(a) * static_cast<U>(b));
      } else {
        return a * b;
      }
    } else {
      if constexpr (std::is_integral_v<Acc>) {
        using U = std::make_unsigned_t<Acc>;
        return static_cast<Acc>(static_cast<U>(a) + static_cast<U>(b));
      } else {
        return a + b;
      }
    }
  }
  TLENS_HD static T finish(Acc a, int64_t count) {
    if constexpr (OP == ROp::Mean) {
      if (count == 0) {
        if constexpr (std::is_floating_point_v<T>) return static_cast<T>(NAN);
        else return T(0);  // the CPU casts NaN to an integer (undefined); 0 here
      }
      return static_cast<T>(a / static_cast<Acc>(count));
    } else if constexpr (OP == ROp::HalfSumSquares) {
      return static_cast<T>(a / Acc(2));
    } else {
      return static_cast<T>(a);
    }
  }
};

template <typename T>
TLENS_HD T lowestOf() {
  if constexpr (std::is_same_v<T, float>) return -INFINITY;
  else if constexpr (std::is_same_v<T, double>) return -static_cast<double>(INFINITY);
  else if constexpr (std::is_same_v<T, int32_t>) return INT_MIN;
  else return LLONG_MIN;
}
template <typename T>
TLENS_HD T highestOf() {
  if constexpr (std::is_same_v<T, float>) return INFINITY;
  else if constexpr (std::is_same_v<T, double>) return static_cast<double>(INFINITY);
  else if constexpr (std::is_same_v<T, int32_t>) return INT_MAX;
  else return LLONG_MAX;
}

template <typename T>
struct Red<ROp::Max, T> {
  using Acc = T;
  TLENS_HD static Acc init() { return lowestOf<T>(); }
  TLENS_HD static Acc lift(T x) { return x; }
  TLENS_HD static Acc combine(Acc a, Acc b) { return (b > a || isNaN(b)) ? b : a; }
  TLENS_HD static T finish(Acc a, int64_t) { return a; }
};
template <typename T>
struct Red<ROp::Min, T> {
  using Acc = T;
  TLENS_HD static Acc init() { return highestOf<T>(); }
  TLENS_HD static Acc lift(T x) { return x; }
  TLENS_HD static Acc combine(Acc a, Acc b) { return (b < a || isNaN(b)) ? b : a; }
  TLENS_HD static T finish(Acc a, int64_t) { return a; }
};
template <>
struct Red<ROp::Any, bool> {
  using Acc = int;
  TLENS_HD static Acc init() { return 0; }
  TLENS_HD static Acc lift(bool x) { return x ? 1 : 0; }
  TLENS_HD static Acc combine(Acc a, Acc b) { return (a | b) ? 1 : 0; }
  TLENS_HD static bool finish(Acc a, int64_t) { return a != 0; }
};
template <>
struct Red<ROp::All, bool> {
  using Acc = int;
  TLENS_HD static Acc init() { return 1; }
  TLENS_HD static Acc lift(bool x) { return x ? 1 : 0; }
  TLENS_HD static Acc combine(Acc a, Acc b) { return (a & b) ? 1 : 0; }
  TLENS_HD static bool finish(Acc a, int64_t) { return a != 0; }
};

}  // namespace tlens::cuda::rfns
