// MatrixDeterminant and MatrixInverse on the CPU: Eigen's partially pivoted LU per matrix.
#include <Eigen/Dense>

#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
void determinant(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t n = in.dim(in.rank() - 1);
  Tensor& out = c.allocateOutput(0);
  const int64_t count = out.numElements();
  for (int64_t b = 0; b < count; ++b) {
    Eigen::Map<const RowMat<T>> m(in.data<T>() + b * n * n, n, n);
    out.data<T>()[b] = n == 0 ? T(1) : m.partialPivLu().determinant();
  }
}

template <typename T>
void inverse(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int64_t n = in.dim(in.rank() - 1);
  const bool adjoint = c.getBool("adjoint", false);
  Tensor& out = c.allocateOutput(0);
  const int64_t count = n == 0 ? 0 : in.numElements() / (n * n);
  for (int64_t b = 0; b < count; ++b) {
    Eigen::Map<const RowMat<T>> m(in.data<T>() + b * n * n, n, n);
    Eigen::Map<RowMat<T>> o(out.data<T>() + b * n * n, n, n);
    Eigen::FullPivLU<RowMat<T>> lu(adjoint ? RowMat<T>(m.transpose()) : RowMat<T>(m));
    if (!lu.isInvertible()) c.fail("Input is not invertible.");
    o = lu.inverse();
  }
}

void determinantKernel(KernelContext& c) {
  if (c.input(0).dtype() == DType::Float64) determinant<double>(c);
  else determinant<float>(c);
}

void inverseKernel(KernelContext& c) {
  if (c.input(0).dtype() == DType::Float64) inverse<double>(c);
  else inverse<float>(c);
}

}  // namespace

void registerCpuLinalgKernels(KernelRegistry& r) {
  r.add("MatrixDeterminant", Device::CPU, determinantKernel);
  r.add("MatrixInverse", Device::CPU, inverseKernel);
}

}  // namespace tlens
