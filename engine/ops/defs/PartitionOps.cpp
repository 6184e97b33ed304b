// DynamicPartition (tf.dynamic_partition) and DynamicStitch (tf.dynamic_stitch), with
// data_flow_grad.py's gradients. DynamicStitch's two lists (indices, then data) travel as one
// input list of 2N tensors; attribute N says where the data start.
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

/// An error unless `prefix` (input pi) is a prefix of `s` (input si).
std::optional<ShapeResult> checkPrefix(const InferContext& c, size_t si, size_t pi) {
  const Shape& s = c.shape(si);
  const Shape& p = c.shape(pi);
  if (!s.rankKnown() || !p.rankKnown()) return std::nullopt;
  if (s.rank() < p.rank())
    return shapeError(c, "Shape must be at least rank " + std::to_string(p.rank()) + " but is rank " +
                             std::to_string(s.rank()), {static_cast<int>(si), static_cast<int>(pi)});
  for (int i = 0; i < p.rank(); ++i)
    if (s[static_cast<size_t>(i)].conflicts(p[static_cast<size_t>(i)]))
      return shapeError(c, "Dimensions must be equal, but are " + s[static_cast<size_t>(i)].str() + " and " +
                               p[static_cast<size_t>(i)].str(), {static_cast<int>(si), static_cast<int>(pi)});
  return std::nullopt;
}

ShapeResult partitionShape(const InferContext& c) {
  const int64_t n = c.getInt("num_partitions", 0);
  if (n < 1) return shapeError(c, "Value for attr 'num_partitions' of " + std::to_string(n) + " must be at least minimum 1");
  if (auto e = checkDType(c, 1, {DType::Int32})) return *e;
  if (auto e = checkPrefix(c, 0, 1)) return *e;
  const Shape& d = c.shape(0);
  const Shape& p = c.shape(1);
  Shape out = Shape::unknownRank();
  if (d.rankKnown() && p.rankKnown()) {
    std::vector<Dim> dims{Dim::unknown()};
    dims.insert(dims.end(), d.dims().begin() + p.rank(), d.dims().end());
    out = Shape(std::move(dims));
  }
  ShapeResult r;
  for (int64_t i = 0; i < n; ++i) r.outputs.emplace_back(c.dtype(0), out);
  return r;
}

ShapeResult stitchShape(const InferContext& c) {
  const size_t n = static_cast<size_t>(c.getInt("N", static_cast<int64_t>(c.numInputs() / 2)));
  if (n < 1 || c.numInputs() != 2 * n)
    return shapeError(c, "Expected " + std::to_string(n) + " indices and " + std::to_string(n) + " data tensors, got " +
                             std::to_string(c.numInputs()) + " inputs");
  for (size_t i = 0; i < n; ++i)
    if (auto e = checkDType(c, i, {DType::Int32})) return *e;
  if (auto e = checkListDType(c, n, n, "data")) return *e;
  Shape rest = Shape::unknownRank();
  int64_t maxIndex = -1;
  bool allKnown = true;
  for (size_t i = 0; i < n; ++i) {
    if (auto e = checkPrefix(c, n + i, i)) return *e;
    const Shape& d = c.shape(n + i);
    const Shape& ix = c.shape(i);
    if (d.rankKnown() && ix.rankKnown()) {
      Shape r(std::vector<Dim>(d.dims().begin() + ix.rank(), d.dims().end()));
      if (!rest.compatible(r))
        return shapeError(c, "Shapes must be equal rank and compatible, but are " + tfShapeStr(rest) + " and " +
                                 tfShapeStr(r), {static_cast<int>(n), static_cast<int>(n + i)});
      rest = rest.merge(r);
    }
    if (auto v = intValues(c, i)) {
      for (int64_t x : *v) maxIndex = std::max(maxIndex, x);
    } else {
      allKnown = false;
    }
  }
  if (!rest.rankKnown()) return ShapeResult::single(listDType(c, n, n), Shape::unknownRank());
  std::vector<Dim> dims{allKnown ? Dim::known(maxIndex + 1) : Dim::unknown()};
  dims.insert(dims.end(), rest.dims().begin(), rest.dims().end());
  return ShapeResult::single(listDType(c, n, n), Shape(std::move(dims)));
}

}  // namespace

void registerPartitionOps(OpRegistry& r) {
  OpBuilder(r, "DynamicPartition").strings(OpDef::Strings::ByIndex).cpuOnly("data-dependent output sizes, computed on the host")
      .api("tf.dynamic_partition").api("tf.compat.v1.dynamic_partition")
      .input("data")
      .input("partitions")
      .attr("num_partitions", {}, "number of outputs")
      .doc("Splits data into num_partitions tensors by the partition index of each slice.")
      .shape(partitionShape)
      .grad([](GradContext& g) {
        // Stitch the outputs' gradients back to where each slice came from.
        Graph& G = g.graph;
        const int64_t n = AttrReader(g.node.attrs).getInt("num_partitions", 1);
        Output p = g.input(1);
        Output ps = shapeOf(G, p);
        Output count = G.op("Prod", {ps}, {{"axis", std::vector<int64_t>{0}}, {"keep_dims", false}});
        Output original = G.op("Reshape", {G.op("Range", {ops::constant(G, Tensor::scalar<int32_t>(0)), count,
                                                          ops::constant(G, Tensor::scalar<int32_t>(1))}),
                                           ps});
        Output parts = G.op("DynamicPartition", {original, p}, {{"num_partitions", n}});
        std::vector<Output> in;
        for (int64_t i = 0; i < n; ++i) in.push_back(Output{parts.node, static_cast<int>(i)});
        for (int64_t i = 0; i < n; ++i) {
          Output dy = g.dys[static_cast<size_t>(i)];
          in.push_back(dy ? dy : G.op("ZerosLike", {g.output(static_cast<size_t>(i))}));
        }
        Output stitched = G.op("DynamicStitch", in, {{"N", n}});
        return std::vector<Output>{G.op("Reshape", {stitched, shapeOf(G, g.input(0))}), {}};
      });

  OpBuilder(r, "DynamicStitch").strings(OpDef::Strings::ByIndex).cpuOnly("data-dependent output sizes, computed on the host")
      .api("tf.dynamic_stitch").api("tf.compat.v1.dynamic_stitch")
      .inputList("indices_then_data")
      .attr("N", {}, "the number of index tensors (and of data tensors)")
      .doc("Merges the slices of data[i] into one tensor at positions indices[i] (later ones win).")
      .shape(stitchShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        const size_t n = g.node.inputs.size() / 2;
        std::vector<Output> out(n);
        for (size_t i = 0; i < n; ++i)
          out.push_back(G.op("GatherV2", {g.dys[0], g.input(i), ops::constant(G, Tensor::scalar<int32_t>(0))}));
        return out;
      });
}

}  // namespace tlens
