// GPU kernels of the NN family: Softmax/LogSoftmax, the softmax cross entropies, pooling (NHWC),
// FusedBatchNormV3 and its gradient, and the random ops. Checks and messages match the CPU kernels;
// shapes and dtypes are the shape functions' (engine/ops/defs/), which run before every kernel,
// so the softmax and loss kernels check only what depends on values (label ranges).
#include <cassert>

#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

namespace {

template <bool Log>
void softmaxKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  const int rank = in.rank();
  const int64_t a = c.getInt("axis", -1);
  const int64_t axis = a < 0 ? a + rank : a;
  assert(rank >= 1 && axis >= 0 && axis < rank);  // softmaxShape
  Tensor& out = g.out(0);
  if (in.numElements() == 0) return;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= in.dim(i);
  for (int i = static_cast<int>(axis) + 1; i < rank; ++i) inner *= in.dim(i);
  const bool half = in.dtype() == DType::Float16;  // computed in float32, as on the CPU
  const Tensor x = half ? castTo(g, in, DType::Float32) : in;
  Tensor y = half ? g.temp(DType::Float32, in.shape()) : out;
  g.check(launchSoftmax(Log, g.et(x.dtype()), x.raw(), y.raw(), outer, in.dim(static_cast<int>(axis)), inner,
                        g.stream),
          "launchSoftmax", in.dtype());
  if (half) castInto(g, y, out);
}

void xentKernel(KernelContext& c) {
  assert(c.outputType(1).shape.rank() == 2);  // xentShape: broadcast to [batch, classes]
  Gpu g(c);
  Tensor& loss = g.out(0);
  Tensor& bp = g.out(1);
  const ConcreteShape& s = bp.shape();
  const DType ct = bp.dtype() == DType::Float16 ? DType::Float32 : bp.dtype();  // float16 runs in float32
  const Tensor f = broadcastTo(g, castTo(g, g.in(0), ct), s), l = broadcastTo(g, castTo(g, g.in(1), ct), s);
  Tensor loss2 = ct == loss.dtype() ? loss : g.temp(ct, loss.shape());
  Tensor bp2 = ct == bp.dtype() ? bp : g.temp(ct, bp.shape());
  g.check(launchSoftmaxXent(g.et(ct), f.raw(), l.raw(), loss2.raw(), bp2.raw(), s[0], s[1], g.stream),
          "launchSoftmaxXent", bp.dtype());
  if (ct != loss.dtype()) {
    castInto(g, loss2, loss);
    castInto(g, bp2, bp);
  }
}

void sparseXentKernel(KernelContext& c) {
  const Tensor& f0 = c.input(0);
  const Tensor& labels0 = c.input(1);
  // sparseXentShape: logits [batch, classes > 0], labels [batch] of int32/int64.
  assert(f0.rank() == 2 && labels0.rank() == 1 && f0.dim(0) == labels0.dim(0) && f0.dim(1) > 0);
  assert(labels0.dtype() == DType::Int32 || labels0.dtype() == DType::Int64);
  const int64_t rows = f0.dim(0), cols = f0.dim(1);
  Gpu g(c);
  Tensor& loss = g.out(0);
  Tensor& bp = g.out(1);
  const DType ct = bp.dtype() == DType::Float16 ? DType::Float32 : bp.dtype();  // float16 runs in float32
  const Tensor f = castTo(g, g.in(0), ct), labels = g.in(1);
  if (rows == 0) return;
  Tensor loss2 = ct == loss.dtype() ? loss : g.temp(ct, loss.shape());
  Tensor bp2 = ct == bp.dtype() ? bp : g.temp(ct, bp.shape());
  int* flag = g.clearedFlag();
  g.check(launchSparseXent(g.et(ct), f.raw(), labels.raw(), labels.dtype() == DType::Int64, loss2.raw(), bp2.raw(),
                           rows, cols, flag, g.stream),
          "launchSparseXent", bp.dtype());
  if (ct != loss.dtype()) {
    castInto(g, loss2, loss);
    castInto(g, bp2, bp);
  }
  if (g.flagRaised()) {  // the CPU's message, with the labels read back
    const std::vector<int64_t> lab = labels.toHost().toInt64Vector();
    for (int64_t v : lab)
      if (v < 0 || v >= cols) {
        std::string all;
        const size_t shown = std::min<size_t>(lab.size(), 1000);
        for (size_t i = 0; i < shown; ++i) all += (i ? " " : "") + std::to_string(lab[i]);
        if (shown < lab.size()) all += " ...";
        c.fail("Received a label value of " + std::to_string(v) + " which is outside the valid range of [0, " +
               std::to_string(cols) + ").  Label values: " + all);
      }
  }
}

