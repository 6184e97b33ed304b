// The device half of the CUDA backend: launchers for the kernels in engine/cuda/*.cu. Plain C++
// with raw pointers and sizes (no engine types, no Eigen), so nvcc compiles only these small files
// and the host half (engine/cuda/*Ops.cpp, built by the C++ compiler) does all the KernelContext
// work: attribute parsing, shape checks, output allocation, error messages.
//
// Every launcher enqueues work on `stream` and returns the launch status (cudaGetLastError());
// cudaErrorNotSupported means "this element type is not implemented for this op" and becomes an
// Unimplemented error naming the op and dtype on the host side.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tlens::cuda {

/// Element types as the device code sees them.
enum class ET : uint8_t { F32, F64, F16, I32, I64, U8, Bool };

constexpr int kMaxDims = 8;

/// An index space of up to kMaxDims dims (row-major over `dims`) with per-operand strides (in
/// elements); stride 0 broadcasts. `mode[k]`: 0 = operand k is contiguous with the output (index
/// i), 1 = a scalar, 2 = use the strides.
struct Strided3 {
  int rank = 0;
  int64_t dims[kMaxDims] = {};
  int64_t st[3][kMaxDims] = {};
  int mode[3] = {0, 0, 0};
};

// ---- elementwise (Elementwise.cu) ----
enum class UOp : uint8_t {
  Neg, Abs, Sign, Square, Reciprocal, Floor, Ceil, Round, Exp, Log, Log1p, Sqrt, Rsqrt, Sin, Cos,
  Tanh, Sigmoid, Relu, Relu6, Elu, Selu, Softplus, LeakyRelu, IsNan, IsInf, IsFinite, LogicalNot,
};
enum class BOp : uint8_t {
  Add, Sub, Mul, Div, FloorDiv, FloorMod, Pow, Maximum, Minimum, SquaredDifference,
  Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, LogicalAnd, LogicalOr,
  ReluGrad, Relu6Grad, EluGrad, SeluGrad, SoftplusGrad, LeakyReluGrad, SigmoidGrad, TanhGrad,
  SqrtGrad, RsqrtGrad, ReciprocalGrad, Atan2,
};
/// y[i] = op(x[i]); `alpha` parameterises LeakyRelu. Bool outputs for IsNan/IsInf/IsFinite.
cudaError_t launchUnary(UOp op, ET t, const void* x, void* y, int64_t n, double alpha, cudaStream_t s);
/// out = op(a, b) over `ix` (operands 0 = a, 1 = b); `t` is the input type. Comparisons and
/// logical ops write bool.
cudaError_t launchBinary(BOp op, ET t, const void* a, const void* b, void* out, int64_t n, const Strided3& ix,
                         double alpha, cudaStream_t s);
/// Sets *flag (device int) to 1 when any of the n elements of x is zero (integer division checks)
/// or, with `negative`, below zero (integer powers).
cudaError_t launchAnyZeroOrNegative(ET t, const void* x, int64_t n, bool negative, int* flag, cudaStream_t s);
/// out = cond ? a : b with operands 0 = cond (bool), 1 = a, 2 = b; elements moved by size.
cudaError_t launchSelect(size_t elemSize, const void* cond, const void* a, const void* b, void* out, int64_t n,
                         const Strided3& ix, cudaStream_t s);
/// out = min(max(x, lo), hi) as tf.clip_by_value (operands 0 = x, 1 = lo, 2 = hi).
cudaError_t launchClip(ET t, const void* x, const void* lo, const void* hi, void* out, int64_t n,
                       const Strided3& ix, cudaStream_t s);
cudaError_t launchCast(ET from, ET to, const void* x, void* y, int64_t n, cudaStream_t s);
/// Logistic loss and its gradient (same-shape operands).
cudaError_t launchSigmoidXent(ET t, const void* labels, const void* logits, void* y, int64_t n, cudaStream_t s);
cudaError_t launchSigmoidXentGrad(ET t, const void* labels, const void* logits, const void* dy, void* y, int64_t n,
                                  cudaStream_t s);

