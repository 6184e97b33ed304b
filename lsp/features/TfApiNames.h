// TfApiNames: what the real TensorFlow API has (TF 1.15 and TF 2.x together) that tensorlens may
// not model: the public names of the namespaces it models in part (tf.nn, tf.train, tf.math, ...)
// and the namespaces of `tf` it does not model at all (tf.data, tf.summary, ...). The
// unknown-attribute lint uses them to tell a real API tensorlens does not model (`tf.nn.conv3d`:
// information, never "did you mean conv2d?") from a typo (`tf.nn.reluu`: a warning with the fix).
#pragma once

#include <string_view>

namespace tlens::lsp {

/// Whether `name` is a public name of `module` in TF 1.15 or 2.x, or of numpy or os (false when the
/// list is unknown): `tensorflow`, `tensorflow.compat.v1`, `tensorflow.layers`, `tensorflow.nn`,
/// `tensorflow.train`, `tensorflow.random`, `tensorflow.losses`, `tensorflow.linalg`,
/// `tensorflow.math`, `tensorflow.image`, `numpy`, `os`.
bool isTfApiName(std::string_view module, std::string_view name);

/// Whether `module.name` is a real TensorFlow namespace tensorlens does not model (`tensorflow`,
/// "data": tf.data).
bool isUnmodelledTfNamespace(std::string_view module, std::string_view name);

}  // namespace tlens::lsp
