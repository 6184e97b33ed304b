// CPU kernels for Optimizer ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuOptimizerKernels(KernelRegistry&) {}

}  // namespace tlens
