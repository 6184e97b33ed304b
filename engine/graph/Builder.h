// Small helpers for code that builds graphs in C++: gradient functions, tests, benchmarks.
// Each is one Graph::op call; they add nothing the op registry does not already define.
#pragma once

#include "engine/graph/Graph.h"

namespace tlens::ops {

Output constant(Graph& g, const Tensor& value, std::string name = {});
/// A scalar constant of `dtype`.
Output scalar(Graph& g, DType dtype, double value);
Output placeholder(Graph& g, DType dtype, Shape shape, std::string name = {});
/// A VariableV2 with the dtype and shape of `initialValue`, and its initializer "<name>/Assign"
/// (run by tf.global_variables_initializer()).
Output variable(Graph& g, Output initialValue, std::string name = {}, bool trainable = true);
Output variable(Graph& g, const Tensor& init, std::string name = {}, bool trainable = true);
Output identity(Graph& g, Output x);
Output add(Graph& g, Output a, Output b);
Output sub(Graph& g, Output a, Output b);
Output mul(Graph& g, Output a, Output b);
Output div(Graph& g, Output a, Output b);
Output neg(Graph& g, Output x);
Output square(Graph& g, Output x);
Output matmul(Graph& g, Output a, Output b, bool transposeA = false, bool transposeB = false);
/// Empty `axes` reduces over all axes.
Output reduceSum(Graph& g, Output x, std::vector<int64_t> axes, bool keepDims = false);
Output reduceMean(Graph& g, Output x, std::vector<int64_t> axes, bool keepDims = false);
Output shape(Graph& g, Output x);
Output reshape(Graph& g, Output x, Output shape);
Output reshapeTo(Graph& g, Output x, const ConcreteShape& shape);
/// Sums `x` down to `shape` by numpy broadcasting rules (the inverse of BroadcastTo).
Output sumToShape(Graph& g, Output x, Output shape);
/// sumToShape(dy, shape(like)), skipped when the static shapes already agree.
Output unbroadcast(Graph& g, Output dy, Output like);
Output broadcastTo(Graph& g, Output x, Output shape);
Output zerosLike(Graph& g, Output x);
Output onesLike(Graph& g, Output x);
Output cast(Graph& g, Output x, DType to);
Output assign(Graph& g, Output var, Output value);
Output addN(Graph& g, std::vector<Output> xs);

}  // namespace tlens::ops
