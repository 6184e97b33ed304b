// Selection of the largest entries: TopKV2 (tf.nn.top_k, tf.math.top_k; tf.sort and tf.argsort are
// built on it in Python, as TensorFlow does) and InTopKV2 (tf.nn.in_top_k, tf.math.in_top_k).
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

const std::initializer_list<DType> kRealTypes = {DType::Float32, DType::Float64, DType::Float16,
                                                 DType::Int32,   DType::Int64,   DType::UInt8};

ShapeResult topKShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, kRealTypes)) return *e;
  if (auto e = checkDType(c, 1, {DType::Int32})) return *e;
  if (auto e = checkRankAtLeast(c, 0, 1)) return *e;
  if (auto e = checkRank(c, 1, 0)) return *e;
  auto k = intScalar(c, 1);
  if (k && *k < 0) return shapeError(c, "Need k >= 0, got " + std::to_string(*k), {1});
  ShapeResult r;
  const Shape& in = c.shape(0);
  Shape out = Shape::unknownRank();
  if (in.rankKnown()) {
    const Dim& last = in[static_cast<size_t>(in.rank() - 1)];
    if (k && last.isKnown() && last.size < *k)
      return shapeError(c, "input must have last dimension >= k = " + std::to_string(*k) + " but is " +
                               std::to_string(last.size), {0, 1});
    std::vector<Dim> d = in.dims();
    d.back() = k ? Dim::known(*k) : Dim::unknown();
    out = Shape(std::move(d));
  }
  r.outputs.emplace_back(c.dtype(0), out);
  r.outputs.emplace_back(DType::Int32, out);
  return r;
}

ShapeResult inTopKShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32})) return *e;
  if (auto e = checkIndexDType(c, 1, "T")) return *e;
  if (auto e = checkIndexDType(c, 2, "T")) return *e;
  if (auto e = checkRank(c, 0, 2)) return *e;
  if (auto e = checkRank(c, 1, 1)) return *e;
  if (auto e = checkRank(c, 2, 0)) return *e;
  Dim batch = c.shape(0).rankKnown() ? c.shape(0)[0] : Dim::unknown();
  if (c.shape(1).rankKnown()) {
    const Dim& t = c.shape(1)[0];
    if (batch.conflicts(t))
      return shapeError(c, "Dimensions must be equal, but are " + batch.str() + " and " + t.str(), {0, 1});
    if (!batch.isKnown() && !batch.isSymbolic()) batch = t;
  }
  return ShapeResult::single(DType::Bool, Shape{batch});
}

}  // namespace

void registerTopKOps(OpRegistry& r) {
  OpBuilder(r, "TopKV2").cpuOnly("a partial sort on the host (no GPU kernel yet)").hostInput(1)
      .api("tf.nn.top_k").api("tf.math.top_k")
      .input("input")
      .input("k")
      .attr("sorted", true, "return the k values in descending order")
      .doc("The k largest entries of the last dim and their indices (ties: the lower index first).")
      .shape(topKShape)
      .grad([](GradContext& g) {
        // dx = sum over the k picks of one_hot(index, n) * dy: each picked position gets its dy.
        Graph& G = g.graph;
        Output x = g.input(0);
        DType dt = x.type().dtype;
        Output n = G.op("StridedSlice", {shapeOf(G, x), constInts(G, {-1}), constInts(G, {0}), constInts(G, {1})},
                        {{"begin_mask", int64_t{0}}, {"end_mask", int64_t{1}}, {"ellipsis_mask", int64_t{0}},
                         {"new_axis_mask", int64_t{0}}, {"shrink_axis_mask", int64_t{1}}});
        Output hot = G.op("OneHot", {g.output(1), n, ops::scalar(G, dt, 1), ops::scalar(G, dt, 0)}, {{"axis", int64_t{-1}}});
        Output dy = G.op("ExpandDims", {g.dys[0], ops::constant(G, Tensor::scalar<int32_t>(-1))});
        Output dx = G.op("Sum", {G.op("Mul", {hot, dy})}, {{"axis", std::vector<int64_t>{-2}}, {"keep_dims", false}});
        return std::vector<Output>{dx, {}};
      });

  OpBuilder(r, "InTopKV2").cpuOnly("a comparison per row on the host (no GPU kernel yet)").hostInput(2)
      .api("tf.nn.in_top_k").api("tf.math.in_top_k")
      .input("predictions")
      .input("targets")
      .input("k")
      .notDifferentiable()
      .doc("Whether each target is among the k largest predictions of its row.")
      .shape(inTopKShape);
}

}  // namespace tlens
