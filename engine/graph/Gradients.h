// Reverse-mode automatic differentiation over a graph (tf.gradients). Gradient nodes are ordinary
// graph nodes built by each op's GradFn under the "gradients" name scope, so they are named,
// placed, inspected and debugged like any other node. The eager tape (runtime/Eager.h) records
// eager ops into a graph and reuses this.
#pragma once

#include <vector>

#include "engine/graph/Graph.h"

namespace tlens {

/// d(sum(ys))/d(xs). `gradYs` (optional, one per y) seeds the backward pass; ones by default.
/// The result has one entry per x; an entry is null when that x does not affect any y (TF's None).
/// Throws EngineError(InvalidArgument) when a differentiable op on the path has no gradient.
std::vector<Output> gradients(Graph& g, const std::vector<Output>& ys, const std::vector<Output>& xs,
                              const std::vector<Output>& gradYs = {});

}  // namespace tlens
