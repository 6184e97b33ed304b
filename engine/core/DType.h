// DType: the element types a tensor can hold, and their TensorFlow names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <Eigen/Core>  // Eigen::half

namespace tlens {

enum class DType : uint8_t {
  Invalid = 0,
  Float32,
  Float64,
  Float16,
  Int32,
  Int64,
  UInt8,
  Bool,
};

using half = Eigen::half;

/// TensorFlow's spelling: "float32", "int64", "bool".
std::string_view dtypeName(DType t);
/// Parses "float32", "tf.float32", "float", "double", "int", "half" ...
std::optional<DType> parseDType(std::string_view name);
size_t dtypeSize(DType t);
bool isFloating(DType t);
bool isInteger(DType t);  ///< int32, int64, uint8
inline bool isNumeric(DType t) { return isFloating(t) || isInteger(t); }

template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };
template <> struct DTypeOf<half> { static constexpr DType value = DType::Float16; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };

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
