// The MLP as a TF1 program would build it: placeholders, variables, MatMul/Add/Relu layers under
// name scopes, softmax cross entropy, and an Adam train op from minimize().
#include "engine/graph/Builder.h"
#include "engine/graph/Optimizers.h"
#include "tools/workloads/Mlp.h"

namespace tlens::workloads {

namespace {
Output dense(Graph& g, const std::string& scope, Output x, const Tensor& w, const Tensor& b, bool relu) {
  g.pushNameScope(scope);
  Output wv = ops::variable(g, w, "weights");
  Output bv = ops::variable(g, b, "biases");
  Output y = ops::add(g, ops::matmul(g, x, wv), bv);
  if (relu) y = g.op("Relu", {y});
  g.popNameScope();
  return y;
}
}  // namespace

GraphMlp::GraphMlp(const MlpConfig& c) {
  Graph& g = graph_;
  g.setDevices(c.devices);
  MlpWeights w = initialWeights(c);
  x_ = ops::placeholder(g, DType::Float32, Shape{Dim::symbol(Symbols::create("batch")), Dim::known(c.inputs)}, "x");
  y_ = ops::placeholder(g, DType::Float32, Shape{Dim::unknown(), Dim::known(c.classes)}, "y");
  Output h1 = dense(g, "fc1", x_, w.w1, w.b1, true);
  Output h2 = dense(g, "fc2", h1, w.w2, w.b2, true);
  Output logits = dense(g, "logits", h2, w.w3, w.b3, false);
  g.pushNameScope("loss");
  Output xent = g.op("SoftmaxCrossEntropyWithLogits", {logits, y_});
  loss_ = ops::reduceMean(g, xent, {});
  g.popNameScope();
  train_ = minimize(g, loss_, OptimizerSpec::Adam(c.learningRate, c.beta1, c.beta2, c.epsilon));
  Node* init = g.globalVariablesInitializer();
  session_ = std::make_unique<Session>(g);
  session_->runTargets({init});
}

float GraphMlp::step(const MlpBatch& b, const RunOptions& opts) {
  std::vector<Tensor> r = session_->run({loss_}, {{x_, b.x}, {y_, b.y}}, {train_}, opts);
  return r[0].data<float>()[0];
}

}  // namespace tlens::workloads
