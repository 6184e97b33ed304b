// Optimizer updates (TF1 training ops): ApplyGradientDescent, ApplyMomentum, ApplyAdam,
// ApplyRMSProp, ApplyAdagrad, ApplyAdadelta. The variable and its slots are ref inputs updated in place; hyperparameters are
// scalar tensors; the output is the variable's new value. Input order and names are TensorFlow's.
// engine/graph/Optimizers.h builds them the way tf.train.*Optimizer.minimize does.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"

namespace tlens {

namespace {
using namespace shapefn;

/// `tensors`: the variable, its slots and the gradient (shapes merged); `scalars`: rank 0.
ShapeResult applyShape(const InferContext& c, std::vector<size_t> tensors, std::vector<size_t> scalars) {
  std::optional<size_t> first;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    if (c.dtype(i) == DType::Invalid) continue;
    if (!first) {
      first = i;
      if (auto e = checkDType(c, i, {DType::Float32, DType::Float64, DType::Float16})) return *e;
      continue;
    }
    if (c.dtype(i) != c.dtype(*first))
      return dtypeError(shapeError(c, "Input '" + c.inputName(i) + "' of '" + c.op().type + "' has type " +
                               std::string(dtypeName(c.dtype(i))) + " that does not match type " +
                               std::string(dtypeName(c.dtype(*first))) + " of '" + c.inputName(*first) + "'",
                        {static_cast<int>(*first), static_cast<int>(i)}));
  }
  for (size_t i : scalars) {
    const Shape& s = c.shape(i);
    if (s.rankKnown() && s.rank() != 0)
      return shapeError(c, "Shape must be rank 0 but is rank " + std::to_string(s.rank()) + " (input '" +
                               c.inputName(i) + "')", {static_cast<int>(i)});
  }
  Shape s = Shape::unknownRank();
  size_t from = tensors[0];
  for (size_t i : tensors) {
    const Shape& t = c.shape(i);
    if (!s.compatible(t)) {
      std::string why;
      if (s.rank() != t.rank())
        why = "Shapes must be equal rank, but are " + std::to_string(s.rank()) + " and " + std::to_string(t.rank());
      else
        for (size_t d = 0; d < t.dims().size(); ++d)
          if (s[d].conflicts(t[d])) {
            why = "Dimension " + std::to_string(d) + " in both shapes must be equal, but are " + s[d].str() +
                  " and " + t[d].str() + ". Shapes are " + s.str() + " and " + t.str();
            break;
          }
      return shapeError(c, why + " (inputs '" + c.inputName(from) + "' and '" + c.inputName(i) + "')",
                        {static_cast<int>(from), static_cast<int>(i)});
    }
    if (!s.rankKnown()) from = i;
    s = s.merge(t);
  }
  return ShapeResult::single(first ? c.dtype(*first) : DType::Invalid, s);
}

}  // namespace

