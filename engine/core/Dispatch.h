// Element-type dispatch: call a generic lambda with a value of the C++ type of a DType. Includes
// <Eigen/Core> for Eigen::half, so only code that computes on tensor elements includes it (the
// CPU kernels, Tensor.cpp's conversions, the NaN/Inf scan, summaries); everything else includes
// DType.h, which only declares Eigen::half.
#pragma once

#include <Eigen/Core>  // Eigen::half

#include "engine/core/DType.h"

namespace tlens {

/// Calls f(T{}) with the C++ type of `t`. Strings are not dispatched.
#define TLENS_DISPATCH_CASE(DT, T) \
  case DType::DT: return f(T{});

template <typename F>
decltype(auto) dispatchAll(DType t, F&& f) {
  switch (t) {
    TLENS_DISPATCH_CASE(Float32, float)
    TLENS_DISPATCH_CASE(Float64, double)
    TLENS_DISPATCH_CASE(Float16, half)
    TLENS_DISPATCH_CASE(Int32, int32_t)
    TLENS_DISPATCH_CASE(Int64, int64_t)
    TLENS_DISPATCH_CASE(UInt8, uint8_t)
    TLENS_DISPATCH_CASE(Bool, bool)
    default: return f(float{});  // callers validate dtypes before dispatching
  }
}

template <typename F>
decltype(auto) dispatchNumeric(DType t, F&& f) {
  switch (t) {
    TLENS_DISPATCH_CASE(Float32, float)
    TLENS_DISPATCH_CASE(Float64, double)
    TLENS_DISPATCH_CASE(Float16, half)
    TLENS_DISPATCH_CASE(Int32, int32_t)
    TLENS_DISPATCH_CASE(Int64, int64_t)
    TLENS_DISPATCH_CASE(UInt8, uint8_t)
    default: return f(float{});
  }
}

template <typename F>
decltype(auto) dispatchFloat(DType t, F&& f) {
  switch (t) {
    TLENS_DISPATCH_CASE(Float32, float)
    TLENS_DISPATCH_CASE(Float64, double)
    TLENS_DISPATCH_CASE(Float16, half)
    default: return f(float{});
  }
}

}  // namespace tlens
