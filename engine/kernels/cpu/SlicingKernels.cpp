// CPU kernels for slicing: Slice, StridedSlice, StridedSliceGrad, GatherV2, GatherV2Grad.
// StridedSlice reuses the spec expansion of its shape function (StridedSliceSpec), so the
// kernel and inference agree exactly.
#include <algorithm>

#include "engine/core/Dispatch.h"
#include "engine/kernels/KernelChecks.h"
#include "engine/kernels/cpu/DataMovement.h"
#include "engine/ops/defs/StridedSliceSpec.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

namespace mv = cpu::movement;

using namespace slicing;

void sliceKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const std::vector<int64_t> begin = c.input(1).toInt64Vector();
  Tensor& out = c.allocateOutput(0);
  const std::vector<int64_t> st = mv::rowMajorStrides(in.shape());
  int64_t base = 0;
  for (int i = 0; i < in.rank(); ++i) {
    const int64_t b = begin[static_cast<size_t>(i)];
    if (b < 0 || b + out.dim(i) > in.dim(i))
      c.fail("Expected begin[" + std::to_string(i) + "] in [0, " + std::to_string(in.dim(i)) + "], but got " +
             std::to_string(b));
    base += b * st[static_cast<size_t>(i)];
  }
  mv::stridedCopy(in, out, out.shape(), st, base, mv::rowMajorStrides(out.shape()), 0);
}

StridedSliceAnalysis analyze(KernelContext& c, const ConcreteShape& shape) {
  const std::vector<int64_t> b = c.input(1).toInt64Vector();
  const std::vector<int64_t> e = c.input(2).toInt64Vector();
  const std::vector<int64_t> s = c.input(3).toInt64Vector();
  StridedSliceAnalysis a = analyzeStridedSlice(Shape::fromConcrete(shape), static_cast<int64_t>(b.size()), b, e, s,
                                               StridedSliceMasks::read(c));
  if (!a.ok()) c.fail(a.error);
  if (!a.fullyKnown()) c.fail("Internal: strided slice not resolved on concrete inputs", ErrorCode::Internal);
  return a;
}

/// Input strides and base offset of the elements a strided slice reads from a tensor of `shape`.
void readPattern(const StridedSliceAnalysis& a, const ConcreteShape& shape, std::vector<int64_t>* strides,
                 int64_t* base) {
  const std::vector<int64_t> st = mv::rowMajorStrides(shape);
  *base = 0;
  strides->clear();
  for (size_t i = 0; i < a.dims.size(); ++i) {
    strides->push_back(st[i] * a.dims[i].stride);
    *base += a.dims[i].begin * st[i];
  }
}

void stridedSliceKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  StridedSliceAnalysis a = analyze(c, in.shape());
  Tensor& out = c.allocateOutput(0);
  const ConcreteShape proc = a.processingShape();
  if (numElements(proc) != out.numElements())
    c.fail("Internal: strided slice size mismatch", ErrorCode::Internal);
  std::vector<int64_t> st;
  int64_t base = 0;
  readPattern(a, in.shape(), &st, &base);
  mv::stridedCopy(in, out, proc, st, base, mv::rowMajorStrides(proc), 0);
}

void stridedSliceGradKernel(KernelContext& c) {
  const std::vector<int64_t> sv = c.input(0).toInt64Vector();
  const ConcreteShape shape(sv.begin(), sv.end());
  const Tensor& dy = c.input(4);
  StridedSliceAnalysis a = analyze(c, shape);
  const ConcreteShape proc = a.processingShape();
  if (numElements(proc) != dy.numElements())
    c.fail("shape of dy was " + concreteStr(dy.shape()) + " instead of " + a.output.str());
  Tensor& out = c.allocateOutput(0, shape, dy.dtype());
  std::memset(out.raw(), 0, out.bytes());
  std::vector<int64_t> st;
  int64_t base = 0;
  readPattern(a, shape, &st, &base);
  mv::stridedCopy(dy, out, proc, mv::rowMajorStrides(proc), 0, st, base);
}

