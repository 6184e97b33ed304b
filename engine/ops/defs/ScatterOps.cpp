// Gathers and scatters by index tuples: GatherNd (tf.gather_nd), ScatterNd (tf.scatter_nd),
// TensorScatterUpdate / TensorScatterAdd (tf.tensor_scatter_nd_update / _add), and the TF1
// variable updates ScatterUpdate / ScatterAdd / ScatterSub (tf.scatter_update(ref, indices,
// updates): rows of a variable, in place).
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

/// Dims [b, e) of a known-rank shape (e clamped to the rank).
Shape sub(const Shape& s, int64_t b, int64_t e = -1) {
  const int64_t r = s.rank();
  if (e < 0 || e > r) e = r;
  if (b > e) b = e;
  return Shape(std::vector<Dim>(s.dims().begin() + b, s.dims().begin() + e));
}

/// TensorFlow's InferenceContext::Merge message, or empty when the shapes merge.
std::string mergeError(const Shape& a, const Shape& b) {
  if (!a.rankKnown() || !b.rankKnown()) return {};
  if (a.rank() != b.rank())
    return "Shapes must be equal rank, but are " + std::to_string(a.rank()) + " and " + std::to_string(b.rank());
  for (int i = 0; i < a.rank(); ++i)
    if (a[static_cast<size_t>(i)].conflicts(b[static_cast<size_t>(i)]))
      return "Dimension " + std::to_string(i) + " in both shapes must be equal, but are " +
             std::to_string(a[static_cast<size_t>(i)].size) + " and " + std::to_string(b[static_cast<size_t>(i)].size) +
             ". Shapes are " + tfShapeStr(a) + " and " + tfShapeStr(b) + ".";
  return {};
}

ShapeResult gatherNdShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkRankAtLeast(c, 0, 1)) return *e;
  if (auto e = checkRankAtLeast(c, 1, 1)) return *e;
  const Shape& params = c.shape(0);
  const Shape& ind = c.shape(1);
  if (!params.rankKnown() || !ind.rankKnown() || !ind[static_cast<size_t>(ind.rank() - 1)].isKnown())
    return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  const int64_t r = ind[static_cast<size_t>(ind.rank() - 1)].size;
  if (r > params.rank())
    return shapeError(c, "indices.shape[-1] must be <= params.rank, but saw indices shape: " + tfShapeStr(ind) +
                             " and params shape: " + tfShapeStr(params), {0, 1});
  std::vector<Dim> out = sub(ind, 0, ind.rank() - 1).dims();
  const Shape rest = sub(params, r);
  for (const Dim& d : rest.dims()) out.push_back(d);
  return ShapeResult::single(c.dtype(0), Shape(std::move(out)));
}

/// ScatterNdShapeHelper: indices [..., ix] and updates must fit `out` (the scattered-into shape).
std::optional<ShapeResult> checkScatterNd(const InferContext& c, const Shape& out, int ii, int ui) {
  const Shape& ind = c.shape(static_cast<size_t>(ii));
  const Shape& upd = c.shape(static_cast<size_t>(ui));
  if (!ind.rankKnown() || !upd.rankKnown() || !out.rankKnown()) return std::nullopt;
  const int64_t outer = ind.rank() - 1;
  const Dim ix = ind[static_cast<size_t>(outer)];
  if (!ix.isKnown()) return std::nullopt;
  if (ix.size > out.rank())
    return shapeError(c, "Index dimension " + std::to_string(ix.size) + " is greater than the rank " +
                             std::to_string(out.rank()) + " of the output", {ii});
  const Shape pi = sub(ind, 0, outer), pu = sub(upd, 0, outer);
  if (upd.rank() < outer || !mergeError(pi, pu).empty())
    return shapeError(c, "Dimensions [0," + std::to_string(outer) + ") of indices[shape=" + tfShapeStr(ind) +
                             "] = " + tfShapeStr(pi) + " must match dimensions [0," + std::to_string(outer) +
                             ") of updates[shape=" + tfShapeStr(upd) + "] = " + tfShapeStr(pu) + ": " +
                             mergeError(pi, pu), {ii, ui});
  const Shape so = sub(out, ix.size), su = sub(upd, outer);
  if (std::string m = mergeError(so, su); !m.empty())
    return shapeError(c, "Dimensions [" + std::to_string(ix.size) + "," + std::to_string(out.rank()) +
                             ") of input[shape=" + tfShapeStr(out) + "] = " + tfShapeStr(so) +
                             " must match dimensions [" + std::to_string(outer) + "," + std::to_string(upd.rank()) +
                             ") of updates[shape=" + tfShapeStr(upd) + "] = " + tfShapeStr(su) + ": " + m, {ii, ui});
  return std::nullopt;
}

