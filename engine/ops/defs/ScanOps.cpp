// Scans along one axis: Cumsum (tf.cumsum, tf.math.cumsum) and Cumprod (tf.cumprod,
// tf.math.cumprod), each exclusive and/or reversed, with TensorFlow's gradients.
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

ShapeResult scanShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64,
                                 DType::UInt8}))
    return *e;
  if (auto e = checkIndexDType(c, 1)) return *e;
  if (c.shape(1).rankKnown() && c.shape(1).rank() != 0)
    return shapeError(c, "ScanOp: axis must be a scalar, not " + tfShapeStr(c.shape(1)), {1});
  auto axis = intScalar(c, 1);
  const Shape& in = c.shape(0);
  if (axis && in.rankKnown() && (*axis < -in.rank() || *axis >= in.rank()))
    return shapeError(c, "ScanOp: Expected scan axis in the range [" + std::to_string(-in.rank()) + ", " +
                             std::to_string(in.rank()) + "), but got " + std::to_string(*axis), {0, 1});
  return ShapeResult::single(c.dtype(0), in);
}

Attrs scanAttrs(const Node& n, bool flipReverse) {
  AttrReader a(n.attrs);
  return {{"exclusive", a.getBool("exclusive", false)}, {"reverse", a.getBool("reverse", false) != flipReverse}};
}

}  // namespace

void registerScanOps(OpRegistry& r) {
  OpBuilder(r, "Cumsum").hostInput(1).cpuOnly("a sequential scan on the host (no GPU kernel yet)")
      .api("tf.cumsum").api("tf.math.cumsum")
      .input("x")
      .input("axis")
      .attr("exclusive", false, "leave out each element itself: [a, b, c] -> [0, a, a + b]")
      .attr("reverse", false, "scan from the end: [a, b, c] -> [a + b + c, b + c, c]")
      .doc("Cumulative sum along `axis`.")
      .shape(scanShape)
      .grad([](GradContext& g) {
        // The sum of later outputs' gradients: the same scan in the other direction.
        Output dx = g.graph.op("Cumsum", {g.dys[0], g.input(1)}, scanAttrs(g.node, true));
        return std::vector<Output>{dx, {}};
      });

  OpBuilder(r, "Cumprod").hostInput(1).cpuOnly("a sequential scan on the host (no GPU kernel yet)")
      .api("tf.cumprod").api("tf.math.cumprod")
      .input("x")
      .input("axis")
      .attr("exclusive", false, "leave out each element itself: [a, b, c] -> [1, a, a * b]")
      .attr("reverse", false, "scan from the end: [a, b, c] -> [a * b * c, b * c, c]")
      .doc("Cumulative product along `axis`.")
      .shape(scanShape)
      .grad([](GradContext& g) {
        // TensorFlow's math_grad: cumsum(cumprod(x) * dy, reverse = !reverse) / x (x != 0).
        Graph& G = g.graph;
        Output prod = G.op("Cumprod", {g.input(0), g.input(1)}, scanAttrs(g.node, false));
        Output out = G.op("Cumsum", {G.op("Mul", {prod, g.dys[0]}), g.input(1)}, scanAttrs(g.node, true));
        return std::vector<Output>{G.op("RealDiv", {out, g.input(0)}), {}};
      });
}

}  // namespace tlens
