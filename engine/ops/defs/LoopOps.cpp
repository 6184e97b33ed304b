// Graph-mode loops (engine/graph/Loops.h): LoopArg (a loop body's parameter), While (runs its
// condition and body frames until the condition fails) and WhileGrad (runs the body's gradient
// frame backwards over the recorded iterations). The Session's executor runs While and WhileGrad
// itself (engine/runtime/SessionLoops.cpp); their CPU kernels only refuse to run elsewhere.
#include "engine/graph/Graph.h"
#include "engine/graph/Loops.h"
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

ShapeResult loopArgShape(const InferContext& c) {
  const DType t = c.getDType("dtype");
  if (t == DType::Invalid) return shapeError(c, "LoopArg needs a dtype");
  return ShapeResult::single(t, c.getShape("shape"));
}

ShapeResult whileShape(const InferContext& c) {
  const int64_t n = c.getInt("num_vars"), s = c.getInt("num_sliced");
  if (n < 0 || s < 0 || static_cast<int64_t>(c.numInputs()) < n + s)
    return shapeError(c, "While takes its loop variables and sliced inputs first");
  for (int64_t i = n; i < n + s; ++i)
    if (c.shape(static_cast<size_t>(i)).rankKnown() && c.shape(static_cast<size_t>(i)).rank() == 0)
      return shapeError(c, "A sliced input of a loop must have rank >= 1", {static_cast<int>(i)});
  ShapeResult r;
  r.outputs = decodeTypes(c.getInts("out_types").value_or(std::vector<int64_t>{}));
  if (static_cast<int64_t>(r.outputs.size()) < n) return shapeError(c, "While: out_types is missing");
  for (int64_t j = 0; j < n; ++j) {
    const TensorType& in = c.input(static_cast<size_t>(j));
    TensorType& out = r.outputs[static_cast<size_t>(j)];
    if (in.dtype != DType::Invalid && out.dtype != DType::Invalid && in.dtype != out.dtype)
      return dtypeError(shapeError(c, "Loop variable " + std::to_string(j) + " enters the loop with type " +
                                          std::string(dtypeName(in.dtype)) + " but is declared " +
                                          std::string(dtypeName(out.dtype)), {static_cast<int>(j)}));
  }
  r.outputs.emplace_back(DType::Int64, Shape::scalar());  // the handle of the recorded iterations
  return r;
}

// Gradients of the initial values, the sliced inputs and the captures that have one: typed as
// the forward inputs they belong to.
ShapeResult whileGradShape(const InferContext& c) {
  const int64_t n = c.getInt("num_vars"), s = c.getInt("num_sliced"), e = c.getInt("num_emits");
  const int64_t fwd = c.getInt("num_forward_inputs");
  const int64_t firstFwd = 1 + n + e;
  if (static_cast<int64_t>(c.numInputs()) < firstFwd + fwd) return shapeError(c, "WhileGrad: missing inputs");
  ShapeResult r;
  for (int64_t k = 0; k < n + s; ++k) r.outputs.push_back(c.input(static_cast<size_t>(firstFwd + k)));
  for (int64_t k : c.getInts("captures").value_or(std::vector<int64_t>{})) {
    if (k < 0 || k >= fwd) return shapeError(c, "WhileGrad: bad capture index");
    r.outputs.push_back(c.input(static_cast<size_t>(firstFwd + k)));
  }
  for (TensorType& t : r.outputs) t.value.reset();
  return r;
}

}  // namespace

void registerLoopOps(OpRegistry& r) {
  OpBuilder(r, "LoopArg").strings(OpDef::Strings::Native).cpuOnly("its loop feeds it on the host")
      .attr("dtype")
      .attr("shape", Shape::unknownRank())
      .stateful()
      .notDifferentiable()
      .doc("A parameter of a tf.while_loop body (a loop variable's value in one iteration); its loop feeds it.")
      .shape(loopArgShape);

  OpBuilder(r, "While").strings(OpDef::Strings::Native).cpuOnly("the loop is driven from the host")
      .inputList("inputs")
      .attr("num_vars", int64_t{0}, "carried loop variables (the first inputs)")
      .attr("num_sliced", int64_t{0}, "inputs read one element per iteration (after the loop variables)")
      .attr("num_emits", int64_t{0}, "per-iteration values stacked into outputs")
      .attr("frame", std::vector<int64_t>{}, "the node ids [first, end) of the condition and body")
      .attr("params", std::vector<int64_t>{}, "the body's LoopArg nodes")
      .attr("cond", std::vector<int64_t>{}, "the condition tensor (node id, output)")
      .attr("body", std::vector<int64_t>{}, "the next values and emits (node id, output pairs)")
      .attr("out_types", std::vector<int64_t>{}, "the outputs' dtypes and shapes")
      .attr("record", std::vector<int64_t>{}, "body tensors recorded per iteration for the gradient")
      .attr("has_gradient", false, "a gradient reads the recorded iterations (their count at least)")
      .stateful()
      .doc("Runs the loop body while the condition holds (tf.while_loop in a graph), with the loop "
           "variables, the stacked per-iteration values and a handle of the recorded iterations as outputs.")
      .shape(whileShape)
      .grad(whileGradient);

  OpBuilder(r, "WhileGrad").strings(OpDef::Strings::Native).cpuOnly("the loop is driven from the host")
      .inputList("inputs")
      .attr("forward", int64_t{-1}, "the While node")
      .attr("num_vars", int64_t{0})
      .attr("num_sliced", int64_t{0})
      .attr("num_emits", int64_t{0})
      .attr("num_forward_inputs", int64_t{0})
      .attr("frame", std::vector<int64_t>{}, "the node ids [first, end) of the body's gradient")
      .attr("dparams", std::vector<int64_t>{}, "LoopArg nodes of the incoming gradients (-1: none)")
      .attr("results", std::vector<int64_t>{}, "the gradient frame's results (node id, output pairs)")
      .attr("captures", std::vector<int64_t>{}, "forward inputs whose gradient is an output")
      .stateful()
      .notDifferentiable()
      .doc("The gradient of a While: runs the body's gradient once per recorded iteration, last first.")
      .shape(whileGradShape);
}

}  // namespace tlens
