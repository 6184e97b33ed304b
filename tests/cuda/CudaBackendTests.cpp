// The CUDA backend's runtime pieces: device discovery (runs everywhere), the kernel list against
// the op registry (runs everywhere), the caching allocator and the device check-numerics scan
// (need a device; skipped with a warning without one).
#include <cmath>
#include <iostream>
#include <limits>

#include "CudaTestUtil.h"
#include "engine/cuda/CudaRuntime.h"
#include "engine/runtime/Numerics.h"

using namespace tlens;
using namespace tlens::cudatest;

TEST_CASE("the backend is built and reports its devices or why there are none", "[cuda][info]") {
  CHECK(cuda::built());
  const int n = cuda::deviceCount();
  CHECK(n >= 0);
  if (n == 0) {
    CHECK_FALSE(cuda::unavailableReason().empty());
    WARN("no CUDA device: " << cuda::unavailableReason());
    CHECK_THROWS_AS(cuda::allocator(0), EngineError);
    CHECK_THROWS_AS(cuda::deviceName(0), EngineError);
  } else {
    CHECK(cuda::unavailableReason().empty());
    for (int i = 0; i < n; ++i) {
      CHECK_FALSE(cuda::deviceName(i).empty());
      CHECK(cuda::totalMemory(i) > 0);
      WARN("CUDA device " << i << ": " << cuda::deviceName(i) << ", " << formatBytes(cuda::totalMemory(i)));
    }
    CHECK_THROWS_AS(cuda::allocator(n), EngineError);
  }
}

TEST_CASE("cuBLAS is not linked but loads on demand with every entry point the GEMMs use", "[cuda][info]") {
  // No device needed: dlopen and dlsym only (the handle is created on the first GEMM).
  const cuda::CublasApi& api = cuda::cublas();
  CHECK(api.create);
  CHECK(api.setStream);
  CHECK(api.setMathMode);
  CHECK(api.sgemm);
  CHECK(api.dgemm);
  CHECK(api.sgemmStridedBatched);
  CHECK(api.dgemmStridedBatched);
  CHECK(api.gemmStridedBatchedEx);
}

#ifdef TLENS_HAVE_CUDNN
TEST_CASE("cuDNN is not linked but loads on demand with every entry point the convolutions use", "[cuda][info]") {
  // No device needed: dlopen and dlsym only (the handle is created on the first convolution).
  const cuda::CudnnApi& api = cuda::cudnn();
  CHECK(cuda::cudnnAvailable());
  CHECK(api.create);
  CHECK(api.setStream);
  CHECK(api.getErrorString);
  CHECK(api.createTensorDescriptor);
  CHECK(api.setTensor4dDescriptor);
  CHECK(api.destroyTensorDescriptor);
  CHECK(api.createFilterDescriptor);
  CHECK(api.setFilter4dDescriptor);
  CHECK(api.destroyFilterDescriptor);
  CHECK(api.createConvolutionDescriptor);
  CHECK(api.setConvolution2dDescriptor);
  CHECK(api.setConvolutionMathType);
  CHECK(api.destroyConvolutionDescriptor);
  CHECK(api.getConvolution2dForwardOutputDim);
  CHECK(api.getConvolutionForwardAlgorithm_v7);
  CHECK(api.getConvolutionForwardWorkspaceSize);
  CHECK(api.convolutionForward);
  CHECK(api.getConvolutionBackwardDataAlgorithm_v7);
  CHECK(api.getConvolutionBackwardDataWorkspaceSize);
  CHECK(api.convolutionBackwardData);
  CHECK(api.getConvolutionBackwardFilterAlgorithm_v7);
  CHECK(api.getConvolutionBackwardFilterWorkspaceSize);
  CHECK(api.convolutionBackwardFilter);
  // Host-only entry points answer without a device.
  CHECK(std::string(api.getErrorString(CUDNN_STATUS_SUCCESS)) == "CUDNN_STATUS_SUCCESS");
  cudnnTensorDescriptor_t t = nullptr;
  REQUIRE(api.createTensorDescriptor(&t) == CUDNN_STATUS_SUCCESS);
  CHECK(api.setTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 4, 5) == CUDNN_STATUS_SUCCESS);
  CHECK(api.destroyTensorDescriptor(t) == CUDNN_STATUS_SUCCESS);
  // With cuDNN loaded, placement may put the convolutions on a GPU.
  for (const char* op : {"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "MatMul"}) {
    INFO(op);
    CHECK(cuda::gpuKernelUsable(op));
  }
}

