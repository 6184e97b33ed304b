// Internal to the CUDA backend (never included outside engine/cuda and tests/cuda): per-device
// state created lazily (one stream, the cuBLAS and cuDNN handles, a few words of device scratch
// for error flags and counters) and the error checks that turn CUDA, cuBLAS and cuDNN failures
// into EngineErrors naming the call and the node.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#ifdef TLENS_HAVE_CUDNN
#include <cudnn.h>
#endif

#include <mutex>
#include <string>

#include "engine/core/Error.h"
#include "engine/cuda/CudaBackend.h"

namespace tlens::cuda {

struct DeviceState {
  int index = 0;
  cudaStream_t stream = nullptr;
  /// Device scratch: flags[0] for error flags set by kernels (bad labels, bad indices, zero
  /// divisors); counters[0..1] for allFinite's NaN and Inf counts.
  int* flags = nullptr;
  unsigned long long* counters = nullptr;
  /// Batched check-numerics counters: two per slot (NaN, Inf); see beginFiniteScans.
  unsigned long long* scans = nullptr;
  int scanCapacity = 0, scanCount = 0;
  std::mutex handleMutex;
  cublasHandle_t blas = nullptr;
#ifdef TLENS_HAVE_CUDNN
  cudnnHandle_t dnn = nullptr;
#endif
};

/// The state of device `index` (created on first use: stream, scratch). Throws
/// FailedPrecondition when there is no such device.
DeviceState& deviceState(int index);
/// Makes `index` the calling thread's current device.
void useDevice(int index);
cublasHandle_t blasHandle(int index);
#ifdef TLENS_HAVE_CUDNN
cudnnHandle_t dnnHandle(int index);
#endif

/// "cudaErrorMemoryAllocation: out of memory"
std::string cudaErrorText(cudaError_t e);
const char* cublasErrorText(cublasStatus_t s);

/// Throws EngineError(Internal): "CUDA error in <what>: <text>" (+ " [[node ...]]" when given).
void checkCuda(cudaError_t e, const char* what, const std::string& node = {});
void checkCublas(cublasStatus_t s, const char* what, const std::string& node = {});
#ifdef TLENS_HAVE_CUDNN
void checkCudnn(cudnnStatus_t s, const char* what, const std::string& node = {});
#endif

}  // namespace tlens::cuda
