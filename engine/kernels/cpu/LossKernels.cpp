// CPU kernels for Loss ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuLossKernels(KernelRegistry&) {}

}  // namespace tlens
