// Variables and optimizer updates on the GPU: VariableV2, Assign, AssignAdd/AssignSub and
// ApplyGradientDescent/Momentum/Adam/RMSProp, updating the variables in place in device memory
// (copy on write through KernelContext::mutableVariable, as the CPU kernels). A variable that
// still lives in host memory when a GPU op reads or updates it is moved to the device first.
#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

namespace {

/// The variable bound to ref input i, in this device's memory and private for writing.
Tensor& deviceVariable(Gpu& g, size_t i, bool forWrite) {
  Tensor& t = g.ctx.variable(i);
  if (t.hostAccessible() || t.device() != g.ctx.device()) t = t.copyTo(g.alloc(), g.ctx.nodeName().c_str());
  return forWrite ? g.ctx.mutableVariable(i) : t;
}

void variableKernel(KernelContext& c) {
  Gpu g(c);
  Tensor* v = c.resources().variable(c.nodeName());
  if (!v || !v->valid()) c.fail("Attempting to use uninitialized value " + c.nodeName(), ErrorCode::FailedPrecondition);
  if (v->hostAccessible() || v->device() != c.device()) *v = v->copyTo(g.alloc(), c.nodeName().c_str());
  c.setOutput(0, *v);
}

void assignKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor value = g.in(1);
  const std::string& name = c.varName(0);
  Tensor* cur = c.resources().variable(name);
  if (cur && cur->valid() && cur->shape() == value.shape() && cur->dtype() == value.dtype() &&
      cur->uniquelyOwned() && !cur->hostAccessible() && cur->device() == c.device()) {
    g.alloc()->copyWithin(cur->raw(), value.raw(), value.bytes());  // in place: keeps the buffer
  } else {
    c.resources().setVariable(name, value.clone());
  }
  c.setOutput(0, *c.resources().variable(name));
}

template <bool kAdd>
void assignUpdateKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor value = g.in(1);
  Tensor& var = deviceVariable(g, 0, true);
  if (var.dtype() != value.dtype())
    c.fail("Parameter and update must have the same dtype: " + std::string(dtypeName(var.dtype())) + " vs " +
           std::string(dtypeName(value.dtype())));
  if (!isNumeric(var.dtype()))
    c.fail(std::string(c.op().type) + " does not support variables of type " + std::string(dtypeName(var.dtype())));
  if (var.shape() != value.shape())
    c.fail("Parameter and update must be the same size: " + concreteStr(var.shape()) + " vs " +
           concreteStr(value.shape()));
  const Strided3 same;
  g.check(launchBinary(kAdd ? BOp::Add : BOp::Sub, g.et(var.dtype()), var.raw(), value.raw(), var.raw(),
                       var.numElements(), same, 0, g.stream),
          "launchBinary", var.dtype());
  c.setOutput(0, var);
}

/// The variables bound to `idx` (on the device, private) checked against the gradient.
std::vector<Tensor*> refs(Gpu& g, std::initializer_list<size_t> idx, size_t gradIdx,
                          std::initializer_list<const char*> names) {
  KernelContext& c = g.ctx;
  std::vector<Tensor*> out;
  const Tensor& grad = c.input(gradIdx);
  auto name = names.begin();
  for (size_t i : idx) {
    Tensor& t = deviceVariable(g, i, true);
    if (t.dtype() != grad.dtype())
      c.fail(std::string(*name) + " has dtype " + std::string(dtypeName(t.dtype())) + " but grad has dtype " +
             std::string(dtypeName(grad.dtype())));
    if (t.shape() != grad.shape())
      c.fail((out.empty() ? std::string("var and grad") : "var and " + std::string(*name)) +
             " do not have the same shape" + concreteStr(t.shape()) + " " + concreteStr(grad.shape()));
    out.push_back(&t);
    ++name;
  }
  return out;
}

/// Scalar input i in device memory (the shape function checked its rank and that its dtype is
/// the gradient's; refs() checked the variable's against the gradient).
Tensor scalarInput(Gpu& g, size_t i, DType) {
  return g.in(i);
}

void applyGradientDescent(KernelContext& c) {
  Gpu g(c);
  std::vector<Tensor*> v = refs(g, {0}, 2, {"var"});
  const DType dt = v[0]->dtype();
  const Tensor alpha = scalarInput(g, 1, dt), delta = g.in(2);
  g.check(launchApplyGradientDescent(g.et(dt), v[0]->raw(), alpha.raw(), delta.raw(), v[0]->numElements(), g.stream),
          "launchApplyGradientDescent", dt);
  c.setOutput(0, *v[0]);
}

