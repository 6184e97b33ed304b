#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

void variableKernel(KernelContext& c) {
  Tensor* v = c.resources().variable(c.nodeName());
  if (!v || !v->valid())
    c.fail("Attempting to use uninitialized value " + c.nodeName(), ErrorCode::FailedPrecondition);
  c.setOutput(0, *v);
}

void assignKernel(KernelContext& c) {
  const Tensor& value = c.input(1);
  const std::string& name = c.varName(0);
  Tensor* cur = c.resources().variable(name);
  if (cur && cur->valid() && cur->shape() == value.shape() && cur->uniquelyOwned()) {
    std::memcpy(cur->raw(), value.raw(), value.bytes());  // in place: keeps the buffer
  } else {
    c.resources().setVariable(name, value.clone());
  }
  c.setOutput(0, *c.resources().variable(name));
}

void noOpKernel(KernelContext&) {}

}  // namespace

void registerCpuStateKernels(KernelRegistry& r) {
  r.add("VariableV2", Device::CPU, variableKernel);
  r.add("Assign", Device::CPU, assignKernel);
  r.add("NoOp", Device::CPU, noOpKernel);
}

}  // namespace tlens
