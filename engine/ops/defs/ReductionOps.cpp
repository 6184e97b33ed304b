// Reductions: Sum, Mean, Prod, Max, Min, Any, All, ArgMax, ArgMin, and the helpers their
// gradients use (SumToShape, ReducedShape, ReductionIndicators, ReductionProdOthers).
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

#include <algorithm>
#include <limits>

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult reductionShape(const InferContext& c) {
  return reduce(c, c.getInts("axis"), c.getBool("keep_dims"), c.dtype(0));
}

enum class Fold { Sum, Prod, Max, Min };

int64_t foldInit(Fold f) {
  switch (f) {
    case Fold::Sum: return 0;
    case Fold::Prod: return 1;
    case Fold::Max: return std::numeric_limits<int64_t>::lowest();
    default: return std::numeric_limits<int64_t>::max();
  }
}

int64_t foldStep(Fold f, int64_t a, int64_t x) {
  switch (f) {
    case Fold::Sum: return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(x));
    case Fold::Prod: return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(x));
    case Fold::Max: return std::max(a, x);
    default: return std::min(a, x);
  }
}

/// Reductions of small known integer tensors are shape arithmetic (tf.reduce_prod(tf.shape(x)[1:])
/// in a reshape target): give the result its value, and a scalar result its dim (asShape), so
/// the target stays exact. A vector of dims with unknown ones folds when it has one element.
void foldIntReduction(const InferContext& c, ShapeResult& r, Fold f) {
  if (!r.ok() || r.outputs.empty()) return;
  TensorType& out = r.outputs[0];
  const DType dt = c.dtype(0);
  if (dt != DType::Int32 && dt != DType::Int64) return;
  const auto axes = c.getInts("axis");
  const Tensor* v = c.value(0);
  if (v && v->numElements() <= 4096 && out.shape.fullyKnown()) {
    const int rank = v->rank();
    std::vector<char> red(static_cast<size_t>(rank), axes ? 0 : 1);
    if (axes)
      for (int64_t a : *axes)
        if (auto n = normalizeAxis(a, rank)) red[static_cast<size_t>(*n)] = 1;
    Tensor t(dt, out.shape.concrete());
    std::vector<int64_t> acc(static_cast<size_t>(t.numElements()), foldInit(f));
    std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
    const std::vector<int64_t> vals = v->toInt64Vector();
    for (int64_t i = 0; i < v->numElements(); ++i) {
      int64_t o = 0;
      for (int d = 0; d < rank; ++d)
        if (!red[static_cast<size_t>(d)]) o = o * v->dim(d) + idx[static_cast<size_t>(d)];
      acc[static_cast<size_t>(o)] = foldStep(f, acc[static_cast<size_t>(o)], vals[static_cast<size_t>(i)]);
      for (int d = rank - 1; d >= 0; --d) {
        if (++idx[static_cast<size_t>(d)] < v->dim(d)) break;
        idx[static_cast<size_t>(d)] = 0;
      }
    }
    for (int64_t i = 0; i < t.numElements(); ++i) {
      if (dt == DType::Int32) t.data<int32_t>()[i] = static_cast<int32_t>(acc[static_cast<size_t>(i)]);
      else t.data<int64_t>()[i] = acc[static_cast<size_t>(i)];
    }
    if (t.numElements() == 1 && t.getInt(0) >= 0) out.asShape = Shape{Dim::known(t.getInt(0))};
    out.value = std::make_shared<const Tensor>(std::move(t));
    return;
  }
  // A vector of dims reduced to one element.
  const auto& dimsOpt = c.input(0).asShape;
  const Shape& in = c.shape(0);
  if (!dimsOpt || !dimsOpt->rankKnown() || !in.rankKnown() || in.rank() != 1) return;
  if (axes && !(axes->size() == 1 && ((*axes)[0] == 0 || (*axes)[0] == -1))) return;
  const std::vector<Dim>& d = dimsOpt->dims();
  for (const Dim& x : d)
    if (x.isMinusOne()) return;
  if (d.size() == 1) {
    out.asShape = Shape{d[0]};
    return;
  }
  int64_t a = foldInit(f);
  for (const Dim& x : d) {
    if (!x.isKnown()) return;
    a = foldStep(f, a, x.size);
  }
  if (a < 0) return;
  out.asShape = Shape{Dim::known(a)};
  if (out.shape.fullyKnown()) out.value = std::make_shared<const Tensor>(Tensor::filled(dt, out.shape.concrete(), static_cast<double>(a)));
}