TEST_CASE("a cuDNN that cannot be loaded or lacks an entry point is reported, not called", "[cuda][info]") {
  std::string error;
  CHECK(cuda::loadCudnn({"libtlens-no-such-cudnn.so.9"}, error) == nullptr);
  CHECK_THAT(error, Catch::Contains("libtlens-no-such-cudnn.so.9"));
  // A library that opens but is not cuDNN: every missing entry point is named.
  CHECK(cuda::loadCudnn({"libm.so.6"}, error) == nullptr);
  CHECK_THAT(error, Catch::Contains("libm.so.6 lacks cudnnCreate, cudnnSetStream"));
  CHECK_THAT(error, Catch::Contains("cudnnConvolutionBackwardFilter"));
  // The first path that qualifies wins; the failures before it are forgotten.
  const cuda::CudnnApi* api = cuda::loadCudnn({"libtlens-no-such-cudnn.so.9", "libcudnn.so." + std::to_string(CUDNN_MAJOR)}, error);
  if (!api) {
    WARN("libcudnn.so." << CUDNN_MAJOR << " is not on the search path (cuda::cudnn() falls back to the configure-time "
                        << "copy): " << error);
  } else {
    CHECK(api->convolutionForward);
    CHECK(error.empty());
  }
}
#endif

TEST_CASE("every GPU kernel belongs to a registered op that also has a CPU kernel", "[cuda][info]") {
  KernelRegistry r;
  cuda::registerKernels(r);
  size_t count = 0;
  for (const OpDef* op : OpRegistry::global().all()) {
    if (!r.find(op->type, Device::GPU)) continue;
    ++count;
    INFO("op " << op->type);
    CHECK(KernelRegistry::global().find(op->type, Device::CPU) != nullptr);
    // Ops the registry marks CPU-only must not have a GPU kernel (placement would disagree).
    CHECK(op->cpuOnly.empty());
  }
  // Every op but the host-side ones (OpDef::cpuOnly: Print, Assert and the shape computations)
  // and CheckNumerics (the next test lists the gaps): a floor, so a lost registration shows.
  size_t gpuOps = 0;
  for (const OpDef* op : OpRegistry::global().all()) gpuOps += op->cpuOnly.empty();
  CHECK(count + 1 >= gpuOps);
}

TEST_CASE("ops without a GPU kernel are listed (they fall back to the CPU)", "[cuda][info]") {
  std::vector<std::string> missing;
  for (const OpDef* op : OpRegistry::global().all())
    if (!hasGpuKernel(op->type)) missing.push_back(op->type + (op->cpuOnly.empty() ? "" : " (cpuOnly: " + op->cpuOnly + ")"));
  std::string list;
  for (const std::string& m : missing) list += "\n  " + m;
  WARN(missing.size() << " ops have no GPU kernel and run on the CPU when placed on a GPU:" << list);
  // The gaps this backend knows about; a new op without a GPU kernel shows up in the list above.
  for (const char* known : {"Print", "Assert", "CheckNumerics"}) {
    if (!OpRegistry::global().find(known)) continue;
    INFO(known);
    CHECK_FALSE(hasGpuKernel(known));
  }
}

TEST_CASE("the caching allocator reuses freed blocks and counts bytes", "[cuda][allocator]") {
  REQUIRE_CUDA_DEVICE();
  Allocator* a = cuda::allocator(0);
  CHECK(a->device() == Device::gpu(0));
  CHECK_FALSE(a->hostAccessible());
  const size_t before = a->bytesInUse();
  void* p = a->allocate(1000, "reuse/first");
  CHECK(a->bytesInUse() == before + 1000);
  a->deallocate(p, 1000);
  CHECK(a->bytesInUse() == before);
  void* q = a->allocate(900, "reuse/second");  // same 1 KiB size class: the freed block comes back
  CHECK(q == p);
  a->deallocate(q, 900);
  a->resetPeak();
  void* big = a->allocate((size_t{5} << 20) + 100, "reuse/big");
  CHECK(a->peakBytes() >= before + (size_t{5} << 20));
  a->deallocate(big, (size_t{5} << 20) + 100);
  void* big2 = a->allocate((size_t{5} << 20) + 200, "reuse/big2");  // same class (5.5 MiB)
  CHECK(big2 == big);
  a->deallocate(big2, (size_t{5} << 20) + 200);
  CHECK(a->allocate(0, "empty") == nullptr);
  a->deallocate(nullptr, 0);
}

