// Composite NN functions that TensorFlow implements in Python on top of ops, built here the same
// way so their graphs (and hovers, and gradients) match what TensorFlow builds.
#pragma once

#include <string>

#include "engine/graph/Graph.h"

namespace tlens::ops {

/// tf.nn.conv1d (NWC): ExpandDims(input, -3) and ExpandDims(filter, 0), Conv2D with strides
/// [1, 1, stride, 1] and dilations [1, 1, dilation, 1], then Squeeze(axis -3), under the name
/// scope "conv1d". input [batch, width, in], filter [k, in, out] -> [batch, out_width, out].
/// (Falls back to Reshape when the ExpandDims/Squeeze ops are not registered.)
Output conv1d(Graph& g, Output input, Output filter, int64_t stride, std::string padding,
              int64_t dilation = 1);

/// tf.nn.dropout (TF2): x * (1 / (1 - rate)) * Cast(RandomUniform(Shape(x)) >= rate), under the
/// name scope "dropout". `seed` < 0: no op seed; otherwise the RandomUniform gets TensorFlow's
/// (seed=87654321, seed2=seed), as tf.random.uniform does when no graph seed is set. rate 0
/// returns x itself. Throws EngineError(InvalidArgument) for a rate outside [0, 1) or a
/// non-floating x, with TensorFlow's messages.
/// (Without a GreaterEqual op it builds TF1's form, Floor(keep_prob + u) with Floor as a cast
/// round trip when no Floor op exists: the same mask for u in [0, 1).)
Output dropout(Graph& g, Output x, double rate, int64_t seed = -1);

}  // namespace tlens::ops
