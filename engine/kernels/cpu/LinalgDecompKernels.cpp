// CPU kernels of engine/ops/defs/LinalgDecompOps.cpp: Eigen's LLT (Cholesky), full-pivot LU
// (MatrixSolve: it detects singular matrices as LAPACK's gesv does), Householder QR, BDC SVD
// (Jacobi below 16 columns), the self-adjoint eigensolver and the general real eigensolver, one
// matrix of the batch at a time.
#include <Eigen/Dense>

#include <algorithm>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Shape `s` with its last two dims replaced by (a, b), or its last one by a when b < 0.
ConcreteShape tail(ConcreteShape s, int64_t a, int64_t b) {
  if (b < 0) {
    s.pop_back();
    s.back() = a;
    return s;
  }
  s[s.size() - 2] = a;
  s.back() = b;
  return s;
}

int64_t batchOf(const Tensor& t) {
  int64_t n = 1;
  for (size_t i = 0; i + 2 < t.shape().size(); ++i) n *= t.shape()[i];
  return n;
}

template <typename T>
void cholesky(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t n = in.dim(in.rank() - 1);
  Tensor& out = c.allocateOutput(0, in.shape(), in.dtype());
  for (int64_t b = 0; b < batchOf(in); ++b) {
    Eigen::Map<const RowMat<T>> a(in.data<T>() + b * n * n, n, n);
    Eigen::LLT<RowMat<T>> llt(a);
    if (llt.info() != Eigen::Success) c.fail("Cholesky decomposition was not successful. The input might not be valid.");
    Eigen::Map<RowMat<T>>(out.data<T>() + b * n * n, n, n) = llt.matrixL();
  }
}

template <typename T>
void solve(KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& rhs = c.input(1);
  const int64_t n = a.dim(a.rank() - 1), k = rhs.dim(rhs.rank() - 1);
  const bool adjoint = c.getBool("adjoint", false);
  Tensor& out = c.allocateOutput(0, rhs.shape(), rhs.dtype());
  for (int64_t b = 0; b < batchOf(a); ++b) {
    Eigen::Map<const RowMat<T>> m(a.data<T>() + b * n * n, n, n);
    Eigen::Map<const RowMat<T>> y(rhs.data<T>() + b * n * k, n, k);
    Eigen::FullPivLU<RowMat<T>> lu(adjoint ? RowMat<T>(m.transpose()) : RowMat<T>(m));
    if (!lu.isInvertible()) c.fail("Input matrix is not invertible.");
    Eigen::Map<RowMat<T>>(out.data<T>() + b * n * k, n, k) = lu.solve(RowMat<T>(y));
  }
}

template <typename T>
void qr(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t m = in.dim(in.rank() - 2), n = in.dim(in.rank() - 1);
  const int64_t k = c.getBool("full_matrices", false) ? m : std::min(m, n);
  Tensor& q = c.allocateOutput(0, tail(in.shape(), m, k), in.dtype());
  Tensor& r = c.allocateOutput(1, tail(in.shape(), k, n), in.dtype());
  for (int64_t b = 0; b < batchOf(in); ++b) {
    Eigen::HouseholderQR<RowMat<T>> h(RowMat<T>(Eigen::Map<const RowMat<T>>(in.data<T>() + b * m * n, m, n)));
    RowMat<T> full = h.householderQ();
    Eigen::Map<RowMat<T>>(q.data<T>() + b * m * k, m, k) = full.leftCols(k);
    RowMat<T> rr = h.matrixQR().topRows(std::min(k, m)).template triangularView<Eigen::Upper>();
    Eigen::Map<RowMat<T>> ro(r.data<T>() + b * k * n, k, n);
    ro.setZero();
    ro.topRows(rr.rows()) = rr;
  }
}

