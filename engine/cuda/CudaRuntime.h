// Internal to the CUDA backend (never included outside engine/cuda and tests/cuda): per-device
// state created lazily (one stream, the cuBLAS and cuDNN handles, a few words of device scratch
// for error flags and counters) and the error checks that turn CUDA, cuBLAS and cuDNN failures
// into EngineErrors naming the call and the node.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <mutex>
#include <string>

#include "engine/core/Error.h"
#include "engine/cuda/CudaBackend.h"
#include "engine/cuda/Cudnn.h"

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

/// cuBLAS, loaded with dlopen on first use: linking it would load libcublasLt (about 200 MB of
/// resident memory and 0.1 s) into every tlens process at startup, the language server included,
/// GPU or not. cuDNN's front library is small and lazy by itself, so it is linked normally.
struct CublasApi {
  decltype(&::cublasCreate_v2) create = nullptr;
  decltype(&::cublasDestroy_v2) destroy = nullptr;
  decltype(&::cublasSetStream_v2) setStream = nullptr;
  decltype(&::cublasSetMathMode) setMathMode = nullptr;
  decltype(&::cublasSgemm_v2) sgemm = nullptr;
  decltype(&::cublasDgemm_v2) dgemm = nullptr;
  decltype(&::cublasSgemmStridedBatched) sgemmStridedBatched = nullptr;
  decltype(&::cublasDgemmStridedBatched) dgemmStridedBatched = nullptr;
  cublasStatus_t (*gemmStridedBatchedEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                         const void*, const void*, cudaDataType, int, long long int, const void*,
                                         cudaDataType, int, long long int, const void*, void*, cudaDataType, int,
                                         long long int, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};
/// The loaded library; throws FailedPrecondition naming what could not be loaded.
const CublasApi& cublas();

/// The state of device `index` (created on first use: stream, scratch). Throws
/// FailedPrecondition when there is no such device.
DeviceState& deviceState(int index);
/// Makes `index` the calling thread's current device.
void useDevice(int index);
cublasHandle_t blasHandle(int index);
#ifdef TLENS_HAVE_CUDNN
/// The device's cuDNN handle, created on first use; throws FailedPrecondition when cuDNN cannot be
/// loaded (cudnn()).
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
