// Matrix decompositions and solves (batched over leading dims), for np.linalg: Cholesky,
// MatrixSolve, Qr, Svd and SelfAdjointEigV2, with TensorFlow's names, inputs, attrs and output
// layouts (Svd returns v, not v^H), and RealEig (tensorlens' own: a general real matrix's
// eigenvalues as real and imaginary parts, and the real parts of its unit eigenvectors, as the
// engine has no complex dtype). float32 / float64. CPU only (Eigen on the host); MatrixSolve has
// a gradient, the decompositions are not differentiable here.
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

constexpr const char* kWhy = "Eigen's decompositions on the host (no GPU kernel yet)";

/// Input `i` must be a float32/float64 [..., M, N] (M == N when `square`); sets batch, m, n.
std::optional<ShapeResult> checkMatrix(const InferContext& c, size_t i, bool square, std::vector<Dim>* batch, Dim* m,
                                       Dim* n) {
  if (auto e = checkDType(c, i, {DType::Float32, DType::Float64})) return *e;
  const Shape& s = c.shape(i);
  *m = *n = Dim::unknown();
  if (!s.rankKnown()) return std::nullopt;
  if (s.rank() < 2)
    return shapeError(c, "Shape must be at least rank 2 but is rank " + std::to_string(s.rank()), {static_cast<int>(i)});
  *m = s[static_cast<size_t>(s.rank() - 2)];
  *n = s[static_cast<size_t>(s.rank() - 1)];
  if (square && m->conflicts(*n))
    return shapeError(c, "Dimensions must be equal, but are " + m->str() + " and " + n->str(), {static_cast<int>(i)});
  for (int k = 0; k + 2 < s.rank(); ++k) batch->push_back(s[static_cast<size_t>(k)]);
  return std::nullopt;
}

Shape withTail(std::vector<Dim> batch, std::initializer_list<Dim> tail) {
  for (const Dim& d : tail) batch.push_back(d);
  return Shape(std::move(batch));
}

/// min(m, n) where both are known.
Dim minDim(const Dim& m, const Dim& n) {
  if (m.isKnown() && n.isKnown()) return Dim::known(std::min(m.size, n.size));
  return Dim::unknown();
}

ShapeResult choleskyShape(const InferContext& c) {
  std::vector<Dim> b;
  Dim m, n;
  if (auto e = checkMatrix(c, 0, true, &b, &m, &n)) return *e;
  return ShapeResult::single(c.dtype(0), c.shape(0));
}

ShapeResult solveShape(const InferContext& c) {
  std::vector<Dim> b, rb;
  Dim m, n, rm, rn;
  if (auto e = checkMatrix(c, 0, true, &b, &m, &n)) return *e;
  if (auto e = checkMatrix(c, 1, false, &rb, &rm, &rn)) return *e;
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (m.conflicts(rm))
    return shapeError(c, "Dimensions must be equal, but are " + m.str() + " and " + rm.str(), {0, 1});
  return ShapeResult::single(c.dtype(0), c.shape(1));
}

ShapeResult qrShape(const InferContext& c) {
  std::vector<Dim> b;
  Dim m, n;
  if (auto e = checkMatrix(c, 0, false, &b, &m, &n)) return *e;
  ShapeResult r;
  if (!c.shape(0).rankKnown()) {
    r.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    r.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    return r;
  }
  const bool full = c.getBool("full_matrices", false);
  Dim k = full ? m : minDim(m, n);
  r.outputs.emplace_back(c.dtype(0), withTail(b, {m, k}));
  r.outputs.emplace_back(c.dtype(0), withTail(b, {k, n}));
  return r;
}

ShapeResult svdShape(const InferContext& c) {
  std::vector<Dim> b;
  Dim m, n;
  if (auto e = checkMatrix(c, 0, false, &b, &m, &n)) return *e;
  ShapeResult r;
  if (!c.shape(0).rankKnown()) {
    for (int i = 0; i < 3; ++i) r.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    return r;
  }
  const bool uv = c.getBool("compute_uv", true), full = c.getBool("full_matrices", false);
  Dim k = minDim(m, n);
  r.outputs.emplace_back(c.dtype(0), withTail(b, {k}));
  r.outputs.emplace_back(c.dtype(0), uv ? withTail(b, {m, full ? m : k}) : Shape{Dim::known(0)});
  r.outputs.emplace_back(c.dtype(0), uv ? withTail(b, {n, full ? n : k}) : Shape{Dim::known(0)});
  return r;
}