// ---- reductions (Reduce.cu) ----
enum class ROp : uint8_t { Sum, Mean, Prod, Max, Min, Any, All, HalfSumSquares };
/// Output element o reduces the group {kept index o} x {reduced index g}: input offset =
/// keptOffset(o) + reducedOffset(g), each from dims and input strides.
struct ReduceLayout {
  int keptRank = 0, redRank = 0;
  int64_t keptDims[kMaxDims] = {}, keptStrides[kMaxDims] = {};
  int64_t redDims[kMaxDims] = {}, redStrides[kMaxDims] = {};
  int64_t outN = 1, groupN = 1;
};
/// Scratch bytes launchReduce needs for `l` with element type t (0 when none).
size_t reduceScratchBytes(ROp op, ET t, const ReduceLayout& l);
cudaError_t launchReduce(ROp op, ET t, const void* x, void* y, const ReduceLayout& l, void* scratch, cudaStream_t s);
/// Index of the first max/min (first NaN wins) along the middle axis of [outer, len, inner];
/// writes int32 or int64.
cudaError_t launchArgReduce(bool isMax, ET t, const void* x, void* out, bool out64, int64_t outer, int64_t len,
                            int64_t inner, cudaStream_t s);
/// Counts NaN and +-Inf elements into counts[0], counts[1] (device int64, zeroed by the caller).
cudaError_t launchCountNonFinite(ET t, const void* x, int64_t n, unsigned long long* counts, cudaStream_t s);
/// ReductionIndicators step 1: out[i] = (x[i] == y[group(i)]) (NaN == NaN) as 0/1 in x's type;
/// `yIdx` maps an input index to its group through operand strides (operand 1).
cudaError_t launchEqualMask(ET t, const void* x, const void* y, void* out, int64_t n, const Strided3& ix,
                            cudaStream_t s);
/// ReductionProdOthers: for each element the product of the other elements of its group.
/// `scratch` holds 16 bytes per group.
cudaError_t launchProdOthers(ET t, const void* x, void* y, const ReduceLayout& l, void* scratch, cudaStream_t s);

// ---- softmax and losses (NN.cu) ----
cudaError_t launchSoftmax(bool log, ET t, const void* x, void* y, int64_t outer, int64_t len, int64_t inner,
                          cudaStream_t s);
/// Dense labels, both [rows, cols] (already broadcast).
cudaError_t launchSoftmaxXent(ET t, const void* logits, const void* labels, void* loss, void* backprop, int64_t rows,
                              int64_t cols, cudaStream_t s);
/// Sparse labels (int32/int64 [rows]); labels outside [0, cols) set *badFlag = 1 (and give NaN).
cudaError_t launchSparseXent(ET t, const void* logits, const void* labels, bool labels64, void* loss,
                             void* backprop, int64_t rows, int64_t cols, int* badFlag, cudaStream_t s);

// ---- pooling (NN.cu), NHWC ----
struct PoolGeom {
  int64_t n, h, w, c, oh, ow, kh, kw, sh, sw, padT, padL;
};
cudaError_t launchMaxPool(ET t, const void* x, void* y, const PoolGeom& g, cudaStream_t s);
/// dx (zeroed by the launcher) += dy at each window's first maximum.
cudaError_t launchMaxPoolGrad(ET t, const void* x, const void* dy, void* dx, const PoolGeom& g, cudaStream_t s);
cudaError_t launchMaxPoolGradGrad(ET t, const void* x, const void* gin, void* out, const PoolGeom& g, cudaStream_t s);
cudaError_t launchAvgPool(ET t, const void* x, void* y, const PoolGeom& g, cudaStream_t s);
cudaError_t launchAvgPoolGrad(ET t, const void* dy, void* dx, const PoolGeom& g, cudaStream_t s);

// ---- random (NN.cu): Philox4x32-10 keyed by the node's generator ----
enum class RandKind : uint8_t { Uniform, Normal, TruncatedNormal };
cudaError_t launchRandom(RandKind k, ET t, void* out, int64_t n, uint64_t key, cudaStream_t s);

// ---- optimizers (NN.cu): scalars are device pointers to one element of type t ----
cudaError_t launchApplyGradientDescent(ET t, void* var, const void* alpha, const void* delta, int64_t n,
                                       cudaStream_t s);
cudaError_t launchApplyMomentum(ET t, void* var, void* accum, const void* lr, const void* grad,
                                const void* momentum, bool nesterov, int64_t n, cudaStream_t s);
cudaError_t launchApplyAdam(ET t, void* var, void* m, void* v, const void* b1p, const void* b2p, const void* lr,
                            const void* b1, const void* b2, const void* eps, const void* grad, bool nesterov,
                            int64_t n, cudaStream_t s);
