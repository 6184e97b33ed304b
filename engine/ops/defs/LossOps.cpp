// Softmax and losses: Softmax, LogSoftmax, SoftmaxCrossEntropyWithLogits,
// SparseSoftmaxCrossEntropyWithLogits, SigmoidCrossEntropyWithLogits (and its gradient helper),
// L2Loss.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

/// "[2,3]" as TensorFlow's TensorShape::DebugString; "?" dims stay "?".
std::string dimsStr(const Shape& s) {
  if (!s.rankKnown()) return "<unknown>";
  std::string r = "[";
  for (size_t i = 0; i < s.dims().size(); ++i) r += (i ? "," : "") + s[i].str();
  return r + "]";
}

ShapeResult softmaxShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  const Shape& s = c.shape(0);
  if (s.rankKnown()) {
    const int64_t rank = s.rank();
    if (rank < 1) return shapeError(c, "Shape must be at least rank 1 but is rank 0", {0});
    const int64_t axis = c.getInt("axis", -1);
    if (!normalizeAxis(axis, rank))
      return shapeError(c, "Dimension (" + std::to_string(axis) + ") must be in the range [" +
                               std::to_string(-rank) + ", " + std::to_string(rank) + ") where " +
                               std::to_string(rank) + " is the number of dimensions in the input.", {0});
  }
  return unchanged(c);
}

/// x reduced over the softmax axis with keep_dims (so it broadcasts back against x).
Output sumOverAxis(Graph& G, Output x, int64_t axis) {
  return G.op("Sum", {x}, {{"axis", std::vector<int64_t>{axis}}, {"keep_dims", true}});
}

/// The Jacobian-vector product of softmax: (g - sum(g * s)) * s over the last axis.
Output softmaxJvp(Graph& G, Output gg, Output s) {
  return ops::mul(G, ops::sub(G, gg, sumOverAxis(G, ops::mul(G, gg, s), -1)), s);
}

/// dy of shape [batch] as a [batch, 1] column that broadcasts against [batch, classes] `like`.
Output column(Graph& G, Output dy, Output like) {
  Output s = G.op("ReducedShape", {ops::shape(G, like)}, {{"axis", std::vector<int64_t>{1}}});
  return ops::reshape(G, dy, s);
}

ShapeResult xentShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  const Shape& f = c.shape(0);
  const Shape& l = c.shape(1);
  const char* rank2 = "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional";
  Shape s = Shape::unknownDims(2);
  if (f.rankKnown() && l.rankKnown()) {
    if (f.rank() == 2 && f.compatible(l)) {
      s = f.merge(l);
    } else {
      auto b = broadcastShapes(f, l);
      if (!b)
        return shapeError(c, "logits and labels must be broadcastable: logits_size=" + dimsStr(f) +
                                 " labels_size=" + dimsStr(l), {0, 1});
      if (b->rank() != 2) return shapeError(c, rank2, {0, 1});
      s = *b;
    }
  } else if (f.rankKnown() || l.rankKnown()) {
    const Shape& k = f.rankKnown() ? f : l;
    if (k.rank() > 2) return shapeError(c, rank2, {f.rankKnown() ? 0 : 1});
    if (k.rank() == 2) s = k;  // as TensorFlow, which merges the two shapes first
  }
  ShapeResult r;
  const DType dt = commonDType(c, {0, 1});
  r.outputs.emplace_back(dt, Shape{s[0]});
  r.outputs.emplace_back(dt, s);
  return r;
}

ShapeResult sparseXentShape(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  if (auto e = checkDType(c, 1, {DType::Int32, DType::Int64})) return *e;
  const Shape& f = c.shape(0);
  const Shape& l = c.shape(1);
  if (f.rankKnown() && f.rank() != 2)
    return shapeError(c, "Shape must be rank 2 but is rank " + std::to_string(f.rank()), {0});
  if (l.rankKnown() && l.rank() != 1)
    return shapeError(c, "Shape must be rank 1 but is rank " + std::to_string(l.rank()), {1});
  const Dim fb = f.rankKnown() ? f[0] : Dim::unknown();
  const Dim lb = l.rankKnown() ? l[0] : Dim::unknown();
  const Dim classes = f.rankKnown() ? f[1] : Dim::unknown();
  if (fb.conflicts(lb))
    return shapeError(c, "logits and labels must have the same first dimension, got logits shape " + dimsStr(f) +
                             " and labels shape " + dimsStr(l), {0, 1});
  if (classes.isKnown() && classes.size == 0)
    return shapeError(c, "Must have at least one class, but got logits shape " + dimsStr(f), {0});
  const Dim batch = Shape{fb}.merge(Shape{lb})[0];
  ShapeResult r;
  r.outputs.emplace_back(c.dtype(0), Shape{batch});
  r.outputs.emplace_back(c.dtype(0), Shape{batch, classes});
  return r;
}

