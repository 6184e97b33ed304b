// GPU kernels of the array, concat and slicing families: identities and reshapes (no copy),
// shapes, constants, fills, one-hot, transposes, concatenation and splits, tiles, pads, slices,
// strided slices, gathers. Small integer results (Shape, Range, ConcatOffset...) are computed on
// the host and copied to the device. Shape-like inputs (axes, sizes, paddings, perms) are read
// on the host: they arrive there (OpDef::hostInputs), or are copied there when they do not.
#include <algorithm>
#include <cmath>

#include "engine/kernels/KernelChecks.h"
#include "engine/ops/OpRegistry.h"
#include "engine/cuda/GpuKernel.h"
#include "engine/ops/defs/StridedSliceSpec.h"

namespace tlens::cuda {

namespace {

using namespace slicing;

Tensor& hostToOutput(Gpu& g, size_t i, const Tensor& host) {
  Tensor& out = g.out(i, host.shape(), host.dtype());
  g.alloc()->copyFromHost(out.raw(), host.raw(), host.bytes());
  return out;
}

std::string numStr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void identityKernel(KernelContext& c) {
  Gpu g(c);
  c.setOutput(0, g.in(0));
}

void reshapeKernel(KernelContext& c) {
  Gpu g(c);
  c.setOutput(0, g.in(0).reshaped(c.outputType(0).shape.concrete()));
}

void constKernel(KernelContext& c) {
  Gpu g(c);
  c.setOutput(0, c.getTensor("value")->copyTo(g.alloc(), c.nodeName().c_str()));
}

void placeholderKernel(KernelContext& c) {
  const TensorType& t = c.outputType(0);
  std::string shape = t.shape.rankKnown() ? t.shape.str() : "<unknown>";
  shape.erase(std::remove(shape.begin(), shape.end(), ' '), shape.end());
  std::string dt = t.dtype == DType::Float32 ? "float" : t.dtype == DType::Float64 ? "double" : std::string(dtypeName(t.dtype));
  c.fail("You must feed a value for placeholder tensor '" + c.nodeName() + "' with dtype " + dt + " and shape " +
         shape);
}

void noOpKernel(KernelContext&) {}

void shapeKernel(KernelContext& c) {
  Gpu g(c);
  const ConcreteShape& s = c.input(0).shape();
  Tensor host(c.outputType(0).dtype, {static_cast<int64_t>(s.size())});
  for (size_t i = 0; i < s.size(); ++i) host.setDouble(static_cast<int64_t>(i), static_cast<double>(s[i]));
  hostToOutput(g, 0, host);
}

void sizeKernel(KernelContext& c) {
  Gpu g(c);
  Tensor host(c.outputType(0).dtype, {});
  host.setDouble(0, static_cast<double>(c.input(0).numElements()));
  hostToOutput(g, 0, host);
}

void rankKernel(KernelContext& c) {
  Gpu g(c);
  Tensor host(c.outputType(0).dtype, {});
  host.setDouble(0, static_cast<double>(c.input(0).rank()));
  hostToOutput(g, 0, host);
}

void broadcastToKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  Tensor& out = g.out(0);
  stridedCopy(g, in, out, out.shape(), broadcastStrides(in.shape(), out.shape()), 0, rowMajorStrides(out.shape()), 0);
}

void zerosLikeKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& out = g.out(0, c.input(0).shape(), c.input(0).dtype());
  g.check(cudaMemsetAsync(out.raw(), 0, out.bytes(), g.stream), "cudaMemsetAsync (ZerosLike)");
}

void onesLikeKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& out = g.out(0, c.input(0).shape(), c.input(0).dtype());
  const Tensor one = Tensor::filled(out.dtype(), {}, 1);
  g.check(launchFill(dtypeSize(out.dtype()), out.raw(), out.numElements(), one.raw(), true, g.stream), "launchFill",
          out.dtype());
}

