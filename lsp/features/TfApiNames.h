// TfApiNames: the public names of the TensorFlow namespaces tensorlens models in part (tf.nn,
// tf.train, tf.math, ...), TF 1.15 and TF 2.x together. The unknown-attribute lint uses them to
// tell a real function tensorlens does not model (`tf.nn.conv3d`: information, never "did you
// mean conv2d?") from a typo (`tf.nn.reluu`: a warning with the fix).
#pragma once

#include <string_view>

namespace tlens::lsp {

/// Whether the list of `module`'s public names is known ("tensorflow.nn", ...).
bool hasTfApiNames(std::string_view module);
/// Whether `name` is a public name of `module` in TF 1.15 or 2.x (false when the list is unknown).
bool isTfApiName(std::string_view module, std::string_view name);

}  // namespace tlens::lsp
