// Reductions: Sum, Mean, and the helpers their gradients use (SumToShape, ReducedShape).
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult reductionShape(const InferContext& c) {
  return reduce(c, c.getInts("axis"), c.getBool("keep_dims"), c.dtype(0));
}

/// dy of a reduction, broadcast back to the input's shape.
Output reductionGradBroadcast(GradContext& g) {
  Graph& G = g.graph;
  Output x = g.input(0);
  Output dy = g.dys[0];
  AttrReader at(g.node.attrs);
  Output xs = ops::shape(G, x);
  if (!at.getBool("keep_dims")) {
    Attrs a;
    if (auto axes = at.getInts("axis")) a.emplace("axis", *axes);
    dy = ops::reshape(G, dy, G.op("ReducedShape", {xs}, a));
  }
  return ops::broadcastTo(G, dy, xs);
}

}  // namespace

void registerReductionOps(OpRegistry& r) {
  OpBuilder(r, "Sum")
      .api("tf.reduce_sum").api("tf.math.reduce_sum")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .doc("Sum of elements across the given axes (all axes by default).")
      .shape(reductionShape)
      .grad([](GradContext& g) { return std::vector<Output>{reductionGradBroadcast(g)}; });

  OpBuilder(r, "Mean")
      .api("tf.reduce_mean").api("tf.math.reduce_mean")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .doc("Mean of elements across the given axes (all axes by default).")
      .shape(reductionShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        DType t = g.input(0).type().dtype;
        Output sumGrad = reductionGradBroadcast(g);
        auto in = g.input(0).type().shape.numElements();
        auto out = g.output(0).type().shape.numElements();
        Output count;
        if (in && out) {
          count = ops::scalar(G, t, static_cast<double>(*in) / static_cast<double>(std::max<int64_t>(*out, 1)));
        } else {
          count = ops::div(G, ops::cast(G, G.op("Size", {g.input(0)}), t),
                           ops::cast(G, G.op("Size", {g.output(0)}), t));
        }
        return std::vector<Output>{ops::div(G, sumGrad, count)};
      });

  OpBuilder(r, "SumToShape")
      .input("input").input("shape")
      .doc("Sums a tensor down to a shape it was broadcast from (the gradient of broadcasting).")
      .shape([](const InferContext& c) {
        Shape target = c.valueAsShape(1);
        if (target.rankKnown() && c.shape(0).rankKnown() && target.rank() > c.shape(0).rank())
          return shapeError(c, "Cannot sum " + c.shape(0).str() + " down to " + target.str(), {0, 1});
        return ShapeResult::single(c.dtype(0), target);
      })
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::broadcastTo(g.graph, g.dys[0], ops::shape(g.graph, g.input(0))), {}};
      });

  OpBuilder(r, "ReducedShape")
      .input("shape")
      .attr("axis", {}, "axes set to 1; absent: all")
      .notDifferentiable()
      .doc("The shape a reduction keeps with keep_dims=True: the reduced axes set to 1.")
      .shape([](const InferContext& c) {
        TensorType t(c.dtype(0), c.shape(0));
        Shape in = c.valueAsShape(0);
        if (in.rankKnown()) {
          auto axes = c.getInts("axis");
          std::vector<Dim> d = in.dims();
          const int64_t rank = static_cast<int64_t>(d.size());
          if (!axes) for (Dim& x : d) x = Dim::known(1);
          else
            for (int64_t a : *axes)
              if (auto n = normalizeAxis(a, rank)) d[static_cast<size_t>(*n)] = Dim::known(1);
          Shape s(std::move(d));
          t.asShape = s;
          if (s.fullyKnown()) {
            Tensor v(c.dtype(0), {rank});
            for (int64_t i = 0; i < rank; ++i) v.setDouble(i, static_cast<double>(s[static_cast<size_t>(i)].size));
            t.value = std::make_shared<const Tensor>(std::move(v));
          }
        }
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      });
}

}  // namespace tlens
