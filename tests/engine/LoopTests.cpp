// Graph loops at the engine level (engine/graph/Loops.h): a While node built from frames of the
// graph, run by the Session, sliced inputs and stacked emits, and its gradient.
#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/graph/Loops.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {

Node* loopArg(Graph& g, const TensorType& t) {
  return g.addNode("LoopArg", {}, {{"dtype", t.dtype}, {"shape", t.shape}});
}

}  // namespace

TEST_CASE("a While node runs its body while its condition holds, slicing and stacking", "[engine][loop]") {
  // for i < n: v = v * w + x[i]; emit v. From v = 0 and x = [1, 2, 3]: v = 1, w + 2, w^2 + 2w + 3.
  Graph g;
  Output n = ops::placeholder(g, DType::Int32, Shape::scalar());
  Output x = ops::placeholder(g, DType::Float32, parseShape("[?]"));
  Output w = ops::variable(g, Tensor::scalar<float>(2.0f), "w");
  WhileSpec s;
  s.inits = {ops::constant(g, Tensor::scalar<int32_t>(0)), ops::constant(g, Tensor::scalar<float>(0.0f))};
  s.sliced = {x};
  s.frameFirst = static_cast<int>(g.size());
  s.params = {loopArg(g, s.inits[0].type()), loopArg(g, s.inits[1].type()), loopArg(g, TensorType(DType::Float32, Shape::scalar()))};
  s.varTypes = {s.inits[0].type(), s.inits[1].type()};
  s.cond = g.op("Less", {s.params[0]->out(0), n});
  Output v = ops::add(g, ops::mul(g, s.params[1]->out(0), w), s.params[2]->out(0));
  s.next = {ops::add(g, s.params[0]->out(0), ops::constant(g, Tensor::scalar<int32_t>(1))), v};
  s.emits = {v};
  Node* loop = addWhile(g, s);
  REQUIRE(loop->numOutputs() == 4);  // i, v, the stacked v, the handle
  CHECK(loop->outputs[2].shape.str() == "[?]");
  CHECK(loop->inputs.size() == 5);  // 2 variables, 1 sliced, n and w captured
  std::vector<Output> grads = gradients(g, {Output{loop, 1}, Output{loop, 2}}, {w.node->out(0), x});
  REQUIRE(grads[0]);
  REQUIRE(grads[1]);
  Session sess(g);
  sess.runTargets({w.node->initializer});
  std::vector<Tensor> out = sess.run({Output{loop, 0}, Output{loop, 1}, Output{loop, 2}, grads[0], grads[1]},
                                     {{n, Tensor::scalar<int32_t>(3)}, {x, F32({1, 2, 3}, {3})}});
  CHECK(out[0].getInt(0) == 3);
  CHECK(out[1].getDouble(0) == 11.0);  // 4 + 4 + 3
  CHECK(out[2].toDoubleVector() == std::vector<double>{1, 4, 11});
  // d(v3 + v1 + v2 + v3)/dw with v1 = 1, v2 = w + 2, v3 = w^2 + 2w + 3: 1 + 2 (2w + 2) = 13 at w = 2.
  CHECK(out[3].getDouble(0) == 13.0);
  // d/dx[i]: x[0] reaches v1, v2, v3 (twice) with weights 1, w, w^2: 1 + 2 + 8 = 11; x[1]: 1 + 2*2 = 5; x[2]: 2.
  CHECK(out[4].toDoubleVector() == std::vector<double>{11, 5, 2});
  // No iteration: the variables come back as they entered, nothing is stacked.
  out = sess.run({Output{loop, 1}, Output{loop, 2}, grads[1]}, {{n, Tensor::scalar<int32_t>(0)}, {x, F32({1, 2, 3}, {3})}});
  CHECK(out[0].getDouble(0) == 0.0);
  CHECK(out[1].shape() == ConcreteShape{0});
  CHECK(out[2].toDoubleVector() == std::vector<double>{0, 0, 0});
  // A loop that runs past its sliced input is an error, not a read out of bounds.
  CHECK_THROWS_WITH(sess.run({Output{loop, 1}}, {{n, Tensor::scalar<int32_t>(4)}, {x, F32({1, 2, 3}, {3})}}),
                    Catch::Contains("reads past the end of a sliced input"));
}
