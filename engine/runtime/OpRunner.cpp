#include "engine/runtime/OpRunner.h"

#include "engine/runtime/Kernel.h"

#include <string_view>
#include <unordered_map>

namespace tlens {

namespace {

/// A dtype-agnostic op (OpDef::Strings::ByIndex) on string inputs: its numeric kernel runs on the
/// CPU over int64 tensors that number the inputs' strings (input k's element j is offset_k + j),
/// and each string output takes the strings its numbers name. Reshape, Gather, ConcatV2,
/// Transpose, Tile... move the numbers exactly as they would move the strings.
/// ByValue ops (Equal, Unique) number equal strings alike.
std::vector<Tensor> runByIndex(const OpCall& c, const ShapeResult& r, bool byValue) {
  std::vector<const std::string*> pool;
  std::unordered_map<std::string_view, int64_t> ids;
  std::vector<Tensor> proxies = *c.inputs;
  for (Tensor& t : proxies) {
    if (!t.valid() || t.dtype() != DType::String) continue;
    Tensor idx(DType::Int64, t.shape());
    int64_t* p = idx.data<int64_t>();
    for (int64_t j = 0; j < t.numElements(); ++j) {
      const std::string& s = t.strings()[j];
      if (byValue) {
        auto [it, fresh] = ids.emplace(s, static_cast<int64_t>(pool.size()));
        if (fresh) pool.push_back(&s);
        p[j] = it->second;
      } else {
        p[j] = static_cast<int64_t>(pool.size());
        pool.push_back(&s);
      }
    }
    t = std::move(idx);
  }
  Attrs attrs = *c.attrs;
  for (auto& [name, v] : attrs)
    if (auto* d = std::get_if<DType>(&v); d && *d == DType::String) *d = DType::Int64;
  OpCall call = c;
  call.inputs = &proxies;
  call.attrs = &attrs;
  call.device = Device::cpu();
  call.where = nullptr;
  call.finite = nullptr;
  std::vector<Tensor> outs = runOp(call);
  for (size_t i = 0; i < outs.size() && i < r.outputs.size(); ++i) {
    if (r.outputs[i].dtype != DType::String || !outs[i].valid()) continue;
    const Tensor& idx = outs[i];
    Tensor s(DType::String, idx.shape());
    for (int64_t j = 0; j < idx.numElements(); ++j) {
      const int64_t k = idx.data<int64_t>()[j];
      if (k < 0 || static_cast<size_t>(k) >= pool.size())
        throwError(ErrorCode::Internal, "Internal: " + c.op->type + " moved a string index out of range");
      s.strings()[j] = *pool[static_cast<size_t>(k)];
    }
    outs[i] = std::move(s);
  }
  return outs;
}

}  // namespace

std::vector<Tensor> runOp(const OpCall& c) {
  const OpDef& op = *c.op;
  const std::vector<Tensor>& inputs = *c.inputs;
  std::vector<TensorType> inTypes;
  inTypes.reserve(inputs.size());
  bool strings = false;
  for (const Tensor& t : inputs) {
    inTypes.push_back(t.valid() ? concreteType(t) : TensorType{});
    strings = strings || t.dtype() == DType::String;
  }
  ShapeResult r = op.infer(inTypes, *c.attrs, *c.name);
  if (!r.ok()) throw EngineError(ErrorCode::InvalidArgument, r.error);
  if (strings && (op.strings == OpDef::Strings::ByIndex || op.strings == OpDef::Strings::ByValue))
    return runByIndex(c, r, op.strings == OpDef::Strings::ByValue);

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
