#include "engine/core/Promotion.h"

namespace tlens {

namespace {
int rankOf(DType t) {  // position in numpy's kind order: bool < unsigned/int < float
  switch (t) {
    case DType::Bool: return 0;
    case DType::UInt8: case DType::Int32: case DType::Int64: return 1;
    default: return 2;
  }
}
}  // namespace

DType numpyPromote(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Invalid) return b;
  if (b == DType::Invalid) return a;
  if (rankOf(a) != rankOf(b)) {
    const DType lo = rankOf(a) < rankOf(b) ? a : b, hi = rankOf(a) < rankOf(b) ? b : a;
    if (lo == DType::Bool) return hi;
    // integer with float: float16 cannot hold int32/int64 exactly, numpy goes to float64;
    // uint8 with float16 stays float16; anything with float32 beyond uint8 goes to float64.
    if (hi == DType::Float64) return DType::Float64;
    if (lo == DType::UInt8) return hi;
    return DType::Float64;
  }
  if (rankOf(a) == 1) {
    if (a == DType::Int64 || b == DType::Int64) return DType::Int64;
    return DType::Int32;  // uint8 with int32
  }
  // both floats
  if (a == DType::Float64 || b == DType::Float64) return DType::Float64;
  return DType::Float32;  // float16 with float32
}

DType numpyPromoteScalar(DType array, PyScalarKind s) {
  switch (s) {
    case PyScalarKind::Bool: return array;
    case PyScalarKind::Int: return array == DType::Bool ? DType::Int64 : array;
    case PyScalarKind::Float: return isFloating(array) ? array : DType::Float64;
  }
  return array;
}

std::optional<DType> tfWeakScalarDType(DType tensor, PyScalarKind s) {
  switch (s) {
    case PyScalarKind::Bool: return tensor == DType::Bool ? std::optional<DType>(tensor) : std::nullopt;
    case PyScalarKind::Int: return tensor == DType::Bool ? std::nullopt : std::optional<DType>(tensor);
    case PyScalarKind::Float: return isFloating(tensor) ? std::optional<DType>(tensor) : std::nullopt;
  }
  return std::nullopt;
}

DType tfDefaultDType(PyScalarKind s) {
  return s == PyScalarKind::Bool ? DType::Bool : s == PyScalarKind::Int ? DType::Int32 : DType::Float32;
}

DType numpyDefaultDType(PyScalarKind s) {
  return s == PyScalarKind::Bool ? DType::Bool : s == PyScalarKind::Int ? DType::Int64 : DType::Float64;
}

}  // namespace tlens