/// SigmoidCrossEntropyWithLogits(labels, logits) and its gradient helper (labels, logits, dy):
/// one dtype, one shape.
ShapeResult sigmoidXentShape(const InferContext& c) {
  if (c.numInputs() == 3) {
    if (auto e = checkSameDType(c, {0, 1, 2})) return *e;
  } else if (auto e = checkSameDType(c, {0, 1})) {
    return *e;
  }
  if (auto e = checkDType(c, 1, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  Shape s = c.shape(1);
  for (size_t i : {size_t{0}, size_t{2}}) {
    if (i >= c.numInputs()) continue;
    if (!s.compatible(c.shape(i)))
      return shapeError(c, "logits and labels must have the same shape (" + c.shape(1).tfStr() + " vs " +
                               c.shape(i).tfStr() + ")", {1, static_cast<int>(i)});
    s = s.merge(c.shape(i));
  }
  return ShapeResult::single(commonDType(c, {0, 1}), s);
}

}  // namespace

void registerLossOps(OpRegistry& r) {
  OpBuilder(r, "Softmax")
      .api("tf.nn.softmax").api("tf.math.softmax")
      .input("logits")
      .attr("axis", int64_t{-1}, "the axis to normalise over")
      .doc("exp(logits) / sum(exp(logits)) along an axis (the last by default), computed stably.")
      .shape(softmaxShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        const int64_t axis = AttrReader(g.node.attrs).getInt("axis", -1);
        Output y = g.output(0), dy = g.dys[0];
        Output dx = ops::mul(G, ops::sub(G, dy, sumOverAxis(G, ops::mul(G, dy, y), axis)), y);
        return std::vector<Output>{dx};
      });

  OpBuilder(r, "LogSoftmax")
      .api("tf.nn.log_softmax").api("tf.math.log_softmax")
      .input("logits")
      .attr("axis", int64_t{-1}, "the axis to normalise over")
      .doc("logits - log(sum(exp(logits))) along an axis (the last by default), computed stably.")
      .shape(softmaxShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        const int64_t axis = AttrReader(g.node.attrs).getInt("axis", -1);
        Output dy = g.dys[0];
        Output sm = G.op("Softmax", {g.input(0)}, {{"axis", axis}});
        return std::vector<Output>{ops::sub(G, dy, ops::mul(G, sm, sumOverAxis(G, dy, axis)))};
      });

  OpBuilder(r, "SoftmaxCrossEntropyWithLogits")
      .api("tf.nn.softmax_cross_entropy_with_logits").api("tf.nn.softmax_cross_entropy_with_logits_v2")
      .input("features").input("labels")
      .doc("Per-row cross entropy between softmax(features) and labels (rows of probabilities), and "
           "its gradient softmax(features) - labels as the second output.")
      .shape(xentShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output f = g.input(0), l = g.input(1), bp = g.output(1);
        std::vector<Output> df, dl;
        if (g.dys[0]) {
          // As TensorFlow: backprop is the gradient when each row of labels sums to 1.
          Output dy = column(G, g.dys[0], bp);
          df.push_back(ops::mul(G, dy, bp));
          dl.push_back(ops::mul(G, dy, ops::neg(G, G.op("LogSoftmax", {f}))));
        }
        if (g.dys[1]) {  // backprop = softmax(features) - labels
          df.push_back(softmaxJvp(G, g.dys[1], G.op("Softmax", {f})));
          dl.push_back(ops::neg(G, g.dys[1]));
        }
        return std::vector<Output>{ops::unbroadcast(G, ops::addN(G, df), f),
                                   ops::unbroadcast(G, ops::addN(G, dl), l)};
      });

  OpBuilder(r, "SparseSoftmaxCrossEntropyWithLogits")
      .api("tf.nn.sparse_softmax_cross_entropy_with_logits")
      .input("features").input("labels")
      .doc("Per-row cross entropy between softmax(features) and integer class labels, and its "
           "gradient softmax(features) - one_hot(labels) as the second output.")
      .shape(sparseXentShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output f = g.input(0), bp = g.output(1);
        std::vector<Output> df;
        if (g.dys[0]) df.push_back(ops::mul(G, column(G, g.dys[0], bp), bp));
        if (g.dys[1]) df.push_back(softmaxJvp(G, g.dys[1], G.op("Softmax", {f})));
        return std::vector<Output>{ops::addN(G, df), Output{}};
      });

  OpBuilder(r, "SigmoidCrossEntropyWithLogits")
      .api("tf.nn.sigmoid_cross_entropy_with_logits")
      .input("labels").input("logits")
      .doc("Elementwise logistic loss max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z.")
      .shape(sigmoidXentShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output z = g.input(0), x = g.input(1), dy = g.dys[0];
        return std::vector<Output>{ops::mul(G, dy, ops::neg(G, x)),
                                   G.op("SigmoidCrossEntropyWithLogitsGrad", {z, x, dy})};
      });

  OpBuilder(r, "SigmoidCrossEntropyWithLogitsGrad")
      .input("labels").input("logits").input("dy")
      .doc("Gradient helper of SigmoidCrossEntropyWithLogits: dy * (sigmoid(logits) - labels).")
      .shape(sigmoidXentShape)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output z = g.input(0), x = g.input(1), dy = g.input(2), gg = g.dys[0];
        // sigmoid(x) through this op itself: labels 0, dy 1.
        Output s = G.op("SigmoidCrossEntropyWithLogitsGrad", {ops::zerosLike(G, x), x, ops::onesLike(G, x)});
        Output ds = ops::sub(G, s, ops::mul(G, s, s));  // sigmoid'(x)
        return std::vector<Output>{ops::neg(G, ops::mul(G, gg, dy)), ops::mul(G, ops::mul(G, gg, dy), ds),
                                   G.op("SigmoidCrossEntropyWithLogitsGrad", {z, x, gg})};
      });

  OpBuilder(r, "L2Loss")
      .api("tf.nn.l2_loss")
      .input("t")
      .doc("sum(t ** 2) / 2, a scalar.")
      .shape([](const InferContext& c) {
        if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
        return ShapeResult::single(c.dtype(0), Shape::scalar());
      })
      .grad([](GradContext& g) { return std::vector<Output>{ops::mul(g.graph, g.input(0), g.dys[0])}; });
}

}  // namespace tlens
