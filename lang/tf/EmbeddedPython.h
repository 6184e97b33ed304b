// The Python half of the tensorflow/numpy modules (lang/tf/python/*.py), compiled into tlens.
#pragma once

#include <vector>

namespace tlens::tf {

struct EmbeddedModule {
  const char* name;    ///< "tensorflow.compat.v1"
  const char* source;
};

const std::vector<EmbeddedModule>& embeddedModules();

}  // namespace tlens::tf
