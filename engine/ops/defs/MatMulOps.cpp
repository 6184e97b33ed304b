// Matrix products: MatMul, BatchMatMulV2 (broadcasting batch dims) and BatchMatMul.
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

/// "[2,3,?]" as TensorFlow prints a shape in messages.
std::string dimsStr(const Shape& s) {
  if (!s.rankKnown()) return "?";
  std::string r = "[";
  for (size_t i = 0; i < s.dims().size(); ++i) r += (i ? "," : "") + s[i].str();
  return r + "]";
}

/// BatchMatMulV2 (broadcast = true) and BatchMatMul: [..., m, k] x [..., k, n] -> [..., m, n].
ShapeResult batchMatmulShape(const InferContext& c, bool broadcast) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64}))
    return *e;
  const Shape& a = c.shape(0);
  const Shape& b = c.shape(1);
  for (int i = 0; i < 2; ++i) {
    const Shape& s = i == 0 ? a : b;
    if (s.rankKnown() && s.rank() < 2)
      return shapeError(c, "Shape must be at least rank 2 but is rank " + std::to_string(s.rank()), {i});
  }
  const DType dt = commonDType(c, {0, 1});
  const bool adjX = c.getBool("adj_x"), adjY = c.getBool("adj_y");
  auto dim = [](const Shape& s, int fromEnd) { return s[static_cast<size_t>(s.rank() - fromEnd)]; };
  if (a.rankKnown() && b.rankKnown()) {
    const Dim ka = dim(a, adjX ? 2 : 1), kb = dim(b, adjY ? 1 : 2);
    if (ka.conflicts(kb))
      return shapeError(c, "Dimensions must be equal, but are " + ka.str() + " and " + kb.str(), {0, 1});
  }
  if (!a.rankKnown() || !b.rankKnown()) {
    if (!broadcast) {
      // Same rank: the known one gives the rank and its batch dims (merged when both known).
      const Shape& k = a.rankKnown() ? a : b;
      if (!k.rankKnown()) return ShapeResult::single(dt, Shape::unknownRank());
      std::vector<Dim> d(k.dims().begin(), k.dims().end() - 2);
      d.push_back(a.rankKnown() ? dim(a, adjX ? 1 : 2) : Dim::unknown());
      d.push_back(b.rankKnown() ? dim(b, adjY ? 2 : 1) : Dim::unknown());
      return ShapeResult::single(dt, Shape(std::move(d)));
    }
    return ShapeResult::single(dt, Shape::unknownRank());
  }
  Shape ab(std::vector<Dim>(a.dims().begin(), a.dims().end() - 2));
  Shape bb(std::vector<Dim>(b.dims().begin(), b.dims().end() - 2));
  Shape batch;
  if (broadcast) {
    auto s = broadcastShapes(ab, bb);
    if (!s)
      return shapeError(c, "In[0] and In[1] must have compatible batch dimensions: " + dimsStr(a) + " vs. " +
                               dimsStr(b), {0, 1});
    batch = *s;
  } else {
    if (a.rank() != b.rank())
      return shapeError(c, "Shape must be rank " + std::to_string(a.rank()) + " but is rank " +
                               std::to_string(b.rank()), {0, 1});
    if (!ab.compatible(bb)) {
      for (size_t i = 0; i < ab.dims().size(); ++i)
        if (ab[i].conflicts(bb[i]))
          return shapeError(c, "Dimensions must be equal, but are " + ab[i].str() + " and " + bb[i].str(), {0, 1});
    }
    batch = ab.merge(bb);
  }
  std::vector<Dim> d = batch.dims();
  d.push_back(dim(a, adjX ? 1 : 2));
  d.push_back(dim(b, adjY ? 2 : 1));
  return ShapeResult::single(dt, Shape(std::move(d)));
}

/// Gradient of BatchMatMul(V2): the four adjoint cases, then batch dims summed back to each
/// input's shape (they may have been broadcast).
std::vector<Output> batchMatmulGrad(GradContext& g) {
  Graph& G = g.graph;
  AttrReader at(g.node.attrs);
  const bool ax = at.getBool("adj_x"), ay = at.getBool("adj_y");
  Output x = g.input(0), y = g.input(1), dy = g.dys[0];
  auto bmm = [&](Output p, Output q, bool adjP, bool adjQ) {
    return G.op("BatchMatMulV2", {p, q}, {{"adj_x", adjP}, {"adj_y", adjQ}});
  };
  Output dx, dw;
  if (!ax && !ay) {
    dx = bmm(dy, y, false, true);
    dw = bmm(x, dy, true, false);
  } else if (!ax && ay) {
    dx = bmm(dy, y, false, false);
    dw = bmm(dy, x, true, false);
  } else if (ax && !ay) {
    dx = bmm(y, dy, false, true);
    dw = bmm(x, dy, false, false);
  } else {
    dx = bmm(y, dy, true, true);
    dw = bmm(dy, x, true, true);
  }
  return {ops::unbroadcast(G, dx, x), ops::unbroadcast(G, dw, y)};
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

  // tf.matmul on operands of rank > 2 (tensorflow.py's matmul chooses); the name is MatMul's, as a
  // name belongs to one op (OpRegistry::findByApi).
  OpBuilder(r, "BatchMatMulV2")
      .input("x").input("y")
      .attr("adj_x", false, "transpose the last two dims of x")
      .attr("adj_y", false, "transpose the last two dims of y")
      .doc("Batched matrix product [..., m, k] @ [..., k, n] -> [..., m, n]; batch dims broadcast.")
      .shape([](const InferContext& c) { return batchMatmulShape(c, true); })
      .grad(batchMatmulGrad);

  OpBuilder(r, "BatchMatMul")
      .input("x").input("y")
      .attr("adj_x", false, "transpose the last two dims of x")
      .attr("adj_y", false, "transpose the last two dims of y")
      .doc("Batched matrix product [..., m, k] @ [..., k, n] -> [..., m, n] with equal batch dims.")
      .shape([](const InferContext& c) { return batchMatmulShape(c, false); })
      .grad(batchMatmulGrad);
}

}  // namespace tlens
