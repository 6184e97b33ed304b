// The tfdbg tutorial's bug, built directly on the engine: softmax of large logits underflows to
// exact zeros, tf.log turns them into -inf, and the cross entropy becomes NaN downstream.
// Check-numerics must blame the Log node (not the NaN downstream) and show its input's zeros.
#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("check-numerics blames tf.log of a softmax that underflowed, as tfdbg's tutorial", "[engine][numerics]") {
  Graph g;
  g.creation().location = {"debug_mnist.py", 90, 1, 90, 40};
  Output logits = ops::placeholder(g, DType::Float32, parseShape("[?,3]"), "logits");
  Output labels = ops::placeholder(g, DType::Float32, parseShape("[?,3]"), "labels");
  g.pushNameScope("softmax");
  Output y = g.op("Softmax", {logits});
  g.popNameScope();
  g.pushNameScope("cross_entropy");
  g.creation().location = {"debug_mnist.py", 98, 12, 98, 34};
  Output logY = g.op("Log", {y});
  Output diff = ops::mul(g, labels, logY);
  Output xent = ops::neg(g, ops::reduceMean(g, diff, {}));
  g.popNameScope();
  Session s(g);
  Feeds feeds{{logits, F32({0, 200, 0, 1, 2, 3}, {2, 3})}, {labels, F32({1, 0, 0, 0, 0, 1}, {2, 3})}};
  // Without checks the run "succeeds" with a NaN loss, which is the user's symptom.
  CHECK(std::isnan(s.run({xent}, feeds)[0].getDouble(0)));
  RunOptions o;
  o.checkNumerics = true;
  try {
    s.run({xent}, feeds, {}, o);
    FAIL("expected a NumericsError");
  } catch (const NumericsError& e) {
    const NumericsReport& r = e.report();
    CHECK(r.node == "cross_entropy/Log");
    CHECK(r.opType == "Log");
    CHECK(r.counts.negInf == 2);
    CHECK(r.counts.nan == 0);
    CHECK(r.location.line == 98);
    REQUIRE(r.inputNames.size() == 1);
    CHECK(r.inputNames[0] == "softmax/Softmax:0");
    CHECK(r.inputSummaries[0].zero == 2);
    CHECK_THAT(r.message(), Catch::Contains("cross_entropy/Log (Log) on /cpu:0 produced 2 -Inf"));
    CHECK_THAT(r.message(), Catch::Contains("zeros=2"));
  }
}
