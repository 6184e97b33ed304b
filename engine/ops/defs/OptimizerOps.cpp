// Optimizer ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerOptimizerOps(OpRegistry&) {}

}  // namespace tlens