/// out = copies of the single element of `value` (device or host).
void fillWith(Gpu& g, Tensor& out, const Tensor& value) {
  g.check(launchFill(dtypeSize(out.dtype()), out.raw(), out.numElements(), value.raw(), value.hostAccessible(),
                     g.stream),
          "launchFill", out.dtype());
}

void fillKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor& v = c.input(1);
  Tensor& out = g.out(0);
  fillWith(g, out, v);
}

void rangeKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor s = g.hostInput(0), l = g.hostInput(1), d = g.hostInput(2);
  const DType dt = s.dtype();
  const double start = s.getDouble(0), limit = l.getDouble(0), delta = d.getDouble(0);
  if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
    c.fail("Requires start, limit and delta to be finite: " + numStr(start) + ", " + numStr(limit) + ", " +
           numStr(delta));
  if (delta == 0) c.fail("Requires delta != 0: " + numStr(delta));
  if (start > limit && delta > 0) c.fail("Requires start <= limit when delta > 0: " + numStr(start) + "/" + numStr(limit));
  if (start < limit && delta < 0) c.fail("Requires start >= limit when delta < 0: " + numStr(start) + "/" + numStr(limit));
  int64_t n;
  if (isInteger(dt)) {
    const int64_t a = s.getInt(0), b = l.getInt(0), e = d.getInt(0);
    n = (std::llabs(b - a) + std::llabs(e) - 1) / std::llabs(e);
  } else {
    const double size = std::ceil(std::fabs((limit - start) / delta));
    if (!(size < 9.0e18)) c.fail("Requires the range size to fit in int64: " + numStr(size));
    n = static_cast<int64_t>(size);
  }
  Tensor host(dt, {n});
  if (isInteger(dt)) {
    const int64_t a = s.getInt(0), e = d.getInt(0);
    for (int64_t i = 0; i < n; ++i) host.setDouble(i, static_cast<double>(a + i * e));
    if (dt == DType::Int64)
      for (int64_t i = 0; i < n; ++i) host.data<int64_t>()[i] = a + i * e;  // exact beyond 2^53
  } else {
    for (int64_t i = 0; i < n; ++i) host.setDouble(i, start + static_cast<double>(i) * delta);
  }
  hostToOutput(g, 0, host);
}

void invertPermutationKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.hostInput(0);
  const int64_t n = x.numElements();
  std::vector<int64_t> inv(static_cast<size_t>(n), -1);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t p = x.getInt(i);
    if (p < 0 || p >= n) c.fail(std::to_string(p) + " is not between 0 and " + std::to_string(n));
    if (inv[static_cast<size_t>(p)] >= 0) c.fail(std::to_string(p) + " is duplicated in the input.");
    inv[static_cast<size_t>(p)] = i;
  }
  Tensor host(c.outputType(0).dtype, {n});
  for (int64_t i = 0; i < n; ++i) host.setDouble(i, static_cast<double>(inv[static_cast<size_t>(i)]));
  hostToOutput(g, 0, host);
}

void oneHotKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor ind = g.in(0);
  const int64_t depth = g.hostInput(1).getInt(0);
  const Tensor on = g.in(2), off = g.in(3);
  if (depth < 0) c.fail("depth must be non-negative, got: " + std::to_string(depth));
  if (ind.dtype() != DType::Int32 && ind.dtype() != DType::Int64) g.unsupported(ind.dtype());
  Tensor& out = g.out(0);
  const int r = ind.rank();
  int64_t axis = c.getInt("axis", -1);
  if (axis == -1) axis = r;
  int64_t prefix = 1, suffix = 1;
  for (int i = 0; i < r; ++i) (i < axis ? prefix : suffix) *= ind.dim(i);
  g.check(launchOneHot(dtypeSize(out.dtype()), ind.raw(), ind.dtype() == DType::Int64, on.raw(), off.raw(), out.raw(),
                       prefix, depth, suffix, g.stream),
          "launchOneHot", out.dtype());
}

void transposeKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  const std::vector<int64_t> perm = g.hostInts(1);
  const int r = in.rank();
  checkPermutation(c, perm, r);
  Tensor& out = g.out(0);
  if (out.numElements() == 0) return;
  const std::vector<int64_t> inSt = rowMajorStrides(in.shape());
  std::vector<int64_t> ss;
  for (int i = 0; i < r; ++i) ss.push_back(inSt[static_cast<size_t>(perm[static_cast<size_t>(i)])]);
  stridedCopy(g, in, out, out.shape(), ss, 0, rowMajorStrides(out.shape()), 0);
}

size_t normAxis(KernelContext& c, int64_t a, int64_t rank, const char* what) {
  if (a < -rank || a >= rank)
    c.fail(std::string(what) + ": Expected axis in the range [" + std::to_string(-rank) + ", " +
           std::to_string(rank) + "), but got " + std::to_string(a));
  return static_cast<size_t>(a < 0 ? a + rank : a);
}

/// An axis attribute the shape function has checked (Pack, Unpack), made non-negative.
size_t attrAxis(int64_t a, int64_t rank) { return static_cast<size_t>(a < 0 ? a + rank : a); }

int64_t prod(const ConcreteShape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
  return p;
}

/// out row o = in_0 row o ++ in_1 row o ...: one strided copy per input.
void concatRows(Gpu& g, const std::vector<Tensor>& ins, const std::vector<int64_t>& chunks, int64_t outer, Tensor& out) {
  int64_t total = 0;
  for (int64_t ch : chunks) total += ch;
  int64_t off = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    stridedCopy(g, ins[i], out, {outer, chunks[i]}, {chunks[i], 1}, 0, {total, 1}, off);
    off += chunks[i];
  }
}

void concatKernel(KernelContext& c) {
  Gpu g(c);
  const size_t n = c.numInputs() - 1;
  Tensor& out = g.out(0);
  const int64_t rank = out.rank();
  const size_t axis = normAxis(c, g.hostInput(n).getInt(0), rank, "ConcatOp");
  const int64_t outer = prod(out.shape(), 0, axis);
  std::vector<Tensor> ins;
  std::vector<int64_t> chunks;
  for (size_t i = 0; i < n; ++i) {
    const Tensor& t = c.input(i);
    ins.push_back(g.in(i));
    chunks.push_back(prod(t.shape(), axis, t.shape().size()));
  }
  concatRows(g, ins, chunks, outer, out);
}

void concatOffsetKernel(KernelContext& c) {
  Gpu g(c);
  const size_t n = c.numInputs() - 1;
  const std::vector<int64_t> first = g.hostInts(1);
  const int64_t rank = static_cast<int64_t>(first.size());
  const size_t axis = normAxis(c, g.hostInput(0).getInt(0), rank, "ConcatOffset");
  int64_t off = 0;
  for (size_t i = 0; i < n; ++i) {
    const std::vector<int64_t> s = g.hostInts(i + 1);
    Tensor host(c.input(i + 1).dtype(), {rank});
    for (int64_t d = 0; d < rank; ++d) {
      if (static_cast<size_t>(d) != axis && s[static_cast<size_t>(d)] != first[static_cast<size_t>(d)])
        c.fail("All dimensions except " + std::to_string(axis) + " must match. Input " + std::to_string(i + 1) +
               " has shape " + concreteStr(s) + " and doesn't match input 1 with shape " + concreteStr(first) + ".");
      host.setDouble(d, static_cast<size_t>(d) == axis ? static_cast<double>(off) : 0.0);
    }
    hostToOutput(g, i, host);
    off += s[axis];
  }
}

void packKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& out = g.out(0);
  const size_t axis = attrAxis(c.getInt("axis", 0), out.rank());
  const int64_t outer = prod(out.shape(), 0, axis);
  std::vector<Tensor> ins;
  std::vector<int64_t> chunks;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    ins.push_back(g.in(i));
    chunks.push_back(outer ? c.input(i).numElements() / std::max<int64_t>(outer, 1) : 0);
  }
  concatRows(g, ins, chunks, outer, out);
}