template <typename T>
void svd(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t m = in.dim(in.rank() - 2), n = in.dim(in.rank() - 1), k = std::min(m, n);
  const bool uv = c.getBool("compute_uv", true), full = c.getBool("full_matrices", false);
  Tensor& s = c.allocateOutput(0, tail(in.shape(), k, -1), in.dtype());
  Tensor& u = c.allocateOutput(1, uv ? tail(in.shape(), m, full ? m : k) : ConcreteShape{0}, in.dtype());
  Tensor& v = c.allocateOutput(2, uv ? tail(in.shape(), n, full ? n : k) : ConcreteShape{0}, in.dtype());
  const int opts = !uv ? 0 : full ? (Eigen::ComputeFullU | Eigen::ComputeFullV) : (Eigen::ComputeThinU | Eigen::ComputeThinV);
  for (int64_t b = 0; b < batchOf(in); ++b) {
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> a = Eigen::Map<const RowMat<T>>(in.data<T>() + b * m * n, m, n);
    Eigen::BDCSVD<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> d(a, opts);
    std::copy(d.singularValues().data(), d.singularValues().data() + k, s.data<T>() + b * k);
    if (!uv) continue;
    const int64_t uc = full ? m : k, vc = full ? n : k;
    Eigen::Map<RowMat<T>>(u.data<T>() + b * m * uc, m, uc) = d.matrixU();
    Eigen::Map<RowMat<T>>(v.data<T>() + b * n * vc, n, vc) = d.matrixV();
  }
}

template <typename T>
void eigh(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t n = in.dim(in.rank() - 1);
  const bool vec = c.getBool("compute_v", true);
  Tensor& e = c.allocateOutput(0, tail(in.shape(), n, -1), in.dtype());
  Tensor& v = c.allocateOutput(1, vec ? in.shape() : ConcreteShape{0}, in.dtype());
  for (int64_t b = 0; b < batchOf(in); ++b) {
    RowMat<T> a = Eigen::Map<const RowMat<T>>(in.data<T>() + b * n * n, n, n);
    Eigen::SelfAdjointEigenSolver<RowMat<T>> es(a, vec ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
    if (es.info() != Eigen::Success) c.fail("Self-adjoint eigen decomposition was not successful.");
    std::copy(es.eigenvalues().data(), es.eigenvalues().data() + n, e.data<T>() + b * n);
    if (vec) Eigen::Map<RowMat<T>>(v.data<T>() + b * n * n, n, n) = es.eigenvectors();
  }
}

template <typename T>
void realEig(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t n = in.dim(in.rank() - 1);
  Tensor& re = c.allocateOutput(0, tail(in.shape(), n, -1), in.dtype());
  Tensor& im = c.allocateOutput(1, tail(in.shape(), n, -1), in.dtype());
  Tensor& v = c.allocateOutput(2, in.shape(), in.dtype());
  for (int64_t b = 0; b < batchOf(in); ++b) {
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> a = Eigen::Map<const RowMat<T>>(in.data<T>() + b * n * n, n, n);
    Eigen::EigenSolver<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> es(a, true);
    if (es.info() != Eigen::Success) c.fail("Eigenvalues did not converge");
    for (int64_t i = 0; i < n; ++i) {
      re.data<T>()[b * n + i] = es.eigenvalues()(i).real();
      im.data<T>()[b * n + i] = es.eigenvalues()(i).imag();
    }
    Eigen::Map<RowMat<T>>(v.data<T>() + b * n * n, n, n) = es.eigenvectors().real();
  }
}

template <template <typename> class K>
void byFloat(KernelContext& c) {
  if (c.input(0).dtype() == DType::Float64) K<double>::run(c);
  else K<float>::run(c);
}

#define TLENS_KERNEL(name, fn) \
  template <typename T>        \
  struct name {                \
    static void run(KernelContext& c) { fn<T>(c); } \
  };
TLENS_KERNEL(CholeskyK, cholesky)
TLENS_KERNEL(SolveK, solve)
TLENS_KERNEL(QrK, qr)
TLENS_KERNEL(SvdK, svd)
TLENS_KERNEL(EighK, eigh)
TLENS_KERNEL(RealEigK, realEig)
#undef TLENS_KERNEL

}  // namespace

void registerCpuLinalgDecompKernels(KernelRegistry& r) {
  r.add("Cholesky", Device::CPU, byFloat<CholeskyK>);
  r.add("MatrixSolve", Device::CPU, byFloat<SolveK>);
  r.add("Qr", Device::CPU, byFloat<QrK>);
  r.add("Svd", Device::CPU, byFloat<SvdK>);
  r.add("SelfAdjointEigV2", Device::CPU, byFloat<EighK>);
  r.add("RealEig", Device::CPU, byFloat<RealEigK>);
}

}  // namespace tlens