/// Indices as int64, checked against [0, limit) with TensorFlow's message.
std::vector<int64_t> readIndices(KernelContext& c, const Tensor& ind, int64_t limit) {
  std::vector<int64_t> idx = mv::indexValues(ind);
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] < 0 || idx[k] >= limit) {
      std::string pos;
      int64_t flat = static_cast<int64_t>(k);
      const std::vector<int64_t> st = mv::rowMajorStrides(ind.shape());
      for (size_t d = 0; d < st.size(); ++d) {
        if (d) pos += ",";
        pos += std::to_string(flat / st[d]);
        flat %= st[d];
      }
      c.fail("indices[" + pos + "] = " + std::to_string(idx[k]) + " is not in [0, " + std::to_string(limit) + ")");
    }
  return idx;
}


void gatherKernel(KernelContext& c) {
  const Tensor& params = c.input(0);
  const AxisView v = viewAround(c, params.shape(), c.input(2).getInt(0));
  const std::vector<int64_t> idx = readIndices(c, c.input(1), v.n);
  Tensor& out = c.allocateOutput(0);
  const int64_t m = static_cast<int64_t>(idx.size());
  if (out.numElements() == 0) return;
  mv::dispatchBySize(params.dtype(), [&](auto z) {
    using U = decltype(z);
    const U* src = static_cast<const U*>(params.raw());
    U* dst = static_cast<U*>(out.raw());
    const int64_t inner = v.inner;
    parallelFor(v.outer * m, std::max<int64_t>(1, 16384 / std::max<int64_t>(inner, 1)), [&](int64_t b, int64_t e) {
      for (int64_t u = b; u < e; ++u) {
        const int64_t o = u / m, k = u % m;
        const U* sp = src + (o * v.n + idx[static_cast<size_t>(k)]) * inner;
        U* dp = dst + u * inner;
        if (inner == 1) *dp = *sp;
        else std::memcpy(dp, sp, static_cast<size_t>(inner) * sizeof(U));
      }
    });
  });
}

void gatherGradKernel(KernelContext& c) {
  const Tensor& dy = c.input(0);
  const std::vector<int64_t> sv = c.input(2).toInt64Vector();
  const ConcreteShape shape(sv.begin(), sv.end());
  const AxisView v = viewAround(c, shape, c.input(3).getInt(0));
  const std::vector<int64_t> idx = readIndices(c, c.input(1), v.n);
  const int64_t m = static_cast<int64_t>(idx.size());
  if (dy.numElements() != v.outer * m * v.inner)
    c.fail("GatherV2Grad: grad of shape " + concreteStr(dy.shape()) + " does not match params shape " +
           concreteStr(shape) + " and " + std::to_string(m) + " indices");
  Tensor& out = c.allocateOutput(0, shape, dy.dtype());
  dispatchNumeric(dy.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    const T* g = dy.data<T>();
    std::fill(o, o + out.numElements(), T(0));
    const int64_t inner = v.inner;
    // Columns (outer, j) are independent: split them over the pool, never two threads per column.
    parallelFor(v.outer * inner, std::max<int64_t>(64, 16384 / std::max<int64_t>(m, 1)), [&](int64_t b, int64_t e) {
      for (int64_t u = b; u < e;) {
        const int64_t oi = u / inner, j0 = u % inner;
        const int64_t j1 = std::min(inner, j0 + (e - u));
        for (int64_t k = 0; k < m; ++k) {
          T* dp = o + (oi * v.n + idx[static_cast<size_t>(k)]) * inner;
          const T* gp = g + (oi * m + k) * inner;
          for (int64_t j = j0; j < j1; ++j) dp[j] += gp[j];
        }
        u += j1 - j0;
      }
    });
  });
}

}  // namespace

void registerCpuSlicingKernels(KernelRegistry& r) {
  r.add("Slice", Device::CPU, sliceKernel);
  r.add("StridedSlice", Device::CPU, stridedSliceKernel);
  r.add("StridedSliceGrad", Device::CPU, stridedSliceGradKernel);
  r.add("GatherV2", Device::CPU, gatherKernel);
  r.add("GatherV2Grad", Device::CPU, gatherGradKernel);
}

}  // namespace tlens
