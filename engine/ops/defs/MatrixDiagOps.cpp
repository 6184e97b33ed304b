// Diagonals and bands of the innermost two dims: MatrixBandPart (tf.linalg.band_part,
// tf.matrix_band_part), MatrixDiag (tf.linalg.diag, tf.matrix_diag), MatrixDiagPart
// (tf.linalg.diag_part, tf.matrix_diag_part) and MatrixSetDiag (tf.linalg.set_diag,
// tf.matrix_set_diag): TensorFlow's v1 ops (main diagonal only), with array_grad.py's gradients.
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

Dim minDim(const Dim& a, const Dim& b) {
  if (a.isKnown() && b.isKnown()) return Dim::known(std::min(a.size, b.size));
  if (a.sameAs(b)) return a;
  return Dim::unknown();
}

ShapeResult diagPartShape(const InferContext& c) {
  if (auto e = checkRankAtLeast(c, 0, 2)) return *e;
  const Shape& s = c.shape(0);
  if (!s.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  std::vector<Dim> d(s.dims().begin(), s.dims().end() - 2);
  d.push_back(minDim(s[static_cast<size_t>(s.rank() - 2)], s[static_cast<size_t>(s.rank() - 1)]));
  return ShapeResult::single(c.dtype(0), Shape(std::move(d)));
}

ShapeResult diagShape(const InferContext& c) {
  if (auto e = checkRankAtLeast(c, 0, 1)) return *e;
  const Shape& s = c.shape(0);
  if (!s.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  std::vector<Dim> d = s.dims();
  d.push_back(d.back());
  return ShapeResult::single(c.dtype(0), Shape(std::move(d)));
}

ShapeResult setDiagShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkRankAtLeast(c, 0, 2)) return *e;
  if (auto e = checkRankAtLeast(c, 1, 1)) return *e;
  const Shape& in = c.shape(0);
  const Shape& dg = c.shape(1);
  const DType dt = commonDType(c, {0, 1});
  if (!in.rankKnown()) return ShapeResult::single(dt, Shape::unknownRank());
  if (dg.rankKnown()) {
    if (dg.rank() != in.rank() - 1)
      return shapeError(c, "Shape must be rank " + std::to_string(in.rank() - 1) + " but is rank " +
                               std::to_string(dg.rank()), {1});
    std::vector<Dim> want(in.dims().begin(), in.dims().end() - 2);
    want.push_back(minDim(in[static_cast<size_t>(in.rank() - 2)], in[static_cast<size_t>(in.rank() - 1)]));
    for (size_t i = 0; i < want.size(); ++i)
      if (want[i].conflicts(dg[i]))
        return shapeError(c, "Dimensions must be equal, but are " + want[i].str() + " and " + dg[i].str(), {0, 1});
  }
  return ShapeResult::single(dt, in);
}

}  // namespace

