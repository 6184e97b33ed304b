// TF1 optimizers as graph builders: what tf.train.<Name>Optimizer(...).minimize(loss) adds to a
// graph. Gradients (tf.gradients), slot variables with their initializers (named like TensorFlow:
// "w/Momentum", "w/Adam" and "w/Adam_1", "w/RMSProp" and "w/RMSProp_1", "w/Adagrad", "w/Adadelta" and "w/Adadelta_1", plus Adam's "beta1_power"
// and "beta2_power"), one Apply* node per variable ("Adam/update_w/ApplyAdam"), Adam's beta-power
// updates, and a NoOp named after the optimizer ("Adam") that groups them.
//
// Slots are ordinary variables: call Graph::globalVariablesInitializer() after minimize(), as
// with tf.global_variables_initializer().
#pragma once

#include <string>
#include <vector>

#include "engine/graph/Graph.h"

namespace tlens {

struct OptimizerSpec {
  enum class Kind { GradientDescent, Momentum, Adam, RMSProp, Adagrad, Adadelta };
  Kind kind = Kind::GradientDescent;
  double learning_rate = 0.01;
  /// A learning rate computed in the graph (a placeholder, tf.train.exponential_decay): used
  /// instead of `learning_rate` when set, cast to each variable's dtype.
  Output learning_rate_tensor;
  double initial_accumulator_value = 0.1;  ///< Adagrad
  double rho = 0.95;                       ///< Adadelta
  double momentum = 0.0;      ///< Momentum, RMSProp
  double beta1 = 0.9;         ///< Adam
  double beta2 = 0.999;       ///< Adam
  double epsilon = 1e-8;      ///< Adam (TF default 1e-8), RMSProp (TF default 1e-10)
  double decay = 0.9;         ///< RMSProp's rho
  bool use_nesterov = false;  ///< Momentum, Adam
  std::string name;           ///< empty: "GradientDescent", "Momentum", "Adam", "RMSProp"

  // TensorFlow's constructors and defaults (tf.compat.v1.train.*Optimizer).
  static OptimizerSpec GradientDescent(double learningRate);
  static OptimizerSpec Momentum(double learningRate, double momentum, bool useNesterov = false);
  static OptimizerSpec Adam(double learningRate = 0.001, double beta1 = 0.9, double beta2 = 0.999,
                            double epsilon = 1e-8);
  static OptimizerSpec RMSProp(double learningRate, double decay = 0.9, double momentum = 0.0,
                               double epsilon = 1e-10);
  static OptimizerSpec Adagrad(double learningRate, double initialAccumulatorValue = 0.1);
  static OptimizerSpec Adadelta(double learningRate = 0.001, double rho = 0.95, double epsilon = 1e-8);
  /// The optimizer's name: `name`, or the default for its kind.
  std::string opName() const;
};

/// Adds the update of every variable in `varList` (default: the graph's trainable variables) that
/// `loss` depends on, and returns the grouping NoOp (run it as a target for one training step).
/// Throws EngineError(InvalidArgument) when no variable gets a gradient, with TensorFlow's message.
Node* minimize(Graph& g, Output loss, const OptimizerSpec& spec, std::vector<Node*> varList = {});

/// The update half of minimize (tf.train.Optimizer.apply_gradients): one Apply* node per
/// (variable, gradient) pair with a gradient, and the grouping NoOp. Throws
/// EngineError(InvalidArgument) when no pair has a gradient, with TensorFlow's message.
Node* applyGradients(Graph& g, const std::vector<std::pair<Node*, Output>>& gradsAndVars, const OptimizerSpec& spec);

}  // namespace tlens
