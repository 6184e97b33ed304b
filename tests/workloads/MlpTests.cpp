// End to end: the MLP built from engine ops, differentiated by tf.gradients and trained by the
// Adam ops, computes the same losses as the hand-written Eigen step, and learns.
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/runtime/ThreadPool.h"
#include "tools/workloads/Mlp.h"

using namespace tlens;
using namespace tlens::workloads;

TEST_CASE("the graph MLP step matches the hand-written Eigen step", "[engine][workload]") {
  MlpConfig c;
  c.batch = 32;
  GraphMlp graph(c);
  EigenMlp eigen(c);
  for (int s = 0; s < 10; ++s) {
    MlpBatch b = makeBatch(c, static_cast<uint64_t>(s));
    float lg = graph.step(b), le = eigen.step(b);
    INFO("step " << s << ": graph " << lg << " eigen " << le);
    CHECK(std::fabs(lg - le) <= 1e-4f * std::max(1.f, std::fabs(le)));
  }
}

TEST_CASE("the graph MLP learns and check-numerics finds nothing wrong", "[engine][workload]") {
  MlpConfig c;
  c.batch = 128;
  GraphMlp graph(c);
  RunOptions o;
  o.checkNumerics = true;
  float first = graph.step(makeBatch(c, 0), o), last = first;
  for (int s = 1; s < 250; ++s) last = graph.step(makeBatch(c, static_cast<uint64_t>(s)), o);
  INFO("loss " << first << " -> " << last);
  CHECK(last < first * 0.8f);
}

TEST_CASE("the MLP graph names nodes under scopes and keeps the batch symbol", "[engine][workload]") {
  MlpConfig c;
  GraphMlp graph(c);
  Node* mm = graph.graph().find("fc1/MatMul");
  REQUIRE(mm);
  CHECK(mm->outputs[0].shape.str() == "[batch, 256]");
  CHECK(graph.graph().find("fc2/Relu") != nullptr);
}
