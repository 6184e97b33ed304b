// MatMul on the CPU through Eigen's GEMM. Intra-op parallelism splits the output into row (or
// column) blocks, one single-threaded Eigen GEMM per block on the engine's thread pool; the
// engine does not use OpenMP, whose spinning workers fight the pool for cores.
#include <Eigen/Core>

#include <algorithm>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
void matmul(const Tensor& a, const Tensor& b, bool ta, bool tb, Tensor& out) {
  Eigen::Map<const RowMat<T>> A(a.data<T>(), a.dim(0), a.dim(1));
  Eigen::Map<const RowMat<T>> B(b.data<T>(), b.dim(0), b.dim(1));
  Eigen::Map<RowMat<T>> C(out.data<T>(), out.dim(0), out.dim(1));
  if (out.numElements() == 0) return;
  if (a.dim(ta ? 0 : 1) == 0) {
    C.setZero();
    return;
  }
  const int64_t m = out.dim(0), n = out.dim(1), k = a.dim(ta ? 0 : 1);
  const int threads = intraOpThreads();
  // Below ~8M multiply-adds (~50 us), waking a second thread costs more than it gains.
  const bool split = threads > 1 && m * n * k >= int64_t{1} << 23;
  auto rows = [&](int64_t r0, int64_t r1) {  // C[r0:r1, :] = op(A)[r0:r1, :] * op(B)
    auto Cb = C.middleRows(r0, r1 - r0);
    if (!ta && !tb) Cb.noalias() = A.middleRows(r0, r1 - r0) * B;
    else if (!ta && tb) Cb.noalias() = A.middleRows(r0, r1 - r0) * B.transpose();
    else if (ta && !tb) Cb.noalias() = A.transpose().middleRows(r0, r1 - r0) * B;
    else Cb.noalias() = A.transpose().middleRows(r0, r1 - r0) * B.transpose();
  };
  auto cols = [&](int64_t c0, int64_t c1) {  // C[:, c0:c1] = op(A) * op(B)[:, c0:c1]
    auto Cb = C.middleCols(c0, c1 - c0);
    if (!ta && !tb) Cb.noalias() = A * B.middleCols(c0, c1 - c0);
    else if (!ta && tb) Cb.noalias() = A * B.transpose().middleCols(c0, c1 - c0);
    else if (ta && !tb) Cb.noalias() = A.transpose() * B.middleCols(c0, c1 - c0);
    else Cb.noalias() = A.transpose() * B.transpose().middleCols(c0, c1 - c0);
  };
  if (!split) {  // whole-matrix expressions: Eigen's fastest path (blocks lose alignment info)
    if (!ta && !tb) C.noalias() = A * B;
    else if (!ta && tb) C.noalias() = A * B.transpose();
    else if (ta && !tb) C.noalias() = A.transpose() * B;
    else C.noalias() = A.transpose() * B.transpose();
  } else if (m >= n) {
    parallelFor(m, std::max<int64_t>(16, (m + threads - 1) / threads), rows);
  } else {
    parallelFor(n, std::max<int64_t>(16, (n + threads - 1) / threads), cols);
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
