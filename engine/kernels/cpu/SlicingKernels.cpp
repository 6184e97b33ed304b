// CPU kernels for Slicing ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuSlicingKernels(KernelRegistry&) {}

}  // namespace tlens
