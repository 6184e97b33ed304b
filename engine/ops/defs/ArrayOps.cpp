// Array ops: constants, placeholders, identity, shapes and reshapes, fills.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {

using namespace shapefn;

/// Shape/Size/Rank values are known when the input's dims are.
TensorType shapeOutput(const Shape& s, DType out) {
  TensorType t(out, s.rankKnown() ? Shape{Dim::known(s.rank())} : Shape{Dim::unknown()});
  if (s.rankKnown()) {
    t.asShape = s;
    if (s.fullyKnown()) {
      Tensor v(out, {s.rank()});
      for (int i = 0; i < s.rank(); ++i) v.setDouble(i, static_cast<double>(s[static_cast<size_t>(i)].size));
      t.value = std::make_shared<const Tensor>(std::move(v));
    }
  }
  return t;
}

ShapeResult reshapeShape(const InferContext& c) {
  const Shape& in = c.shape(0);
  Shape target = c.valueAsShape(1);
  if (!target.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  int inferAt = -1;
  int64_t knownTarget = 1;
  bool targetUnknown = false;
  for (int i = 0; i < target.rank(); ++i) {
    const Dim& d = target[static_cast<size_t>(i)];
    if (d.isMinusOne()) {
      if (inferAt >= 0)
        return shapeError(c, "Cannot infer multiple unknown dimensions in shape " + target.str(), {1});
      inferAt = i;
    } else if (d.isKnown()) {
      knownTarget *= d.size;
    } else {
      targetUnknown = true;
    }
  }
  // Known product and unknown dims of the input.
  int64_t knownIn = 1;
  std::vector<Dim> unknownIn;
  if (in.rankKnown())
    for (const Dim& d : in.dims()) {
      if (d.isKnown()) knownIn *= d.size;
      else unknownIn.push_back(d);
    }
  std::vector<Dim> out = target.dims();
  if (inferAt >= 0) out[static_cast<size_t>(inferAt)] = Dim::unknown();
  if (!in.rankKnown() || targetUnknown) return ShapeResult::single(c.dtype(0), Shape(out));
  if (unknownIn.empty()) {
    const int64_t n = knownIn;
    if (inferAt < 0) {
      if (n != knownTarget)
        return shapeError(c, "Cannot reshape a tensor with " + std::to_string(n) +
                                 " elements to shape " + target.str() + " (" +
                                 std::to_string(knownTarget) + " elements)", {0, 1});
    } else {
      if (knownTarget == 0 || n % knownTarget != 0)
        return shapeError(c, "Cannot reshape a tensor with " + std::to_string(n) +
                                 " elements to shape " + target.str() + " (the known dims have " +
                                 std::to_string(knownTarget) + " elements, which does not divide " +
                                 std::to_string(n) + ")", {0, 1});
      out[static_cast<size_t>(inferAt)] = Dim::known(n / knownTarget);
    }
  } else if (inferAt >= 0 && unknownIn.size() == 1 && knownTarget != 0 && knownIn % knownTarget == 0 &&
             knownIn / knownTarget == 1) {
    out[static_cast<size_t>(inferAt)] = unknownIn[0];  // [b, 7, 7, 64] -> [-1, 3136] gives [b, 3136]
  }
  return ShapeResult::single(c.dtype(0), Shape(out));
}

ShapeResult broadcastToShape(const InferContext& c) {
  Shape target = c.valueAsShape(1);
  if (!target.rankKnown()) return ShapeResult::single(c.dtype(0), Shape::unknownRank());
  int axis = 0;
  auto s = broadcastShapes(c.shape(0), target, &axis);
  if (!s || (c.shape(0).rankKnown() && c.shape(0).rank() > target.rank()))
    return shapeError(c, "Unable to broadcast tensor of shape " + c.shape(0).str() +
                             " to shape " + target.str(), {0, 1});
  return ShapeResult::single(c.dtype(0), target.merge(*s));
}

}  // namespace

