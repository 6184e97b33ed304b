// Variables and control: VariableV2, Assign, AssignAdd, AssignSub, NoOp.
#include "engine/graph/Builder.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

/// Assign-like ops: the value must fit the variable; the output is the variable's new value.
ShapeResult assignShape(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  if (!c.shape(0).compatible(c.shape(1)))
    return shapeError(c, "Shapes must be equal rank and compatible, but are " + c.shape(0).str() +
                             " and " + c.shape(1).str(), {0, 1});
  return ShapeResult::single(commonDType(c, {0, 1}), c.shape(0).merge(c.shape(1)));
}
/// AssignAdd / AssignSub: like Assign, for numeric variables.
ShapeResult assignUpdateShape(const InferContext& c) {
  if (auto e = checkDType(c, 1, {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64,
                                 DType::UInt8}))
    return *e;
  return assignShape(c);
}
}  // namespace

void registerStateOps(OpRegistry& r) {
  OpBuilder(r, "VariableV2")
      .api("tf.Variable")
      .attr("dtype")
      .attr("shape")
      .attr("trainable", true)
      .stateful()
      .notDifferentiable()  // gradients stop at variables: they are the xs of tf.gradients
      .doc("A variable: state that persists across runs of the graph.")
      .shape([](const InferContext& c) {
        return ShapeResult::single(c.getDType("dtype"), c.getShape("shape"));
      });

  OpBuilder(r, "Assign")
      .api("tf.assign")
      .api("tf.compat.v1.assign")
      .input("ref")
      .input("value")
      .refInput(0)
      .notDifferentiable()
      .doc("Stores a new value in a variable.")
      .shape(assignShape);

  OpBuilder(r, "AssignAdd")
      .api("tf.assign_add").api("tf.compat.v1.assign_add")
      .input("ref")
      .input("value")
      .refInput(0)
      .attr("use_locking", false)
      .notDifferentiable()
      .doc("Adds a value to a variable in place; the output is the new value.")
      .shape(assignUpdateShape);

  OpBuilder(r, "AssignSub")
      .api("tf.assign_sub").api("tf.compat.v1.assign_sub")
      .input("ref")
      .input("value")
      .refInput(0)
      .attr("use_locking", false)
      .notDifferentiable()
      .doc("Subtracts a value from a variable in place; the output is the new value.")
      .shape(assignUpdateShape);

  OpBuilder(r, "NoOp")
      .api("tf.no_op")
      .notDifferentiable()
      .doc("Does nothing; groups control dependencies.")
      .shape(none);
}

}  // namespace tlens
