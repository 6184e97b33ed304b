// Elementwise math: broadcasting binary ops, unary math and activations, casts, AddN.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult binary(const InferContext& c) { return broadcastBinary(c); }

ShapeResult addNShape(const InferContext& c) {
  if (c.numInputs() == 0) return shapeError(c, "AddN needs at least one input");
  Shape s = c.shape(0);
  for (size_t i = 1; i < c.numInputs(); ++i) {
    if (c.dtype(i) != DType::Invalid && c.dtype(0) != DType::Invalid && c.dtype(i) != c.dtype(0))
      return shapeError(c, "AddN inputs must have one dtype, but input " + std::to_string(i) + " is " +
                               std::string(dtypeName(c.dtype(i))) + " and input 0 is " +
                               std::string(dtypeName(c.dtype(0))), {0, static_cast<int>(i)});
    if (!s.compatible(c.shape(i)))
      return shapeError(c, "Shapes must be equal rank and compatible, but are " + s.str() + " and " +
                               c.shape(i).str(), {0, static_cast<int>(i)});
    s = s.merge(c.shape(i));
  }
  return ShapeResult::single(c.dtype(0), s);
}

}  // namespace

void registerMathOps(OpRegistry& r) {
  OpBuilder(r, "Add")
      .api("tf.add").api("tf.math.add")
      .input("x").input("y")
      .doc("x + y elementwise, with numpy broadcasting.")
      .shape(binary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{ops::unbroadcast(G, g.dys[0], g.input(0)),
                                   ops::unbroadcast(G, g.dys[0], g.input(1))};
      });

  OpBuilder(r, "Sub")
      .api("tf.subtract").api("tf.math.subtract")
      .input("x").input("y")
      .doc("x - y elementwise, with numpy broadcasting.")
      .shape(binary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{ops::unbroadcast(G, g.dys[0], g.input(0)),
                                   ops::unbroadcast(G, ops::neg(G, g.dys[0]), g.input(1))};
      });

  OpBuilder(r, "Mul")
      .api("tf.multiply").api("tf.math.multiply")
      .input("x").input("y")
      .doc("x * y elementwise, with numpy broadcasting.")
      .shape(binary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{
            ops::unbroadcast(G, ops::mul(G, g.dys[0], g.input(1)), g.input(0)),
            ops::unbroadcast(G, ops::mul(G, g.input(0), g.dys[0]), g.input(1))};
      });

  OpBuilder(r, "RealDiv")
      .api("tf.divide").api("tf.math.divide").api("tf.realdiv").api("tf.div")
      .input("x").input("y")
      .doc("x / y elementwise, with numpy broadcasting.")
      .shape(binary)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output x = g.input(0), y = g.input(1), dy = g.dys[0];
        Output dx = ops::div(G, dy, y);
        Output dyv = ops::neg(G, ops::mul(G, dy, ops::div(G, ops::div(G, x, y), y)));
        return std::vector<Output>{ops::unbroadcast(G, dx, x), ops::unbroadcast(G, dyv, y)};
      });

  OpBuilder(r, "Neg")
      .api("tf.negative").api("tf.math.negative")
      .input("x")
      .doc("-x elementwise.")
      .shape(unchanged)
      .grad([](GradContext& g) { return std::vector<Output>{ops::neg(g.graph, g.dys[0])}; });

  OpBuilder(r, "Square")
      .api("tf.square").api("tf.math.square")
      .input("x")
      .doc("x * x elementwise.")
      .shape(unchanged)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output two = ops::scalar(G, g.input(0).type().dtype, 2.0);
        return std::vector<Output>{ops::mul(G, g.dys[0], ops::mul(G, two, g.input(0)))};
      });

  OpBuilder(r, "Relu")
      .api("tf.nn.relu")
      .input("features")
      .doc("max(features, 0) elementwise (NaN stays NaN).")
      .shape(unchanged)
      .grad([](GradContext& g) {
        return std::vector<Output>{g.graph.op("ReluGrad", {g.dys[0], g.input(0)})};
      });

  OpBuilder(r, "ReluGrad")
      .input("gradients").input("features")
      .doc("Gradient of Relu: gradients where features > 0, else 0.")
      .shape([](const InferContext& c) {
        if (auto e = checkSameDType(c, {0, 1})) return *e;
        if (!c.shape(0).compatible(c.shape(1)))
          return shapeError(c, "Incompatible shapes", {0, 1});
        return ShapeResult::single(c.dtype(0), c.shape(0).merge(c.shape(1)));
      })
      .grad([](GradContext& g) {
        return std::vector<Output>{g.graph.op("ReluGrad", {g.dys[0], g.input(1)}),
                                   ops::zerosLike(g.graph, g.input(1))};
      });

  OpBuilder(r, "AddN")
      .api("tf.add_n").api("tf.math.add_n")
      .inputList("inputs")
      .doc("Sums a list of tensors of one shape and dtype.")
      .shape(addNShape)
      .grad([](GradContext& g) {
        return std::vector<Output>(g.node.inputs.size(), g.dys[0]);
      });

  OpBuilder(r, "Cast")
      .api("tf.cast")
      .input("x")
      .attr("DstT")
      .doc("Converts a tensor to another dtype.")
      .shape([](const InferContext& c) {
        DType to = c.getDType("DstT");
        if (to == DType::Invalid) return shapeError(c, "Cast needs a destination dtype");
        TensorType t(to, c.shape(0));
        if (const Tensor* v = c.value(0)) t.value = std::make_shared<const Tensor>(v->cast(to));
        t.asShape = c.input(0).asShape;
        ShapeResult r;
        r.outputs.push_back(std::move(t));
        return r;
      })
      .grad([](GradContext& g) {
        DType from = g.input(0).type().dtype;
        DType to = g.output(0).type().dtype;
        if (!isFloating(from) || !isFloating(to)) return std::vector<Output>{Output{}};
        return std::vector<Output>{ops::cast(g.graph, g.dys[0], from)};
      });
}

}  // namespace tlens
