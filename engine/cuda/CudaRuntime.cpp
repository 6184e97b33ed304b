// Device discovery and per-device state. The runtime initialises on the first deviceCount()
// call; without a driver or a device every query says why, and nothing throws.
#include "engine/cuda/CudaRuntime.h"

#include <dlfcn.h>

#include <deque>
#include <memory>
#include <vector>

namespace tlens::cuda {

namespace {

struct Discovery {
  int count = 0;
  std::string reason;
  std::vector<std::string> names;
  std::vector<size_t> memory;
};

const Discovery& discovery() {
  static const Discovery d = [] {
    Discovery r;
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();  // clear the sticky error
      if (e == cudaErrorNoDevice)
        r.reason = "no CUDA device is visible (cudaErrorNoDevice; check CUDA_VISIBLE_DEVICES)";
      else if (e == cudaErrorInsufficientDriver)
        r.reason = "no usable CUDA driver: the NVIDIA driver is missing or older than this build's CUDA runtime "
                   "(cudaErrorInsufficientDriver)";
      else
        r.reason = "CUDA initialisation failed: " + cudaErrorText(e);
      return r;
    }
    if (n == 0) {
      r.reason = "no CUDA device found";
      return r;
    }
    for (int i = 0; i < n; ++i) {
      cudaDeviceProp p{};
      const cudaError_t pe = cudaGetDeviceProperties(&p, i);
      if (pe != cudaSuccess) {
        (void)cudaGetLastError();
        r.reason = "cudaGetDeviceProperties(" + std::to_string(i) + ") failed: " + cudaErrorText(pe);
        r.names.clear();
        r.memory.clear();
        return r;
      }
      r.names.emplace_back(p.name);
      r.memory.push_back(p.totalGlobalMem);
    }
    r.count = n;
    return r;
  }();
  return d;
}

std::mutex& statesMutex() {
  static std::mutex m;
  return m;
}
std::vector<std::unique_ptr<DeviceState>>& states() {
  static auto* v = new std::vector<std::unique_ptr<DeviceState>>();  // never destroyed: used at exit
  return *v;
}

void requireDevice(int index) {
  const int n = deviceCount();
  if (index < 0 || index >= n)
    throwError(ErrorCode::FailedPrecondition,
               "CUDA device " + std::to_string(index) + " does not exist" +
                   (n == 0 ? ": " + unavailableReason() : " (" + std::to_string(n) + " visible)"));
}

}  // namespace

bool built() { return true; }

int deviceCount() { return discovery().count; }

std::string deviceName(int index) {
  requireDevice(index);
  return discovery().names[static_cast<size_t>(index)];
}

size_t totalMemory(int index) {
  requireDevice(index);
  return discovery().memory[static_cast<size_t>(index)];
}

std::string unavailableReason() { return discovery().count ? std::string() : discovery().reason; }

std::string cudaErrorText(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

const char* cublasErrorText(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "unknown cuBLAS status";
  }
}

namespace {
[[noreturn]] void fail(const std::string& msg, const std::string& node, ErrorCode code = ErrorCode::Internal) {
  throw EngineError(code, node.empty() ? msg : msg + "\n\t [[node " + node + "]]");
}
}  // namespace

void checkCuda(cudaError_t e, const char* what, const std::string& node) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  fail(std::string("CUDA error in ") + what + ": " + cudaErrorText(e), node,
       e == cudaErrorMemoryAllocation ? ErrorCode::ResourceExhausted : ErrorCode::Internal);
}

void checkCublas(cublasStatus_t s, const char* what, const std::string& node) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  fail(std::string("cuBLAS error in ") + what + ": " + cublasErrorText(s), node,
       s == CUBLAS_STATUS_ALLOC_FAILED ? ErrorCode::ResourceExhausted : ErrorCode::Internal);
}

