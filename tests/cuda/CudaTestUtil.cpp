#include "CudaTestUtil.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "engine/runtime/OpRunner.h"

namespace tlens::cudatest {

const KernelRegistry& gpuKernels() {
  static const KernelRegistry* r = [] {
    auto* reg = new KernelRegistry();
    cuda::registerKernels(*reg);
    return reg;
  }();
  return *r;
}

bool hasGpuKernel(const std::string& op) {
  return gpuKernels().find(op, Device::GPU) != nullptr && cuda::gpuKernelUsable(op);
}

bool dryRun() {
  static const bool on = [] {
    const char* v = std::getenv("TLENS_CUDA_DRY_RUN");
    return v && std::strcmp(v, "0") != 0 && cuda::deviceCount() == 0;
  }();
  return on;
}

Tensor toDevice(const Tensor& t, int device) {
  if (!t.valid()) return t;
  if (dryRun()) return t.toHost();
  return t.toHost().copyTo(cuda::allocator(device), "test input");
}

std::vector<Tensor> runCpu(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                           Resources& res, const std::string& name, const std::vector<std::string>* varNames) {
  const OpDef& def = OpRegistry::global().get(op);
  const Attrs full = def.withDefaults(attrs);
  std::vector<Tensor> host;
  for (const Tensor& t : inputs) host.push_back(t.valid() ? t.toHost() : t);
  OpCall call;
  call.op = &def;
  call.attrs = &full;
  call.inputs = &host;
  call.name = &name;
  call.device = Device::cpu();
  call.resources = &res;
  call.varNames = varNames;
  return runOp(call);
}

GpuRun runGpu(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs, Resources& res,
              const std::string& name, const std::vector<std::string>* varNames) {
  const OpDef& def = OpRegistry::global().get(op);
  KernelFn fn = hasGpuKernel(op) ? gpuKernels().find(op, Device::GPU) : nullptr;
  if (dryRun()) return GpuRun{runCpu(op, inputs, attrs, res, name, varNames), !fn};
  if (!fn) return GpuRun{runCpu(op, inputs, attrs, res, name, varNames), true};
  const Attrs full = def.withDefaults(attrs);
  // Shape functions read the values of small integer inputs: give them host copies.
  std::vector<TensorType> inTypes;
  for (const Tensor& t : inputs) inTypes.push_back(t.valid() ? concreteType(t.toHost()) : TensorType{});
  ShapeResult r = def.infer(inTypes, full, name);
  if (!r.ok()) throw EngineError(ErrorCode::InvalidArgument, r.error);
  std::vector<Tensor> placed;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const bool host = std::find(def.hostInputs.begin(), def.hostInputs.end(), static_cast<int>(i)) != def.hostInputs.end();
    placed.push_back(!inputs[i].valid() ? inputs[i] : host ? inputs[i].toHost() : toDevice(inputs[i]));
  }
  KernelContext ctx(def, full, placed, r.outputs, res, name, Device::gpu(0));
  ctx.setVarNames(varNames);
  fn(ctx);
  std::vector<Tensor>& outs = ctx.outputs();
  for (size_t i = 0; i < outs.size(); ++i) {
    const TensorType& want = r.outputs[i];
    if (!outs[i].valid()) {
      if (def.refInputs.empty() && want.dtype != DType::Invalid)
        throw EngineError(ErrorCode::Internal, op + ": GPU kernel did not produce output " + std::to_string(i));
      continue;
    }
    if (!want.shape.accepts(outs[i].shape()) || (want.dtype != DType::Invalid && want.dtype != outs[i].dtype()))
      throw EngineError(ErrorCode::Internal, op + ": GPU kernel produced " + outs[i].typeStr() + " for output " +
                                                 std::to_string(i) + " but shape inference said " + want.str());
  }
  cuda::synchronize(0);  // surface asynchronous kernel errors here, attributed to this op
  return GpuRun{std::move(outs), false};
}

double toleranceFor(DType t) {
  switch (t) {
    case DType::Float32: return 2e-4;
    case DType::Float64: return 1e-9;
    case DType::Float16: return 1e-2;
    default: return 0;
  }
}

std::string compare(const Tensor& cpu, const Tensor& gpu0, double tol) {
  const Tensor gpu = gpu0.toHost();
  std::ostringstream os;
  if (cpu.dtype() != gpu.dtype()) {
    os << "dtype " << dtypeName(gpu.dtype()) << " != CPU " << dtypeName(cpu.dtype());
    return os.str();
  }
  if (cpu.shape() != gpu.shape()) {
    os << "shape " << concreteStr(gpu.shape()) << " != CPU " << concreteStr(cpu.shape());
    return os.str();
  }
  if (cpu.dtype() == DType::String)  // ops on strings run on the host wherever they are placed
    return tensorsEqual(cpu, gpu) ? std::string() : std::string("string elements differ from the CPU's");
  for (int64_t i = 0; i < cpu.numElements(); ++i) {
    const double x = cpu.getDouble(i), y = gpu.getDouble(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::isinf(x) && x == y) continue;
    const double e = std::fabs(x - y) / std::max(1.0, std::fabs(x));
    if (!(e <= tol)) {
      os << "element " << i << ": GPU " << y << " vs CPU " << x << " (relative error " << e << ", tolerance " << tol
         << ")";
      return os.str();
    }
  }
  return {};
}

std::vector<Tensor> runGraphOn(Graph& g, bool gpu, const std::vector<std::pair<Output, Tensor>>& feeds,
                               const std::vector<Output>& fetches, std::set<std::string>* fellBack) {
  std::map<std::pair<int, int>, Tensor> values;
  std::map<int, Tensor> fed;
  for (const auto& [o, t] : feeds) fed[o.node->id] = t;
  Resources res;
  for (Node& n : g.nodes()) {
    std::vector<Tensor> outs;
    auto f = fed.find(n.id);
    if (f != fed.end()) {
      outs = {gpu ? toDevice(f->second) : f->second.toHost()};
    } else {
      std::vector<Tensor> ins;
      for (const Output& in : n.inputs) ins.push_back(values.at({in.node->id, in.index}));
      if (gpu) {
        GpuRun r = runGpu(n.type(), ins, n.attrs, res, n.name);
        // Ops the registry keeps on the host (OpDef::cpuOnly) run on the CPU by design.
        if (r.fellBack && fellBack && n.op->cpuOnly.empty()) fellBack->insert(n.type());
        outs = std::move(r.outputs);
      } else {
        outs = runCpu(n.type(), ins, n.attrs, res, n.name);
      }
    }
    for (size_t i = 0; i < outs.size(); ++i) values[{n.id, static_cast<int>(i)}] = outs[i];
  }
  std::vector<Tensor> result;
  for (const Output& o : fetches) result.push_back(values.at({o.node->id, o.index}).toHost());
  return result;
}

}  // namespace tlens::cudatest
