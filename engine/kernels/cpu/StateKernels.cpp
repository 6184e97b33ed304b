// Variables: VariableV2 reads, Assign, AssignAdd, AssignSub; NoOp.
#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

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

/// AssignAdd / AssignSub: var op= value, in place (copy on write when the buffer is shared).
template <bool kAdd>
void assignUpdateKernel(KernelContext& c) {
  Tensor& var = c.mutableVariable(0);
  const Tensor& value = c.input(1);
  if (var.dtype() != value.dtype())
    c.fail("Parameter and update must have the same dtype: " + std::string(dtypeName(var.dtype())) +
           " vs " + std::string(dtypeName(value.dtype())));
  if (!isNumeric(var.dtype()))
    c.fail(std::string(c.op().type) + " does not support variables of type " + std::string(dtypeName(var.dtype())));
  if (var.shape() != value.shape())
    c.fail("Parameter and update must be the same size: " + concreteStr(var.shape()) + " vs " +
           concreteStr(value.shape()));
  dispatchNumeric(var.dtype(), [&](auto z) {
    using T = decltype(z);
    T* v = var.data<T>();
    const T* u = value.data<T>();
    parallelFor(var.numElements(), cpu::kElementwiseGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) v[i] = kAdd ? static_cast<T>(v[i] + u[i]) : static_cast<T>(v[i] - u[i]);
    });
  });
  c.setOutput(0, var);
}

void noOpKernel(KernelContext&) {}

}  // namespace

void registerCpuStateKernels(KernelRegistry& r) {
  r.add("VariableV2", Device::CPU, variableKernel);
  r.add("Assign", Device::CPU, assignKernel);
  r.add("AssignAdd", Device::CPU, assignUpdateKernel<true>);
  r.add("AssignSub", Device::CPU, assignUpdateKernel<false>);
  r.add("NoOp", Device::CPU, noOpKernel);
}

}  // namespace tlens