void registerOptimizerOps(OpRegistry& r) {
  OpBuilder(r, "ApplyGradientDescent")
      .input("var").input("alpha").input("delta")
      .refInput(0)
      .attr("use_locking", false)
      .notDifferentiable()
      .doc("var -= alpha * delta, in place.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 2}, {1}); });

  OpBuilder(r, "ApplyMomentum")
      .input("var").input("accum").input("lr").input("grad").input("momentum")
      .refInput(0).refInput(1)
      .attr("use_locking", false)
      .attr("use_nesterov", false)
      .notDifferentiable()
      .doc("accum = accum * momentum + grad; var -= lr * accum (Nesterov: var -= lr * (grad + momentum * accum)).")
      .shape([](const InferContext& c) { return applyShape(c, {0, 1, 3}, {2, 4}); });

  OpBuilder(r, "ApplyAdam")
      .input("var").input("m").input("v").input("beta1_power").input("beta2_power").input("lr")
      .input("beta1").input("beta2").input("epsilon").input("grad")
      .refInput(0).refInput(1).refInput(2)
      .attr("use_locking", false)
      .attr("use_nesterov", false)
      .notDifferentiable()
      .doc("Adam: m, v moving averages of grad and grad^2; var -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon).")
      .shape([](const InferContext& c) { return applyShape(c, {0, 1, 2, 9}, {3, 4, 5, 6, 7, 8}); });

  // Keras 2.11+'s Adam rule as keras.optimizers.Adam runs it eagerly and in tf.function, in two
  // in-place passes (around a Sqrt of v): the same float operations in the same order as the
  // separate ops of the rule, so results are bit-identical, with a third of the memory traffic
  // and no temporaries (issue #16: the rule's 14 ops dominated a tf.function CNN step).
  // engine/kernels/cpu/KerasUpdateKernels.cpp; CPU only (Keras uses them when there is no GPU).
  OpBuilder(r, "_KerasAdamMoments")
      .cpuOnly("Keras uses it only on machines without GPUs")
      .input("m").input("v").input("one_minus_beta1").input("one_minus_beta2").input("grad")
      .refInput(0).refInput(1)
      .notDifferentiable()
      .doc("Keras' Adam moments, in place: m += (grad - m) * one_minus_beta1; v += (grad * grad - v) * one_minus_beta2. Output: m.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 1, 4}, {2, 3}); });

  OpBuilder(r, "_KerasAdamStep")
      .cpuOnly("Keras uses it only on machines without GPUs")
      .input("var").input("alpha").input("epsilon").input("m").input("sqrt_v")
      .refInput(0)
      .notDifferentiable()
      .doc("Keras' Adam step, in place: var -= (m * alpha) / (sqrt_v + epsilon). Output: var.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 3, 4}, {1, 2}); });

  // Keras' plain SGD rule (no momentum) in one pass; not ApplyGradientDescent, whose Eigen
  // expression the compiler may turn into multiply-adds.
  OpBuilder(r, "_KerasSGDStep")
      .cpuOnly("Keras uses it only on machines without GPUs")
      .input("var").input("lr").input("grad")
      .refInput(0)
      .notDifferentiable()
      .doc("Keras' SGD step, in place: var -= grad * lr. Output: var.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 2}, {1}); });

  // Keras' plain RMSprop rule (no momentum, not centered) the same way, around Sqrt(a + epsilon).
  OpBuilder(r, "_KerasRMSpropAverage")
      .cpuOnly("Keras uses it only on machines without GPUs")
      .input("a").input("rho").input("one_minus_rho").input("grad")
      .refInput(0)
      .notDifferentiable()
      .doc("Keras' RMSprop average, in place: a = a * rho + (grad * grad) * one_minus_rho. Output: a.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 3}, {1, 2}); });

  OpBuilder(r, "_KerasRMSpropStep")
      .cpuOnly("Keras uses it only on machines without GPUs")
      .input("var").input("lr").input("grad").input("sqrt_denominator")
      .refInput(0)
      .notDifferentiable()
      .doc("Keras' RMSprop step, in place: var -= (grad * lr) / sqrt_denominator. Output: var.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 2, 3}, {1}); });

  OpBuilder(r, "ApplyRMSProp")
      .input("var").input("ms").input("mom").input("lr").input("rho").input("momentum").input("epsilon")
      .input("grad")
      .refInput(0).refInput(1).refInput(2)
      .attr("use_locking", false)
      .notDifferentiable()
      .doc("RMSProp: ms += (grad^2 - ms) * (1 - rho); mom = mom * momentum + lr * grad / sqrt(ms + epsilon); var -= mom.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 1, 2, 7}, {3, 4, 5, 6}); });

  OpBuilder(r, "ApplyAdagrad")
      .input("var").input("accum").input("lr").input("grad")
      .refInput(0).refInput(1)
      .attr("use_locking", false)
      .attr("update_slots", true)
      .notDifferentiable()
      .doc("Adagrad: accum += grad^2 (when update_slots); var -= lr * grad / sqrt(accum).")
      .shape([](const InferContext& c) { return applyShape(c, {0, 1, 3}, {2}); });

  OpBuilder(r, "ApplyAdadelta")
      .input("var").input("accum").input("accum_update").input("lr").input("rho").input("epsilon").input("grad")
      .refInput(0).refInput(1).refInput(2)
      .attr("use_locking", false)
      .notDifferentiable()
      .doc("Adadelta: accum = rho * accum + (1 - rho) * grad^2; update = sqrt(accum_update + epsilon) / "
           "sqrt(accum + epsilon) * grad; accum_update = rho * accum_update + (1 - rho) * update^2; var -= lr * update.")
      .shape([](const InferContext& c) { return applyShape(c, {0, 1, 2, 6}, {3, 4, 5}); });
}

}  // namespace tlens
