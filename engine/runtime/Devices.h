// The devices of this machine, for a program's DeviceSet: the CPU, and the CUDA devices when the
// CUDA backend is built and the driver finds one (their allocators and which ops have CUDA
// kernels come from the backend). Virtual GPUs replace them on request.
#pragma once

#include <string>

#include "engine/core/DeviceSet.h"

namespace tlens {

/// The CPU plus the machine's GPUs (or virtual ones, as requested).
DeviceSet machineDevices(const DeviceRequest& request = {});

/// Why the machine has no usable GPU ("built without the CUDA toolkit", "no CUDA device"), or
/// "" when it has one.
std::string gpuUnavailableReason();

}  // namespace tlens
