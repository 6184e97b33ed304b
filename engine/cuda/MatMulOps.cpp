// MatMul, BatchMatMul and BatchMatMulV2 on cuBLAS (loaded on first use, CudaRuntime.h): SGEMM/DGEMM (full precision: the handle's
// math mode allows no TF32), float16 through cublasGemmEx with float32 accumulation, batches
// through the strided-batched calls when the (broadcast) batch is a constant stride, one call per
// matrix otherwise. Integers use a plain CUDA kernel (cuBLAS has no int32/int64 GEMM).
//
// Row-major trick: C = op(A) op(B) row-major is C^T = op(B)^T op(A)^T column-major, so cuBLAS
// gets B first with the row lengths as leading dimensions and no copies.
#include <climits>

#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

namespace {

struct Gemm {
  int64_t m, n, k;   ///< C is m x n, inner dim k
  bool ta, tb;
  int64_t lda, ldb;  ///< row lengths of A and B as stored
};

int asInt(const Gpu& g, int64_t v, const char* what) {
  if (v > INT_MAX)
    g.ctx.fail(std::string("MatMul dimension ") + what + " = " + std::to_string(v) +
                   " exceeds what the GPU kernel supports (2^31 - 1)",
               ErrorCode::Unimplemented);
  return static_cast<int>(v);
}

/// batch matrices: A + i*strideA, B + i*strideB, C + i*m*n (strides in elements).
void gemm(const Gpu& g, DType dt, const void* a, const void* b, void* c, const Gemm& p, int64_t batch,
          int64_t strideA, int64_t strideB) {
  if (p.m == 0 || p.n == 0 || batch == 0) return;
  if (p.k == 0) {
    g.check(cudaMemsetAsync(c, 0, static_cast<size_t>(batch * p.m * p.n) * dtypeSize(dt), g.stream),
            "cudaMemsetAsync (MatMul with an empty inner dimension)");
    return;
  }
  if (dt == DType::Int32 || dt == DType::Int64) {
    g.check(launchGemmInt(g.et(dt), a, b, c, batch, strideA, strideB, p.m, p.n, p.k, p.ta, p.tb, p.lda, p.ldb,
                          g.stream),
            "launchGemmInt", dt);
    return;
  }
  cublasHandle_t h;
  const CublasApi* api;
  try {
    h = blasHandle(g.dev);
    api = &cublas();
  } catch (const EngineError& e) {
    g.ctx.fail(e.what(), e.code());
  }
  const int m = asInt(g, p.m, "m"), n = asInt(g, p.n, "n"), k = asInt(g, p.k, "k");
  const int lda = asInt(g, p.lda, "lda"), ldb = asInt(g, p.ldb, "ldb"), bt = asInt(g, batch, "batch");
  const cublasOperation_t opA = p.ta ? CUBLAS_OP_T : CUBLAS_OP_N, opB = p.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
  const long long sA = strideA, sB = strideB, sC = p.m * p.n;
  if (dt == DType::Float32) {
    const float one = 1, zero = 0;
    const float* A = static_cast<const float*>(a);
    const float* B = static_cast<const float*>(b);
    float* C = static_cast<float*>(c);
    if (batch == 1) g.checkBlas(api->sgemm(h, opB, opA, n, m, k, &one, B, ldb, A, lda, &zero, C, n), "cublasSgemm");
    else
      g.checkBlas(api->sgemmStridedBatched(h, opB, opA, n, m, k, &one, B, ldb, sB, A, lda, sA, &zero, C, n, sC, bt),
                  "cublasSgemmStridedBatched");
  } else if (dt == DType::Float64) {
    const double one = 1, zero = 0;
    const double* A = static_cast<const double*>(a);
    const double* B = static_cast<const double*>(b);
    double* C = static_cast<double*>(c);
    if (batch == 1) g.checkBlas(api->dgemm(h, opB, opA, n, m, k, &one, B, ldb, A, lda, &zero, C, n), "cublasDgemm");
    else
      g.checkBlas(api->dgemmStridedBatched(h, opB, opA, n, m, k, &one, B, ldb, sB, A, lda, sA, &zero, C, n, sC, bt),
                  "cublasDgemmStridedBatched");
  } else if (dt == DType::Float16) {
    const float one = 1, zero = 0;
    g.checkBlas(api->gemmStridedBatchedEx(h, opB, opA, n, m, k, &one, b, CUDA_R_16F, ldb, sB, a, CUDA_R_16F, lda, sA,
                                           &zero, c, CUDA_R_16F, n, sC, bt, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmStridedBatchedEx (float16)");
  } else {
    g.unsupported(dt);
  }
}

void matmulKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor a = g.in(0), b = g.in(1);
  Tensor& out = g.out(0);
  const bool ta = c.getBool("transpose_a"), tb = c.getBool("transpose_b");
  const Gemm p{out.dim(0), out.dim(1), a.dim(ta ? 0 : 1), ta, tb, a.dim(1), b.dim(1)};
  gemm(g, out.dtype(), a.raw(), b.raw(), out.raw(), p, 1, 0, 0);
}

void batchMatmulKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor a = g.in(0), b = g.in(1);
  Tensor& out = g.out(0);
  const bool ta = c.getBool("adj_x"), tb = c.getBool("adj_y");
  const int ra = a.rank(), rb = b.rank(), ro = out.rank();
  const int64_t ar = a.dim(ra - 2), ac = a.dim(ra - 1), br = b.dim(rb - 2), bc = b.dim(rb - 1);
  const int64_t m = out.dim(ro - 2), n = out.dim(ro - 1);
  const int64_t k = ta ? ar : ac;
  if (out.numElements() == 0) return;
  const ConcreteShape ob(out.shape().begin(), out.shape().end() - 2);
  const ConcreteShape abs(a.shape().begin(), a.shape().end() - 2);
  const ConcreteShape bbs(b.shape().begin(), b.shape().end() - 2);
  const int64_t batch = numElements(ob);
  // Matrix offsets of a and b for each output matrix (broadcast batch dims repeat a matrix).
  std::vector<int64_t> offA(static_cast<size_t>(batch)), offB(static_cast<size_t>(batch));
  {
    const std::vector<int64_t> sa = broadcastStrides(abs, ob), sb = broadcastStrides(bbs, ob);
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
  const int64_t sizeA = ar * ac, sizeB = br * bc, sizeC = m * n;
  const Gemm p{m, n, k, ta, tb, ac, bc};
  const size_t es = dtypeSize(out.dtype());
  const int64_t dA = batch > 1 ? offA[1] - offA[0] : 0, dB = batch > 1 ? offB[1] - offB[0] : 0;
  bool affine = true;
  for (int64_t i = 0; i < batch && affine; ++i)
    affine = offA[static_cast<size_t>(i)] == i * dA && offB[static_cast<size_t>(i)] == i * dB;
  if (affine) {
    gemm(g, out.dtype(), a.raw(), b.raw(), out.raw(), p, batch, dA * sizeA, dB * sizeB);
    return;
  }
  for (int64_t i = 0; i < batch; ++i)
    gemm(g, out.dtype(), static_cast<const char*>(a.raw()) + offA[static_cast<size_t>(i)] * sizeA * es,
         static_cast<const char*>(b.raw()) + offB[static_cast<size_t>(i)] * sizeB * es,
         static_cast<char*>(out.raw()) + i * sizeC * es, p, 1, 0, 0);
}

}  // namespace

void registerMatMulKernels(KernelRegistry& r) {
  r.add("MatMul", Device::GPU, matmulKernel);
  r.add("BatchMatMul", Device::GPU, batchMatmulKernel);
  r.add("BatchMatMulV2", Device::GPU, batchMatmulKernel);
}

}  // namespace tlens::cuda
