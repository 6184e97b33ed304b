// Unary ops. (Family not filled in yet.)
#include "engine/ops/OpRegistry.h"

namespace tlens {

void registerUnaryOps(OpRegistry&) {}

}  // namespace tlens
