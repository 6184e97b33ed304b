// Type promotion rules of the two worlds a TF program mixes:
// - TensorFlow ops never promote: `int32 + float32` is an error (shapefn::checkSameDType), and a
//   Python scalar operand is "weak": it takes the tensor's dtype if its value fits that kind
//   (2 with a float32 tensor is float32; 2.5 with an int32 tensor is an error).
// - numpy promotes arrays by its table (int32 + float32 -> float64) and, since NEP 50, treats
//   Python scalars as weak too (uint8 array + 3 stays uint8; int array + 2.5 becomes float64).
#pragma once

#include <optional>
#include <string>

#include "engine/core/DType.h"

namespace tlens {

/// The kind of a Python scalar operand.
enum class PyScalarKind { Bool, Int, Float };

/// numpy's result type for two arrays (np.result_type).
DType numpyPromote(DType a, DType b);
/// numpy (NEP 50) result type of an array of dtype `array` with a Python scalar.
DType numpyPromoteScalar(DType array, PyScalarKind scalar);
/// The dtype a Python scalar takes next to a tensor of dtype `tensor` in a TensorFlow op, or
/// nullopt when TensorFlow refuses it (a float scalar with an integer tensor).
std::optional<DType> tfWeakScalarDType(DType tensor, PyScalarKind scalar);
/// The dtype tf.constant gives a Python scalar on its own: int32, float32, bool.
DType tfDefaultDType(PyScalarKind scalar);
/// The dtype np.array gives a Python scalar on its own: int64, float64, bool.
DType numpyDefaultDType(PyScalarKind scalar);

}  // namespace tlens
