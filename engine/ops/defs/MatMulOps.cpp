// Matrix products: MatMul.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult matmulShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64}))
    return *e;
  const Shape& a = c.shape(0);
  const Shape& b = c.shape(1);
  for (int i = 0; i < 2; ++i) {
    const Shape& s = i == 0 ? a : b;
    if (s.rankKnown() && s.rank() != 2)
      return shapeError(c, "Shape must be rank 2 but is rank " + std::to_string(s.rank()), {i});
  }
  const bool ta = c.getBool("transpose_a"), tb = c.getBool("transpose_b");
  Dim m = a.rankKnown() ? a[ta ? 1 : 0] : Dim::unknown();
  Dim k1 = a.rankKnown() ? a[ta ? 0 : 1] : Dim::unknown();
  Dim k2 = b.rankKnown() ? b[tb ? 1 : 0] : Dim::unknown();
  Dim n = b.rankKnown() ? b[tb ? 0 : 1] : Dim::unknown();
  if (k1.conflicts(k2))
    return shapeError(c, "Dimensions must be equal, but are " + k1.str() + " and " + k2.str(), {0, 1});
  return ShapeResult::single(commonDType(c, {0, 1}), Shape{m, n});
}

}  // namespace

void registerMatMulOps(OpRegistry& r) {
  OpBuilder(r, "MatMul")
      .api("tf.matmul").api("tf.linalg.matmul")
      .input("a").input("b")
      .attr("transpose_a", false)
      .attr("transpose_b", false)
      .doc("Matrix product of two rank-2 tensors: a @ b, optionally transposing either.")
      .shape(matmulShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        AttrReader at(g.node.attrs);
        const bool ta = at.getBool("transpose_a"), tb = at.getBool("transpose_b");
        Output a = g.input(0), b = g.input(1), dy = g.dys[0];
        Output da, db;
        if (!ta && !tb) {
          da = ops::matmul(G, dy, b, false, true);
          db = ops::matmul(G, a, dy, true, false);
        } else if (!ta && tb) {
          da = ops::matmul(G, dy, b, false, false);
          db = ops::matmul(G, dy, a, true, false);
        } else if (ta && !tb) {
          da = ops::matmul(G, b, dy, false, true);
          db = ops::matmul(G, a, dy, false, false);
        } else {
          da = ops::matmul(G, b, dy, true, true);
          db = ops::matmul(G, dy, a, true, true);
        }
        return std::vector<Output>{da, db};
      });
}

}  // namespace tlens
