// Comparison ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerComparisonOps(OpRegistry&) {}

}  // namespace tlens
