// Unary math and activations: Abs, Exp, Log, Sqrt, Tanh, Sigmoid, Relu, Elu, Softplus, Floor,
// Round, IsNan... and the dedicated gradient ops TensorFlow uses for some of them (SigmoidGrad,
// TanhGrad, SqrtGrad, Relu6Grad, EluGrad...), each with its own second-order gradient.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

// ---- shape functions ----

/// Same dtype and shape out; input 0 must be one of the listed dtypes.
ShapeResult signedNumeric(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64}))
    return *e;
  return unchanged(c);
}

ShapeResult realNumeric(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32,
                                 DType::Int64, DType::UInt8}))
    return *e;
  return unchanged(c);
}

/// IsNan, IsInf, IsFinite: a floating input, a bool output of its shape.
ShapeResult floatPredicate(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  return ShapeResult::single(DType::Bool, c.shape(0));
}

/// Merges the shapes of inputs a and b (which must describe the same tensor shape), with
/// TensorFlow's Merge wording; nullopt and `out` set on success.
std::optional<ShapeResult> mergeInputs(const InferContext& c, size_t a, size_t b, Shape* out) {
  const Shape& sa = c.shape(a);
  const Shape& sb = c.shape(b);
  if (sa.rankKnown() && sb.rankKnown()) {
    if (sa.rank() != sb.rank())
      return shapeError(c, "Shapes must be equal rank, but are " + std::to_string(sa.rank()) + " and " +
                               std::to_string(sb.rank()), {static_cast<int>(a), static_cast<int>(b)});
    for (size_t i = 0; i < sa.dims().size(); ++i)
      if (sa[i].conflicts(sb[i]))
        return shapeError(c, "Dimension " + std::to_string(i) + " in both shapes must be equal, but are " +
                                 sa[i].str() + " and " + sb[i].str() + ". Shapes are " + sa.str() +
                                 " and " + sb.str(), {static_cast<int>(a), static_cast<int>(b)});
  }
  *out = sa.merge(sb);
  return std::nullopt;
}

/// The gradient ops (SigmoidGrad(y, dy), ReluGrad(dy, x), ...): two tensors of one dtype and
/// shape; the output has that dtype and shape.
ShapeResult gradPair(const InferContext& c, bool floatOnly) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (floatOnly) {
    if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16})) return *e;
  } else if (auto e = checkDType(c, 0, {DType::Float32, DType::Float64, DType::Float16, DType::Int32,
                                        DType::Int64, DType::UInt8})) {
    return *e;
  }
  Shape s;
  if (auto e = mergeInputs(c, 0, 1, &s)) return *e;
  return ShapeResult::single(commonDType(c, {0, 1}), s);
}

ShapeResult floatGradPair(const InferContext& c) { return gradPair(c, true); }
ShapeResult realGradPair(const InferContext& c) { return gradPair(c, false); }

// ---- gradient helpers ----

Output scalarLike(Graph& G, Output like, double v) { return ops::scalar(G, like.type().dtype, v); }
Output op1(Graph& G, const char* type, Output x) { return G.op(type, {x}); }
Output op2(Graph& G, const char* type, Output a, Output b) { return G.op(type, {a, b}); }

std::vector<Output> none1() { return {Output{}}; }

}  // namespace

