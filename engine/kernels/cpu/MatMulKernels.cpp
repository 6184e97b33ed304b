// MatMul on the CPU through Gemm.h (oneDNN's sgemm for float32 when installed, Eigen's GEMM
// otherwise). Intra-op parallelism splits the output into row (or column) blocks, one
// single-threaded GEMM per block on the engine's thread pool; the engine does not run OpenMP
// teams, whose spinning workers fight the pool for cores.
#include <algorithm>

#include "engine/kernels/cpu/Gemm.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

template <typename T>
void matmul(const Tensor& a, const Tensor& b, bool ta, bool tb, Tensor& out) {
  if (out.numElements() == 0) return;
  const int64_t m = out.dim(0), n = out.dim(1), k = a.dim(ta ? 0 : 1);
  const int64_t lda = a.dim(1), ldb = b.dim(1);
  const T* A = a.data<T>();
  const T* B = b.data<T>();
  T* C = out.data<T>();
  if (k == 0) {
    std::fill(C, C + out.numElements(), T(0));
    return;
  }
  const int threads = intraOpThreads();
  // Below ~8M multiply-adds (~50 us), waking a second thread costs more than it gains.
  const bool split = threads > 1 && m * n * k >= int64_t{1} << 23;
  if (!split) {
    gemm::gemm<T>(ta, tb, m, n, k, A, lda, B, ldb, T(0), C, n);
  } else if (m >= n) {  // C[r0:r1, :] = op(A)[r0:r1, :] * op(B)
    parallelFor(m, std::max<int64_t>(16, (m + threads - 1) / threads), [&](int64_t r0, int64_t r1) {
      gemm::gemm<T>(ta, tb, r1 - r0, n, k, ta ? A + r0 : A + r0 * lda, lda, B, ldb, T(0), C + r0 * n, n);
    });
  } else {  // C[:, c0:c1] = op(A) * op(B)[:, c0:c1]
    parallelFor(n, std::max<int64_t>(16, (n + threads - 1) / threads), [&](int64_t c0, int64_t c1) {
      gemm::gemm<T>(ta, tb, m, c1 - c0, k, A, lda, tb ? B + c0 * ldb : B + c0, ldb, T(0), C + c0, n);
    });
  }
}

void matmulKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const bool ta = c.getBool("transpose_a"), tb = c.getBool("transpose_b");
  switch (out.dtype()) {
    case DType::Float32: matmul<float>(c.input(0), c.input(1), ta, tb, out); break;
    case DType::Float64: matmul<double>(c.input(0), c.input(1), ta, tb, out); break;
    case DType::Float16: matmul<Eigen::half>(c.input(0), c.input(1), ta, tb, out); break;
    case DType::Int32: matmul<int32_t>(c.input(0), c.input(1), ta, tb, out); break;
    case DType::Int64: matmul<int64_t>(c.input(0), c.input(1), ta, tb, out); break;
    default: c.fail("MatMul does not support " + std::string(dtypeName(out.dtype())));
  }
}

}  // namespace

void registerCpuBatchMatMulKernels(KernelRegistry& r);  // BatchMatMulKernels.cpp

void registerCpuMatMulKernels(KernelRegistry& r) {
  r.add("MatMul", Device::CPU, matmulKernel);
  registerCpuBatchMatMulKernels(r);
}

}  // namespace tlens
