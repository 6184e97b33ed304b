// Control ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerControlOps(OpRegistry&) {}

}  // namespace tlens