#ifdef TLENS_HAVE_CUDNN
void checkCudnn(cudnnStatus_t s, const char* what, const std::string& node) {
  if (s == CUDNN_STATUS_SUCCESS) return;
  fail(std::string("cuDNN error in ") + what + ": " + cudnn().getErrorString(s), node,
       s == CUDNN_STATUS_ALLOC_FAILED ? ErrorCode::ResourceExhausted : ErrorCode::Internal);
}
#endif

const CublasApi& cublas() {
  static const CublasApi* api = nullptr;
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
#ifdef TLENS_CUBLAS_LIBRARY
    if (!lib) lib = dlopen(TLENS_CUBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);  // the toolkit's copy found at configure time
#endif
    if (!lib) {
      const char* why = dlerror();
      error = "cannot load cuBLAS (" + soname + "): " + (why ? why : "unknown error");
      return;
    }
    auto* a = new CublasApi();
    bool ok = true;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn) {
        ok = false;
        error += std::string(error.empty() ? "" : ", ") + name;
      }
    };
    sym(a->create, "cublasCreate_v2");
    sym(a->destroy, "cublasDestroy_v2");
    sym(a->setStream, "cublasSetStream_v2");
    sym(a->setMathMode, "cublasSetMathMode");
    sym(a->sgemm, "cublasSgemm_v2");
    sym(a->dgemm, "cublasDgemm_v2");
    sym(a->sgemmStridedBatched, "cublasSgemmStridedBatched");
    sym(a->dgemmStridedBatched, "cublasDgemmStridedBatched");
    sym(a->gemmStridedBatchedEx, "cublasGemmStridedBatchedEx");
    if (!ok) {
      error = "cuBLAS (" + soname + ") lacks " + error;
      delete a;
      return;
    }
    api = a;
  });
  if (!api) throwError(ErrorCode::FailedPrecondition, error);
  return *api;
}

void useDevice(int index) { checkCuda(cudaSetDevice(index), "cudaSetDevice"); }

DeviceState& deviceState(int index) {
  requireDevice(index);
  std::lock_guard<std::mutex> lock(statesMutex());
  auto& v = states();
  if (v.empty()) v.resize(static_cast<size_t>(deviceCount()));
  auto& slot = v[static_cast<size_t>(index)];
  if (!slot) {
    auto st = std::make_unique<DeviceState>();
    st->index = index;
    useDevice(index);
    checkCuda(cudaStreamCreateWithFlags(&st->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    checkCuda(cudaMalloc(reinterpret_cast<void**>(&st->flags), 64), "cudaMalloc (device scratch)");
    checkCuda(cudaMalloc(reinterpret_cast<void**>(&st->counters), 64), "cudaMalloc (device scratch)");
    slot = std::move(st);
  }
  return *slot;
}

cublasHandle_t blasHandle(int index) {
  DeviceState& st = deviceState(index);
  std::lock_guard<std::mutex> lock(st.handleMutex);
  if (!st.blas) {
    useDevice(index);
    const CublasApi& api = cublas();
    cublasHandle_t h = nullptr;
    checkCublas(api.create(&h), "cublasCreate");
    checkCublas(api.setStream(h, st.stream), "cublasSetStream");
    // Full float32 precision (no TF32 tensor-core rounding), so results match the CPU kernels.
    checkCublas(api.setMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    st.blas = h;
  }
  return st.blas;
}

#ifdef TLENS_HAVE_CUDNN
cudnnHandle_t dnnHandle(int index) {
  DeviceState& st = deviceState(index);
  std::lock_guard<std::mutex> lock(st.handleMutex);
  if (!st.dnn) {
    useDevice(index);
    const CudnnApi& api = cudnn();
    cudnnHandle_t h = nullptr;
    checkCudnn(api.create(&h), "cudnnCreate");
    checkCudnn(api.setStream(h, st.stream), "cudnnSetStream");
    st.dnn = h;
  }
  return st.dnn;
}
#endif

void synchronize(int index) {
  DeviceState& st = deviceState(index);
  useDevice(index);
  checkCuda(cudaStreamSynchronize(st.stream), "cudaStreamSynchronize");
}

}  // namespace tlens::cuda