void registerUnaryOps(OpRegistry& r) {
  // ---- sign and magnitude ----
  OpBuilder(r, "Neg")
      .api("tf.negative").api("tf.math.negative")
      .input("x")
      .doc("-x elementwise.")
      .shape(signedNumeric)
      .grad([](GradContext& g) { return std::vector<Output>{ops::neg(g.graph, g.dys[0])}; });

  OpBuilder(r, "Abs")
      .api("tf.abs").api("tf.math.abs")
      .input("x")
      .doc("|x| elementwise.")
      .shape(signedNumeric)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::mul(g.graph, g.dys[0], op1(g.graph, "Sign", g.input(0)))};
      });

  OpBuilder(r, "Sign")
      .api("tf.sign").api("tf.math.sign")
      .input("x")
      .doc("-1, 0 or 1 by the sign of x elementwise (NaN stays NaN).")
      .shape(signedNumeric)
      .grad([](GradContext& g) { return std::vector<Output>{ops::zerosLike(g.graph, g.input(0))}; });

  OpBuilder(r, "Square")
      .api("tf.square").api("tf.math.square")
      .input("x")
      .doc("x * x elementwise.")
      .shape(realNumeric)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output two = scalarLike(G, g.input(0), 2.0);
        return std::vector<Output>{ops::mul(G, g.dys[0], ops::mul(G, two, g.input(0)))};
      });

  OpBuilder(r, "Reciprocal")
      .api("tf.reciprocal").api("tf.math.reciprocal")
      .input("x")
      .doc("1 / x elementwise (integer 1 / 0 is an error).")
      .shape(signedNumeric)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "ReciprocalGrad", g.output(0), g.dys[0])};
      });

  // ---- exponentials, logarithms, roots ----
  OpBuilder(r, "Exp")
      .api("tf.exp").api("tf.math.exp")
      .input("x")
      .doc("e ** x elementwise.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) { return std::vector<Output>{ops::mul(g.graph, g.dys[0], g.output(0))}; });

  OpBuilder(r, "Log")
      .api("tf.log").api("tf.math.log")
      .input("x")
      .doc("Natural logarithm elementwise: log(0) = -inf, log(x < 0) = nan.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::mul(g.graph, g.dys[0], op1(g.graph, "Reciprocal", g.input(0)))};
      });

  OpBuilder(r, "Log1p")
      .api("tf.log1p").api("tf.math.log1p")
      .input("x")
      .doc("log(1 + x) elementwise, accurate for small x.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output onePlusX = ops::add(G, scalarLike(G, g.input(0), 1.0), g.input(0));
        return std::vector<Output>{ops::mul(G, g.dys[0], op1(G, "Reciprocal", onePlusX))};
      });

  OpBuilder(r, "Sqrt")
      .api("tf.sqrt").api("tf.math.sqrt")
      .input("x")
      .doc("Square root elementwise (nan for x < 0).")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "SqrtGrad", g.output(0), g.dys[0])};
      });

  OpBuilder(r, "Rsqrt")
      .api("tf.rsqrt").api("tf.math.rsqrt")
      .input("x")
      .doc("1 / sqrt(x) elementwise.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "RsqrtGrad", g.output(0), g.dys[0])};
      });

  // ---- trigonometric and hyperbolic ----
  OpBuilder(r, "Sin")
      .api("tf.sin").api("tf.math.sin")
      .input("x")
      .doc("Sine elementwise (radians).")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{ops::mul(g.graph, g.dys[0], op1(g.graph, "Cos", g.input(0)))};
      });

  OpBuilder(r, "Cos")
      .api("tf.cos").api("tf.math.cos")
      .input("x")
      .doc("Cosine elementwise (radians).")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        return std::vector<Output>{ops::mul(G, g.dys[0], ops::neg(G, op1(G, "Sin", g.input(0))))};
      });

  OpBuilder(r, "Tanh")
      .api("tf.tanh").api("tf.math.tanh").api("tf.nn.tanh")
      .input("x")
      .doc("Hyperbolic tangent elementwise.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "TanhGrad", g.output(0), g.dys[0])};
      });

  OpBuilder(r, "Sigmoid")
      .api("tf.sigmoid").api("tf.nn.sigmoid").api("tf.math.sigmoid")
      .input("x")
      .doc("1 / (1 + exp(-x)) elementwise.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "SigmoidGrad", g.output(0), g.dys[0])};
      });

  // ---- rounding ----
  OpBuilder(r, "Floor")
      .api("tf.floor").api("tf.math.floor")
      .input("x")
      .doc("Largest integer not greater than x, elementwise.")
      .shape(unchangedFloat)
      .grad([](GradContext&) { return none1(); });  // TensorFlow: None

  OpBuilder(r, "Ceil")
      .api("tf.ceil").api("tf.math.ceil")
      .input("x")
      .doc("Smallest integer not less than x, elementwise.")
      .shape(unchangedFloat)
      .grad([](GradContext&) { return none1(); });  // TensorFlow: None

  OpBuilder(r, "Round")
      .api("tf.round").api("tf.math.round")
      .input("x")
      .doc("Rounds to the nearest integer elementwise, halves to even (banker's rounding).")
      .shape(signedNumeric)
      .grad([](GradContext&) { return none1(); });  // TensorFlow: None

  // ---- classification ----
  OpBuilder(r, "IsNan")
      .api("tf.is_nan").api("tf.math.is_nan").api("tf.debugging.is_nan")
      .input("x")
      .doc("True where x is NaN.")
      .shape(floatPredicate)
      .notDifferentiable();

  OpBuilder(r, "IsInf")
      .api("tf.is_inf").api("tf.math.is_inf").api("tf.debugging.is_inf")
      .input("x")
      .doc("True where x is +inf or -inf.")
      .shape(floatPredicate)
      .notDifferentiable();

  OpBuilder(r, "IsFinite")
      .api("tf.is_finite").api("tf.math.is_finite").api("tf.debugging.is_finite")
      .input("x")
      .doc("True where x is neither NaN nor infinite.")
      .shape(floatPredicate)
      .notDifferentiable();

  // ---- activations ----
  OpBuilder(r, "Relu")
      .api("tf.nn.relu")
      .input("features")
      .doc("max(features, 0) elementwise (NaN stays NaN).")
      .shape(realNumeric)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "ReluGrad", g.dys[0], g.input(0))};
      });

  OpBuilder(r, "Relu6")
      .api("tf.nn.relu6")
      .input("features")
      .doc("min(max(features, 0), 6) elementwise (NaN stays NaN).")
      .shape(realNumeric)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "Relu6Grad", g.dys[0], g.input(0))};
      });

  OpBuilder(r, "Elu")
      .api("tf.nn.elu")
      .input("features")
      .doc("exp(features) - 1 where features < 0, else features.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "EluGrad", g.dys[0], g.output(0))};
      });

  OpBuilder(r, "Selu")
      .api("tf.nn.selu")
      .input("features")
      .doc("Scaled ELU: scale * alpha * (exp(features) - 1) where features < 0, else scale * features.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "SeluGrad", g.dys[0], g.output(0))};
      });

  OpBuilder(r, "Softplus")
      .api("tf.nn.softplus").api("tf.math.softplus")
      .input("features")
      .doc("log(exp(features) + 1) elementwise, computed without overflow.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "SoftplusGrad", g.dys[0], g.input(0))};
      });

  OpBuilder(r, "LeakyRelu")
      .api("tf.nn.leaky_relu")
      .input("features")
      .attr("alpha", 0.2, "slope where features < 0")
      .doc("features where features > 0, else alpha * features.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        AttrReader at(g.node.attrs);
        return std::vector<Output>{g.graph.op("LeakyReluGrad", {g.dys[0], g.input(0)},
                                              {{"alpha", at.getFloat("alpha", 0.2)}})};
      });

  // ---- gradient ops (each differentiable again, for second derivatives) ----
  OpBuilder(r, "ReluGrad")
      .input("gradients").input("features")
      .doc("Gradient of Relu: gradients where features > 0, else 0.")
      .shape(realGradPair)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "ReluGrad", g.dys[0], g.input(1)),
                                   ops::zerosLike(g.graph, g.input(1))};
      });

  OpBuilder(r, "Relu6Grad")
      .input("gradients").input("features")
      .doc("Gradient of Relu6: gradients where 0 < features < 6, else 0.")
      .shape(realGradPair)
      .grad([](GradContext& g) {
        return std::vector<Output>{op2(g.graph, "Relu6Grad", g.dys[0], g.input(1)),
                                   ops::zerosLike(g.graph, g.input(1))};
      });

  OpBuilder(r, "EluGrad")
      .input("gradients").input("outputs")
      .doc("Gradient of Elu from its outputs: gradients * (outputs + 1) where outputs < 0, else gradients.")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dy = g.input(0), y = g.input(1), gg = g.dys[0];
        Output zero = scalarLike(G, y, 0.0);
        Output neg = op2(G, "Less", y, zero);
        return std::vector<Output>{op2(G, "EluGrad", gg, y),
                                   G.op("SelectV2", {neg, ops::mul(G, gg, dy), zero})};
      });

  OpBuilder(r, "SeluGrad")
      .input("gradients").input("outputs")
      .doc("Gradient of Selu from its outputs.")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dy = g.input(0), y = g.input(1), gg = g.dys[0];
        Output zero = scalarLike(G, y, 0.0);
        Output neg = op2(G, "Less", y, zero);
        return std::vector<Output>{op2(G, "SeluGrad", gg, y),
                                   G.op("SelectV2", {neg, ops::mul(G, gg, dy), zero})};
      });

  OpBuilder(r, "SoftplusGrad")
      .input("gradients").input("features")
      .doc("Gradient of Softplus: gradients * sigmoid(features).")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output dy = g.input(0), x = g.input(1), gg = g.dys[0];
        Output s = op1(G, "Sigmoid", x);
        return std::vector<Output>{op2(G, "SoftplusGrad", gg, x),
                                   op2(G, "SigmoidGrad", s, ops::mul(G, gg, dy))};
      });

  OpBuilder(r, "LeakyReluGrad")
      .input("gradients").input("features")
      .attr("alpha", 0.2, "slope where features < 0")
      .doc("Gradient of LeakyRelu: gradients where features > 0, else alpha * gradients.")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        AttrReader at(g.node.attrs);
        return std::vector<Output>{g.graph.op("LeakyReluGrad", {g.dys[0], g.input(1)},
                                              {{"alpha", at.getFloat("alpha", 0.2)}}),
                                   ops::zerosLike(g.graph, g.input(1))};
      });

  OpBuilder(r, "SigmoidGrad")
      .input("y").input("dy")
      .doc("Gradient of Sigmoid from its output y: dy * y * (1 - y).")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output y = g.input(0), dy = g.input(1), gg = g.dys[0];
        Output oneMinus2y = ops::sub(G, scalarLike(G, y, 1.0), ops::mul(G, scalarLike(G, y, 2.0), y));
        return std::vector<Output>{ops::mul(G, ops::mul(G, gg, dy), oneMinus2y),
                                   op2(G, "SigmoidGrad", y, gg)};
      });

  OpBuilder(r, "TanhGrad")
      .input("y").input("dy")
      .doc("Gradient of Tanh from its output y: dy * (1 - y * y).")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output y = g.input(0), dy = g.input(1), gg = g.dys[0];
        Output dY = ops::mul(G, ops::mul(G, gg, dy), ops::mul(G, scalarLike(G, y, -2.0), y));
        return std::vector<Output>{dY, op2(G, "TanhGrad", y, gg)};
      });

  OpBuilder(r, "SqrtGrad")
      .input("y").input("dy")
      .doc("Gradient of Sqrt from its output y: 0.5 * dy / y.")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output y = g.input(0), gg = g.dys[0];
        // d(0.5 dy / y)/dy_out = -0.5 dy / y^2 = -out / y.
        Output dY = ops::neg(G, ops::mul(G, gg, ops::div(G, g.output(0), y)));
        return std::vector<Output>{dY, op2(G, "SqrtGrad", y, gg)};
      });

  OpBuilder(r, "RsqrtGrad")
      .input("y").input("dy")
      .doc("Gradient of Rsqrt from its output y: -0.5 * dy * y^3.")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output y = g.input(0), dy = g.input(1), gg = g.dys[0];
        Output dY = ops::mul(G, ops::mul(G, gg, dy), ops::mul(G, scalarLike(G, y, -1.5), ops::square(G, y)));
        return std::vector<Output>{dY, op2(G, "RsqrtGrad", y, gg)};
      });

  OpBuilder(r, "ReciprocalGrad")
      .input("y").input("dy")
      .doc("Gradient of Reciprocal from its output y: -dy * y * y.")
      .shape(floatGradPair)
      .grad([](GradContext& g) {
        Graph& G = g.graph;
        Output y = g.input(0), dy = g.input(1), gg = g.dys[0];
        Output dY = ops::mul(G, ops::mul(G, gg, dy), ops::mul(G, scalarLike(G, y, -2.0), y));
        return std::vector<Output>{dY, op2(G, "ReciprocalGrad", y, gg)};
      });
}

}  // namespace tlens
