#include <algorithm>

#include "engine/kernels/cpu/Elementwise.h"
#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

void constKernel(KernelContext& c) { c.setOutput(0, *c.getTensor("value")); }

void placeholderKernel(KernelContext& c) {
  const TensorType& t = c.outputType(0);
  std::string shape = t.shape.rankKnown() ? t.shape.str() : "<unknown>";
  shape.erase(std::remove(shape.begin(), shape.end(), ' '), shape.end());
  std::string dt = t.dtype == DType::Float32 ? "float" : t.dtype == DType::Float64 ? "double" : std::string(dtypeName(t.dtype));
  c.fail("You must feed a value for placeholder tensor '" + c.nodeName() + "' with dtype " + dt +
         " and shape " + shape);
}

void identityKernel(KernelContext& c) { c.setOutput(0, c.input(0)); }

void shapeKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const ConcreteShape& s = c.input(0).shape();
  for (size_t i = 0; i < s.size(); ++i) out.setDouble(static_cast<int64_t>(i), static_cast<double>(s[i]));
}

void sizeKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  out.setDouble(0, static_cast<double>(c.input(0).numElements()));
}

void reshapeKernel(KernelContext& c) {
  // Inference resolved any -1 against the concrete input, so the output shape is known.
  c.setOutput(0, c.input(0).reshaped(c.outputType(0).shape.concrete()));
}

void broadcastToKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  dispatchAll(out.dtype(), [&](auto z) { cpu::broadcastCopy<decltype(z)>(c.input(0), out); });
}

void zerosLikeKernel(KernelContext& c) {
  c.setOutput(0, Tensor::filled(c.input(0).dtype(), c.input(0).shape(), 0));
}

void onesLikeKernel(KernelContext& c) {
  c.setOutput(0, Tensor::filled(c.input(0).dtype(), c.input(0).shape(), 1));
}

}  // namespace

void registerCpuArrayKernels(KernelRegistry& r) {
  r.add("Const", Device::CPU, constKernel);
  r.add("Placeholder", Device::CPU, placeholderKernel);
  r.add("Identity", Device::CPU, identityKernel);
  r.add("Shape", Device::CPU, shapeKernel);
  r.add("Size", Device::CPU, sizeKernel);
  r.add("Reshape", Device::CPU, reshapeKernel);
  r.add("BroadcastTo", Device::CPU, broadcastToKernel);
  r.add("ZerosLike", Device::CPU, zerosLikeKernel);
  r.add("OnesLike", Device::CPU, onesLikeKernel);
}

}  // namespace tlens
