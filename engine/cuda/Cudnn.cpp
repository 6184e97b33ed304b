// cuDNN's entry points, resolved with dlopen/dlsym on first use (Cudnn.h).
#include "engine/cuda/Cudnn.h"

#ifdef TLENS_HAVE_CUDNN

#include <dlfcn.h>

#include <mutex>
#include <type_traits>

#include "engine/core/Error.h"

namespace tlens::cuda {

const CudnnApi* loadCudnn(const std::vector<std::string>& paths, std::string& error) {
  error.clear();
  for (const std::string& path : paths) {
    if (!error.empty()) error += "; ";
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* why = dlerror();
      error += why ? std::string(why) : path + ": cannot be opened";
      continue;
    }
    auto* a = new CudnnApi();
    std::string missing;
    auto sym = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      if (!fn) missing += std::string(missing.empty() ? "" : ", ") + name;
    };
    sym(a->create, "cudnnCreate");
    sym(a->setStream, "cudnnSetStream");
    sym(a->getErrorString, "cudnnGetErrorString");
    sym(a->createTensorDescriptor, "cudnnCreateTensorDescriptor");
    sym(a->setTensor4dDescriptor, "cudnnSetTensor4dDescriptor");
    sym(a->destroyTensorDescriptor, "cudnnDestroyTensorDescriptor");
    sym(a->createFilterDescriptor, "cudnnCreateFilterDescriptor");
    sym(a->setFilter4dDescriptor, "cudnnSetFilter4dDescriptor");
    sym(a->destroyFilterDescriptor, "cudnnDestroyFilterDescriptor");
    sym(a->createConvolutionDescriptor, "cudnnCreateConvolutionDescriptor");
    sym(a->setConvolution2dDescriptor, "cudnnSetConvolution2dDescriptor");
    sym(a->setConvolutionMathType, "cudnnSetConvolutionMathType");
    sym(a->destroyConvolutionDescriptor, "cudnnDestroyConvolutionDescriptor");
    sym(a->getConvolution2dForwardOutputDim, "cudnnGetConvolution2dForwardOutputDim");
    sym(a->getConvolutionForwardAlgorithm_v7, "cudnnGetConvolutionForwardAlgorithm_v7");
    sym(a->getConvolutionForwardWorkspaceSize, "cudnnGetConvolutionForwardWorkspaceSize");
    sym(a->convolutionForward, "cudnnConvolutionForward");
    sym(a->getConvolutionBackwardDataAlgorithm_v7, "cudnnGetConvolutionBackwardDataAlgorithm_v7");
    sym(a->getConvolutionBackwardDataWorkspaceSize, "cudnnGetConvolutionBackwardDataWorkspaceSize");
    sym(a->convolutionBackwardData, "cudnnConvolutionBackwardData");
    sym(a->getConvolutionBackwardFilterAlgorithm_v7, "cudnnGetConvolutionBackwardFilterAlgorithm_v7");
    sym(a->getConvolutionBackwardFilterWorkspaceSize, "cudnnGetConvolutionBackwardFilterWorkspaceSize");
    sym(a->convolutionBackwardFilter, "cudnnConvolutionBackwardFilter");
    if (missing.empty()) {
      error.clear();
      return a;
    }
    delete a;
    dlclose(lib);
    error += path + " lacks " + missing;
  }
  if (paths.empty()) error = "no library to load";
  return nullptr;
}

namespace {

struct Loaded {
  const CudnnApi* api = nullptr;
  std::string error;
};

const Loaded& loaded() {
  static const Loaded l = [] {
    std::vector<std::string> paths{"libcudnn.so." + std::to_string(CUDNN_MAJOR)};
#ifdef TLENS_CUDNN_LIBRARY
    if (paths.front() != TLENS_CUDNN_LIBRARY) paths.emplace_back(TLENS_CUDNN_LIBRARY);  // found at configure time
#endif
    Loaded r;
    std::string why;
    r.api = loadCudnn(paths, why);
    if (!r.api) r.error = "cannot load cuDNN (" + paths.front() + "), which the GPU convolutions need: " + why;
    return r;
  }();
  return l;
}

}  // namespace

const CudnnApi& cudnn() {
  const Loaded& l = loaded();
  if (!l.api) throwError(ErrorCode::FailedPrecondition, l.error);
  return *l.api;
}

bool cudnnAvailable() { return loaded().api != nullptr; }

}  // namespace tlens::cuda

#endif  // TLENS_HAVE_CUDNN
