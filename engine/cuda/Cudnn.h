// Internal to the CUDA backend (never included outside engine/cuda and tests/cuda): cuDNN, loaded
// with dlopen on first use like cuBLAS (CudaRuntime.h). Linking it made libcudnn (and the
// toolkit's folder as RUNPATH) a load-time dependency of the one tlens binary, so every process,
// the language server included, mapped it at startup whether or not it ever ran a convolution.
// Only builds that found cuDNN's header at configure time (TLENS_HAVE_CUDNN) have this interface.
#pragma once

#ifdef TLENS_HAVE_CUDNN

#include <cudnn.h>

#include <string>
#include <vector>

namespace tlens::cuda {

/// Every cuDNN entry point the backend calls (the handle in CudaRuntime.cpp, the convolutions in
/// ConvOps.cpp), by its cuDNN name without the `cudnn` prefix.
struct CudnnApi {
  decltype(&::cudnnCreate) create = nullptr;
  decltype(&::cudnnSetStream) setStream = nullptr;
  decltype(&::cudnnGetErrorString) getErrorString = nullptr;
  decltype(&::cudnnCreateTensorDescriptor) createTensorDescriptor = nullptr;
  decltype(&::cudnnSetTensor4dDescriptor) setTensor4dDescriptor = nullptr;
  decltype(&::cudnnDestroyTensorDescriptor) destroyTensorDescriptor = nullptr;
  decltype(&::cudnnCreateFilterDescriptor) createFilterDescriptor = nullptr;
  decltype(&::cudnnSetFilter4dDescriptor) setFilter4dDescriptor = nullptr;
  decltype(&::cudnnDestroyFilterDescriptor) destroyFilterDescriptor = nullptr;
  decltype(&::cudnnCreateConvolutionDescriptor) createConvolutionDescriptor = nullptr;
  decltype(&::cudnnSetConvolution2dDescriptor) setConvolution2dDescriptor = nullptr;
  decltype(&::cudnnSetConvolutionMathType) setConvolutionMathType = nullptr;
  decltype(&::cudnnDestroyConvolutionDescriptor) destroyConvolutionDescriptor = nullptr;
  decltype(&::cudnnGetConvolution2dForwardOutputDim) getConvolution2dForwardOutputDim = nullptr;
  decltype(&::cudnnGetConvolutionForwardAlgorithm_v7) getConvolutionForwardAlgorithm_v7 = nullptr;
  decltype(&::cudnnGetConvolutionForwardWorkspaceSize) getConvolutionForwardWorkspaceSize = nullptr;
  decltype(&::cudnnConvolutionForward) convolutionForward = nullptr;
  decltype(&::cudnnGetConvolutionBackwardDataAlgorithm_v7) getConvolutionBackwardDataAlgorithm_v7 = nullptr;
  decltype(&::cudnnGetConvolutionBackwardDataWorkspaceSize) getConvolutionBackwardDataWorkspaceSize = nullptr;
  decltype(&::cudnnConvolutionBackwardData) convolutionBackwardData = nullptr;
  decltype(&::cudnnGetConvolutionBackwardFilterAlgorithm_v7) getConvolutionBackwardFilterAlgorithm_v7 = nullptr;
  decltype(&::cudnnGetConvolutionBackwardFilterWorkspaceSize) getConvolutionBackwardFilterWorkspaceSize = nullptr;
  decltype(&::cudnnConvolutionBackwardFilter) convolutionBackwardFilter = nullptr;
};

/// The library, loaded on the first call: the soname libcudnn.so.<CUDNN_MAJOR> (the system's
/// search path: LD_LIBRARY_PATH, ld.so.cache), then the copy CMake found at configure time
/// (TLENS_CUDNN_LIBRARY). Throws FailedPrecondition saying what could not be loaded; later calls
/// answer the same without trying again.
const CudnnApi& cudnn();
/// Whether cudnn() loads (the first call tries). Never throws. Placement asks it before it puts a
/// convolution on a GPU, so that without cuDNN convolutions run on the CPU (cuda::gpuKernelUsable).
bool cudnnAvailable();
/// The first of `paths` that dlopen opens, with every CudnnApi entry resolved (each call loads
/// anew and never unloads a library it returns); nullptr, with `error` saying why for each path
/// (not found, or the entry points it lacks), when none qualifies. cudnn() calls it once; tests
/// call it with other paths.
const CudnnApi* loadCudnn(const std::vector<std::string>& paths, std::string& error);

}  // namespace tlens::cuda

#endif  // TLENS_HAVE_CUDNN
