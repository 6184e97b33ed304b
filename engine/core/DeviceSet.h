// DeviceSet: the devices one program can place ops on, as TensorFlow lists them: the CPU, then
// GPUs. A GPU is either a CUDA device (registered by the runtime when the CUDA backend is built
// and a device is present) or a *virtual* GPU: host memory with its own allocator and byte
// counts, running the CPU kernels, so placement, per-device memory and the copies between devices
// behave as on a GPU machine (`tlens run --virtual-gpus N`, tf.config.set_logical_device_configuration).
//
// Each program (TfRuntime) has its own set, so an analysed program that configures devices
// changes nothing outside its analysis. Placement (engine/graph/Placement.h) reads it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/Allocator.h"
#include "engine/core/Device.h"

namespace tlens {

struct DeviceInfo {
  Device device;
  std::string description;  ///< "NVIDIA H200", "virtual GPU (host memory)", "host CPU"
  bool isVirtual = false;   ///< a virtual GPU: host memory, CPU kernels
  size_t memoryLimit = 0;   ///< bytes; 0: no limit but the hardware's
  Allocator* allocator = nullptr;  ///< null for abstract analysis (nothing is allocated)
};

class DeviceSet {
 public:
  /// Only the CPU.
  DeviceSet();

  const std::vector<DeviceInfo>& devices() const { return devices_; }
  int gpuCount() const;
  const DeviceInfo* find(Device d) const;
  bool exists(Device d) const { return find(d) != nullptr; }
  /// The device's allocator (the CPU's for unknown devices and for abstract sets).
  Allocator* allocator(Device d) const;

  /// Removes the GPUs.
  void clearGpus();
  /// Appends a GPU (its index is the next one).
  void addGpu(DeviceInfo info);
  /// Replaces the GPUs with `n` virtual GPUs, each with `memoryLimit` bytes (0: no limit).
  void setVirtualGpus(int n, size_t memoryLimit = 0);

  /// Whether op type `type` has a kernel on the GPUs of this set. Virtual GPUs run every op that
  /// is not `cpuOnly` (the caller checks that first); CUDA devices set the predicate from the
  /// kernel registry, so an op whose CUDA kernel is missing falls back to the CPU.
  bool gpuHasKernel(std::string_view type) const { return !gpuKernel_ || gpuKernel_(type); }
  void setGpuKernelPredicate(std::function<bool(std::string_view)> f) { gpuKernel_ = std::move(f); }

  /// "/cpu:0 (host CPU), /gpu:0 (virtual GPU (host memory))".
  std::string str() const;

 private:
  std::vector<DeviceInfo> devices_;
  std::function<bool(std::string_view)> gpuKernel_;
};

/// Which devices a program asks for: the machine's, none of its GPUs, or virtual GPUs. Only the
/// runtime can list the machine's GPUs (machineDevices, engine/runtime/Devices.h); without it a
/// request gives the CPU, or the virtual GPUs asked for (requestedDevices).
struct DeviceRequest {
  /// >= 0: this many virtual GPUs instead of the machine's (`tlens run --virtual-gpus N`).
  int virtualGpus = -1;
  size_t virtualGpuMemory = 0;  ///< bytes per virtual GPU; 0: no limit
  /// Hide the machine's GPUs (the debugger's `device: "cpu"`, CUDA_VISIBLE_DEVICES="").
  bool hideGpus = false;
  bool operator==(const DeviceRequest&) const = default;
};

/// The devices a request gives without asking the machine: its virtual GPUs, else only the CPU.
DeviceSet requestedDevices(const DeviceRequest& request);

/// The allocator of virtual GPU `index`: host memory, counted per device, never destroyed.
Allocator* virtualGpuAllocator(int index);

}  // namespace tlens
