// Loss ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerLossOps(OpRegistry&) {}

}  // namespace tlens
