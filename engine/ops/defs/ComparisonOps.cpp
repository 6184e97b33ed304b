// Comparisons and logical ops: Equal, Less, ..., LogicalAnd, LogicalOr, LogicalNot. Bool outputs,
// numpy broadcasting, no gradients.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

/// Equal / NotEqual: any dtype, both the same.
ShapeResult equality(const InferContext& c) { return broadcastBinary(c, DType::Bool); }

/// Less, Greater...: real numbers only.
ShapeResult ordering(const InferContext& c) {
  if (auto e = checkSameDType(c, {0, 1})) return *e;
  for (size_t i = 0; i < 2; ++i)
    if (auto e = checkDType(c, i, {DType::Float32, DType::Float64, DType::Float16, DType::Int32,
                                   DType::Int64, DType::UInt8}))
      return *e;
  return broadcastBinary(c, DType::Bool);
}

ShapeResult logicalBinary(const InferContext& c) {
  for (size_t i = 0; i < 2; ++i)
    if (auto e = checkDType(c, i, {DType::Bool})) return *e;
  return broadcastBinary(c, DType::Bool);
}

ShapeResult logicalNot(const InferContext& c) {
  if (auto e = checkDType(c, 0, {DType::Bool})) return *e;
  return ShapeResult::single(DType::Bool, c.shape(0));
}

void comparison(OpRegistry& r, const char* type, const char* snake, const char* what,
                ShapeResult (*shape)(const InferContext&)) {
  OpBuilder(r, type)
      .api(std::string("tf.") + snake).api(std::string("tf.math.") + snake)
      .input("x").input("y")
      .doc(std::string("x ") + what + " y elementwise as bool, with numpy broadcasting.")
      .shape(shape)
      .strings(shape == equality ? OpDef::Strings::ByValue : OpDef::Strings::Reject)
      .notDifferentiable();
}

}  // namespace

void registerComparisonOps(OpRegistry& r) {
  comparison(r, "Equal", "equal", "==", equality);
  comparison(r, "NotEqual", "not_equal", "!=", equality);
  comparison(r, "Less", "less", "<", ordering);
  comparison(r, "LessEqual", "less_equal", "<=", ordering);
  comparison(r, "Greater", "greater", ">", ordering);
  comparison(r, "GreaterEqual", "greater_equal", ">=", ordering);

  OpBuilder(r, "LogicalAnd")
      .api("tf.logical_and").api("tf.math.logical_and")
      .input("x").input("y")
      .doc("x AND y elementwise on bools, with numpy broadcasting.")
      .shape(logicalBinary)
      .notDifferentiable();

  OpBuilder(r, "LogicalOr")
      .api("tf.logical_or").api("tf.math.logical_or")
      .input("x").input("y")
      .doc("x OR y elementwise on bools, with numpy broadcasting.")
      .shape(logicalBinary)
      .notDifferentiable();

  OpBuilder(r, "LogicalNot")
      .api("tf.logical_not").api("tf.math.logical_not")
      .input("x")
      .doc("NOT x elementwise on bools.")
      .shape(logicalNot)
      .notDifferentiable();
}

}  // namespace tlens
