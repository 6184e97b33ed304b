// DType: the element types a tensor can hold, and their TensorFlow names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

// Eigen::half is only declared here: the element-type dispatch that needs it complete
// (dispatchAll & co.) is in engine/core/Dispatch.h, which only the code that computes on
// elements includes (kernels, Tensor.cpp, the NaN/Inf scan), so that Eigen stays out of every
// other translation unit.
namespace Eigen {
struct half;
}

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
  /// Variable-length byte strings (TensorFlow's tf.string). Held in a Tensor's string storage on
  /// the host, never in a Buffer: dtypeSize is 0 and the numeric dispatch never sees it.
  String,
};

using half = Eigen::half;  ///< complete only where engine/core/Dispatch.h or <Eigen/Core> is included

/// float16 <-> float conversions by bit pattern (round to nearest even, as Eigen::half), for code
/// that formats or parses float16 values without including Eigen.
float halfBitsToFloat(uint16_t bits);
uint16_t floatToHalfBits(float f);

/// TensorFlow's spelling: "float32", "int64", "bool".
std::string_view dtypeName(DType t);
/// Parses "float32", "tf.float32", "float", "double", "int", "half" ...
std::optional<DType> parseDType(std::string_view name);
size_t dtypeSize(DType t);
bool isFloating(DType t);
bool isInteger(DType t);  ///< int32, int64, uint8
inline bool isNumeric(DType t) { return isFloating(t) || isInteger(t); }
inline bool isString(DType t) { return t == DType::String; }

template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };
template <> struct DTypeOf<half> { static constexpr DType value = DType::Float16; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };

}  // namespace tlens