void splitInto(Gpu& g, const Tensor& in, size_t axis) {
  KernelContext& c = g.ctx;
  const int64_t outer = prod(in.shape(), 0, axis);
  const int64_t inner = prod(in.shape(), axis + 1, in.shape().size());
  std::vector<int64_t> chunks;
  for (size_t i = 0; i < c.numOutputs(); ++i) {
    const Tensor& o = g.out(i);
    chunks.push_back(o.numElements() / std::max<int64_t>(outer, 1));
  }
  int64_t total = 0;
  for (int64_t ch : chunks) total += ch;
  if (outer > 0 && total != in.dim(static_cast<int>(axis)) * inner)
    c.fail("Internal: split sizes do not cover the input", ErrorCode::Internal);
  int64_t off = 0;
  for (size_t i = 0; i < c.numOutputs(); ++i) {
    stridedCopy(g, in, c.outputs()[i], {outer, chunks[i]}, {total, 1}, off, {chunks[i], 1}, 0);
    off += chunks[i];
  }
}

void unpackKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  splitInto(g, in, attrAxis(c.getInt("axis", 0), in.rank()));
}

void splitKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(1);
  splitInto(g, in, normAxis(c, g.hostInput(0).getInt(0), in.rank(), "Split"));
}

void splitVKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  splitInto(g, in, normAxis(c, g.hostInput(2).getInt(0), in.rank(), "SplitV"));
}

void tileKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  Tensor& out = g.out(0);
  const int r = in.rank();
  if (out.numElements() == 0) return;
  if (r == 0) {
    g.alloc()->copyWithin(out.raw(), in.raw(), in.bytes());
    return;
  }
  if (r > kMaxDims) c.fail("The GPU kernel of Tile supports at most 8 dims", ErrorCode::Unimplemented);
  g.check(launchTile(dtypeSize(in.dtype()), in.raw(), out.raw(), r, out.shape().data(), in.shape().data(),
                     out.numElements(), g.stream),
          "launchTile", in.dtype());
}

void padKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  const std::vector<int64_t> pads = g.hostInts(1);
  const int r = in.rank();
  Tensor& out = g.out(0);
  if (c.numInputs() > 2) fillWith(g, out, c.input(2));
  else g.check(cudaMemsetAsync(out.raw(), 0, out.bytes(), g.stream), "cudaMemsetAsync (Pad)");
  const std::vector<int64_t> outSt = rowMajorStrides(out.shape());
  int64_t base = 0;
  for (int i = 0; i < r; ++i) {
    if (pads[static_cast<size_t>(2 * i)] < 0 || pads[static_cast<size_t>(2 * i + 1)] < 0)
      c.fail("Paddings must be non-negative: " + std::to_string(pads[static_cast<size_t>(2 * i)]) + " " +
             std::to_string(pads[static_cast<size_t>(2 * i + 1)]));
    base += pads[static_cast<size_t>(2 * i)] * outSt[static_cast<size_t>(i)];
  }
  stridedCopy(g, in, out, in.shape(), rowMajorStrides(in.shape()), 0, outSt, base);
}

void sliceKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  const std::vector<int64_t> begin = g.hostInts(1);
  Tensor& out = g.out(0);
  const std::vector<int64_t> st = rowMajorStrides(in.shape());
  int64_t base = 0;
  for (int i = 0; i < in.rank(); ++i) {
    const int64_t b = begin[static_cast<size_t>(i)];
    if (b < 0 || b + out.dim(i) > in.dim(i))
      c.fail("Expected begin[" + std::to_string(i) + "] in [0, " + std::to_string(in.dim(i)) + "], but got " +
             std::to_string(b));
    base += b * st[static_cast<size_t>(i)];
  }
  stridedCopy(g, in, out, out.shape(), st, base, rowMajorStrides(out.shape()), 0);
}