void applyMomentum(KernelContext& c) {
  Gpu g(c);
  std::vector<Tensor*> v = refs(g, {0, 1}, 3, {"var", "accum"});
  const DType dt = v[0]->dtype();
  const Tensor lr = scalarInput(g, 2, dt), grad = g.in(3), momentum = scalarInput(g, 4, dt);
  g.check(launchApplyMomentum(g.et(dt), v[0]->raw(), v[1]->raw(), lr.raw(), grad.raw(), momentum.raw(),
                              c.getBool("use_nesterov"), v[0]->numElements(), g.stream),
          "launchApplyMomentum", dt);
  c.setOutput(0, *v[0]);
}

void applyAdam(KernelContext& c) {
  Gpu g(c);
  std::vector<Tensor*> v = refs(g, {0, 1, 2}, 9, {"var", "m", "v"});
  const DType dt = v[0]->dtype();
  const Tensor b1p = scalarInput(g, 3, dt), b2p = scalarInput(g, 4, dt), lr = scalarInput(g, 5, dt);
  const Tensor b1 = scalarInput(g, 6, dt), b2 = scalarInput(g, 7, dt), eps = scalarInput(g, 8, dt);
  const Tensor grad = g.in(9);
  g.check(launchApplyAdam(g.et(dt), v[0]->raw(), v[1]->raw(), v[2]->raw(), b1p.raw(), b2p.raw(), lr.raw(), b1.raw(),
                          b2.raw(), eps.raw(), grad.raw(), c.getBool("use_nesterov"), v[0]->numElements(), g.stream),
          "launchApplyAdam", dt);
  c.setOutput(0, *v[0]);
}

void applyRMSProp(KernelContext& c) {
  Gpu g(c);
  std::vector<Tensor*> v = refs(g, {0, 1, 2}, 7, {"var", "ms", "mom"});
  const DType dt = v[0]->dtype();
  const Tensor lr = scalarInput(g, 3, dt), rho = scalarInput(g, 4, dt), momentum = scalarInput(g, 5, dt);
  const Tensor eps = scalarInput(g, 6, dt), grad = g.in(7);
  g.check(launchApplyRMSProp(g.et(dt), v[0]->raw(), v[1]->raw(), v[2]->raw(), lr.raw(), rho.raw(), momentum.raw(),
                             eps.raw(), grad.raw(), v[0]->numElements(), g.stream),
          "launchApplyRMSProp", dt);
  c.setOutput(0, *v[0]);
}

void applyAdagrad(KernelContext& c) {
  Gpu g(c);
  std::vector<Tensor*> v = refs(g, {0, 1}, 3, {"var", "accum"});
  const DType dt = v[0]->dtype();
  const Tensor lr = scalarInput(g, 2, dt), grad = g.in(3);
  g.check(launchApplyAdagrad(g.et(dt), v[0]->raw(), v[1]->raw(), lr.raw(), grad.raw(), c.getBool("update_slots"),
                             v[0]->numElements(), g.stream),
          "launchApplyAdagrad", dt);
  c.setOutput(0, *v[0]);
}

void applyAdadelta(KernelContext& c) {
  Gpu g(c);
  std::vector<Tensor*> v = refs(g, {0, 1, 2}, 6, {"var", "accum", "accum_update"});
  const DType dt = v[0]->dtype();
  const Tensor lr = scalarInput(g, 3, dt), rho = scalarInput(g, 4, dt), eps = scalarInput(g, 5, dt);
  const Tensor grad = g.in(6);
  g.check(launchApplyAdadelta(g.et(dt), v[0]->raw(), v[1]->raw(), v[2]->raw(), lr.raw(), rho.raw(), eps.raw(),
                              grad.raw(), v[0]->numElements(), g.stream),
          "launchApplyAdadelta", dt);
  c.setOutput(0, *v[0]);
}

}  // namespace

void registerStateKernels(KernelRegistry& r) {
  r.add("ApplyAdagrad", Device::GPU, applyAdagrad);
  r.add("ApplyAdadelta", Device::GPU, applyAdadelta);
  const Device::Kind G = Device::GPU;
  r.add("VariableV2", G, variableKernel);
  r.add("Assign", G, assignKernel);
  r.add("AssignAdd", G, assignUpdateKernel<true>);
  r.add("AssignSub", G, assignUpdateKernel<false>);
  r.add("ApplyGradientDescent", G, applyGradientDescent);
  r.add("ApplyMomentum", G, applyMomentum);
  r.add("ApplyAdam", G, applyAdam);
  r.add("ApplyRMSProp", G, applyRMSProp);
}

}  // namespace tlens::cuda
