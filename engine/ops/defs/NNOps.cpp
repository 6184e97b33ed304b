// NN ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerNNOps(OpRegistry&) {}

}  // namespace tlens