ShapeResult scatterNdShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 0, "Tindices")) return *e;
  if (auto e = checkIndexDType(c, 2, "Tindices")) return *e;
  if (auto e = checkRankAtLeast(c, 0, 1)) return *e;
  if (auto e = checkRank(c, 2, 1)) return *e;
  if (auto e = checkSameDType(c, {0, 2})) return *e;
  Shape out = c.valueAsShape(2);
  if (auto v = intValues(c, 2))
    for (int64_t d : *v)
      if (d < 0) return shapeError(c, "Dimension " + std::to_string(d) + " must be >= 0", {2});
  if (auto e = checkScatterNd(c, out, 0, 1)) return *e;
  if (out.rankKnown()) {
    std::vector<Dim> d = out.dims();
    for (Dim& x : d)
      if (x.isMinusOne()) x = Dim::unknown();
    out = Shape(std::move(d));
  }
  return ShapeResult::single(c.dtype(1), out);
}

ShapeResult tensorScatterShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkSameDType(c, {0, 2})) return *e;
  if (auto e = checkRankAtLeast(c, 1, 1)) return *e;
  if (auto e = checkScatterNd(c, c.shape(0), 1, 2)) return *e;
  return ShapeResult::single(commonDType(c, {0, 2}), c.shape(0));
}

/// ScatterUpdate / ScatterAdd / ScatterSub: updates are indices.shape + ref.shape[1:] (or a scalar).
ShapeResult scatterRefShape(const InferContext& c) {
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkSameDType(c, {0, 2})) return *e;
  const Shape& var = c.shape(0);
  const Shape& ind = c.shape(1);
  const Shape& upd = c.shape(2);
  if (var.rankKnown() && var.rank() == 0) return shapeError(c, "Shape must be at least rank 1 but is rank 0", {0});
  if (var.rankKnown() && ind.rankKnown() && upd.rankKnown() && upd.rank() != 0) {
    std::vector<Dim> d = ind.dims();
    const Shape rows = sub(var, 1);
    for (const Dim& x : rows.dims()) d.push_back(x);
    if (std::string m = mergeError(upd, Shape(d)); !m.empty()) return shapeError(c, m, {0, 1, 2});
  }
  return ShapeResult::single(commonDType(c, {0, 2}), var);
}

void scatterRef(OpRegistry& r, const char* type, const char* api, const char* what) {
  OpBuilder(r, type).cpuOnly("in-place row updates on the host (no GPU kernel yet)")
      .api(std::string("tf.") + api).api(std::string("tf.compat.v1.") + api)
      .input("ref")
      .input("indices")
      .input("updates")
      .refInput(0)
      .attr("use_locking", true)
      .notDifferentiable()
      .doc(what)
      .shape(scatterRefShape);
}

}  // namespace

void registerScatterOps(OpRegistry& r) {
  OpBuilder(r, "GatherNd").strings(OpDef::Strings::ByIndex).cpuOnly("an index walk on the host (no GPU kernel yet)")
      .api("tf.gather_nd").api("tf.compat.v1.gather_nd")
      .input("params")
      .input("indices")
      .doc("Slices of params at the index tuples in the last dim of indices.")
      .shape(gatherNdShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        const DType it = g.input(1).type().dtype == DType::Int64 ? DType::Int64 : DType::Int32;
        Output dx = G.op("ScatterNd", {g.input(1), g.dys[0], shapeOf(G, g.input(0), it)});
        return std::vector<Output>{dx, {}};
      });

  OpBuilder(r, "ScatterNd").hostInput(2).cpuOnly("an index walk on the host (no GPU kernel yet)")
      .api("tf.scatter_nd").api("tf.compat.v1.scatter_nd")
      .input("indices")
      .input("updates")
      .input("shape")
      .doc("Zeros of `shape` with updates added at the index tuples (duplicates sum).")
      .shape(scatterNdShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{{}, g.graph.op("GatherNd", {g.dys[0], g.input(0)}), {}};
      });

  OpBuilder(r, "TensorScatterUpdate").cpuOnly("an index walk on the host (no GPU kernel yet)")
      .api("tf.tensor_scatter_nd_update").api("tf.tensor_scatter_update")
      .input("tensor")
      .input("indices")
      .input("updates")
      .doc("A copy of tensor with the slices at the index tuples replaced by updates.")
      .shape(tensorScatterShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dt = G.op("TensorScatterUpdate", {g.dys[0], g.input(1), G.op("ZerosLike", {g.input(2)})});
        return std::vector<Output>{dt, {}, G.op("GatherNd", {g.dys[0], g.input(1)})};
      });

  OpBuilder(r, "TensorScatterAdd").cpuOnly("an index walk on the host (no GPU kernel yet)")
      .api("tf.tensor_scatter_nd_add").api("tf.tensor_scatter_add")
      .input("tensor")
      .input("indices")
      .input("updates")
      .doc("A copy of tensor with updates added to the slices at the index tuples.")
      .shape(tensorScatterShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{g.dys[0], {}, g.graph.op("GatherNd", {g.dys[0], g.input(1)})};
      });

  scatterRef(r, "ScatterUpdate", "scatter_update", "Sets rows `indices` of a variable to updates; returns the variable.");
  scatterRef(r, "ScatterAdd", "scatter_add", "Adds updates to rows `indices` of a variable; returns the variable.");
  scatterRef(r, "ScatterSub", "scatter_sub", "Subtracts updates from rows `indices` of a variable; returns the variable.");
}

}  // namespace tlens
