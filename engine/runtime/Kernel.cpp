#include "engine/runtime/Kernel.h"

#ifdef TLENS_HAVE_CUDA
#include "engine/cuda/CudaBackend.h"
#endif

namespace tlens {

Tensor& KernelContext::allocateOutput(size_t i) {
  const TensorType& t = outputTypes_[i];
  if (!t.shape.fullyKnown())
    fail("Internal: output " + std::to_string(i) + " of " + op_.type +
             " has no concrete shape after inference (" + t.shape.str() + ")",
         ErrorCode::Internal);
  outputs_[i] = Tensor(t.dtype, t.shape.concrete(), allocator_, nodeName_.c_str());
  return outputs_[i];
}

Tensor& KernelContext::allocateOutput(size_t i, ConcreteShape shape, DType dtype) {
  outputs_[i] = Tensor(dtype == DType::Invalid ? outputTypes_[i].dtype : dtype, std::move(shape),
                       allocator_, nodeName_.c_str());
  return outputs_[i];
}

const std::string& KernelContext::varName(size_t i) const {
  static const std::string kNone;
  if (!varNames_ || i >= varNames_->size() || (*varNames_)[i].empty())
    fail("Input " + std::to_string(i) + " of " + op_.type + " must be a variable reference");
  return (*varNames_)[i];
}

Tensor& KernelContext::variable(size_t i) {
  const std::string& name = varName(i);
  Tensor* t = res_.variable(name);
  if (!t || !t->valid())
    fail("Attempting to use uninitialized value " + name, ErrorCode::FailedPrecondition);
  return *t;
}

Tensor& KernelContext::mutableVariable(size_t i) {
  Tensor& t = variable(i);
  if (!t.uniquelyOwned()) t = t.clone();
  return t;
}

void KernelContext::fail(const std::string& msg, ErrorCode code) const {
  throw EngineError(code, msg + "\n\t [[node " + nodeName_ + " (" + op_.type + ")]]");
}

const KernelRegistry& KernelRegistry::global() {
  static const KernelRegistry* r = [] {
    auto* reg = new KernelRegistry();
    registerCpuKernels(*reg);
#ifdef TLENS_HAVE_CUDA
    if (cuda::built()) cuda::registerKernels(*reg);
#endif
    return reg;
  }();
  return *r;
}

void KernelRegistry::add(const std::string& type, Device::Kind kind, KernelFn fn) {
  (kind == Device::CPU ? cpu_ : gpu_)[type] = fn;
}

KernelFn KernelRegistry::find(std::string_view type, Device::Kind kind) const {
  const auto& m = kind == Device::CPU ? cpu_ : gpu_;
  auto it = m.find(std::string(type));
  return it == m.end() ? nullptr : it->second;
}

}  // namespace tlens
