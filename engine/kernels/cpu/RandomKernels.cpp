// CPU kernels for Random ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuRandomKernels(KernelRegistry&) {}

}  // namespace tlens
