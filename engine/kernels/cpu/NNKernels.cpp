// CPU kernels for NN ops. (Family not filled in yet.)
#include "engine/runtime/Kernel.h"

namespace tlens {

void registerCpuNNKernels(KernelRegistry&) {}

}  // namespace tlens