ShapeResult foldingReductionShape(const InferContext& c, Fold f) {
  ShapeResult r = reductionShape(c);
  foldIntReduction(c, r, f);
  return r;
}

ShapeResult numericReductionShape(const InferContext& c, Fold f) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64,
                                 DType::UInt8}))
    return *e;
  return foldingReductionShape(c, f);
}

ShapeResult logicalReductionShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Bool})) return *e;
  return reductionShape(c);
}

/// ArgMax/ArgMin: one axis removed; the index dtype from `output_type`.
ShapeResult argShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64,
                                 DType::UInt8}))
    return *e;
  const DType out = c.getDType("output_type", DType::Int64);
  if (out != DType::Int32 && out != DType::Int64)
    return shapeError(c, "Value for attr 'output_type' of " + std::string(dtypeName(out)) +
                             " is not in the list of allowed values: int32, int64");
  const Shape& in = c.shape(0);
  if (!in.rankKnown()) return ShapeResult::single(out, Shape::unknownRank());
  const int64_t rank = in.rank();
  const int64_t axis = c.getInt("axis", 0);
  auto n = normalizeAxis(axis, rank);
  if (!n)
    return shapeError(c, "Expected dimension in the range [" + std::to_string(-rank) + ", " +
                             std::to_string(rank) + "), but got " + std::to_string(axis), {0});
  if (in[static_cast<size_t>(*n)].isKnown() && in[static_cast<size_t>(*n)].size == 0) {
    // An error only when the output is known to be non-empty (an empty output needs no index).
    bool outputMaybeEmpty = false;
    std::string dims;
    for (int64_t i = 0; i < rank; ++i) {
      const Dim& d = in[static_cast<size_t>(i)];
      if (i != *n && (!d.isKnown() || d.size == 0)) outputMaybeEmpty = true;
      dims += (i ? "," : "") + d.str();
    }
    if (!outputMaybeEmpty)
      return shapeError(c, "Reduction axis " + std::to_string(axis) + " is empty in shape [" + dims + "]", {0});
  }
  std::vector<Dim> dims;
  for (int64_t i = 0; i < rank; ++i)
    if (i != *n) dims.push_back(in[static_cast<size_t>(i)]);
  return ShapeResult::single(out, Shape(std::move(dims)));
}

