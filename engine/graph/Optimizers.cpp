#include "engine/graph/Optimizers.h"

#include <map>

#include "engine/core/Error.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"

namespace tlens {

OptimizerSpec OptimizerSpec::GradientDescent(double lr) {
  OptimizerSpec s;
  s.kind = Kind::GradientDescent;
  s.learning_rate = lr;
  return s;
}

OptimizerSpec OptimizerSpec::Momentum(double lr, double momentum, bool nesterov) {
  OptimizerSpec s;
  s.kind = Kind::Momentum;
  s.learning_rate = lr;
  s.momentum = momentum;
  s.use_nesterov = nesterov;
  return s;
}

OptimizerSpec OptimizerSpec::Adam(double lr, double beta1, double beta2, double epsilon) {
  OptimizerSpec s;
  s.kind = Kind::Adam;
  s.learning_rate = lr;
  s.beta1 = beta1;
  s.beta2 = beta2;
  s.epsilon = epsilon;
  return s;
}

OptimizerSpec OptimizerSpec::RMSProp(double lr, double decay, double momentum, double epsilon) {
  OptimizerSpec s;
  s.kind = Kind::RMSProp;
  s.learning_rate = lr;
  s.decay = decay;
  s.momentum = momentum;
  s.epsilon = epsilon;
  return s;
}

OptimizerSpec OptimizerSpec::Adagrad(double lr, double initialAccumulatorValue) {
  OptimizerSpec s;
  s.kind = Kind::Adagrad;
  s.learning_rate = lr;
  s.initial_accumulator_value = initialAccumulatorValue;
  return s;
}

OptimizerSpec OptimizerSpec::Adadelta(double lr, double rho, double epsilon) {
  OptimizerSpec s;
  s.kind = Kind::Adadelta;
  s.learning_rate = lr;
  s.rho = rho;
  s.epsilon = epsilon;
  return s;
}

std::string OptimizerSpec::opName() const {
  if (!name.empty()) return name;
  switch (kind) {
    case Kind::GradientDescent: return "GradientDescent";
    case Kind::Momentum: return "Momentum";
    case Kind::Adam: return "Adam";
    case Kind::RMSProp: return "RMSProp";
    case Kind::Adagrad: return "Adagrad";
    case Kind::Adadelta: return "Adadelta";
  }
  return "Optimizer";
}

namespace {

/// A name not yet used by a node or as a node-name prefix: "Adam", else "Adam_1", ...
std::string freeName(Graph& g, const std::string& base) {
  for (int i = 0;; ++i) {
    std::string n = i == 0 ? base : base + "_" + std::to_string(i);
    if (g.find(n)) continue;
    bool prefix = false;
    for (const Node& node : g.nodes())
      if (node.name.compare(0, n.size() + 1, n + "/") == 0) { prefix = true; break; }
    if (!prefix) return n;
  }
}

/// A non-trainable variable like `var` filled with `value`, named `name` at the top level.
Output slotVariable(Graph& g, Node* var, const std::string& name, double value) {
  const TensorType& t = var->outputs[0];
  g.pushNameScope("/");  // slots live next to their variable, whatever the current scope
  Output v;
  if (t.shape.fullyKnown()) {
    v = ops::variable(g, Tensor::filled(t.dtype, t.shape.concrete(), value), name, false);
  } else if (var->initializer && var->initializer->inputs.size() > 1) {
    Output init = var->initializer->inputs[1];
    Output filled = value == 0 ? ops::zerosLike(g, init)
                               : ops::mul(g, ops::onesLike(g, init), ops::scalar(g, t.dtype, value));
    v = ops::variable(g, filled, name, false);
  } else {
    g.popNameScope();
    invalidArgument("Cannot create the optimizer slot " + name + ": the shape of " + var->name +
                    " is not fully known (" + t.shape.str() + ")");
  }
  g.popNameScope();
  return v;
}

/// A top-level non-trainable scalar variable ("beta1_power").
Output scalarVariable(Graph& g, DType dt, const std::string& name, double value) {
  g.pushNameScope("/");
  Output v = ops::variable(g, Tensor::filled(dt, {}, value), name, false);
  g.popNameScope();
  return v;
}

}  // namespace

Node* minimize(Graph& g, Output loss, const OptimizerSpec& spec, std::vector<Node*> varList) {
  using Kind = OptimizerSpec::Kind;
  if (varList.empty()) varList = g.trainableVariables();
  if (varList.empty()) invalidArgument("No variables to optimize.");
  std::vector<Output> xs;
  for (Node* v : varList) {
    if (v->type() != "VariableV2")
      invalidArgument("minimize: '" + v->name + "' (" + v->type() + ") is not a variable");
    xs.push_back(v->out());
  }
  std::vector<Output> grads = gradients(g, {loss}, xs);
  std::vector<std::pair<Node*, Output>> pairs;
  for (size_t i = 0; i < varList.size(); ++i)
    if (grads[i]) pairs.emplace_back(varList[i], grads[i]);
  if (pairs.empty()) {
    std::string names;
    for (Node* v : varList) names += (names.empty() ? "" : ", ") + std::string("'") + v->name + "'";
    invalidArgument("No gradients provided for any variable, check your graph for ops that do not "
                    "support gradients, between variables [" + names + "] and loss " + loss.name() + ".");
  }
  return applyGradients(g, pairs, spec);
}

Node* applyGradients(Graph& g, const std::vector<std::pair<Node*, Output>>& gradsAndVars, const OptimizerSpec& spec) {
  using Kind = OptimizerSpec::Kind;
  std::vector<std::pair<Node*, Output>> pairs;
  for (const auto& [v, grad] : gradsAndVars) {
    if (v->type() != "VariableV2")
      invalidArgument("apply_gradients: '" + v->name + "' (" + v->type() + ") is not a variable");
    if (grad) pairs.emplace_back(v, grad);
  }
  if (pairs.empty()) {
    std::string names;
    for (const auto& gv : gradsAndVars)
      names += (names.empty() ? "" : ", ") + std::string("\"<tf.Variable '") + gv.first->name + ":0' shape=" +
               gv.first->outputs[0].shape.tfStr() + " dtype=" + std::string(dtypeName(gv.first->outputs[0].dtype)) +
               "_ref>\"";
    invalidArgument("No gradients provided for any variable: [" + names + "].");
  }

  const std::string opt = spec.opName();
  const std::string name = freeName(g, opt);
  const DType dt0 = pairs[0].first->outputs[0].dtype;

  // Slots, created before the update nodes (TensorFlow's _create_slots).
  std::vector<std::vector<Output>> slots(pairs.size());
  Output beta1Power, beta2Power;
  if (spec.kind == Kind::Adam) {
    beta1Power = scalarVariable(g, dt0, "beta1_power", spec.beta1);
    beta2Power = scalarVariable(g, dt0, "beta2_power", spec.beta2);
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    Node* v = pairs[i].first;
    const std::string base = v->name + "/" + opt;
    switch (spec.kind) {
      case Kind::GradientDescent: break;
      case Kind::Momentum: slots[i] = {slotVariable(g, v, base, 0)}; break;
      case Kind::Adam: slots[i] = {slotVariable(g, v, base, 0), slotVariable(g, v, base, 0)}; break;
      case Kind::RMSProp: slots[i] = {slotVariable(g, v, base, 1), slotVariable(g, v, base, 0)}; break;
      case Kind::Adagrad: slots[i] = {slotVariable(g, v, base, spec.initial_accumulator_value)}; break;
      case Kind::Adadelta: slots[i] = {slotVariable(g, v, base, 0), slotVariable(g, v, base, 0)}; break;
    }
  }

  g.pushNameScope(name + "/");
  // Hyperparameters as constants of each variable dtype ("Adam/learning_rate").
  std::map<std::pair<DType, std::string>, Output> consts;
  auto hyper = [&](DType dt, const std::string& what, double value) {
    auto key = std::make_pair(dt, what);
    auto it = consts.find(key);
    if (it != consts.end()) return it->second;
    Output c = ops::constant(g, Tensor::filled(dt, {}, value), what);
    consts.emplace(key, c);
    return c;
  };
  auto asType = [&](Output x, DType dt) { return x.type().dtype == dt ? x : ops::cast(g, x, dt); };

  std::vector<Node*> updates;
  for (size_t i = 0; i < pairs.size(); ++i) {
    Node* v = pairs[i].first;
    Output grad = pairs[i].second;
    const DType dt = v->outputs[0].dtype;
    // Hyperparameters first, so they are named "<Optimizer>/learning_rate" (TensorFlow's _prepare).
    Output lr = spec.learning_rate_tensor ? asType(spec.learning_rate_tensor, dt)
                                          : hyper(dt, "learning_rate", spec.learning_rate);
    Output mom, b1, b2, eps, decay, b1p, b2p, rho;
    if (spec.kind == Kind::Momentum || spec.kind == Kind::RMSProp) mom = hyper(dt, "momentum", spec.momentum);
    if (spec.kind == Kind::RMSProp) decay = hyper(dt, "decay", spec.decay);
    if (spec.kind == Kind::Adam) {
      b1 = hyper(dt, "beta1", spec.beta1);
      b2 = hyper(dt, "beta2", spec.beta2);
      b1p = asType(beta1Power, dt);
      b2p = asType(beta2Power, dt);
    }
    if (spec.kind == Kind::Adadelta) rho = hyper(dt, "rho", spec.rho);
    if (spec.kind == Kind::Adam || spec.kind == Kind::RMSProp || spec.kind == Kind::Adadelta)
      eps = hyper(dt, "epsilon", spec.epsilon);
    g.pushNameScope("update_" + v->name);
    Node* n = nullptr;
    switch (spec.kind) {
      case Kind::GradientDescent:
        n = g.addNode("ApplyGradientDescent", {v->out(), lr, grad});
        break;
      case Kind::Momentum:
        n = g.addNode("ApplyMomentum", {v->out(), slots[i][0], lr, grad, mom}, {{"use_nesterov", spec.use_nesterov}});
        break;
      case Kind::Adam:
        n = g.addNode("ApplyAdam", {v->out(), slots[i][0], slots[i][1], b1p, b2p, lr, b1, b2, eps, grad},
                      {{"use_nesterov", spec.use_nesterov}});
        break;
      case Kind::RMSProp:
        n = g.addNode("ApplyRMSProp", {v->out(), slots[i][0], slots[i][1], lr, decay, mom, eps, grad});
        break;
      case Kind::Adagrad:
        n = g.addNode("ApplyAdagrad", {v->out(), slots[i][0], lr, grad});
        break;
      case Kind::Adadelta:
        n = g.addNode("ApplyAdadelta", {v->out(), slots[i][0], slots[i][1], lr, rho, eps, grad});
        break;
    }
    g.popNameScope();
    updates.push_back(n);
  }

  std::vector<Node*> group = updates;
  if (spec.kind == Kind::Adam) {
    // beta_power *= beta, after every update has read the old value (TensorFlow's _finish).
    g.pushControlDependencies(updates);
    Output b1 = ops::mul(g, beta1Power, hyper(dt0, "beta1", spec.beta1));
    group.push_back(ops::assign(g, beta1Power, b1).node);
    Output b2 = ops::mul(g, beta2Power, hyper(dt0, "beta2", spec.beta2));
    group.push_back(ops::assign(g, beta2Power, b2).node);
    g.popControlDependencies();
  }
  g.popNameScope();

  g.pushNameScope("/");
  g.pushControlDependencies(group);
  Graph::NodeOptions o;
  o.name = name;
  Node* step = g.addNode("NoOp", {}, {}, o);
  g.popControlDependencies();
  g.popNameScope();
  return step;
}

}  // namespace tlens
