// Building blocks for shape functions. All are pure and never throw; errors come back as
// ShapeResult with TensorFlow's wording (see shapeError).
#pragma once

#include <optional>

#include "engine/ops/OpDef.h"

namespace tlens::shapefn {

/// Output 0 has the type of input 0.
ShapeResult unchanged(const InferContext& c);
/// Like unchanged(), after checking input 0's dtype is floating (Exp, Sigmoid, ...).
ShapeResult unchangedFloat(const InferContext& c);
/// Two inputs of the same dtype, numpy-broadcast; output dtype `out` (Invalid: the inputs').
ShapeResult broadcastBinary(const InferContext& c, DType out = DType::Invalid);
/// No outputs (NoOp, Assert's op, Group).
ShapeResult none(const InferContext& c);

/// The common dtype of inputs `idx` (TensorFlow: no implicit promotion). On a mismatch returns an
/// error naming both tensors: "Input 'y' (b:0) of 'Add' has type int32 that does not match
/// float32 of 'x' (a:0)". Unknown dtypes are ignored.
std::optional<ShapeResult> checkSameDType(const InferContext& c, std::initializer_list<size_t> idx);
/// An error if input i's dtype is known and not in `allowed`.
std::optional<ShapeResult> checkDType(const InferContext& c, size_t i,
                                      std::initializer_list<DType> allowed);
/// The known dtype among `idx`, or Invalid.
DType commonDType(const InferContext& c, std::initializer_list<size_t> idx);

/// Normalises a possibly negative axis against `rank`; nullopt when out of [-rank, rank).
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);
/// Output shape of a reduction over `axes` (all axes when absent; none when empty) with keep_dims.
/// Fails when an axis is out of range for a known rank.
ShapeResult reduce(const InferContext& c, const std::optional<std::vector<int64_t>>& axes,
                   bool keepDims, DType out);

}  // namespace tlens::shapefn