void registerMatrixDiagOps(OpRegistry& r) {
  OpBuilder(r, "MatrixBandPart").cpuOnly("index loops on the host (no GPU kernel yet)").hostInput(1).hostInput(2)
      .api("tf.linalg.band_part").api("tf.matrix_band_part")
      .input("input").input("num_lower").input("num_upper")
      .doc("Zeros outside a band of each innermost matrix: num_lower subdiagonals, num_upper superdiagonals (< 0: all).")
      .shape([](const InferContext& c) {
        if (auto e = checkRankAtLeast(c, 0, 2)) return *e;
        if (auto e = checkRank(c, 1, 0)) return *e;
        if (auto e = checkRank(c, 2, 0)) return *e;
        if (auto e = checkIndexDType(c, 1, "Tindex")) return *e;
        if (auto e = checkSameDType(c, {1, 2})) return *e;
        return ShapeResult::single(c.dtype(0), c.shape(0));
      })
      .grad([](GradContext& g) {
        return std::vector<Output>{g.graph.op("MatrixBandPart", {g.dys[0], g.input(1), g.input(2)}), {}, {}};
      });

  OpBuilder(r, "MatrixDiag").cpuOnly("index loops on the host (no GPU kernel yet)")
      .api("tf.linalg.diag").api("tf.matrix_diag")
      .input("diagonal")
      .doc("Square matrices with the innermost dim as their diagonal: [..., N] -> [..., N, N].")
      .shape(diagShape)
      .grad([](GradContext& g) { return std::vector<Output>{g.graph.op("MatrixDiagPart", {g.dys[0]})}; });

  OpBuilder(r, "MatrixDiagPart").cpuOnly("index loops on the host (no GPU kernel yet)")
      .api("tf.linalg.diag_part").api("tf.matrix_diag_part")
      .input("input")
      .doc("The main diagonal of each innermost matrix: [..., M, N] -> [..., min(M, N)].")
      .shape(diagPartShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{G.op("MatrixSetDiag", {G.op("ZerosLike", {g.input(0)}), g.dys[0]})};
      });

  OpBuilder(r, "MatrixSetDiag").cpuOnly("index loops on the host (no GPU kernel yet)")
      .api("tf.linalg.set_diag").api("tf.matrix_set_diag")
      .input("input").input("diagonal")
      .doc("A copy of input with the main diagonal of each innermost matrix replaced.")
      .shape(setDiagShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dIn = G.op("MatrixSetDiag", {g.dys[0], G.op("ZerosLike", {g.input(1)})});
        return std::vector<Output>{dIn, G.op("MatrixDiagPart", {g.dys[0]})};
      });

  OpBuilder(r, "Atan2")
      .api("tf.atan2").api("tf.math.atan2")
      .input("y").input("x")
      .doc("The angle of (x, y) in (-pi, pi], elementwise with numpy broadcasting.")
      .shape([](const InferContext& c) {
        if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
        return broadcastBinary(c);
      })
      .grad([](GradContext& g) {
        // d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2)
        Graph& G = g.graph;
        Output y = g.input(0), x = g.input(1);
        Output inv = ops::div(G, g.dys[0], ops::add(G, ops::square(G, x), ops::square(G, y)));
        return std::vector<Output>{ops::unbroadcast(G, ops::mul(G, x, inv), y),
                                   ops::unbroadcast(G, ops::neg(G, ops::mul(G, y, inv)), x)};
      });

  OpBuilder(r, "Bincount").hostInput(1).cpuOnly("a histogram on the host (no GPU kernel yet)")
      .input("arr").input("size").input("weights")
      .notDifferentiable()
      .doc("Counts (or sums of weights) of each value in [0, size) of arr (tf.math.bincount).")
      .shape([](const InferContext& c) {
        if (auto e = checkDType(c, 0, {DType::Int32})) return *e;
        if (auto e = checkDType(c, 1, {DType::Int32})) return *e;
        if (auto e = checkDType(c, 2, {DType::Int32, DType::Int64, DType::Float32, DType::Float64})) return *e;
        if (auto e = checkRank(c, 1, 0)) return *e;
        auto n = intScalar(c, 1);
        if (n && *n < 0) return shapeError(c, "size (" + std::to_string(*n) + ") must be non-negative", {1});
        // Empty weights mean none; others weigh arr's elements one to one.
        const Shape& a = c.shape(0);
        const Shape& w = c.shape(2);
        if (a.rankKnown() && w.rankKnown() && w.numElements().value_or(0) > 0) {
          bool differ = a.rank() != w.rank();
          for (size_t i = 0; !differ && i < a.dims().size(); ++i) differ = a[i].conflicts(w[i]);
          if (differ)
            return shapeError(c, "Input arr and weights must have the same shape: arr: " + a.str() + ", weights: " +
                                     w.str(), {0, 2});
        }
        return ShapeResult::single(c.dtype(2), Shape{n ? Dim::known(*n) : Dim::unknown()});
      });
}

}  // namespace tlens
