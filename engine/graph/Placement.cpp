#include "engine/graph/Placement.h"

#include <optional>

namespace tlens {

namespace {

std::string noKernelReason(const OpDef& op, const DeviceSet* devices) {
  if (!op.cpuOnly.empty()) return op.type + " has no GPU kernel (" + op.cpuOnly + ")";
  if (devices && !devices->gpuHasKernel(op.type))
    return op.type + " has no CUDA kernel in this build";
  return {};
}

}  // namespace

Placement placeOp(const OpDef& op, std::string_view requested, const DeviceSet* devices,
                  const Device* colocateWith, bool strings) {
  Placement p;
  const bool haveGpu = devices && devices->gpuCount() > 0;
  if (colocateWith) {
    p.device = *colocateWith;
    return p;
  }
  if (strings) {
    std::optional<Device> asked = requested.empty() ? std::nullopt : Device::parse(requested);
    if (haveGpu || (asked && asked->kind == Device::GPU))
      p.note = op.type + " works on string tensors, which live on the host; placed on /cpu:0";
    p.device = Device::cpu();
    return p;
  }
  if (!requested.empty()) {
    if (auto d = Device::parse(requested)) {
      const bool exists = d->kind == Device::CPU ? d->index == 0 : (devices && devices->exists(*d));
      if (!exists) {
        p.device = Device::cpu();
        p.softPlaced = true;
        p.note = "requested " + d->str() + ", which this program does not have (devices: " +
                 (devices ? devices->str() : DeviceSet().str()) + "); placed on /cpu:0";
        return p;
      }
      if (d->kind == Device::GPU) {
        std::string why = noKernelReason(op, devices);
        if (!why.empty()) {
          p.device = Device::cpu();
          p.softPlaced = true;
          p.note = why + "; requested " + d->str() + ", placed on /cpu:0";
          return p;
        }
      }
      p.device = *d;
      return p;
    }
  }
  if (haveGpu) {
    std::string why = noKernelReason(op, devices);
    if (why.empty()) {
      p.device = Device::gpu(0);
      return p;
    }
    p.note = why + "; placed on /cpu:0";
  }
  p.device = Device::cpu();
  return p;
}

}  // namespace tlens
