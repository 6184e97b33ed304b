#include "engine/core/DeviceSet.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

#include "engine/core/Error.h"

namespace tlens {

namespace {

// Host memory that presents itself as GPU:index. Element access stays possible (virtual GPUs run
// the CPU kernels), but its bytes are counted apart from the CPU's and against its own limit.
class VirtualGpuAllocator final : public Allocator {
 public:
  explicit VirtualGpuAllocator(int index) : index_(index) {}
  void* allocate(size_t bytes, const char* what) override {
    reserve(bytes, what);
    void* p = nullptr;
    size_t rounded = (bytes + 63) / 64 * 64;
    if (rounded == 0) rounded = 64;
    if (posix_memalign(&p, 64, rounded) != 0 || !p) {
      release(bytes);
      throwError(ErrorCode::ResourceExhausted,
                 "OOM when allocating tensor" + (what ? std::string(" for ") + what : std::string()) +
                     " on " + device().str() + ": the host could not provide " + formatBytes(bytes));
    }
    return p;
  }
  void deallocate(void* p, size_t bytes) override {
    std::free(p);
    release(bytes);
  }
  Device device() const override { return Device::gpu(index_); }

 private:
  int index_;
};

}  // namespace

Allocator* virtualGpuAllocator(int index) {
  static std::mutex mu;
  static auto* pool = new std::map<int, Allocator*>();  // never destroyed: tensors may outlive statics
  std::lock_guard<std::mutex> lock(mu);
  Allocator*& a = (*pool)[index];
  if (!a) a = new VirtualGpuAllocator(index);
  return a;
}

DeviceSet::DeviceSet() {
  devices_.push_back(DeviceInfo{Device::cpu(), "host CPU", false, 0, cpuAllocator()});
}

int DeviceSet::gpuCount() const {
  int n = 0;
  for (const DeviceInfo& d : devices_) n += d.device.kind == Device::GPU;
  return n;
}

const DeviceInfo* DeviceSet::find(Device d) const {
  for (const DeviceInfo& i : devices_)
    if (i.device == d) return &i;
  return nullptr;
}

Allocator* DeviceSet::allocator(Device d) const {
  const DeviceInfo* i = find(d);
  return i && i->allocator ? i->allocator : cpuAllocator();
}

void DeviceSet::clearGpus() {
  std::erase_if(devices_, [](const DeviceInfo& d) { return d.device.kind == Device::GPU; });
  gpuKernel_ = nullptr;
}

void DeviceSet::addGpu(DeviceInfo info) {
  info.device = Device::gpu(gpuCount());
  devices_.push_back(std::move(info));
}

void DeviceSet::setVirtualGpus(int n, size_t memoryLimit) {
  clearGpus();
  for (int i = 0; i < n; ++i) {
    Allocator* a = virtualGpuAllocator(i);
    a->setLimit(memoryLimit);
    addGpu(DeviceInfo{Device::gpu(i), "virtual GPU (host memory)", true, memoryLimit, a});
  }
}

std::string DeviceSet::str() const {
  std::string s;
  for (const DeviceInfo& d : devices_) {
    if (!s.empty()) s += ", ";
    s += d.device.str() + " (" + d.description;
    if (d.memoryLimit) s += ", " + formatBytes(d.memoryLimit);
    s += ")";
  }
  return s;
}

}  // namespace tlens

namespace tlens {

DeviceSet requestedDevices(const DeviceRequest& request) {
  DeviceSet set;
  if (request.virtualGpus >= 0) set.setVirtualGpus(request.virtualGpus, request.virtualGpuMemory);
  return set;
}

}  // namespace tlens
