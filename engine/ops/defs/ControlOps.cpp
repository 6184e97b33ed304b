// Debugging and control ops: CheckNumerics, Print (TF1's tf.Print), Assert.
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

}  // namespace

void registerControlOps(OpRegistry& r) {
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

  OpBuilder(r, "Print").cpuOnly("prints on the host")
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

  OpBuilder(r, "Assert").cpuOnly("checks its condition and prints on the host")
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
