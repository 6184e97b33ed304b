// tf.function: a Python function traced into a graph once per input signature, then run by
// replaying the graph's nodes through the eager context, one op at a time. Replaying (rather
// than a Session run) keeps eager semantics around the call: GradientTapes record each op,
// variables are the eager ones (captured by reference: reads see the latest value, assignments
// persist), and debug hooks see each node with the source location that created it.
//
// In abstract mode, in the debugger's "eager" mode and after tf.config.run_functions_eagerly
// (True), the body runs as Python. Python control flow on tensors cannot be traced (tensorlens has
// no AutoGraph): when a trace fails, the function runs eagerly from then on, which computes the
// same values.
#pragma once

#include <map>

#include "lang/tf/TfObjects.h"

namespace tlens::tf {

class FunctionObj : public interp::NativeObject {
 public:
  FunctionObj(TfRuntime& rt, interp::Value fn) : rt(&rt), fn(std::move(fn)) {}
  TfRuntime* rt;
  interp::Value fn;
  bool eagerOnly = false;  ///< a trace failed: run as Python

  struct Trace {
    Graph* graph = nullptr;
    std::vector<Node*> params;                   ///< one Placeholder per tensor argument
    std::map<const Node*, interp::Value> captures;  ///< VariableV2/Const node -> the eager tensor
    interp::Value outputs;                       ///< the traced result (nested tensors)
    /// The replay's plan, made once per trace: `run[id]` for the nodes the outputs or a stateful
    /// op (variable updates, random draws, Print, Assert) need, directly or through control
    /// inputs; the others are skipped. `release[id]`: the nodes whose values no node after `id`
    /// reads (and no output is), dropped once `id` has run, so buffers are reused within a step.
    std::vector<char> run;
    std::vector<std::vector<size_t>> release;
    /// Per node, made once too: its tensor argument's index (-1: none), its captured eager
    /// tensor (null: none), the device it was placed on when traced (its name).
    std::vector<int> param;
    std::vector<const interp::Value*> capture;
    std::vector<std::string> device;
  };
  std::map<std::string, Trace> traces;  ///< by input signature

  std::string typeName() const override { return "Function"; }
  std::string typeModule() const override { return "tensorflow"; }
  interp::Value call(interp::CallContext& c) override;
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  std::string repr(interp::Interpreter& in) override;
};

/// The trace being built, if any: applyOp asks it to capture eager inputs by reference.
struct TraceContext {
  Graph* graph = nullptr;
  std::map<std::string, Output> variables;  ///< captured eager variables by resource name
  std::map<const Node*, interp::Value>* captures = nullptr;
};

}  // namespace tlens::tf
