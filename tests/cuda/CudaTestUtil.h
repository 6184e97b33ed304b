// Helpers for the CUDA parity suite: the GPU kernel registry, a one-op GPU runner that mirrors
// runOp (shape function, host inputs, kernel, output checks) without depending on the runtime's
// device layer, host/device copies, tolerant comparison, and the skip when no device is present.
#pragma once

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

#include "engine/core/Tensor.h"
#include "engine/cuda/CudaBackend.h"
#include "engine/graph/Graph.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Kernel.h"

/// Every test that needs a device starts with this: without one it returns early with a visible
/// warning (Catch2 v2 has no SKIP), so a machine without a GPU passes the suite and says so.
#define REQUIRE_CUDA_DEVICE()                                                                     \
  do {                                                                                            \
    if (::tlens::cuda::deviceCount() == 0) {                                                      \
      WARN("no CUDA device: skipped (" << ::tlens::cuda::unavailableReason() << ")");             \
      return;                                                                                     \
    }                                                                                             \
  } while (0)

/// For the parity and gradient tests: also runs without a device when TLENS_CUDA_DRY_RUN=1, with
/// the "GPU" side executed on the CPU. That checks the tests themselves (inputs the shape
/// functions and CPU kernels accept, expected errors) on any machine, so a GPU session does not
/// spend its time on test bugs. It says nothing about the GPU kernels.
#define REQUIRE_CUDA_DEVICE_OR_DRY_RUN()                                                           \
  do {                                                                                            \
    if (::tlens::cuda::deviceCount() == 0 && !::tlens::cudatest::dryRun()) {                      \
      WARN("no CUDA device: skipped (" << ::tlens::cuda::unavailableReason() << ")");             \
      return;                                                                                     \
    }                                                                                             \
  } while (0)

namespace tlens::cudatest {

/// TLENS_CUDA_DRY_RUN=1 and no device: GPU runs are replaced by CPU runs (see above).
bool dryRun();

/// The registry with every GPU kernel (cuda::registerKernels), independent of the global one.
const KernelRegistry& gpuKernels();
/// Whether `op` has a GPU kernel that can run here (registered, and cuda::gpuKernelUsable: the
/// convolutions need a loadable cuDNN), as placement decides; otherwise runGpu runs the CPU's.
bool hasGpuKernel(const std::string& op);

Tensor toDevice(const Tensor& t, int device = 0);
inline Tensor toHost(const Tensor& t) { return t.toHost(); }

struct GpuRun {
  std::vector<Tensor> outputs;  ///< in whatever memory the kernel left them (device normally)
  bool fellBack = false;        ///< no GPU kernel: ran on the CPU, as the runtime would
};

/// Runs one op on GPU 0 as the runtime will: shape function on the concrete inputs, the op's
/// hostInputs in host memory and every other input in device memory, the GPU kernel, and the
/// same kernel/inference agreement checks as runOp. Ops without a GPU kernel run on the CPU.
GpuRun runGpu(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs, Resources& res,
              const std::string& name = "gpu_op", const std::vector<std::string>* varNames = nullptr);
/// The same on the CPU (runOp), inputs copied to the host first.
std::vector<Tensor> runCpu(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                           Resources& res, const std::string& name = "cpu_op",
                           const std::vector<std::string>* varNames = nullptr);

/// Tolerance for comparing a GPU result with the CPU's: exact for integers and bools.
double toleranceFor(DType t);
/// Empty when `gpu` matches `cpu` (dtype, shape, values within tol; NaN == NaN, equal infinities),
/// else a description of the first difference.
std::string compare(const Tensor& cpu, const Tensor& gpu, double tol);

/// Executes every node of `g` in id order on one device (GPU: nodes without a GPU kernel fall back
/// to the CPU) with `feeds` for the placeholders; returns the requested outputs on the host.
/// `fellBack` collects the op types that fell back.
std::vector<Tensor> runGraphOn(Graph& g, bool gpu, const std::vector<std::pair<Output, Tensor>>& feeds,
                               const std::vector<Output>& fetches, std::set<std::string>* fellBack = nullptr);

}  // namespace tlens::cudatest