TEST_CASE("the allocator's limit and out-of-memory errors name the node and the sizes", "[cuda][allocator]") {
  REQUIRE_CUDA_DEVICE();
  Allocator* a = cuda::allocator(0);
  const size_t oldLimit = a->limit();
  a->setLimit(a->bytesInUse() + (size_t{1} << 20));
  try {
    Tensor t(DType::Float32, {1024, 1024}, a, "dense/MatMul");  // 4 MiB > 1 MiB left
    FAIL("expected ResourceExhausted");
  } catch (const EngineError& e) {
    CHECK(e.code() == ErrorCode::ResourceExhausted);
    CHECK_THAT(e.what(), Catch::Contains("dense/MatMul") && Catch::Contains("4.0 MiB") && Catch::Contains("/gpu:0"));
  }
  a->setLimit(oldLimit);
  // More than any device has: cudaMalloc fails, the cache is emptied, and the error says so.
  try {
    Tensor t(DType::Float32, {int64_t{1} << 45}, a, "huge/Fill");
    FAIL("expected ResourceExhausted");
  } catch (const EngineError& e) {
    CHECK(e.code() == ErrorCode::ResourceExhausted);
    CHECK_THAT(e.what(), Catch::Contains("huge/Fill") && Catch::Contains("requested on /gpu:0") &&
                             Catch::Contains("device has"));
  }
  // The allocator still works afterwards.
  Tensor ok(DType::Float32, {16}, a, "after");
  CHECK(ok.raw() != nullptr);
}

TEST_CASE("host/device copies round-trip through the allocator's copy overrides", "[cuda][allocator]") {
  REQUIRE_CUDA_DEVICE();
  Tensor h(DType::Float64, {3, 5});
  for (int64_t i = 0; i < h.numElements(); ++i) h.data<double>()[i] = 0.5 * static_cast<double>(i) - 3;
  Tensor d = h.copyTo(cuda::allocator(0));
  CHECK_FALSE(d.hostAccessible());
  CHECK(d.device() == Device::gpu(0));
  Tensor d2 = d.clone();  // copyWithin
  CHECK(d2.raw() != d.raw());
  CHECK(tensorsEqual(d2.toHost(), h));
  Tensor empty(DType::Float32, {0, 4});
  CHECK(empty.copyTo(cuda::allocator(0)).toHost().shape() == ConcreteShape{0, 4});
}

TEST_CASE("allFinite counts NaN and Inf on the device in one pass", "[cuda][numerics]") {
  REQUIRE_CUDA_DEVICE();
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16}) {
    INFO(dtypeName(dt));
    Tensor h = Tensor::filled(dt, {1000, 37}, 1.5);
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    h.setDouble(3, nan);
    h.setDouble(500, nan);
    h.setDouble(36999, nan);
    h.setDouble(7, inf);
    h.setDouble(20000, -inf);
    int64_t nans = -1, infs = -1;
    CHECK_FALSE(cuda::allFinite(toDevice(h), &nans, &infs));
    CHECK(nans == 3);
    CHECK(infs == 2);
    CHECK(cuda::allFinite(toDevice(Tensor::filled(dt, {4097}, -2)), &nans, &infs));
    CHECK(nans == 0);
    CHECK(infs == 0);
    // Agrees with the host scan.
    CHECK(cuda::allFinite(toDevice(h)) == tlens::allFinite(h));
  }
  CHECK(cuda::allFinite(toDevice(Tensor(DType::Float32, {0}))));
  CHECK(cuda::allFinite(toDevice(Tensor::filled(DType::Int32, {5}, 1))));  // non-floating: always finite
}

TEST_CASE("batched finite scans count NaN and Inf per slot with one synchronisation", "[cuda][numerics]") {
  REQUIRE_CUDA_DEVICE();
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  Tensor a = Tensor::filled(DType::Float32, {100}, 1);
  a.setDouble(5, nan);
  Tensor b = Tensor::filled(DType::Float64, {7}, 2);
  b.setDouble(0, inf);
  b.setDouble(1, -inf);
  const Tensor c = Tensor::filled(DType::Float16, {3}, 0);
  cuda::beginFiniteScans(0, 4);
  cuda::queueFiniteScan(toDevice(a), 0);
  cuda::queueFiniteScan(toDevice(c), 1);
  cuda::queueFiniteScan(toDevice(b), 3);  // slot 2 stays unused
  std::vector<cuda::FiniteScan> r = cuda::finiteScanResults(0);
  REQUIRE(r.size() == 4);
  CHECK(r[0].nan == 1);
  CHECK(r[0].inf == 0);
  CHECK(r[1].finite());
  CHECK(r[2].finite());
  CHECK(r[3].nan == 0);
  CHECK(r[3].inf == 2);
  // A larger run grows the buffer and starts from zero.
  cuda::beginFiniteScans(0, 300);
  cuda::queueFiniteScan(toDevice(a), 299);
  r = cuda::finiteScanResults(0);
  REQUIRE(r.size() == 300);
  CHECK(r[0].finite());
  CHECK(r[299].nan == 1);
  CHECK_THROWS_AS(cuda::queueFiniteScan(toDevice(a), 300), EngineError);
  CHECK_THROWS_AS(cuda::queueFiniteScan(a, 0), EngineError);  // host memory
}
