// tf.train.Saver's files: `<prefix>.data-00000-of-00001` holds the variables' bytes one after the
// other (as TensorFlow's V2 bundle does), `<prefix>.index` says where each one is. The index is
// tensorlens' own text format, not TensorFlow's SSTable: tensorlens reads back what it wrote,
// TensorFlow cannot read it (FIXME: the V2 index, for checkpoints shared with TensorFlow).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/Tensor.h"

namespace tlens::tf {

struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Writes the named tensors under `prefix`; the files appear whole or not at all (written to
/// temporary names, then renamed). Throws CheckpointError.
void writeCheckpoint(const std::string& prefix, const std::vector<std::pair<std::string, Tensor>>& tensors);
/// The tensors a checkpoint holds, in the order written. Throws CheckpointError (a missing or
/// damaged checkpoint).
std::vector<std::pair<std::string, Tensor>> readCheckpoint(const std::string& prefix);

}  // namespace tlens::tf
