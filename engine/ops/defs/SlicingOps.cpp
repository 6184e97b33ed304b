// Slicing ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerSlicingOps(OpRegistry&) {}

}  // namespace tlens
