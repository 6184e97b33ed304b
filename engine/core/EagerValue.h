// EagerValue: an eager tensor with an identity, so gradient tapes can tell which tensors an op
// consumed. Plain data over Tensor: the interpreter's tensor objects hold one in both modes, the
// eager context (engine/runtime/Eager.h) gives out the identities.
#pragma once

#include <cstdint>

#include "engine/core/Tensor.h"

namespace tlens {

struct EagerValue {
  Tensor tensor;
  uint64_t id = 0;
};

}  // namespace tlens
