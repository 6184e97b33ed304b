// `tlens_bench gpu`: the CUDA backend against baselines measured in the same run on the same
// device. Targets (docs/performance.md, GPU section):
//   MatMul through the engine's per-op path vs cuBLAS called directly     >= 0.9x
//   elementwise ops vs the device-to-device copy bandwidth                 >= 80%
//   dispatch per op (shape function, kernel lookup, launch; no sync)       <= 10 us
//   check-numerics on the MLP step (per-output allFinite; batched scans)    <= 3%
// Without a device it says why and returns (exit status 0).
//
// The engine path here is the one runOp takes (shape function on the concrete inputs, kernel
// lookup, KernelContext, the GPU kernel), run by a small local dispatcher, because the runtime's
// device placement is not part of this file's dependencies.
#include <cstdio>

#include "BenchUtil.h"
#include "engine/cuda/CudaBackend.h"

#ifdef TLENS_HAVE_CUDA

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <random>

#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/OpRunner.h"

namespace tlens::bench {

namespace {

const KernelRegistry& gpuKernels() {
  static const KernelRegistry* r = [] {
    auto* reg = new KernelRegistry();
    cuda::registerKernels(*reg);
    return reg;
  }();
  return *r;
}

/// One op on GPU 0 the way runOp runs it: the op's hostInputs in host memory, small integer
/// inputs' values visible to the shape function (copied back when a GPU op produced them).
std::vector<Tensor> dispatch(const OpDef& op, const Attrs& attrs, const std::vector<Tensor>& inputs, Resources& res,
                             const std::string& name, const std::vector<std::string>* varNames = nullptr) {
  std::vector<TensorType> inTypes;
  std::vector<Tensor> kernelInputs;
  inTypes.reserve(inputs.size());
  kernelInputs.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    const bool hostInput = std::find(op.hostInputs.begin(), op.hostInputs.end(), static_cast<int>(i)) != op.hostInputs.end();
    const bool smallInts = (t.dtype() == DType::Int32 || t.dtype() == DType::Int64) && t.numElements() <= 4096;
    const Tensor host = t.valid() && (hostInput || smallInts) ? t.toHost() : Tensor();
    kernelInputs.push_back(hostInput && t.valid() ? host : t);
    if (!t.valid()) inTypes.emplace_back();
    else if (host.valid()) inTypes.push_back(concreteType(host));
    else inTypes.emplace_back(t.dtype(), Shape::fromConcrete(t.shape()));
  }
  ShapeResult r = op.infer(inTypes, attrs, name);
  if (!r.ok()) throw EngineError(ErrorCode::InvalidArgument, r.error);
  KernelFn fn = gpuKernels().find(op.type, Device::GPU);
  if (!fn) throw EngineError(ErrorCode::Unimplemented, "no GPU kernel for " + op.type);
  KernelContext ctx(op, attrs, kernelInputs, r.outputs, res, name, Device::gpu(0));
  ctx.setVarNames(varNames);
  fn(ctx);
  return std::move(ctx.outputs());
}

Tensor deviceRandom(ConcreteShape s, uint64_t seed, double scale = 1) {
  Tensor h(DType::Float32, std::move(s));
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  for (int64_t i = 0; i < h.numElements(); ++i) h.data<float>()[i] = d(g) * static_cast<float>(scale);
  return h.copyTo(cuda::allocator(0));
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw EngineError(ErrorCode::Internal, std::string(what) + ": " + cudaGetErrorString(e));
}

void matmulVsCublas(bool quick) {
  std::printf("\n-- MatMul: engine vs cuBLAS SGEMM on the same buffers --\n");
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw EngineError(ErrorCode::Internal, "cublasCreate failed");
  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  cublasSetStream(h, s);
  const OpDef& mm = OpRegistry::global().get("MatMul");
  const Attrs attrs = mm.withDefaults({});
  Resources res;
  bool allOk = true;
  for (int n : {256, 1024, 4096}) {
    if (quick && n == 4096) continue;
    const Tensor a = deviceRandom({n, n}, 1), b = deviceRandom({n, n}, 2);
    Tensor c(DType::Float32, {n, n}, cuda::allocator(0));
    const float one = 1, zero = 0;
    const int iters = n >= 4096 ? 5 : n >= 1024 ? 20 : 200;
    auto [tBlas, tEngine] = timePair(
        [&] {
          for (int i = 0; i < 5; ++i)
            cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.data<float>(), n, a.data<float>(), n, &zero,
                        c.data<float>(), n);
          check(cudaStreamSynchronize(s), "sync");
        },
        [&] {
          for (int i = 0; i < 5; ++i) dispatch(mm, attrs, {a, b}, res, "MatMul");
          cuda::synchronize(0);
        },
        iters);
    const double ratio = tBlas / tEngine;
    const double tflops = 2.0 * n * n * n * 5 / tEngine / 1e12;
    allOk = allOk && ratio >= 0.9;
    std::printf("%5d^3  cuBLAS %8.3f ms  engine %8.3f ms  (%.1f TFLOP/s)  ratio %.3fx  target >= 0.9x  %s\n", n,
                tBlas / 5 * 1e3, tEngine / 5 * 1e3, tflops, ratio, verdict(ratio >= 0.9));
  }
  cublasDestroy(h);
  cudaStreamDestroy(s);
}

