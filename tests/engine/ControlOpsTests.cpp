// Debugging ops: CheckNumerics, Print (and its sink), Assert.
#include <cmath>
#include <limits>

#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/PrintSink.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {

/// Collects printed lines while alive; restores the previous sink after.
struct CapturePrints {
  std::vector<std::string> lines;
  PrintSink old;
  CapturePrints() { old = setPrintSink([this](const std::string& s) { lines.push_back(s); }); }
  ~CapturePrints() { setPrintSink(old); }
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("control ops check their inputs' types", "[engine][shape][control]") {
  INFER_OK("CheckNumerics", "[b,3]", "[b,3]");
  INFER_ERROR("is not in the list of allowed values", "CheckNumerics", "int32:[2]");
  INFER_OK("Print", "[b,3];[2];int32:[]", "[b,3]");
  INFER_OK("Assert", "bool:[];[2];int32:[3]", "");
  INFER_OK("Assert", "bool:[1]", "");
  INFER_ERROR("In[0] should be a scalar: [2]", "Assert", "bool:[2];[3]");
  INFER_ERROR("that does not match expected type of bool", "Assert", "float32:[];[3]");
}

TEST_CASE("CheckNumerics fails with TensorFlow's message and checks the gradient too", "[engine][control]") {
  const Attrs m{{"message", std::string("logits")}};
  CHECK_THROWS_WITH(runEager("CheckNumerics", {F32({1, kNaN, 2})}, m), Catch::StartsWith("logits : Tensor had NaN values"));
  CHECK_THROWS_WITH(runEager("CheckNumerics", {F32({1, -kInf})}, m), Catch::StartsWith("logits : Tensor had Inf values"));
  CHECK_THROWS_WITH(runEager("CheckNumerics", {F64({kInf, kNaN})}, m),
                    Catch::StartsWith("logits : Tensor had Inf and NaN values"));
  CHECK_THROWS_WITH(runEager("CheckNumerics", {F32({kNaN})}, m), Catch::Contains("[[node CheckNumerics"));
  // Large input: every chunk is scanned.
  Tensor big = Tensor::filled(DType::Float32, {300000}, 1.0);
  big.data<float>()[299999] = kNaN;
  CHECK_THROWS_WITH(runEager("CheckNumerics", {big}, m), Catch::Contains("NaN"));

  Graph g;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[2]"), "x");
  Output y = g.op("CheckNumerics", {x}, m);
  Output loss = ops::reduceSum(g, ops::mul(g, y, ops::constant(g, F32({1, kNaN}))), {});
  Output dx = gradients(g, {loss}, {x})[0];
  REQUIRE(dx);
  CHECK(dx.node->type() == "CheckNumerics");
  Session s(g);
  CHECK_THROWS_WITH(s.run({dx}, {{x, F32({1, 2})}}),
                    Catch::StartsWith("Not a number (NaN) or infinity (Inf) values detected in gradient. logits : "
                                      "Tensor had NaN values"));
}

TEST_CASE("summarizeValue prints like TensorFlow's SummarizeValue", "[engine][control]") {
  CHECK(summarizeValue(F32({1, 2, 3}), 3) == "1 2 3");
  CHECK(summarizeValue(F32({1, 2, 3, 4, 5}), 3) == "1 2 3...");
  CHECK(summarizeValue(F32({1, 2, 3, 4}, {2, 2}), 3) == "[1 2][3...]...");
  CHECK(summarizeValue(F32({1, 2, 3, 4}, {2, 2}), -1) == "[1 2][3 4]");
  CHECK(summarizeValue(F32({0.1f, 0.5f, 1.0f / 3}), 3) == "0.1 0.5 0.333333343");
  CHECK(summarizeValue(F64({0.1, 1.0 / 3}), 3) == "0.1 0.33333333333333331");
  CHECK(summarizeValue(F32({kNaN, kInf, -kInf}), 3) == "nan inf -inf");
  CHECK(summarizeValue(I32({-4, 7}), 3) == "-4 7");
  CHECK(summarizeValue(B({true, false}, {2}), 3) == "1 0");
  CHECK(summarizeValue(F32({2.5f}, {}), 3) == "2.5");
  CHECK(summarizeValue(F32({}, {0}), 3) == "");
}

TEST_CASE("Print passes its input through and prints message and data to the sink", "[engine][control]") {
  CapturePrints cap;
  Graph g;
  Output x = ops::constant(g, F32({1, 2, 3, 4, 5}));
  Output m = ops::constant(g, F32({1, 2, 3, 4}, {2, 2}));
  Output p = g.op("Print", {x, x, m}, {{"message", std::string("x: ")}});
  Output once = g.op("Print", {x, ops::constant(g, I32({7}))}, {{"message", std::string("once")}, {"first_n", int64_t{1}}});
  Output wide = g.op("Print", {x, x}, {{"summarize", int64_t{-1}}});
  Session s(g);
  auto r = s.run({p});
  CHECK(tensorsEqual(r[0], F32({1, 2, 3, 4, 5})));
  REQUIRE(cap.lines.size() == 1);
  CHECK(cap.lines[0] == "x: [1 2 3...][[1 2][3...]...]");
  s.run({once});
  s.run({once});
  s.run({wide});
  REQUIRE(cap.lines.size() == 3);
  CHECK(cap.lines[1] == "once[7]");
  CHECK(cap.lines[2] == "[1 2 3 4 5]");
  // The gradient goes to the input only.
  std::vector<Output> gr = gradients(g, {ops::reduceSum(g, p, {})}, {x});
  REQUIRE(gr[0]);
  CHECK(tensorsEqual(s.run({gr[0]})[0], F32({1, 1, 1, 1, 1})));
}

TEST_CASE("Assert fails with the data in TensorFlow's format", "[engine][control]") {
  CHECK(runEager("Assert", {B({true}, {}), F32({1, 2})}).empty());
  CHECK_THROWS_WITH(runEager("Assert", {B({false}, {}), F32({1, 2, 3, 4}), I32({3}, {})}),
                    Catch::StartsWith("assertion failed: [1 2 3...] [3]"));
  CHECK_THROWS_WITH(runEager("Assert", {B({false}, {1}), F32({1, 2, 3, 4})}, {{"summarize", int64_t{4}}}),
                    Catch::StartsWith("assertion failed: [1 2 3 4]"));
  CHECK_THROWS_AS(runEager("Assert", {B({false}, {})}), EngineError);

  // In a graph, ops that depend on the assertion do not run when it fails.
  Graph g;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[]"), "x");
  Output ok = ops::placeholder(g, DType::Bool, parseShape("[]"), "ok");
  Node* a = g.addNode("Assert", {ok, x});
  g.pushControlDependencies({a});
  Output y = ops::identity(g, x);
  g.popControlDependencies();
  Session s(g);
  CHECK(s.run({y}, {{x, F32({2}, {})}, {ok, B({true}, {})}})[0].getDouble(0) == 2);
  CHECK_THROWS_WITH(s.run({y}, {{x, F32({2}, {})}, {ok, B({false}, {})}}), Catch::StartsWith("assertion failed: [2]"));
}

static CaseRegistrar controlCases({
    {"CheckNumerics", {F32({1, -2, 3})}, {{"message", std::string("ok")}}, {F32({1, -2, 3})}},
    {"CheckNumerics", {F64({0.5}, {1, 1})}, {}, {F64({0.5}, {1, 1})}},
    {"Print", {F32({1, 2}), F32({3}), I32({4})}, {{"message", std::string("m")}, {"first_n", int64_t{0}}}, {F32({1, 2})},
     1e-6, true, {}, 1e-4, "first_n 0: prints nothing"},
    {"Print", {F64({1, 2}, {2, 1})}, {{"first_n", int64_t{0}}}, {F64({1, 2}, {2, 1})}, 1e-6, true, {}, 1e-4, "no data"},
    {"Assert", {B({true}, {}), F32({1, 2})}, {}, {}, 0, false, {}, 1e-4, "true: no outputs, no error"},
    {"Assert", {B({true}, {1})}, {}, {}, 0, false, {}, 1e-4, "legacy one-element condition"},
});
