// CPU kernels for Comparison ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuComparisonKernels(KernelRegistry&) {}

}  // namespace tlens
