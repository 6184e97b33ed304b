// BatchMatMulV2 / BatchMatMul on the CPU: one GEMM (Gemm.h) per matrix of the (broadcast) batch.
// The batch runs in parallel on the engine's pool, each GEMM single-threaded.
#include <Eigen/Core>

#include "engine/kernels/cpu/Elementwise.h"
#include "engine/kernels/cpu/Gemm.h"

namespace tlens {

namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

template <typename T>
void batchMatmul(KernelContext& c, const Tensor& a, const Tensor& b, bool ta, bool tb, Tensor& out) {
  const int ra = a.rank(), rb = b.rank(), ro = out.rank();
  const int64_t ar = a.dim(ra - 2), ac = a.dim(ra - 1), br = b.dim(rb - 2), bc = b.dim(rb - 1);
  const int64_t m = out.dim(ro - 2), n = out.dim(ro - 1);
  const int64_t k = ta ? ar : ac;
  if (out.numElements() == 0) return;
  T* po = out.data<T>();
  if (k == 0) {
    std::fill(po, po + out.numElements(), T(0));
    return;
  }
  const ConcreteShape ob(out.shape().begin(), out.shape().end() - 2);
  const ConcreteShape abs(a.shape().begin(), a.shape().end() - 2);
  const ConcreteShape bbs(b.shape().begin(), b.shape().end() - 2);
  const int64_t batch = numElements(ob);
  // Matrix offsets of a and b for each output matrix (broadcast batch dims repeat a matrix).
  std::vector<int64_t> offA(static_cast<size_t>(batch)), offB(static_cast<size_t>(batch));
  {
    const std::vector<int64_t> sa = cpu::broadcastStrides(abs, ob), sb = cpu::broadcastStrides(bbs, ob);
    std::vector<int64_t> idx(ob.size(), 0);
    int64_t oa = 0, obb = 0;
    for (int64_t i = 0; i < batch; ++i) {
      offA[static_cast<size_t>(i)] = oa;
      offB[static_cast<size_t>(i)] = obb;
      for (size_t d = ob.size(); d-- > 0;) {
        oa += sa[d];
        obb += sb[d];
        if (++idx[d] < ob[d]) break;
        oa -= sa[d] * ob[d];
        obb -= sb[d] * ob[d];
        idx[d] = 0;
      }
    }
  }
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  const int64_t sizeA = ar * ac, sizeB = br * bc, sizeC = m * n;
  auto one = [&](int64_t i) {
    gemm::gemm<T>(ta, tb, m, n, k, pa + offA[static_cast<size_t>(i)] * sizeA, ac, pb + offB[static_cast<size_t>(i)] * sizeB,
                  bc, T(0), po + i * sizeC, n);
  };
  const double work = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  if (batch > 1) {
    // Each GEMM runs single-threaded: spread the batch over the pool, several small matrices a task.
    parallelFor(batch, std::max<int64_t>(1, static_cast<int64_t>(65536 / work)), [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) one(i);
    });
  } else {
    one(0);
  }
}

void batchMatmulKernel(KernelContext& c) {
  const Tensor& a = c.input(0);
  const Tensor& b = c.input(1);
  Tensor& out = c.allocateOutput(0);
  const bool ta = c.getBool("adj_x"), tb = c.getBool("adj_y");
  switch (out.dtype()) {
    case DType::Float32: batchMatmul<float>(c, a, b, ta, tb, out); break;
    case DType::Float64: batchMatmul<double>(c, a, b, ta, tb, out); break;
    case DType::Float16: batchMatmul<half>(c, a, b, ta, tb, out); break;
    case DType::Int32: batchMatmul<int32_t>(c, a, b, ta, tb, out); break;
    case DType::Int64: batchMatmul<int64_t>(c, a, b, ta, tb, out); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(out.dtype())));
  }
}

}  // namespace

void registerCpuBatchMatMulKernels(KernelRegistry& r) {
  r.add("BatchMatMulV2", Device::CPU, batchMatmulKernel);
  r.add("BatchMatMul", Device::CPU, batchMatmulKernel);
}

}  // namespace tlens
