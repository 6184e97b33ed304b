// Runs the op case table that the family test files fill: every registered op must have a case,
// a CPU kernel and a gradient (or be marked non-differentiable); every case matches its reference
// values, gives identical results eagerly and in a graph, and passes a float64 gradient check.
#include <set>

#include "OpTestUtil.h"
#include "engine/runtime/Kernel.h"

using namespace tlens;
using namespace tlens::test;

namespace {
std::string describe(const OpCase& c) {
  std::string s = c.op + "(";
  for (size_t i = 0; i < c.inputs.size(); ++i) s += (i ? ", " : "") + c.inputs[i].typeStr();
  s += ")";
  for (const auto& [k, v] : c.attrs) s += " " + k + "=" + attrToString(v);
  if (!c.note.empty()) s += "  // " + c.note;
  return s;
}

// Ops that only make sense inside a graph with state or feeds; their behaviour is covered by the
// executor tests rather than the one-op table.
const std::set<std::string> kGraphOnly = {"Placeholder",          "VariableV2",     "Assign",
                                          "AssignAdd",            "AssignSub",      "NoOp",
                                          "ApplyGradientDescent", "ApplyMomentum",  "ApplyAdam",
                                          "ApplyRMSProp",         "ApplyAdagrad",   "ApplyAdadelta",
                                          "ScatterUpdate",        "ScatterAdd",     "ScatterSub",
                                          // Keras' fused SGD, Adam and RMSprop (OptimizerOpsTests.cpp)
                                          "_KerasSGDStep",
                                          "_KerasAdamMoments",    "_KerasAdamStep",
                                          "_KerasRMSpropAverage", "_KerasRMSpropStep",
                                          // tf.cond's control flow: dead outputs (tests/tf/CondTests.cpp)
                                          "Switch",               "Merge",
                                          // graph loops run by the Session (tests/tf/WhileLoopTests.cpp)
                                          "LoopArg",              "While",          "WhileGrad"};
}  // namespace

TEST_CASE("every registered op has a CPU kernel, a gradient decision and a test case", "[engine][registry]") {
  std::set<std::string> covered;
  for (const OpCase& c : allCases()) covered.insert(c.op);
  for (const OpDef* op : OpRegistry::global().all()) {
    INFO("op " << op->type);
    CHECK(KernelRegistry::global().find(op->type, Device::CPU) != nullptr);
    CHECK((op->grad || !op->differentiable));
    CHECK(op->shape);
    if (!kGraphOnly.count(op->type)) CHECK(covered.count(op->type) == 1);
  }
}

TEST_CASE("every op case matches its reference, eager equals graph, gradients match finite differences", "[engine][ops]") {
  for (const OpCase& c : allCases()) {
    INFO(describe(c));
    std::vector<Tensor> eager;
    REQUIRE_NOTHROW(eager = runEager(c.op, c.inputs, c.attrs));
    for (size_t i = 0; i < c.expected.size(); ++i) {
      INFO("output " << i << ": got " << eager[i].typeStr() << " " << eager[i].str() << "\nwant "
                     << c.expected[i].typeStr() << " " << c.expected[i].str());
      REQUIRE(i < eager.size());
      CHECK(eager[i].dtype() == c.expected[i].dtype());
      CHECK(eager[i].shape() == c.expected[i].shape());
      CHECK(maxRelativeError(eager[i], c.expected[i]) <= c.tol);
    }
    const OpDef& def = OpRegistry::global().get(c.op);
    if (!def.stateful) {
      std::vector<Tensor> graph = runGraph(c.op, c.inputs, c.attrs);
      REQUIRE(graph.size() == eager.size());
      for (size_t i = 0; i < graph.size(); ++i) CHECK(tensorsEqual(graph[i], eager[i]));
    }
    bool anyFloat = false;
    for (const Tensor& t : c.inputs) anyFloat = anyFloat || isFloating(t.dtype());
    if (def.differentiable && c.gradCheck && anyFloat) {
      double err = gradientError(c.op, c.inputs, c.attrs, c.gradInputs);
      INFO("gradient relative error " << err);
      CHECK(err <= c.gradTol);
    }
  }
}
