// Helpers for the host half of the GPU kernels (engine/cuda/*Ops.cpp): output allocation on the
// kernel's device, inputs guaranteed in device memory, host reads of shape-like inputs, dtype
// mapping and launch checks. A kernel starts with `Gpu g(ctx);`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/cuda/CudaRuntime.h"
#include "engine/cuda/Launch.h"
#include "engine/runtime/Kernel.h"

namespace tlens::cuda {

class Gpu {
 public:
  explicit Gpu(KernelContext& c);

  KernelContext& ctx;
  int dev;
  cudaStream_t stream;

  Allocator* alloc() const { return allocator(dev); }
  /// Output i in device memory with the inferred (or the given) shape and dtype.
  Tensor& out(size_t i);
  Tensor& out(size_t i, ConcreteShape shape, DType dtype = DType::Invalid);
  /// Input i in this device's memory (a copy when the runtime handed over a host tensor or one
  /// on another device).
  Tensor in(size_t i) const;
  /// A device tensor for intermediate results.
  Tensor temp(DType dtype, ConcreteShape shape) const;
  /// Device scratch of at least `bytes` (nullptr for 0).
  Tensor scratch(size_t bytes) const;
  /// The elements of input i on the host (shape-like inputs: axes, sizes, paddings, perms).
  std::vector<int64_t> hostInts(size_t i) const;
  /// Input i on the host (copied when it is in device memory).
  Tensor hostInput(size_t i) const;

  /// The device element type of `t`; fails for dtypes the backend has no code for.
  ET et(DType t) const;
  /// Throws with the node's name: Unimplemented for cudaErrorNotSupported (an unsupported
  /// dtype), Internal (ResourceExhausted for out of memory) otherwise.
  void check(cudaError_t e, const char* what, DType dtype = DType::Invalid) const;
  void checkBlas(cublasStatus_t s, const char* what) const;

  /// A device int flag set to 0 on the stream; kernels set it to report bad input.
  int* clearedFlag() const;
  /// Waits for the stream and reads the flag.
  bool flagRaised() const;

  [[noreturn]] void unsupported(DType dtype) const;
};

/// `t` converted to `dtype` in device memory (`t` itself when it already has it). float16 ops
/// without float16 device code run in float32 this way, as the CPU kernels do.
Tensor castTo(const Gpu& g, const Tensor& t, DType dtype);
/// Writes `src` converted to `dst`'s dtype into `dst` (same shape).
void castInto(const Gpu& g, const Tensor& src, Tensor& dst);

/// Strides (in elements) of `shape` broadcast into `outShape` (0 on broadcast dims), numpy rules.
std::vector<int64_t> broadcastStrides(const ConcreteShape& shape, const ConcreteShape& outShape);
std::vector<int64_t> rowMajorStrides(const ConcreteShape& shape);
// Index builders: pure functions (tested on the host in tests/cuda). They throw
// EngineError(Unimplemented) when the dims do not fit in kMaxDims after merging; the Gpu overloads
// turn that into the node's error.

/// The index space of an elementwise op over `outShape` with operands (at most 3) of the given
/// shapes, numpy-broadcast: size-1 output dims dropped, dims merged where every operand allows it.
Strided3 elementwiseIndex(const ConcreteShape& outShape, const std::vector<const ConcreteShape*>& ops);
Strided3 elementwiseIndex(const Gpu& g, const ConcreteShape& outShape, const std::vector<const ConcreteShape*>& ops);
/// A strided copy of `sizes` with the given strides, size-1 dims dropped and contiguous dims merged.
StridedCopy makeCopy(const std::vector<int64_t>& sizes, const std::vector<int64_t>& srcStrides, int64_t srcBase,
                     const std::vector<int64_t>& dstStrides, int64_t dstBase);
StridedCopy makeCopy(const Gpu& g, const std::vector<int64_t>& sizes, const std::vector<int64_t>& srcStrides,
                     int64_t srcBase, const std::vector<int64_t>& dstStrides, int64_t dstBase);
/// Runs a strided copy from `src` to `dst` (device tensors of the same dtype).
void stridedCopy(const Gpu& g, const Tensor& src, Tensor& dst, const std::vector<int64_t>& sizes,
                 const std::vector<int64_t>& srcStrides, int64_t srcBase, const std::vector<int64_t>& dstStrides,
                 int64_t dstBase);
/// `t` broadcast to `shape` in device memory (no copy when it already has it).
Tensor broadcastTo(const Gpu& g, const Tensor& t, const ConcreteShape& shape);
/// Reduction layout of `shape` over the axes in `mask` (1 = reduced).
ReduceLayout reduceLayout(const ConcreteShape& shape, const std::vector<char>& mask);
ReduceLayout reduceLayout(const Gpu& g, const ConcreteShape& shape, const std::vector<char>& mask);
/// Which axes of `rank` the attribute list `axes` names (all when absent), as the CPU.
std::vector<char> reducedMask(const std::optional<std::vector<int64_t>>& axes, int rank);
/// Runs a reduction of `x` into `y` (device tensors).
void reduceInto(const Gpu& g, ROp op, const Tensor& x, Tensor& y, const std::vector<char>& mask);

// Family registration (one file each).
void registerElementwiseKernels(KernelRegistry& r);
void registerReductionKernels(KernelRegistry& r);
void registerNNKernels(KernelRegistry& r);
void registerMatMulKernels(KernelRegistry& r);
void registerConvKernels(KernelRegistry& r);
/// False for the convolutions when cuDNN cannot be loaded (the first question about one loads
/// it); true for every other op type.
bool convKernelUsable(std::string_view type);
void registerMovementKernels(KernelRegistry& r);
void registerStateKernels(KernelRegistry& r);

}  // namespace tlens::cuda