PoolGeom poolGeom(KernelContext& c, const ConcreteShape& in, const ConcreteShape& out) {
  if (c.getString("data_format", "NHWC") != "NHWC")
    c.fail("The GPU kernel of " + c.op().type + " supports only NHWC, got data_format " +
               c.getString("data_format"),
           ErrorCode::Unimplemented);
  const std::vector<int64_t> ks = c.getInts("ksize").value_or(std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int64_t> st = c.getInts("strides").value_or(std::vector<int64_t>{1, 1, 1, 1});
  PoolGeom p{};
  p.n = in[0];
  p.h = in[1];
  p.w = in[2];
  p.c = in[3];
  p.oh = out[1];
  p.ow = out[2];
  p.kh = ks[1];
  p.kw = ks[2];
  p.sh = st[1];
  p.sw = st[2];
  if (c.getString("padding") == "SAME") {
    p.padT = std::max<int64_t>((p.oh - 1) * p.sh + p.kh - p.h, 0) / 2;
    p.padL = std::max<int64_t>((p.ow - 1) * p.sw + p.kw - p.w, 0) / 2;
  }
  return p;
}

/// float16 pools run in float32 (as on the CPU): the computation type, the input as it, and an
/// output buffer of it that `finish` converts into the real output.
struct PoolTypes {
  DType ct;
  explicit PoolTypes(DType t) : ct(t == DType::Float16 ? DType::Float32 : t) {}
  Tensor in(const Gpu& g, const Tensor& t) const { return castTo(g, t, ct); }
  Tensor out(const Gpu& g, Tensor& o) const { return o.dtype() == ct ? o : g.temp(ct, o.shape()); }
  void finish(const Gpu& g, const Tensor& tmp, Tensor& o) const {
    if (o.dtype() != ct) castInto(g, tmp, o);
  }
};

void maxPoolKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& y = g.out(0);
  const PoolTypes pt(y.dtype());
  const Tensor x = pt.in(g, g.in(0));
  Tensor y2 = pt.out(g, y);
  const PoolGeom p = poolGeom(c, x.shape(), y.shape());
  g.check(launchMaxPool(g.et(pt.ct), x.raw(), y2.raw(), p, g.stream), "launchMaxPool", y.dtype());
  pt.finish(g, y2, y);
}

void maxPoolGradKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& dx = g.out(0);
  const PoolTypes pt(dx.dtype());
  const Tensor x = pt.in(g, g.in(0)), dy = pt.in(g, g.in(2));
  Tensor dx2 = pt.out(g, dx);
  const PoolGeom p = poolGeom(c, x.shape(), dy.shape());
  if (dx.numElements() == 0) return;
  g.check(launchMaxPoolGrad(g.et(pt.ct), x.raw(), dy.raw(), dx2.raw(), p, g.stream), "launchMaxPoolGrad",
          dx.dtype());
  pt.finish(g, dx2, dx);
}

void maxPoolGradGradKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& out = g.out(0);
  const PoolTypes pt(out.dtype());
  const Tensor x = pt.in(g, g.in(0)), gin = pt.in(g, g.in(2));
  Tensor out2 = pt.out(g, out);
  const PoolGeom p = poolGeom(c, x.shape(), out.shape());
  g.check(launchMaxPoolGradGrad(g.et(pt.ct), x.raw(), gin.raw(), out2.raw(), p, g.stream), "launchMaxPoolGradGrad",
          out.dtype());
  pt.finish(g, out2, out);
}

void avgPoolKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& y = g.out(0);
  const PoolTypes pt(y.dtype());
  const Tensor x = pt.in(g, g.in(0));
  Tensor y2 = pt.out(g, y);
  const PoolGeom p = poolGeom(c, x.shape(), y.shape());
  g.check(launchAvgPool(g.et(pt.ct), x.raw(), y2.raw(), p, g.stream), "launchAvgPool", y.dtype());
  pt.finish(g, y2, y);
}

void avgPoolGradKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& dx = g.out(0);
  const PoolTypes pt(dx.dtype());
  const Tensor dy = pt.in(g, g.in(1));
  Tensor dx2 = pt.out(g, dx);
  const PoolGeom p = poolGeom(c, dx.shape(), dy.shape());
  g.check(launchAvgPoolGrad(g.et(pt.ct), dy.raw(), dx2.raw(), p, g.stream), "launchAvgPoolGrad", dx.dtype());
  pt.finish(g, dx2, dx);
}

// ---- FusedBatchNormV3 and its gradient: x as [outer, C, inner] (NHWC: [N*H*W, C, 1], NCHW:
// [N, C, H*W]), as the CPU kernels see it ----

