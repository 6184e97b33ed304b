#include "engine/runtime/Devices.h"

#include "engine/runtime/Kernel.h"

#ifdef TLENS_HAVE_CUDA
#include "engine/cuda/CudaBackend.h"
#endif

namespace tlens {

DeviceSet machineDevices(const DeviceRequest& request) {
  if (request.virtualGpus >= 0 || request.hideGpus) return requestedDevices(request);
  DeviceSet set;
#ifdef TLENS_HAVE_CUDA
  const int n = cuda::deviceCount();
  for (int i = 0; i < n; ++i)
    set.addGpu(DeviceInfo{Device::gpu(i), cuda::deviceName(i), false, cuda::totalMemory(i), cuda::allocator(i)});
  // A registered kernel may still be unusable here: the convolutions without a loadable cuDNN.
  if (n > 0)
    set.setGpuKernelPredicate([](std::string_view type) {
      return KernelRegistry::global().find(type, Device::GPU) != nullptr && cuda::gpuKernelUsable(type);
    });
#endif
  return set;
}

std::string gpuUnavailableReason() {
#ifdef TLENS_HAVE_CUDA
  return cuda::deviceCount() > 0 ? std::string() : cuda::unavailableReason();
#else
  return "this build has no CUDA backend (nvcc was not found when it was built)";
#endif
}

}  // namespace tlens