void elementwiseVsCopy(bool quick) {
  std::printf("\n-- elementwise ops vs device-to-device copy bandwidth --\n");
  const int64_t n = quick ? (int64_t{1} << 24) : (int64_t{1} << 26);  // 64 MiB / 256 MiB of float32
  const Tensor a = deviceRandom({n}, 3), b = deviceRandom({n}, 4);
  const Tensor row = deviceRandom({1024}, 5);
  Tensor dst(DType::Float32, {n}, cuda::allocator(0));
  Resources res;
  const double bytes = static_cast<double>(n) * 4;
  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  const double tCopy = timePerCall([&] {
    check(cudaMemcpyAsync(dst.raw(), a.raw(), static_cast<size_t>(bytes), cudaMemcpyDeviceToDevice, s), "copy");
    check(cudaStreamSynchronize(s), "sync");
  }, 10);
  const double copyBw = 2 * bytes / tCopy;
  std::printf("D2D copy          %8.3f ms  %7.1f GB/s (read + write)\n", tCopy * 1e3, copyBw / 1e9);
  struct Case {
    const char* op;
    std::vector<Tensor> in;
    double traffic;  ///< bytes read + written per call, in units of one tensor
  };
  const Tensor a2 = a.reshaped({n / 1024, 1024});
  const std::vector<Case> cases = {{"Relu", {a}, 2},     {"Exp", {a}, 2},          {"Add", {a, b}, 3},
                                   {"Mul", {a, b}, 3},   {"Add", {a2, row}, 2},    {"Sigmoid", {a}, 2}};
  for (const Case& c : cases) {
    const OpDef& op = OpRegistry::global().get(c.op);
    const Attrs attrs = op.withDefaults({});
    const double t = timePerCall([&] {
      dispatch(op, attrs, c.in, res, c.op);
      cuda::synchronize(0);
    }, 10);
    const double bw = c.traffic * bytes / t;
    const double ratio = bw / copyBw;
    std::printf("%-8s%-10s%8.3f ms  %7.1f GB/s  %5.1f%% of copy  target >= 80%%  %s\n", c.op,
                c.in.size() > 1 && c.in[1].numElements() == 1024 ? " (bias)" : "", t * 1e3, bw / 1e9, ratio * 100,
                verdict(ratio >= 0.8));
  }
  cudaStreamDestroy(s);
}