ShapeResult eighShape(const InferContext& c) {
  std::vector<Dim> b;
  Dim m, n;
  if (auto e = checkMatrix(c, 0, true, &b, &m, &n)) return *e;
  ShapeResult r;
  if (!c.shape(0).rankKnown()) {
    r.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    r.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    return r;
  }
  Dim k = m.isKnown() ? m : n;
  const bool v = c.getBool("compute_v", true);
  r.outputs.emplace_back(c.dtype(0), withTail(b, {k}));
  r.outputs.emplace_back(c.dtype(0), v ? withTail(b, {k, k}) : Shape{Dim::known(0)});
  return r;
}

ShapeResult realEigShape(const InferContext& c) {
  std::vector<Dim> b;
  Dim m, n;
  if (auto e = checkMatrix(c, 0, true, &b, &m, &n)) return *e;
  ShapeResult r;
  if (!c.shape(0).rankKnown()) {
    for (int i = 0; i < 3; ++i) r.outputs.emplace_back(c.dtype(0), Shape::unknownRank());
    return r;
  }
  Dim k = m.isKnown() ? m : n;
  r.outputs.emplace_back(c.dtype(0), withTail(b, {k}));
  r.outputs.emplace_back(c.dtype(0), withTail(b, {k}));
  r.outputs.emplace_back(c.dtype(0), withTail(b, {k, k}));
  return r;
}

}  // namespace

void registerLinalgDecompOps(OpRegistry& r) {
  OpBuilder(r, "Cholesky").cpuOnly(kWhy)
      .input("input")
      .doc("The lower Cholesky factor L (A = L L^T) of each symmetric positive definite matrix (reads the lower "
           "triangle); an error when one is not positive definite.")
      .shape(choleskyShape)
      .notDifferentiable();

  OpBuilder(r, "MatrixSolve").cpuOnly(kWhy)
      .input("matrix")
      .input("rhs")
      .attr("adjoint", false, "solve with the matrices' transposes")
      .doc("X with matrix X = rhs (pivoted LU), for each matrix of the batch; an error when one is singular.")
      .shape(solveShape)
      .grad([](GradContext& g) {
        // X = A^-1 B: dB = A^-T dX, dA = -dB X^T (adjoint: dA = -X dB^T).
        Graph& G = g.graph;
        const bool adj = AttrReader(g.node.attrs).getBool("adjoint", false);
        Output db = G.op("MatrixSolve", {g.input(0), g.dys[0]}, {{"adjoint", !adj}});
        Output x = g.output(0);
        Output da = adj ? G.op("BatchMatMulV2", {x, db}, {{"adj_x", false}, {"adj_y", true}})
                        : G.op("BatchMatMulV2", {db, x}, {{"adj_x", false}, {"adj_y", true}});
        return std::vector<Output>{G.op("Neg", {da}), db};
      });

  OpBuilder(r, "Qr").cpuOnly(kWhy)
      .input("input")
      .attr("full_matrices", false, "q is [M, M] and r [M, N] instead of [M, K] and [K, N], K = min(M, N)")
      .doc("The Householder QR decomposition of each matrix: q orthonormal, r upper triangular.")
      .shape(qrShape)
      .notDifferentiable();

  OpBuilder(r, "Svd").cpuOnly(kWhy)
      .input("input")
      .attr("compute_uv", true, "also compute u and v (else they are empty)")
      .attr("full_matrices", false, "u is [M, M] and v [N, N] instead of [M, K] and [N, K]")
      .doc("The singular values (descending) of each matrix, and u and v with A = u diag(s) v^T.")
      .shape(svdShape)
      .notDifferentiable();

  OpBuilder(r, "SelfAdjointEigV2").cpuOnly(kWhy)
      .input("input")
      .attr("compute_v", true, "also compute the eigenvectors (else v is empty)")
      .doc("The eigenvalues (ascending) and eigenvectors (columns) of each symmetric matrix, from its lower "
           "triangle.")
      .shape(eighShape)
      .notDifferentiable();

  OpBuilder(r, "RealEig").cpuOnly(kWhy)
      .input("input")
      .doc("The eigenvalues of each square real matrix as real and imaginary parts (in the order of its real Schur "
           "form), and the real parts of the unit-norm eigenvectors (columns).")
      .shape(realEigShape)
      .notDifferentiable();
}

}  // namespace tlens
