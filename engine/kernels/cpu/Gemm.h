// Gemm: the row-major matrix product of the CPU kernels that multiply matrices (MatMul,
// BatchMatMul, the convolutions' im2col products). float32 runs oneDNN's sgemm, the library
// TensorFlow's own CPU kernels use on x86, when libdnnl.so.2 is installed: it is loaded at the
// first float32 product, so `tlens check` and `tlens lsp` never load it, and a machine without
// it runs Eigen's GEMM, as do the other dtypes and `TLENS_GEMM=eigen` in the environment.
// One call runs on the calling thread alone: kernels split large products over the engine's pool.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <type_traits>

namespace tlens::gemm {

/// C = op(A) op(B) + beta C through oneDNN's sgemm on the calling thread; false when oneDNN is
/// not available (not installed, or TLENS_GEMM=eigen), and the caller computes it itself.
bool sgemmDnnl(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
               int64_t ldb, float beta, float* c, int64_t ldc);
/// What float32 products run on: "oneDNN <version>" or "Eigen" (benchmarks print it).
std::string backendName();
/// Tests and benchmarks: run every product on Eigen (true) or as configured (false).
void setEigenOnly(bool on);

/// C[m x n] = op(A)[m x k] * op(B)[k x n] + beta * C, all row-major with leading dimensions
/// lda, ldb, ldc (op = transpose when ta / tb). beta is 0 or 1.
template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T beta,
          T* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if constexpr (std::is_same_v<T, float>) {
    if (k > 0 && sgemmDnnl(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc)) return;
  }
  using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Stride = Eigen::OuterStride<>;
  Eigen::Map<const Mat, 0, Stride> A(a, ta ? k : m, ta ? m : k, Stride(lda));
  Eigen::Map<const Mat, 0, Stride> B(b, tb ? n : k, tb ? k : n, Stride(ldb));
  Eigen::Map<Mat, 0, Stride> C(c, m, n, Stride(ldc));
  if (beta == T(0)) {
    if (!ta && !tb) C.noalias() = A * B;
    else if (!ta && tb) C.noalias() = A * B.transpose();
    else if (ta && !tb) C.noalias() = A.transpose() * B;
    else C.noalias() = A.transpose() * B.transpose();
  } else {
    if (!ta && !tb) C.noalias() += A * B;
    else if (!ta && tb) C.noalias() += A * B.transpose();
    else if (ta && !tb) C.noalias() += A.transpose() * B;
    else C.noalias() += A.transpose() * B.transpose();
  }
}

}  // namespace tlens::gemm
