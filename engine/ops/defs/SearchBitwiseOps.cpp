// Binary search and bit operations, for numpy's searchsorted / digitize / histogram and its bitwise
// ufuncs: LowerBound and UpperBound (tf.searchsorted's ops: each row of values searched in the same
// row of sorted_inputs, NaN sorting last as numpy sorts it), and BitwiseAnd, BitwiseOr, BitwiseXor
// (broadcasting) and Invert on integers. Not differentiable; CPU only.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

const std::initializer_list<DType> kInts = {DType::Int32, DType::Int64, DType::UInt8};

ShapeResult boundShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkRank(c, 0, 2)) return *e;
  if (auto e = checkRank(c, 1, 2)) return *e;
  const Shape& s = c.shape(0);
  const Shape& v = c.shape(1);
  if (s.rankKnown() && v.rankKnown() && s[0].conflicts(v[0]))
    return shapeError(c, "Leading dim_size of both tensors must match.", {0, 1});
  DType out = c.getDType("out_type", DType::Int32);
  return ShapeResult::single(out, v);
}

ShapeResult bitwiseShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, kInts)) return *e;
  return broadcastBinary(c);
}

ShapeResult invertShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, kInts)) return *e;
  return unchanged(c);
}

void bound(OpRegistry& r, const char* name, const char* doc) {
  OpBuilder(r, name).cpuOnly("binary search on the host (no GPU kernel yet)")
      .input("sorted_inputs")
      .input("values")
      .attr("out_type", DType::Int32, "int32 or int64")
      .doc(doc)
      .shape(boundShape)
      .notDifferentiable();
}

void bitwise(OpRegistry& r, const char* name, const char* doc) {
  OpBuilder(r, name).cpuOnly("integer bit operations on the host (no GPU kernel yet)")
      .input("x").input("y").doc(doc).shape(bitwiseShape).notDifferentiable();
}

}  // namespace

void registerSearchBitwiseOps(OpRegistry& r) {
  bound(r, "LowerBound", "For each value, the first index of its row of sorted_inputs whose entry is not less.");
  bound(r, "UpperBound", "For each value, the first index of its row of sorted_inputs whose entry is greater.");
  bitwise(r, "BitwiseAnd", "x & y elementwise, with numpy broadcasting.");
  bitwise(r, "BitwiseOr", "x | y elementwise, with numpy broadcasting.");
  bitwise(r, "BitwiseXor", "x ^ y elementwise, with numpy broadcasting.");
  OpBuilder(r, "Invert").cpuOnly("integer bit operations on the host (no GPU kernel yet)")
      .input("x").doc("~x elementwise (every bit flipped).").shape(invertShape).notDifferentiable();
}

}  // namespace tlens
