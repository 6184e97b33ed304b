// Kernels: the per-backend implementations of ops, looked up by (op type, device kind). A kernel
// gets its inputs, its attributes and the output types the op's shape function inferred from the
// concrete input shapes; it allocates outputs with those shapes (or its own, for data-dependent
// ops) and fills them.
#pragma once

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/Device.h"
#include "engine/core/Tensor.h"
#include "engine/ops/OpDef.h"
#include "engine/runtime/Resources.h"

namespace tlens {

class KernelContext : public AttrReader {
 public:
  KernelContext(const OpDef& op, const Attrs& attrs, const std::vector<Tensor>& inputs,
                std::vector<TensorType>& outputTypes, Resources& res, const std::string& nodeName,
                Device device, Allocator* allocator = nullptr)
      : AttrReader(attrs), op_(op), inputs_(inputs), outputTypes_(outputTypes), res_(res),
        nodeName_(nodeName), device_(device), allocator_(allocator ? allocator : cpuAllocator()),
        outputs_(outputTypes.size()) {}

  const OpDef& op() const { return op_; }
  const std::string& nodeName() const { return nodeName_; }
  Device device() const { return device_; }
  /// The memory outputs and scratch of this kernel come from (its device's).
  Allocator* allocator() const { return allocator_; }
  size_t numInputs() const { return inputs_.size(); }
  const Tensor& input(size_t i) const { return inputs_[i]; }
  const std::vector<Tensor>& inputs() const { return inputs_; }
  size_t numOutputs() const { return outputs_.size(); }
  const TensorType& outputType(size_t i) const { return outputTypes_[i]; }

  /// Allocates output i with the inferred shape and dtype (which must be fully known).
  Tensor& allocateOutput(size_t i);
  /// Allocates output i with an explicit shape (data-dependent ops); dtype from inference unless given.
  Tensor& allocateOutput(size_t i, ConcreteShape shape, DType dtype = DType::Invalid);
  /// Sets output i to an existing tensor (Identity, Reshape: no copy).
  void setOutput(size_t i, Tensor t) { outputs_[i] = std::move(t); }
  std::vector<Tensor>& outputs() { return outputs_; }

  Resources& resources() { return res_; }
  /// The variable name bound to ref input i (see OpDef::refInputs).
  const std::string& varName(size_t i) const;
  /// The value of the variable bound to ref input i; fails (FailedPrecondition) if uninitialised.
  Tensor& variable(size_t i);
  /// Makes the variable's buffer private before an in-place update (copy on write).
  Tensor& mutableVariable(size_t i);
  void setVarNames(const std::vector<std::string>* names) { varNames_ = names; }

  /// Check-numerics mode. A kernel that can test an output for NaN/Inf while writing it (data
  /// in cache) does so and reports the result, and the executor skips its own scan of it.
  bool checkingNumerics() const { return checkNumerics_; }
  void setCheckingNumerics(bool on) { checkNumerics_ = on; }
  void reportFinite(size_t output, bool finite) {
    if (finite_.size() < outputs_.size()) finite_.assign(outputs_.size(), -1);
    finite_[output] = finite ? 1 : 0;
  }
  /// Per output: -1 not tested by the kernel, 0 holds NaN/Inf, 1 all finite.
  const std::vector<int8_t>& finiteReports() const { return finite_; }
  /// This node's random generator (seed/seed2 attributes honoured).
  std::mt19937_64& rng() { return res_.rng(nodeName_, getInt("seed"), getInt("seed2")); }

  /// Throws EngineError(InvalidArgument) with the node's name appended, as TF does:
  /// "<msg>\n\t [[node fc1/MatMul]]".
  [[noreturn]] void fail(const std::string& msg, ErrorCode code = ErrorCode::InvalidArgument) const;

 private:
  const OpDef& op_;
  const std::vector<Tensor>& inputs_;
  std::vector<TensorType>& outputTypes_;
  Resources& res_;
  const std::string& nodeName_;
  Device device_;
  Allocator* allocator_;
  std::vector<Tensor> outputs_;
  const std::vector<std::string>* varNames_ = nullptr;
  bool checkNumerics_ = false;
  std::vector<int8_t> finite_;
};

using KernelFn = void (*)(KernelContext&);

class KernelRegistry {
 public:
  /// The registry with every builtin kernel of the backends built into this binary.
  static const KernelRegistry& global();
  void add(const std::string& type, Device::Kind kind, KernelFn fn);
  KernelFn find(std::string_view type, Device::Kind kind) const;

 private:
  std::unordered_map<std::string, KernelFn> cpu_, gpu_;
};

/// Registration entry point for the CPU backend (engine/kernels/cpu/*.cpp).
void registerCpuKernels(KernelRegistry& r);

}  // namespace tlens