void registerArrayOps(OpRegistry& r) {
  OpBuilder(r, "Const")
      .api("tf.constant")
      .attr("value")
      .attr("dtype")
      .notDifferentiable()
      .doc("A constant tensor.")
      .shape([](const InferContext& c) {
        const Tensor* v = c.getTensor("value");
        if (!v) return shapeError(c, "Const needs a 'value' attribute");
        TensorType t(v->dtype(), Shape::fromConcrete(v->shape()));
        if (v->numElements() <= 4096) t.value = std::make_shared<const Tensor>(*v);
        if (v->rank() <= 1 && (v->dtype() == DType::Int32 || v->dtype() == DType::Int64)) {
          std::vector<Dim> d;
          for (int64_t x : v->toInt64Vector()) d.push_back(x >= 0 ? Dim::known(x) : x == -1 ? Dim::minusOne() : Dim::unknown());
          t.asShape = Shape(std::move(d));
        }
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      });

  OpBuilder(r, "Placeholder")
      .api("tf.placeholder")
      .api("tf.compat.v1.placeholder")
      .attr("dtype")
      .attr("shape", Shape::unknownRank())
      .notDifferentiable()
      .doc("A tensor whose value must be fed when the graph runs.")
      .shape([](const InferContext& c) {
        DType t = c.getDType("dtype");
        if (t == DType::Invalid) return shapeError(c, "Placeholder needs a dtype");
        return ShapeResult::single(t, c.getShape("shape"));
      });

  OpBuilder(r, "Identity")
      .api("tf.identity")
      .input("input")
      .doc("Returns a tensor with the same shape and contents as the input.")
      .shape(unchanged)
      .grad([](GradContext& g) { return std::vector<Output>{g.dys[0]}; });

  OpBuilder(r, "Shape")
      .api("tf.shape")
      .input("input")
      .attr("out_type", DType::Int32)
      .notDifferentiable()
      .doc("The shape of a tensor, as a 1-D integer tensor.")
      .shape([](const InferContext& c) {
        ShapeResult r;
        r.outputs.push_back(shapeOutput(c.shape(0), c.getDType("out_type", DType::Int32)));
        return r;
      });

  OpBuilder(r, "Size")
      .api("tf.size")
      .input("input")
      .attr("out_type", DType::Int32)
      .notDifferentiable()
      .doc("The number of elements of a tensor.")
      .shape([](const InferContext& c) {
        DType out = c.getDType("out_type", DType::Int32);
        TensorType t(out, Shape::scalar());
        if (auto n = c.shape(0).numElements()) {
          t.value = std::make_shared<const Tensor>(Tensor::filled(out, {}, static_cast<double>(*n)));
          t.asShape = Shape{Dim::known(*n)};
        }
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      });

  OpBuilder(r, "Reshape")
      .api("tf.reshape")
      .input("tensor")
      .input("shape")
      .doc("Reshapes a tensor; one dimension of the new shape may be -1 and is inferred.")
      .shape(reshapeShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::reshape(g.graph, g.dys[0], ops::shape(g.graph, g.input(0))), {}};
      });

  OpBuilder(r, "BroadcastTo")
      .api("tf.broadcast_to")
      .input("input")
      .input("shape")
      .doc("Broadcasts a tensor to a compatible shape, numpy style.")
      .shape(broadcastToShape)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::sumToShape(g.graph, g.dys[0], ops::shape(g.graph, g.input(0))), {}};
      });

  OpBuilder(r, "ZerosLike")
      .api("tf.zeros_like")
      .input("x")
      .notDifferentiable()
      .doc("A tensor of zeros with the shape and dtype of the input.")
      .shape(unchanged);

  OpBuilder(r, "OnesLike")
      .api("tf.ones_like")
      .input("x")
      .notDifferentiable()
      .doc("A tensor of ones with the shape and dtype of the input.")
      .shape(unchanged);
}

}  // namespace tlens
