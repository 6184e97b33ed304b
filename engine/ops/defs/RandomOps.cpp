// Random ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerRandomOps(OpRegistry&) {}

}  // namespace tlens
