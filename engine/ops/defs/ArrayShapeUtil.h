// Helpers shared by the array and slicing shape functions: TensorFlow's rank checks, reading small
// integer inputs, and the known values / shape-valued elements (TensorType::asShape) that
// data-movement ops carry from their inputs to their outputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/ops/OpDef.h"

namespace tlens::arrayfn {

/// Outputs with more elements than this get no TensorType::value.
constexpr int64_t kMaxValueElements = 1024;

/// "Shape must be rank 2 but is rank 3" when input i's rank is known and differs.
std::optional<ShapeResult> checkRank(const InferContext& c, size_t i, int rank);
/// "Shape must be at least rank 2 but is rank 1".
std::optional<ShapeResult> checkRankAtLeast(const InferContext& c, size_t i, int rank);
/// An error when input i's dtype is known and not int32/int64 ("Value for attr 'Tidx' ...").
std::optional<ShapeResult> checkIndexDType(const InferContext& c, size_t i, const char* attr = "Tidx");

/// Inputs [first, first+count) must share one dtype (a variadic list such as Pack's values).
std::optional<ShapeResult> checkListDType(const InferContext& c, size_t first, size_t count,
                                          const std::string& arg);
/// The common known dtype of inputs [first, first+count), or Invalid.
DType listDType(const InferContext& c, size_t first, size_t count);

/// The values of input i as int64 when known.
std::optional<std::vector<int64_t>> intValues(const InferContext& c, size_t i);
/// The single value of input i (a scalar or a one-element vector) when known.
std::optional<int64_t> intScalar(const InferContext& c, size_t i);

/// The dims held in an int scalar or vector input (from its value, its asShape, or unknown dims
/// when only its length is known); nullopt when its length is unknown or it is not rank 0/1.
/// A scalar gives one element.
std::optional<std::vector<Dim>> elementDims(const InferContext& c, size_t i);
/// Dim for an element value: known, Dim::minusOne() for -1, unknown for other negatives.
Dim dimFromValue(int64_t v);
bool isIndexDType(DType t);

/// Output i of a data-movement op whose elements are elements of its inputs: sets `asShape` when
/// the output is an int scalar/vector and `elems` (one per element) is given.
void setElements(TensorType& t, const std::optional<std::vector<Dim>>& elems);

/// A value tensor of `shape` whose element k is element idx[k] of `src` (idx -1: zero).
std::shared_ptr<const Tensor> takeElements(const Tensor& src, const std::vector<int64_t>& idx,
                                           const ConcreteShape& shape);
/// Concatenates the flat elements of tensors of one dtype into `shape` following `parts`:
/// (tensor, first element, count) runs in order.
struct Run {
  const Tensor* src;
  int64_t begin;
  int64_t count;
};
std::shared_ptr<const Tensor> joinRuns(DType dtype, const std::vector<Run>& parts,
                                       const ConcreteShape& shape);

/// A known output shape as a concrete shape when fully known and small enough for a value.
std::optional<ConcreteShape> smallConcrete(const Shape& s);

/// "[2,3]" / "[?]" / "?" as in TensorFlow's messages.
std::string tfShapeStr(const Shape& s);
/// "3" for integral values, else the shortest decimal.
std::string numStr(double v);

/// Row-major strides of a concrete shape.
std::vector<int64_t> stridesOf(const ConcreteShape& s);

/// The TensorType of an input passed through unchanged (Identity, StopGradient): dtype, shape,
/// value and asShape.
ShapeResult passThrough(const InferContext& c);

/// A value or asShape carried by an op that only changes the shape (Reshape, ExpandDims, Squeeze).
void carryReshaped(const InferContext& c, TensorType& out);

// ---- gradient helpers ----
/// A constant int vector (int32 unless `dtype` says otherwise).
Output constInts(Graph& g, const std::vector<int64_t>& v, DType dtype = DType::Int32);
/// tf.shape(x, out_type=dtype).
Output shapeOf(Graph& g, Output x, DType dtype = DType::Int32);
/// vec[i] as a scalar (StridedSlice with shrink_axis_mask=1), keeping asShape.
Output elementAt(Graph& g, Output vec, int64_t i);

}  // namespace tlens::arrayfn
