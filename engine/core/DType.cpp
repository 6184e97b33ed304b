#include "engine/core/DType.h"

#include <Eigen/Core>  // Eigen::half, for the float16 conversions

namespace tlens {

std::string_view dtypeName(DType t) {
  switch (t) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Float16: return "float16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::UInt8: return "uint8";
    case DType::Bool: return "bool";
    case DType::String: return "string";
    case DType::Invalid: break;
  }
  return "invalid";
}

std::optional<DType> parseDType(std::string_view n) {
  for (std::string_view prefix : {"tf.", "np.", "numpy.", "tensorflow."})
    if (n.substr(0, prefix.size()) == prefix) n.remove_prefix(prefix.size());
  if (n == "float32" || n == "float") return DType::Float32;
  if (n == "float64" || n == "double") return DType::Float64;
  if (n == "float16" || n == "half") return DType::Float16;
  if (n == "int32") return DType::Int32;
  if (n == "int64" || n == "int") return DType::Int64;
  if (n == "uint8") return DType::UInt8;
  if (n == "bool" || n == "bool_") return DType::Bool;
  if (n == "string") return DType::String;
  return std::nullopt;
}

size_t dtypeSize(DType t) {
  switch (t) {
    case DType::Float32: return 4;
    case DType::Float64: return 8;
    case DType::Float16: return 2;
    case DType::Int32: return 4;
    case DType::Int64: return 8;
    case DType::UInt8: return 1;
    case DType::Bool: return 1;
    case DType::String: return 0;  // elements live in the tensor's string storage
    case DType::Invalid: break;
  }
  return 0;
}

bool isFloating(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Float16;
}
bool isInteger(DType t) {
  return t == DType::Int32 || t == DType::Int64 || t == DType::UInt8;
}

float halfBitsToFloat(uint16_t bits) { return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits)); }
uint16_t floatToHalfBits(float f) { return Eigen::numext::bit_cast<uint16_t>(Eigen::half(f)); }

}  // namespace tlens
