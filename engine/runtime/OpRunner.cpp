#include "engine/runtime/OpRunner.h"

#include "engine/runtime/Kernel.h"

namespace tlens {

std::vector<Tensor> runOp(const OpCall& c) {
  const OpDef& op = *c.op;
  const std::vector<Tensor>& inputs = *c.inputs;
  std::vector<TensorType> inTypes;
  inTypes.reserve(inputs.size());
  for (const Tensor& t : inputs) inTypes.push_back(t.valid() ? concreteType(t) : TensorType{});
  ShapeResult r = op.infer(inTypes, *c.attrs, *c.name);
  if (!r.ok()) throw EngineError(ErrorCode::InvalidArgument, r.error);

  // Virtual GPUs run the CPU kernels on their own (host) memory.
  const bool virtualGpu = c.where && c.where->isVirtual;
  const Device::Kind kind = virtualGpu ? Device::CPU : c.device.kind;
  KernelFn fn = KernelRegistry::global().find(op.type, kind);
  if (!fn)
    throwError(ErrorCode::Unimplemented,
               "No " + std::string(kind == Device::CPU ? "CPU" : "GPU") +
                   " kernel registered for op " + op.type + " (node " + *c.name + ")");
  Allocator* alloc = c.where && c.where->allocator ? c.where->allocator : cpuAllocator();
  KernelContext ctx(op, *c.attrs, inputs, r.outputs, *c.resources, *c.name, c.device, alloc);
  ctx.setVarNames(c.varNames);
  ctx.setCheckingNumerics(c.checkNumerics);
  fn(ctx);
  if (c.finite) *c.finite = ctx.finiteReports();
  std::vector<Tensor>& outs = ctx.outputs();
  // A CPU kernel that made an output with its own allocation (a cast, a scratch result) on a
  // virtual GPU: the output moves to the device's memory, as it would be there on a real GPU.
  if (virtualGpu)
    for (Tensor& t : outs)
      if (t.valid() && t.buffer() && t.buffer()->allocator() == cpuAllocator()) t = t.copyTo(alloc, c.name->c_str());
  for (size_t i = 0; i < outs.size(); ++i) {
    const TensorType& want = r.outputs[i];
    if (!outs[i].valid()) {
      if (op.refInputs.empty() && !op.deadOutputs && want.dtype != DType::Invalid)
        ctx.fail("Internal: kernel did not produce output " + std::to_string(i), ErrorCode::Internal);
      continue;
    }
    if (!want.shape.accepts(outs[i].shape()) ||
        (want.dtype != DType::Invalid && want.dtype != outs[i].dtype()))
      ctx.fail("Internal: kernel produced " + outs[i].typeStr() + " for output " +
                   std::to_string(i) + " but shape inference said " + want.str(),
               ErrorCode::Internal);
  }
  return std::move(outs);
}

}  // namespace tlens