void dispatchOverhead(bool quick) {
  std::printf("\n-- dispatch per op (tiny tensors: host overhead + launch, no sync per op) --\n");
  const Tensor a = deviceRandom({16}, 6), b = deviceRandom({16}, 7);
  Resources res;
  for (const char* name : {"Add", "Relu", "MatMul"}) {
    const OpDef& op = OpRegistry::global().get(name);
    const Attrs attrs = op.withDefaults({});
    const std::vector<Tensor> in = std::string(name) == "MatMul" ? std::vector<Tensor>{a.reshaped({4, 4}), b.reshaped({4, 4})}
                                   : std::string(name) == "Relu" ? std::vector<Tensor>{a}
                                                                 : std::vector<Tensor>{a, b};
    const int per = quick ? 2000 : 20000;
    const double t = timePerCall([&] {
      for (int i = 0; i < per; ++i) dispatch(op, attrs, in, res, name);
      cuda::synchronize(0);
    }, 1) / per;
    std::printf("%-7s %7.2f us/op  target <= 10 us  %s\n", name, t * 1e6, verdict(t <= 10e-6));
  }
}

/// The MLP step (784-256-256-10, batch 128, softmax cross entropy, Adam) as a graph run node by
/// node on the GPU, with and without a device NaN/Inf scan of every floating output.
void mlpCheckNumerics(bool quick) {
  std::printf("\n-- check-numerics overhead on the MLP training step (784-256-256-10, batch 128, Adam) --\n");
  Graph g;
  const int64_t B = 128;
  Output x = ops::placeholder(g, DType::Float32, Shape::fromConcrete({B, 784}));
  Output y = ops::placeholder(g, DType::Float32, Shape::fromConcrete({B, 10}));
  Resources res;
  std::vector<Output> vars;
  auto variable = [&](const std::string& name, ConcreteShape s, double scale) {
    Node* n = g.addNode("VariableV2", {}, {{"dtype", DType::Float32}, {"shape", Shape::fromConcrete(s)}},
                        Graph::NodeOptions{name});
    res.setVariable(n->name, deviceRandom(s, std::hash<std::string>{}(name), scale));
    return n->out();
  };
  const std::vector<std::pair<int64_t, int64_t>> dims = {{784, 256}, {256, 256}, {256, 10}};
  Output h = x;
  for (size_t l = 0; l < dims.size(); ++l) {
    Output w = variable("w" + std::to_string(l), {dims[l].first, dims[l].second}, 0.05);
    Output b = variable("b" + std::to_string(l), {dims[l].second}, 0);
    vars.push_back(w);
    vars.push_back(b);
    h = g.op("BiasAdd", {ops::matmul(g, h, w), b});
    if (l + 1 < dims.size()) h = g.op("Relu", {h});
  }
  Output loss = ops::reduceMean(g, g.op("SoftmaxCrossEntropyWithLogits", {h, y}), {0});
  std::vector<Output> grads = gradients(g, {loss}, vars);
  std::vector<Node*> updates;
  for (size_t i = 0; i < vars.size(); ++i) {
    const ConcreteShape s = vars[i].type().shape.concrete();
    Output m = variable("m" + std::to_string(i), s, 0), v = variable("v" + std::to_string(i), s, 0);
    std::vector<Output> in = {vars[i], m, v};
    for (double c : {0.9, 0.999, 1e-3, 0.9, 0.999, 1e-8}) in.push_back(ops::scalar(g, DType::Float32, c));
    in.push_back(grads[i]);
    updates.push_back(g.addNode("ApplyAdam", in));
  }
  const Tensor xs = deviceRandom({B, 784}, 8, 0.5);
  Tensor ys = Tensor::filled(DType::Float32, {B, 10}, 0);
  for (int64_t r = 0; r < B; ++r) ys.setDouble(r * 10 + r % 10, 1);
  const Tensor ysd = ys.copyTo(cuda::allocator(0));
  int64_t scans = 0;
  int slots = 0;
  for (const Node& n : g.nodes()) slots += static_cast<int>(n.outputs.size());
  // mode 0: no check; 1: cuda::allFinite per floating output (one sync each); 2: batched scans
  // (cuda::queueFiniteScan per output, one cuda::finiteScanResults per step).
  auto step = [&](int mode) {
    std::map<std::pair<int, int>, Tensor> values;
    if (mode == 2) cuda::beginFiniteScans(0, slots);
    int slot = 0;
    for (Node& n : g.nodes()) {
      std::vector<Tensor> outs;
      if (n.id == x.node->id) outs = {xs};
      else if (n.id == y.node->id) outs = {ysd};
      else {
        std::vector<Tensor> ins;
        std::vector<std::string> names;
        for (size_t i = 0; i < n.inputs.size(); ++i) {
          const bool ref = std::find(n.op->refInputs.begin(), n.op->refInputs.end(), static_cast<int>(i)) !=
                           n.op->refInputs.end();
          ins.push_back(ref ? Tensor() : values.at({n.inputs[i].node->id, n.inputs[i].index}));
          names.push_back(ref ? n.inputs[i].node->name : std::string());
        }
        outs = dispatch(*n.op, n.attrs, ins, res, n.name, &names);
      }
      for (const Tensor& t : outs) {
        const int s = slot++;
        if (mode == 0 || !t.valid() || !isFloating(t.dtype()) || t.hostAccessible()) continue;
        ++scans;
        if (mode == 1 && !cuda::allFinite(t)) throw EngineError(ErrorCode::InvalidArgument, "NaN/Inf in " + n.name);
        if (mode == 2) cuda::queueFiniteScan(t, s);
      }
      for (size_t i = 0; i < outs.size(); ++i) values[{n.id, static_cast<int>(i)}] = outs[i];
    }
    if (mode == 2)
      for (const cuda::FiniteScan& r : cuda::finiteScanResults(0))
        if (!r.finite()) throw EngineError(ErrorCode::InvalidArgument, "NaN/Inf in the MLP step");
    (void)values.at({loss.node->id, 0}).toHost();  // the step ends when the loss is on the host
  };
  const int iters = quick ? 5 : 30, trials = quick ? 5 : 15;
  auto [tPlain, tSync] = timePair([&] { step(0); }, [&] { step(1); }, iters, trials);
  auto [tPlain2, tBatch] = timePair([&] { step(0); }, [&] { step(2); }, iters, trials);
  const double overSync = (tSync / tPlain - 1) * 100, overBatch = (tBatch / tPlain2 - 1) * 100;
  std::printf("step %8.3f ms\n", tPlain * 1e3);
  std::printf("check-numerics, allFinite per output (one sync each)  %8.3f ms  overhead %+.2f%%   target <= 3%%  %s\n",
              tSync * 1e3, overSync, verdict(overSync <= 3));
  std::printf("check-numerics, batched scans (one sync per step)     %8.3f ms  overhead %+.2f%%   target <= 3%%  %s\n",
              tBatch * 1e3, overBatch, verdict(overBatch <= 3));
  std::printf("(%lld floating outputs scanned per step)\n",
              static_cast<long long>(scans / (2 * (static_cast<int64_t>(iters) * trials + 1))));
}

}  // namespace

void gpuBench(bool quick) {
  std::printf("\n== GPU (CUDA backend) ==\n");
  if (cuda::deviceCount() == 0) {
    std::printf("cannot run the GPU benchmarks: %s\n", cuda::unavailableReason().c_str());
    return;
  }
  std::printf("device 0: %s, %.1f GiB\n", cuda::deviceName(0).c_str(),
              static_cast<double>(cuda::totalMemory(0)) / (1 << 30));
  matmulVsCublas(quick);
  elementwiseVsCopy(quick);
  dispatchOverhead(quick);
  mlpCheckNumerics(quick);
}

}  // namespace tlens::bench

#else

namespace tlens::bench {
void gpuBench(bool) {
  std::printf("\n== GPU (CUDA backend) ==\ncannot run the GPU benchmarks: %s\n", cuda::unavailableReason().c_str());
}
}  // namespace tlens::bench

#endif
