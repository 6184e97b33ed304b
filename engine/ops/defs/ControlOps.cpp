// Debugging and control ops: CheckNumerics, Print (TF1's tf.Print), Assert; and the control flow
// of tf.cond: Switch and Merge (dead outputs, see Session.cpp and Graph::pushCondBranch).
#include "engine/graph/Builder.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult assertShape(const InferContext& c) {
  if (c.numInputs() == 0) return shapeError(c, "Assert needs a condition");
  if (c.dtype(0) != DType::Invalid && c.dtype(0) != DType::Bool)
    return shapeError(c, "Input 'condition' (" + c.inputName(0) + ") of 'Assert' has type " +
                             std::string(dtypeName(c.dtype(0))) + " that does not match expected type of bool",
                      {0});
  const Shape& s = c.shape(0);
  // TensorFlow accepts a scalar or (legacy) a one-element vector.
  const bool scalarLike = !s.rankKnown() || s.rank() == 0 ||
                          (s.rank() == 1 && !s[0].conflicts(Dim::known(1)));
  if (!scalarLike) return shapeError(c, "In[0] should be a scalar: " + s.str(), {0});
  if (c.getInt("summarize", 3) < -1)
    return shapeError(c, "summarize must be >= -1, but got " + std::to_string(c.getInt("summarize")));
  return none(c);
}

ShapeResult switchShape(const InferContext& c) {
  if (c.numInputs() != 2) return shapeError(c, "Switch takes data and pred");
  if (c.dtype(1) != DType::Invalid && c.dtype(1) != DType::Bool)
    return shapeError(c, "Input 'pred' (" + c.inputName(1) + ") of 'Switch' has type " +
                             std::string(dtypeName(c.dtype(1))) + " that does not match expected type of bool",
                      {1});
  const Shape& p = c.shape(1);
  if (p.rankKnown() && p.rank() != 0)
    return shapeError(c, "Shape must be rank 0 but is rank " + std::to_string(p.rank()) + " for 'pred' of 'Switch'", {1});
  ShapeResult r;
  r.outputs = {TensorType(c.dtype(0), c.shape(0)), TensorType(c.dtype(0), c.shape(0))};
  return r;
}

// The most specific shape both branches can have ([?, 3] for [2, 3] and [5, 3]).
ShapeResult mergeShape(const InferContext& c) {
  if (c.numInputs() == 0) return shapeError(c, "Merge needs at least one input");
  DType dt = c.dtype(0);
  Shape s = c.shape(0);
  for (size_t i = 1; i < c.numInputs(); ++i) {
    if (dt != DType::Invalid && c.dtype(i) != DType::Invalid && c.dtype(i) != dt)
      return shapeError(c, "Merge inputs must all have the same type: " + std::string(dtypeName(dt)) + " and " +
                               std::string(dtypeName(c.dtype(i))), {0, static_cast<int>(i)});
    if (dt == DType::Invalid) dt = c.dtype(i);
    const Shape& o = c.shape(i);
    if (!s.rankKnown() || !o.rankKnown() || s.rank() != o.rank()) {
      s = Shape::unknownRank();
      continue;
    }
    std::vector<Dim> dims;
    for (int k = 0; k < s.rank(); ++k) {
      const Dim& a = s[static_cast<size_t>(k)];
      const Dim& b = o[static_cast<size_t>(k)];
      dims.push_back(a == b ? a : Dim::unknown());
    }
    s = Shape(std::move(dims));
  }
  ShapeResult r;
  r.outputs = {TensorType(dt, s), TensorType(DType::Int32, Shape::scalar())};
  return r;
}

}  // namespace

void registerControlOps(OpRegistry& r) {
  OpBuilder(r, "Switch").strings(OpDef::Strings::ByIndex).cpuOnly("control flow decides on the host").deadOutputs()
      .input("data")
      .input("pred")
      .doc("Forwards `data` to output_true when `pred` holds, else to output_false; the other output is dead.")
      .shape(switchShape)
      .grad([](GradContext& g) {
        // The branch not taken sends no gradient: its part is dead and Merge takes the other.
        std::vector<Output> parts;
        for (size_t k = 0; k < 2; ++k) parts.push_back(g.dys[k] ? g.dys[k] : ops::zerosLike(g.graph, g.output(k)));
        return std::vector<Output>{g.graph.op("Merge", parts), Output{}};
      });

  OpBuilder(r, "Merge").strings(OpDef::Strings::ByIndex).cpuOnly("control flow decides on the host").deadOutputs()
      .inputList("inputs")
      .doc("Forwards the one live input, and its index as value_index.")
      .shape(mergeShape)
      .grad([](GradContext& g) {
        // Back to the input that was live: a Switch on value_index == i for each input i.
        std::vector<Output> r;
        for (size_t i = 0; i < g.node.inputs.size(); ++i) {
          Output idx = ops::constant(g.graph, Tensor::scalar<int32_t>(static_cast<int32_t>(i)));
          Output taken = g.graph.op("Equal", {g.output(1), idx});
          r.push_back(Output{g.graph.addNode("Switch", {g.dys[0], taken}, {}, {}), 1});
        }
        return r;
      });

  OpBuilder(r, "CheckNumerics")
      .api("tf.debugging.check_numerics").api("tf.check_numerics").api("tf.compat.v1.check_numerics")
      .input("tensor")
      .attr("message", std::string(), "prefix of the error message")
      .stateful()
      .doc("Passes its input through, failing the run if it holds NaN or Inf values.")
      .shape(unchangedFloat)
      .grad([](GradContext& g) {
        AttrReader a(g.node.attrs);
        return std::vector<Output>{g.graph.op(
            "CheckNumerics", {g.dys[0]},
            {{"message", "Not a number (NaN) or infinity (Inf) values detected in gradient. " +
                             a.getString("message")}})};
      });

  OpBuilder(r, "Print").strings(OpDef::Strings::Native).cpuOnly("prints on the host")
      .api("tf.Print").api("tf.compat.v1.Print")
      .input("input")
      .inputList("data")
      .attr("message", std::string(), "printed before the data")
      .attr("first_n", int64_t{-1}, "print only the first n runs (-1: always)")
      .attr("summarize", int64_t{3}, "elements printed per tensor")
      .stateful()
      .doc("Passes `input` through and prints `message` and the `data` tensors (TF1 tf.Print).")
      .shape([](const InferContext& c) {
        if (c.numInputs() == 0) return shapeError(c, "Print needs an input");
        return unchanged(c);
      })
      .grad([](GradContext& g) {
        std::vector<Output> r(g.node.inputs.size());
        r[0] = g.dys[0];
        return r;
      });

  OpBuilder(r, "Assert").strings(OpDef::Strings::Native).cpuOnly("checks its condition and prints on the host")
      .api("tf.debugging.Assert").api("tf.Assert").api("tf.compat.v1.Assert")
      .input("condition")
      .inputList("data")
      .attr("summarize", int64_t{3}, "elements printed per tensor")
      .stateful()
      .notDifferentiable()
      .doc("Fails the run with the data tensors in the message when `condition` is false.")
      .shape(assertShape);
}

}  // namespace tlens
