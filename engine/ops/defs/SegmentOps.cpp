// Reductions over segments of the first dims: UnsortedSegmentSum (tf.math.unsorted_segment_sum)
// and the sorted SegmentSum / SegmentMean / SegmentMax (tf.math.segment_*), with TensorFlow's
// gradients (math_grad.py).
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

const std::initializer_list<DType> kReal = {DType::Float32, DType::Float64, DType::Float16,
                                            DType::Int32,   DType::Int64,   DType::UInt8};

ShapeResult unsortedSegmentShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, kReal)) return *e;
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkIndexDType(c, 2, "Tnumsegments")) return *e;
  if (auto e = checkRank(c, 2, 0)) return *e;
  auto n = intScalar(c, 2);
  if (n && *n < 0) return shapeError(c, "num_segments must be >= 0, got " + std::to_string(*n), {2});
  const Shape& data = c.shape(0);
  const Shape& ids = c.shape(1);
  if (!ids.rankKnown() || !data.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  if (data.rank() < ids.rank())
    return shapeError(c, "Shape must be at least rank " + std::to_string(ids.rank()) + " but is rank " +
                             std::to_string(data.rank()), {0, 1});
  for (int i = 0; i < ids.rank(); ++i)
    if (data[static_cast<size_t>(i)].conflicts(ids[static_cast<size_t>(i)]))
      return shapeError(c, "Dimensions must be equal, but are " + data[static_cast<size_t>(i)].str() + " and " +
                               ids[static_cast<size_t>(i)].str(), {0, 1});
  std::vector<Dim> out{n ? Dim::known(*n) : Dim::unknown()};
  out.insert(out.end(), data.dims().begin() + ids.rank(), data.dims().end());
  return ShapeResult::single(c.dtype(0), Shape(std::move(out)));
}

ShapeResult segmentShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, kReal)) return *e;
  if (auto e = checkIndexDType(c, 1, "Tindices")) return *e;
  if (auto e = checkRankAtLeast(c, 0, 1)) return *e;
  if (auto e = checkRank(c, 1, 1)) return *e;
  const Shape& data = c.shape(0);
  if (data.rankKnown() && c.shape(1).rankKnown() && data[0].conflicts(c.shape(1)[0]))
    return shapeError(c, "Dimensions must be equal, but are " + data[0].str() + " and " + c.shape(1)[0].str(), {0, 1});
  if (!data.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  std::vector<Dim> out{Dim::unknown()};
  // Known ids (a constant) give the number of segments: the last id + 1.
  if (auto v = intValues(c, 1); v && !v->empty() && v->back() >= 0) out[0] = Dim::known(v->back() + 1);
  out.insert(out.end(), data.dims().begin() + 1, data.dims().end());
  return ShapeResult::single(c.dtype(0), Shape(std::move(out)));
}

Output gather0(Graph& G, Output x, Output ids) {
  return G.op("GatherV2", {x, ids, ops::constant(G, Tensor::scalar<int32_t>(0))});
}

}  // namespace

void registerSegmentOps(OpRegistry& r) {
  OpBuilder(r, "UnsortedSegmentSum").hostInput(2).cpuOnly("a scatter-add on the host (no GPU kernel yet)")
      .api("tf.math.unsorted_segment_sum").api("tf.unsorted_segment_sum")
      .input("data")
      .input("segment_ids")
      .input("num_segments")
      .doc("Sums of the slices of data with each segment id (ids in any order; negative ids dropped).")
      .shape(unsortedSegmentShape)
      .grad([](GradContext& g) {
        // Each input slice gets its segment's gradient (a negative id: zero, as TF's _GatherDropNegatives).
        Graph& G = g.graph;
        Output ids = g.input(1);
        Output zero = G.op("ZerosLike", {ids});
        Output safe = G.op("Maximum", {ids, zero});
        Output gathered = gather0(G, g.dys[0], safe);
        Output keep = G.op("GreaterEqual", {ids, zero});
        // keep [ids...] reshaped to ids' shape + ones, to broadcast against [ids..., rest...].
        const Shape& ds = g.input(0).type().shape;
        const Shape& is = ids.type().shape;
        if (!ds.rankKnown() || !is.rankKnown()) return std::vector<Output>{gathered, {}, {}};
        const DType dt = gathered.type().dtype;
        Output shape = G.op("ConcatV2", {shapeOf(G, ids), constInts(G, std::vector<int64_t>(
                                             static_cast<size_t>(std::max(0, ds.rank() - is.rank())), 1)),
                                         ops::constant(G, Tensor::scalar<int32_t>(0))});
        Output mask = G.op("Reshape", {G.op("Cast", {keep}, {{"DstT", dt}}), shape});
        return std::vector<Output>{G.op("Mul", {gathered, mask}), {}, {}};
      });

  OpBuilder(r, "SegmentSum").cpuOnly("a sorted reduction on the host (no GPU kernel yet)")
      .api("tf.math.segment_sum").api("tf.segment_sum")
      .input("data")
      .input("segment_ids")
      .doc("Sums of the slices of data with each (sorted) segment id; empty segments are 0.")
      .shape(segmentShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{gather0(g.graph, g.dys[0], g.input(1)), {}};
      });

  OpBuilder(r, "SegmentMean").cpuOnly("a sorted reduction on the host (no GPU kernel yet)")
      .api("tf.math.segment_mean").api("tf.segment_mean")
      .input("data")
      .input("segment_ids")
      .doc("Means of the slices of data with each (sorted) segment id; empty segments are 0.")
      .shape(segmentShape)
      .grad([](GradContext& g) {
        // dy / count, per segment, back to each slice (counts of at least 1: empty rows are unused).
        Graph& G = g.graph;
        Output counts = G.op("SegmentSum", {G.op("OnesLike", {g.input(0)}), g.input(1)});
        Output one = ops::scalar(G, g.input(0).type().dtype, 1);
        Output scaled = G.op("RealDiv", {g.dys[0], G.op("Maximum", {counts, one})});
        return std::vector<Output>{gather0(G, scaled, g.input(1)), {}};
      });

  OpBuilder(r, "SegmentMax").cpuOnly("a sorted reduction on the host (no GPU kernel yet)")
      .api("tf.math.segment_max").api("tf.segment_max")
      .input("data")
      .input("segment_ids")
      .doc("Maxima of the slices of data with each (sorted) segment id; empty segments are 0.")
      .shape(segmentShape)
      .grad([](GradContext& g) {
        // TF's _SegmentMinOrMaxGrad: the gradient is shared among the slices equal to the maximum.
        Graph& G = g.graph;
        const DType dt = g.input(0).type().dtype;
        Output selected = G.op("Equal", {g.input(0), gather0(G, g.output(0), g.input(1))});
        Output num = G.op("SegmentSum", {G.op("Cast", {selected}, {{"DstT", dt}}), g.input(1)});
        Output one = ops::scalar(G, dt, 1);
        Output weighted = G.op("RealDiv", {g.dys[0], G.op("Maximum", {num, one})});
        Output dx = G.op("SelectV2", {selected, gather0(G, weighted, g.input(1)), G.op("ZerosLike", {g.input(0)})});
        return std::vector<Output>{dx, {}};
      });
}

}  // namespace tlens
