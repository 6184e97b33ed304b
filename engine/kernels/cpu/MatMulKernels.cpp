// MatMul on the CPU through Eigen's GEMM (multithreaded by Eigen, see setIntraOpThreads).
#include <Eigen/Core>

#include "engine/runtime/Kernel.h"

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
  if (!ta && !tb) C.noalias() = A * B;
  else if (!ta && tb) C.noalias() = A * B.transpose();
  else if (ta && !tb) C.noalias() = A.transpose() * B;
  else C.noalias() = A.transpose() * B.transpose();
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