BnLayout bnLayout(const ConcreteShape& s, bool nchw) {
  BnLayout l;
  if (s.empty()) return l;
  if (nchw && s.size() >= 3) {
    l.outer = s[0];
    l.c = s[1];
    for (size_t i = 2; i < s.size(); ++i) l.inner *= s[i];
  } else {
    l.c = s.back();
    for (size_t i = 0; i + 1 < s.size(); ++i) l.outer *= s[i];
  }
  return l;
}

void requireBnType(const Gpu& g, DType t) {
  if (t != DType::Float32 && t != DType::Float64 && t != DType::Float16) g.unsupported(t);
}

void fusedBatchNormKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0), scale = g.in(1), offset = g.in(2);
  requireBnType(g, x.dtype());
  const bool training = c.getBool("is_training", true);
  const double eps = c.getFloat("epsilon", 1e-4), factor = c.getFloat("exponential_avg_factor", 1.0);
  const BnLayout l = bnLayout(x.shape(), c.getString("data_format", "NHWC") == "NCHW");
  Tensor mean, var;
  if (!training || factor != 1.0) {  // the statistics are read
    mean = g.in(3);
    var = g.in(4);
  }
  Tensor& y = g.out(0);
  Tensor& bm = g.out(1);
  Tensor& bv = g.out(2);
  Tensor& r1 = g.out(3);
  Tensor& r2 = g.out(4);
  g.out(5);
  Tensor scratch = g.scratch(bnScratchBytes(l));
  g.check(launchBnForward(g.et(x.dtype()), x.raw(), scale.raw(), offset.raw(), mean.valid() ? mean.raw() : nullptr,
                          var.valid() ? var.raw() : nullptr, training, eps, factor, y.raw(), bm.raw(), bv.raw(),
                          r1.raw(), r2.raw(), l, scratch.raw(), g.stream),
          "launchBnForward", x.dtype());
}

void fusedBatchNormGradKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor dy = g.in(0), x = g.in(1), scale = g.in(2);
  requireBnType(g, x.dtype());
  const bool training = c.getBool("is_training", true);
  const double eps = c.getFloat("epsilon", 1e-4);
  const BnLayout l = bnLayout(x.shape(), c.getString("data_format", "NHWC") == "NCHW");
  Tensor r1, r2;
  if (!training) {  // the population statistics are read
    r1 = g.in(3);
    r2 = g.in(4);
  }
  Tensor& dx = g.out(0);
  Tensor& dScale = g.out(1);
  Tensor& dOffset = g.out(2);
  g.out(3);
  g.out(4);
  Tensor scratch = g.scratch(bnScratchBytes(l));
  g.check(launchBnGrad(g.et(x.dtype()), dy.raw(), x.raw(), scale.raw(), r1.valid() ? r1.raw() : nullptr,
                       r2.valid() ? r2.raw() : nullptr, training, eps, dx.raw(), dScale.raw(), dOffset.raw(), l,
                       scratch.raw(), g.stream),
          "launchBnGrad", x.dtype());
}

template <RandKind K>
void randomKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& out = g.out(0);
  // One 64-bit Philox key per run from the node's generator (seed/seed2 honoured, advancing
  // across runs), as the CPU kernels draw theirs; the streams themselves differ from the CPU's.
  const uint64_t key = c.rng()();
  g.check(launchRandom(K, g.et(out.dtype()), out.raw(), out.numElements(), key, g.stream), "launchRandom",
          out.dtype());
}

}  // namespace

void registerNNKernels(KernelRegistry& r) {
  const Device::Kind G = Device::GPU;
  r.add("Softmax", G, softmaxKernel<false>);
  r.add("LogSoftmax", G, softmaxKernel<true>);
  r.add("SoftmaxCrossEntropyWithLogits", G, xentKernel);
  r.add("SparseSoftmaxCrossEntropyWithLogits", G, sparseXentKernel);
  r.add("MaxPool", G, maxPoolKernel);
  r.add("MaxPoolGrad", G, maxPoolGradKernel);
  r.add("MaxPoolGradGrad", G, maxPoolGradGradKernel);
  r.add("AvgPool", G, avgPoolKernel);
  r.add("AvgPoolGrad", G, avgPoolGradKernel);
  r.add("FusedBatchNormV3", G, fusedBatchNormKernel);
  r.add("FusedBatchNormGradV3", G, fusedBatchNormGradKernel);
  r.add("RandomUniform", G, randomKernel<RandKind::Uniform>);
  r.add("RandomStandardNormal", G, randomKernel<RandKind::Normal>);
  r.add("TruncatedNormal", G, randomKernel<RandKind::TruncatedNormal>);
}

}  // namespace tlens::cuda
