// TensorFlow's strided-slice semantics (tensorflow/core/util/strided_slice_op), on partial shapes:
// the sparse spec of Python slicing (begin/end/strides vectors plus begin/end/ellipsis/new-axis/
// shrink-axis bit masks) expanded to one (begin, stride, size) per input dim, and the output shape.
// Shared by the StridedSlice / StridedSliceGrad shape functions and their CPU kernels, so both
// agree exactly. Values that are not known (nullopt) make the affected sizes unknown; a full slice
// `:` of an unknown or symbolic dim keeps that dim.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/core/Shape.h"
#include "engine/ops/Attr.h"

namespace tlens::slicing {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, newAxis = 0, shrink = 0;
  static StridedSliceMasks read(const AttrReader& a);
};

/// How one input dim is read: elements begin, begin + stride, ... (size of them).
struct SliceDim {
  int64_t begin = 0;
  int64_t stride = 1;
  int64_t size = -1;  ///< -1 when unknown
  bool beginKnown = false;
  bool shrink = false;
};

struct StridedSliceAnalysis {
  std::string error;  ///< TensorFlow's message; empty when valid
  bool rankKnown = false;
  std::vector<SliceDim> dims;  ///< one per input dim
  std::vector<int> finalDims;  ///< per output dim: the input dim it comes from, or -1 (new axis)
  Shape output;                ///< the output shape (unknown rank when !rankKnown)

  bool ok() const { return error.empty(); }
  /// Every begin and size known (always true on concrete inputs).
  bool fullyKnown() const;
  /// The sizes of `dims` (the "processing shape"); only when fullyKnown().
  ConcreteShape processingShape() const;
  /// For each output element in order, its flat index in an input of concrete shape `in`.
  std::vector<int64_t> flatIndices(const ConcreteShape& in) const;
};

/// `sparseLen` is the length of begin/end/strides (-1 when unknown).
StridedSliceAnalysis analyzeStridedSlice(const Shape& input, int64_t sparseLen,
                                         const std::optional<std::vector<int64_t>>& begin,
                                         const std::optional<std::vector<int64_t>>& end,
                                         const std::optional<std::vector<int64_t>>& strides,
                                         const StridedSliceMasks& masks);

}  // namespace tlens::slicing