/// The axis/keep_dims attributes of the forward reduction, for its gradient helpers.
Attrs reductionAttrs(const GradContext& g) {
  AttrReader at(g.node.attrs);
  Attrs a{{"keep_dims", at.getBool("keep_dims")}};
  if (auto axes = at.getInts("axis")) a.emplace("axis", *axes);
  return a;
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
      .shape([](const InferContext& c) { return foldingReductionShape(c, Fold::Sum); })
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

  OpBuilder(r, "Prod")
      .api("tf.reduce_prod").api("tf.math.reduce_prod")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .doc("Product of elements across the given axes (all axes by default); 1 for an empty reduction.")
      .shape([](const InferContext& c) { return numericReductionShape(c, Fold::Prod); })
      .grad([](GradContext& g) {
        // d prod / d x_i = product of the other elements of x_i's group (exact with zeros too).
        Graph& G = g.graph;
        Output others = G.op("ReductionProdOthers", {g.input(0)}, reductionAttrs(g));
        return std::vector<Output>{ops::mul(G, reductionGradBroadcast(g), others)};
      });

  OpBuilder(r, "Max")
      .api("tf.reduce_max").api("tf.math.reduce_max")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .doc("Maximum of elements across the given axes (all axes by default); NaN propagates, -inf for an "
           "empty float reduction.")
      .shape([](const InferContext& c) { return numericReductionShape(c, Fold::Max); })
      .grad([](GradContext& g) {
        // As TensorFlow: dy is shared equally by every element equal to the maximum.
        Graph& G = g.graph;
        Output ind = G.op("ReductionIndicators", {g.input(0), g.output(0)}, reductionAttrs(g));
        return std::vector<Output>{ops::mul(G, ind, reductionGradBroadcast(g))};
      });

  OpBuilder(r, "Min")
      .api("tf.reduce_min").api("tf.math.reduce_min")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .doc("Minimum of elements across the given axes (all axes by default); NaN propagates, +inf for an "
           "empty float reduction.")
      .shape([](const InferContext& c) { return numericReductionShape(c, Fold::Min); })
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output ind = G.op("ReductionIndicators", {g.input(0), g.output(0)}, reductionAttrs(g));
        return std::vector<Output>{ops::mul(G, ind, reductionGradBroadcast(g))};
      });

  OpBuilder(r, "Any")
      .api("tf.reduce_any").api("tf.math.reduce_any")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .notDifferentiable()
      .doc("Logical or of a bool tensor across the given axes (all axes by default).")
      .shape(logicalReductionShape);

  OpBuilder(r, "All")
      .api("tf.reduce_all").api("tf.math.reduce_all")
      .input("input")
      .attr("axis", {}, "axes to reduce; absent: all")
      .attr("keep_dims", false)
      .notDifferentiable()
      .doc("Logical and of a bool tensor across the given axes (all axes by default).")
      .shape(logicalReductionShape);

  OpBuilder(r, "ArgMax")
      .api("tf.argmax").api("tf.math.argmax")
      .input("input")
      .attr("axis", int64_t{0}, "the axis to reduce (TensorFlow's `dimension` input)")
      .attr("output_type", DType::Int64)
      .notDifferentiable()
      .doc("Index of the largest value along an axis (the first one on ties).")
      .shape(argShape);

  OpBuilder(r, "ArgMin")
      .api("tf.argmin").api("tf.math.argmin")
      .input("input")
      .attr("axis", int64_t{0}, "the axis to reduce (TensorFlow's `dimension` input)")
      .attr("output_type", DType::Int64)
      .notDifferentiable()
      .doc("Index of the smallest value along an axis (the first one on ties).")
      .shape(argShape);

  OpBuilder(r, "ReductionIndicators")
      .input("input").input("output")
      .attr("axis", {}, "the reduced axes; absent: all")
      .attr("keep_dims", false)
      .notDifferentiable()
      .doc("Gradient helper of Max/Min: 1/count where input equals its group's reduced output "
           "(count: how many do), else 0.")
      .shape([](const InferContext& c) {
        if (auto e = checkSameDType(c, {0, 1})) return *e;
        if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
        ShapeResult red = reductionShape(c);
        if (!red.ok()) return red;
        if (!red.outputs[0].shape.compatible(c.shape(1)))
          return shapeError(c, "Reduced shape " + red.outputs[0].shape.str() + " does not match output shape " +
                                   c.shape(1).str(), {0, 1});
        return ShapeResult::single(c.dtype(0), c.shape(0));
      });

  OpBuilder(r, "ReductionProdOthers")
      .input("input")
      .attr("axis", {}, "the reduced axes; absent: all")
      .attr("keep_dims", false)
      .doc("Gradient helper of Prod: for each element, the product of the other elements of its "
           "reduction group.")
      .shape([](const InferContext& c) {
        if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
        ShapeResult red = reductionShape(c);
        if (!red.ok()) return red;
        return ShapeResult::single(c.dtype(0), c.shape(0));
      })
      .grad([](GradContext& g) {
        // y_i = prod_{k != i} x_k, so d(sum_i dy_i y_i)/dx_j = (S - dy_j y_j) / x_j with
        // S = sum over j's group of dy*y. Exact for inputs without zeros (second-order only).
        Graph& G = g.graph;
        Output x = g.input(0);
        Output dyy = ops::mul(G, g.dys[0], g.output(0));
        Attrs a = reductionAttrs(g);
        a["keep_dims"] = true;
        Output s = ops::broadcastTo(G, G.op("Sum", {dyy}, a), ops::shape(G, x));
        return std::vector<Output>{ops::div(G, ops::sub(G, s, dyy), x)};
      });

  OpBuilder(r, "SumToShape").hostInput(1)
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

  OpBuilder(r, "ReducedShape").cpuOnly("computes a shape on the host")
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
