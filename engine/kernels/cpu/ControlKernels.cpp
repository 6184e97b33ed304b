// CPU kernels for Control ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuControlKernels(KernelRegistry&) {}

}  // namespace tlens
