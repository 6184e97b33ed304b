// Linear algebra on square matrices (batched over leading dims): MatrixDeterminant
// (tf.linalg.det, tf.matrix_determinant) and MatrixInverse (tf.linalg.inv, tf.matrix_inverse).
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

// The input must be [..., M, M] of float32/float64; returns its batch dims via `batch`.
std::optional<ShapeResult> checkSquare(const InferContext& c, const char* op, std::vector<Dim>* batch) {
  if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::Float32 && c.dtype(0) != DType::Float64)
    return shapeError(c, "Value for attr 'T' of " + std::string(dtypeName(c.dtype(0))) + " is not in the list of allowed "
                         "values: double, float for '" + std::string(op) + "'", {0});
  const Shape& s = c.shape(0);
  if (!s.rankKnown()) return std::nullopt;
  if (s.rank() < 2) return shapeError(c, "Shape must be at least rank 2 but is rank " + std::to_string(s.rank()), {0});
  const Dim& m = s[static_cast<size_t>(s.rank() - 2)];
  const Dim& n = s[static_cast<size_t>(s.rank() - 1)];
  if (m.conflicts(n))
    return shapeError(c, "Dimensions must be equal, but are " + m.str() + " and " + n.str(), {0});
  for (int i = 0; i + 2 < s.rank(); ++i) batch->push_back(s[static_cast<size_t>(i)]);
  return std::nullopt;
}

}  // namespace

void registerLinalgOps(OpRegistry& r) {
  OpBuilder(r, "MatrixDeterminant").cpuOnly("LU decomposition on the host (no GPU kernel yet)")
      .api("tf.linalg.det").api("tf.matrix_determinant")
      .input("input")
      .doc("The determinant of each square matrix in the innermost two dims.")
      .shape([](const InferContext& c) {
        std::vector<Dim> batch;
        if (auto err = checkSquare(c, "MatrixDeterminant", &batch)) return *err;
        if (!c.shape(0).rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
        return ShapeResult::single(c.dtype(0), Shape(std::move(batch)));
      })
      .grad([](GradContext& g) {
        // d det(A) / dA = det(A) * inv(A)^T
        Output det = g.output(0), inv = g.graph.op("MatrixInverse", {g.input(0)}, {{"adjoint", true}});
        Output scale = g.graph.op("ExpandDims", {g.graph.op("ExpandDims", {g.graph.op("Mul", {g.dys[0], det}),
                                                                           ops::constant(g.graph, Tensor::scalar<int32_t>(-1))}),
                                                 ops::constant(g.graph, Tensor::scalar<int32_t>(-1))});
        return std::vector<Output>{g.graph.op("Mul", {scale, inv})};
      });

  OpBuilder(r, "MatrixInverse").cpuOnly("LU decomposition on the host (no GPU kernel yet)")
      .api("tf.linalg.inv").api("tf.matrix_inverse")
      .input("input")
      .attr("adjoint", false, "invert the (conjugate) transpose instead")
      .doc("The inverse of each square matrix in the innermost two dims.")
      .shape([](const InferContext& c) {
        std::vector<Dim> batch;
        if (auto err = checkSquare(c, "MatrixInverse", &batch)) return *err;
        return ShapeResult::single(c.dtype(0), c.shape(0));
      })
      .grad([](GradContext& g) {
        // Y = inv(A): dA = -Y^T dY Y^T. adjoint (Y = inv(A)^T): dA = -Y dY^T Y.
        AttrReader a(g.node.attrs);
        const bool adj = a.getBool("adjoint", false);
        Output y = g.output(0);
        Output t = adj ? g.graph.op("BatchMatMulV2", {y, g.dys[0]}, {{"adj_x", false}, {"adj_y", true}})
                       : g.graph.op("BatchMatMulV2", {y, g.dys[0]}, {{"adj_x", true}, {"adj_y", false}});
        Output dx = g.graph.op("BatchMatMulV2", {t, y}, {{"adj_x", false}, {"adj_y", !adj}});
        return std::vector<Output>{g.graph.op("Neg", {dx})};
      });
}

}  // namespace tlens