cudaError_t launchApplyRMSProp(ET t, void* var, void* ms, void* mom, const void* lr, const void* rho,
                               const void* momentum, const void* eps, const void* grad, int64_t n, cudaStream_t s);
cudaError_t launchApplyAdagrad(ET t, void* var, void* accum, const void* lr, const void* grad, bool updateSlots,
                               int64_t n, cudaStream_t s);
cudaError_t launchApplyAdadelta(ET t, void* var, void* accum, void* accumUpdate, const void* lr, const void* rho,
                                const void* eps, const void* grad, int64_t n, cudaStream_t s);

// ---- batch normalisation (NN.cu): x as [outer, C, inner]; statistics accumulate in double ----
struct BnLayout {
  int64_t outer = 1, c = 1, inner = 1;
};
/// Device scratch both batch-norm launchers need: 8 doubles per channel.
inline size_t bnScratchBytes(const BnLayout& l) { return static_cast<size_t>(l.c) * 8 * sizeof(double); }
/// FusedBatchNormV3 (t: float32, float64, or float16 with float32 scale/offset/statistics).
cudaError_t launchBnForward(ET t, const void* x, const void* scale, const void* offset, const void* inMean,
                            const void* inVar, bool training, double eps, double factor, void* y, void* batchMean,
                            void* batchVar, void* r1, void* r2, const BnLayout& l, void* scratch, cudaStream_t s);
/// FusedBatchNormGradV3 (training: batch statistics recomputed from x; else r1/r2 are the
/// population mean and variance).
cudaError_t launchBnGrad(ET t, const void* dy, const void* x, const void* scale, const void* r1, const void* r2,
                         bool training, double eps, void* dx, void* dScale, void* dOffset, const BnLayout& l,
                         void* scratch, cudaStream_t s);

// ---- integer GEMM (NN.cu): cuBLAS has none; row-major, one thread per output element ----
/// C[b] = op(A[b]) op(B[b]) for b < batch, with A[b] = A + b * strideA (elements), same for B, C.
cudaError_t launchGemmInt(ET t, const void* a, const void* b, void* c, int64_t batch, int64_t strideA,
                          int64_t strideB, int64_t m, int64_t n, int64_t k, bool ta, bool tb, int64_t lda,
                          int64_t ldb, cudaStream_t s);

// ---- data movement (Movement.cu): elements moved by size (1, 2, 4 or 8 bytes) ----
struct StridedCopy {
  int rank = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t srcStrides[kMaxDims] = {}, dstStrides[kMaxDims] = {};
  int64_t srcBase = 0, dstBase = 0;
};
/// dst[dstBase + sum p_i dstStrides_i] = src[srcBase + sum p_i srcStrides_i] for every index p.
cudaError_t launchStridedCopy(size_t elemSize, const void* src, void* dst, const StridedCopy& c, cudaStream_t s);
/// dst[0..n) = *value, where value points to one element in device memory (or, with
/// valueOnHost, to host bytes captured at launch).
cudaError_t launchFill(size_t elemSize, void* dst, int64_t n, const void* value, bool valueOnHost, cudaStream_t s);
/// out[idx] = in[idx mod inDims] (numpy tile), row-major over outDims.
cudaError_t launchTile(size_t elemSize, const void* src, void* dst, int rank, const int64_t* outDims,
                       const int64_t* inDims, int64_t n, cudaStream_t s);
/// out[o, k, i] = params[o, idx[k], i]; an index outside [0, limit) sets *badFlag = 1 (output 0).
cudaError_t launchGather(size_t elemSize, const void* params, const void* indices, bool idx64, void* out,
                         int64_t outer, int64_t limit, int64_t m, int64_t inner, int* badFlag, cudaStream_t s);
/// out (zeroed by the launcher) [o, idx[k], i] += dy[o, k, i].
cudaError_t launchGatherGrad(ET t, const void* dy, const void* indices, bool idx64, void* out, int64_t outer,
                             int64_t limit, int64_t m, int64_t inner, int* badFlag, cudaStream_t s);
/// out[p, idx[p,s], s] = on for idx in [0, depth); everything else off (values are device elements).
cudaError_t launchOneHot(size_t elemSize, const void* indices, bool idx64, const void* on, const void* off, void* out,
                         int64_t prefix, int64_t depth, int64_t suffix, cudaStream_t s);

}  // namespace tlens::cuda