StridedSliceAnalysis analyze(Gpu& g, const ConcreteShape& shape) {
  KernelContext& c = g.ctx;
  const std::vector<int64_t> b = g.hostInts(1), e = g.hostInts(2), s = g.hostInts(3);
  StridedSliceAnalysis a = analyzeStridedSlice(Shape::fromConcrete(shape), static_cast<int64_t>(b.size()), b, e, s,
                                               StridedSliceMasks::read(c));
  if (!a.ok()) c.fail(a.error);
  if (!a.fullyKnown()) c.fail("Internal: strided slice not resolved on concrete inputs", ErrorCode::Internal);
  return a;
}

void readPattern(const StridedSliceAnalysis& a, const ConcreteShape& shape, std::vector<int64_t>* strides,
                 int64_t* base) {
  const std::vector<int64_t> st = rowMajorStrides(shape);
  *base = 0;
  strides->clear();
  for (size_t i = 0; i < a.dims.size(); ++i) {
    strides->push_back(st[i] * a.dims[i].stride);
    *base += a.dims[i].begin * st[i];
  }
}

void stridedSliceKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  StridedSliceAnalysis a = analyze(g, in.shape());
  Tensor& out = g.out(0);
  const ConcreteShape proc = a.processingShape();
  if (numElements(proc) != out.numElements()) c.fail("Internal: strided slice size mismatch", ErrorCode::Internal);
  std::vector<int64_t> st;
  int64_t base = 0;
  readPattern(a, in.shape(), &st, &base);
  stridedCopy(g, in, out, proc, st, base, rowMajorStrides(proc), 0);
}

void stridedSliceGradKernel(KernelContext& c) {
  Gpu g(c);
  const std::vector<int64_t> sv = g.hostInts(0);
  const ConcreteShape shape(sv.begin(), sv.end());
  const Tensor dy = g.in(4);
  StridedSliceAnalysis a = analyze(g, shape);
  const ConcreteShape proc = a.processingShape();
  if (numElements(proc) != dy.numElements())
    c.fail("shape of dy was " + concreteStr(dy.shape()) + " instead of " + a.output.str());
  Tensor& out = g.out(0, shape, dy.dtype());
  g.check(cudaMemsetAsync(out.raw(), 0, out.bytes(), g.stream), "cudaMemsetAsync (StridedSliceGrad)");
  std::vector<int64_t> st;
  int64_t base = 0;
  readPattern(a, shape, &st, &base);
  stridedCopy(g, dy, out, proc, rowMajorStrides(proc), 0, st, base);
}


/// After a kernel raised the bad-index flag: the CPU's message for the first bad index.
[[noreturn]] void failBadIndex(KernelContext& c, const Tensor& ind, int64_t limit) {
  const Tensor h = ind.toHost();
  const std::vector<int64_t> idx = h.toInt64Vector();
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] < 0 || idx[k] >= limit) {
      std::string pos;
      int64_t flat = static_cast<int64_t>(k);
      const std::vector<int64_t> st = rowMajorStrides(h.shape());
      for (size_t d = 0; d < st.size(); ++d) {
        if (d) pos += ",";
        pos += std::to_string(flat / st[d]);
        flat %= st[d];
      }
      c.fail("indices[" + pos + "] = " + std::to_string(idx[k]) + " is not in [0, " + std::to_string(limit) + ")");
    }
  c.fail("Internal: an index was reported out of range but none is", ErrorCode::Internal);
}

void gatherKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor params = g.in(0), ind = g.in(1);
  const AxisView v = viewAround(c, params.shape(), g.hostInput(2).getInt(0));
  if (ind.dtype() != DType::Int32 && ind.dtype() != DType::Int64) g.unsupported(ind.dtype());
  Tensor& out = g.out(0);
  const int64_t m = ind.numElements();
  if (m == 0) return;
  int* flag = g.clearedFlag();
  g.check(launchGather(dtypeSize(params.dtype()), params.raw(), ind.raw(), ind.dtype() == DType::Int64, out.raw(),
                       v.outer, v.n, m, v.inner, flag, g.stream),
          "launchGather", params.dtype());
  if (out.numElements() > 0 && g.flagRaised()) failBadIndex(c, ind, v.n);
}

void gatherGradKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor dy = g.in(0), ind = g.in(1);
  const std::vector<int64_t> sv = g.hostInts(2);
  const ConcreteShape shape(sv.begin(), sv.end());
  const AxisView v = viewAround(c, shape, g.hostInput(3).getInt(0));
  const int64_t m = ind.numElements();
  if (dy.numElements() != v.outer * m * v.inner)
    c.fail("GatherV2Grad: grad of shape " + concreteStr(dy.shape()) + " does not match params shape " +
           concreteStr(shape) + " and " + std::to_string(m) + " indices");
  if (ind.dtype() != DType::Int32 && ind.dtype() != DType::Int64) g.unsupported(ind.dtype());
  Tensor& out = g.out(0, shape, dy.dtype());
  int* flag = g.clearedFlag();
  g.check(launchGatherGrad(g.et(dy.dtype()), dy.raw(), ind.raw(), ind.dtype() == DType::Int64, out.raw(), v.outer,
                           v.n, m, v.inner, flag, g.stream),
          "launchGatherGrad", dy.dtype());
  if (m > 0 && g.flagRaised()) failBadIndex(c, ind, v.n);
}

// Shape computations the op registry keeps on the host (OpDef::cpuOnly, as TensorFlow's
// host-memory kernels): their GPU kernels stay unregistered so placement and kernels agree; they
// are kept for the day the registry moves them.
void addUnlessCpuOnly(KernelRegistry& r, const char* type, KernelFn fn) {
  if (OpRegistry::global().get(type).cpuOnly.empty()) r.add(type, Device::GPU, fn);
}

}  // namespace

void registerMovementKernels(KernelRegistry& r) {
  const Device::Kind G = Device::GPU;
  r.add("Identity", G, identityKernel);
  r.add("StopGradient", G, identityKernel);
  r.add("Reshape", G, reshapeKernel);
  r.add("ExpandDims", G, reshapeKernel);
  r.add("Squeeze", G, reshapeKernel);
  r.add("Const", G, constKernel);
  r.add("Placeholder", G, placeholderKernel);
  r.add("NoOp", G, noOpKernel);
  addUnlessCpuOnly(r, "Shape", shapeKernel);
  addUnlessCpuOnly(r, "Size", sizeKernel);
  addUnlessCpuOnly(r, "Rank", rankKernel);
  r.add("BroadcastTo", G, broadcastToKernel);
  r.add("ZerosLike", G, zerosLikeKernel);
  r.add("OnesLike", G, onesLikeKernel);
  r.add("Fill", G, fillKernel);
  r.add("Range", G, rangeKernel);
  addUnlessCpuOnly(r, "InvertPermutation", invertPermutationKernel);
  r.add("OneHot", G, oneHotKernel);
  r.add("Transpose", G, transposeKernel);
  r.add("ConcatV2", G, concatKernel);
  addUnlessCpuOnly(r, "ConcatOffset", concatOffsetKernel);
  r.add("Pack", G, packKernel);
  r.add("Unpack", G, unpackKernel);
  r.add("Split", G, splitKernel);
  r.add("SplitV", G, splitVKernel);
  r.add("Tile", G, tileKernel);
  r.add("Pad", G, padKernel);
  r.add("PadV2", G, padKernel);
  r.add("Slice", G, sliceKernel);
  r.add("StridedSlice", G, stridedSliceKernel);
  r.add("StridedSliceGrad", G, stridedSliceGradKernel);
  r.add("GatherV2", G, gatherKernel);
  r.add("GatherV2Grad", G, gatherGradKernel);
}

}  // namespace tlens::cuda
