#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

Gpu::Gpu(KernelContext& c) : ctx(c), dev(c.device().index), stream(nullptr) {
  if (c.device().kind != Device::GPU)
    c.fail("Internal: a GPU kernel was called for " + c.device().str(), ErrorCode::Internal);
  try {
    DeviceState& st = deviceState(dev);
    useDevice(dev);
    stream = st.stream;
  } catch (const EngineError& e) {
    c.fail(e.what(), e.code());
  }
}

Tensor& Gpu::out(size_t i) {
  const TensorType& t = ctx.outputType(i);
  if (!t.shape.fullyKnown())
    ctx.fail("Internal: output " + std::to_string(i) + " of " + ctx.op().type +
                 " has no concrete shape after inference (" + t.shape.str() + ")",
             ErrorCode::Internal);
  return out(i, t.shape.concrete(), t.dtype);
}

Tensor& Gpu::out(size_t i, ConcreteShape shape, DType dtype) {
  if (dtype == DType::Invalid) dtype = ctx.outputType(i).dtype;
  ctx.setOutput(i, Tensor(dtype, std::move(shape), alloc(), ctx.nodeName().c_str()));
  return ctx.outputs()[i];
}

Tensor Gpu::in(size_t i) const {
  const Tensor& t = ctx.input(i);
  if (!t.valid() || !t.buffer() || (!t.hostAccessible() && t.device() == ctx.device())) return t;
  return t.copyTo(alloc(), ctx.nodeName().c_str());  // host memory or another device
}

Tensor Gpu::temp(DType dtype, ConcreteShape shape) const {
  return Tensor(dtype, std::move(shape), alloc(), ctx.nodeName().c_str());
}

Tensor Gpu::scratch(size_t bytes) const {
  return temp(DType::UInt8, {static_cast<int64_t>(bytes)});
}

Tensor Gpu::hostInput(size_t i) const { return ctx.input(i).toHost(); }

std::vector<int64_t> Gpu::hostInts(size_t i) const { return hostInput(i).toInt64Vector(); }

void Gpu::unsupported(DType dtype) const {
  ctx.fail(ctx.op().type + " has no GPU kernel for " + std::string(dtypeName(dtype)) +
               " (place the op on the CPU with tf.device('/cpu:0'))",
           ErrorCode::Unimplemented);
}

ET Gpu::et(DType t) const {
  switch (t) {
    case DType::Float32: return ET::F32;
    case DType::Float64: return ET::F64;
    case DType::Float16: return ET::F16;
    case DType::Int32: return ET::I32;
    case DType::Int64: return ET::I64;
    case DType::UInt8: return ET::U8;
    case DType::Bool: return ET::Bool;
    default: unsupported(t);
  }
}

void Gpu::check(cudaError_t e, const char* what, DType dtype) const {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  if (e == cudaErrorNotSupported) unsupported(dtype);
  ctx.fail(std::string("CUDA error in ") + what + ": " + cudaErrorText(e),
           e == cudaErrorMemoryAllocation ? ErrorCode::ResourceExhausted : ErrorCode::Internal);
}

void Gpu::checkBlas(cublasStatus_t s, const char* what) const {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  ctx.fail(std::string("cuBLAS error in ") + what + ": " + cublasErrorText(s),
           s == CUBLAS_STATUS_ALLOC_FAILED ? ErrorCode::ResourceExhausted : ErrorCode::Internal);
}

int* Gpu::clearedFlag() const {
  int* f = deviceState(dev).flags;
  check(cudaMemsetAsync(f, 0, sizeof(int), stream), "cudaMemsetAsync (error flag)");
  return f;
}

bool Gpu::flagRaised() const {
  int v = 0;
  check(cudaMemcpyAsync(&v, deviceState(dev).flags, sizeof(int), cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (error flag)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (error flag)");
  return v != 0;
}

Tensor castTo(const Gpu& g, const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = g.temp(dtype, t.shape());
  castInto(g, t, out);
  return out;
}

void castInto(const Gpu& g, const Tensor& src, Tensor& dst) {
  g.check(launchCast(g.et(src.dtype()), g.et(dst.dtype()), src.raw(), dst.raw(), src.numElements(), g.stream),
          "launchCast", src.dtype());
}

std::vector<int64_t> broadcastStrides(const ConcreteShape& shape, const ConcreteShape& outShape) {
  const size_t r = outShape.size(), rs = shape.size();
  std::vector<int64_t> st(r, 0);
  int64_t s = 1;
  for (size_t i = 0; i < rs && i < r; ++i) {
    const size_t d = rs - 1 - i, o = r - 1 - i;
    st[o] = shape[d] == 1 ? 0 : s;
    s *= shape[d];
  }
  return st;
}

std::vector<int64_t> rowMajorStrides(const ConcreteShape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

namespace {
/// Runs a pure builder, turning its EngineError into the node's error.
template <typename F>
auto forNode(const Gpu& g, F f) -> decltype(f()) {
  try {
    return f();
  } catch (const EngineError& e) {
    g.ctx.fail("The GPU kernel of " + g.ctx.op().type + ": " + e.what(), e.code());
  }
}
}  // namespace

Strided3 elementwiseIndex(const Gpu& g, const ConcreteShape& outShape, const std::vector<const ConcreteShape*>& ops) {
  return forNode(g, [&] { return elementwiseIndex(outShape, ops); });
}

StridedCopy makeCopy(const Gpu& g, const std::vector<int64_t>& sizes, const std::vector<int64_t>& srcStrides,
                     int64_t srcBase, const std::vector<int64_t>& dstStrides, int64_t dstBase) {
  return forNode(g, [&] { return makeCopy(sizes, srcStrides, srcBase, dstStrides, dstBase); });
}

ReduceLayout reduceLayout(const Gpu& g, const ConcreteShape& shape, const std::vector<char>& mask) {
  return forNode(g, [&] { return reduceLayout(shape, mask); });
}

Strided3 elementwiseIndex(const ConcreteShape& outShape, const std::vector<const ConcreteShape*>& ops) {
  if (ops.size() > 3) throwError(ErrorCode::Internal, "elementwiseIndex: more than 3 operands");
  Strided3 ix;
  const int64_t n = numElements(outShape);
  std::vector<std::vector<int64_t>> st;
  for (size_t k = 0; k < ops.size() && k < 3; ++k) {
    const int64_t m = numElements(*ops[k]);
    ix.mode[k] = m == n ? 0 : (m == 1 ? 1 : 2);
    st.push_back(broadcastStrides(*ops[k], outShape));
  }
  // Dims of the output (size 1 dropped), merged where every operand is contiguous across them.
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> ms(st.size());
  for (size_t d = 0; d < outShape.size(); ++d) {
    if (outShape[d] == 1) continue;
    bool merge = !dims.empty();
    for (size_t k = 0; k < st.size() && merge; ++k) merge = ms[k].back() == st[k][d] * outShape[d];
    if (merge) {
      dims.back() *= outShape[d];
      for (size_t k = 0; k < st.size(); ++k) ms[k].back() = st[k][d];
    } else {
      dims.push_back(outShape[d]);
      for (size_t k = 0; k < st.size(); ++k) ms[k].push_back(st[k][d]);
    }
  }
  bool strided = false;
  for (size_t k = 0; k < st.size(); ++k) strided = strided || ix.mode[k] == 2;
  if (!strided) return ix;
  if (dims.size() > static_cast<size_t>(kMaxDims))
    throwError(ErrorCode::Unimplemented, "broadcasting over more than " + std::to_string(kMaxDims) +
                                             " non-mergeable dims is not supported, got " + concreteStr(outShape));
  ix.rank = static_cast<int>(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    ix.dims[d] = dims[d];
    for (size_t k = 0; k < ms.size(); ++k) ix.st[k][d] = ms[k][d];
  }
  return ix;
}

StridedCopy makeCopy(const std::vector<int64_t>& sizes, const std::vector<int64_t>& srcStrides, int64_t srcBase,
                     const std::vector<int64_t>& dstStrides, int64_t dstBase) {
  std::vector<int64_t> sz, ss, ds;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 1) continue;
    if (!sz.empty() && ss.back() == srcStrides[i] * sizes[i] && ds.back() == dstStrides[i] * sizes[i]) {
      sz.back() *= sizes[i];
      ss.back() = srcStrides[i];
      ds.back() = dstStrides[i];
    } else {
      sz.push_back(sizes[i]);
      ss.push_back(srcStrides[i]);
      ds.push_back(dstStrides[i]);
    }
  }
  if (sz.size() > static_cast<size_t>(kMaxDims))
    throwError(ErrorCode::Unimplemented, "copies over more than " + std::to_string(kMaxDims) +
                                             " non-mergeable dims are not supported, got " + std::to_string(sz.size()));
  StridedCopy c;
  c.rank = static_cast<int>(sz.size());
  for (size_t i = 0; i < sz.size(); ++i) {
    c.sizes[i] = sz[i];
    c.srcStrides[i] = ss[i];
    c.dstStrides[i] = ds[i];
  }
  c.srcBase = srcBase;
  c.dstBase = dstBase;
  return c;
}

void stridedCopy(const Gpu& g, const Tensor& src, Tensor& dst, const std::vector<int64_t>& sizes,
                 const std::vector<int64_t>& srcStrides, int64_t srcBase, const std::vector<int64_t>& dstStrides,
                 int64_t dstBase) {
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  if (total <= 0) return;
  const StridedCopy c = makeCopy(g, sizes, srcStrides, srcBase, dstStrides, dstBase);
  g.check(launchStridedCopy(dtypeSize(src.dtype()), src.raw(), dst.raw(), c, g.stream), "launchStridedCopy",
          src.dtype());
}

Tensor broadcastTo(const Gpu& g, const Tensor& t, const ConcreteShape& shape) {
  if (t.shape() == shape) return t;
  Tensor out = g.temp(t.dtype(), shape);
  stridedCopy(g, t, out, shape, broadcastStrides(t.shape(), shape), 0, rowMajorStrides(shape), 0);
  return out;
}

ReduceLayout reduceLayout(const ConcreteShape& shape, const std::vector<char>& mask) {
  if (mask.size() != shape.size()) throwError(ErrorCode::Internal, "reduceLayout: mask and shape ranks differ");
  std::vector<int64_t> dims;
  std::vector<char> red;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    if (!dims.empty() && red.back() == mask[i]) {
      dims.back() *= shape[i];
    } else {
      dims.push_back(shape[i]);
      red.push_back(mask[i]);
    }
  }
  ReduceLayout l;
  int keptGroups = 0, redGroups = 0;
  for (char r : red) (r ? redGroups : keptGroups)++;
  if (keptGroups > kMaxDims || redGroups > kMaxDims)
    throwError(ErrorCode::Unimplemented, "reductions over more than " + std::to_string(kMaxDims) +
                                             " alternating kept/reduced dim groups are not supported, got shape " +
                                             concreteStr(shape));
  const std::vector<int64_t> st = rowMajorStrides(dims);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (red[i]) {
      l.redDims[l.redRank] = dims[i];
      l.redStrides[l.redRank++] = st[i];
    } else {
      l.keptDims[l.keptRank] = dims[i];
      l.keptStrides[l.keptRank++] = st[i];
    }
  }
  l.outN = 1;
  l.groupN = 1;
  for (int i = 0; i < l.keptRank; ++i) l.outN *= l.keptDims[i];
  for (int i = 0; i < l.redRank; ++i) l.groupN *= l.redDims[i];
  return l;
}

std::vector<char> reducedMask(const std::optional<std::vector<int64_t>>& axes, int rank) {
  std::vector<char> m(static_cast<size_t>(rank), axes ? 0 : 1);
  if (axes)
    for (int64_t a : *axes) {
      const int64_t n = a < 0 ? a + rank : a;
      if (n >= 0 && n < rank) m[static_cast<size_t>(n)] = 1;
    }
  return m;
}

void reduceInto(const Gpu& g, ROp op, const Tensor& x, Tensor& y, const std::vector<char>& mask) {
  if (y.numElements() == 0) return;
  if (x.dtype() == DType::Float16) {  // accumulate in float32, as the CPU does
    Tensor y32 = g.temp(DType::Float32, y.shape());
    reduceInto(g, op, castTo(g, x, DType::Float32), y32, mask);
    castInto(g, y32, y);
    return;
  }
  if (x.dtype() == DType::UInt8 && (op == ROp::Max || op == ROp::Min)) {  // exact through int32
    Tensor y32 = g.temp(DType::Int32, y.shape());
    reduceInto(g, op, castTo(g, x, DType::Int32), y32, mask);
    castInto(g, y32, y);
    return;
  }
  const ReduceLayout l = reduceLayout(g, x.shape(), mask);
  if (l.outN != y.numElements())
    g.ctx.fail("Internal: reduction of " + concreteStr(x.shape()) + " gives " + std::to_string(l.outN) +
                   " elements, output has " + std::to_string(y.numElements()),
               ErrorCode::Internal);
  const ET t = g.et(x.dtype());
  const size_t sb = reduceScratchBytes(op, t, l);
  Tensor scratch = sb ? g.scratch(sb) : Tensor();
  g.check(launchReduce(op, t, x.raw(), y.raw(), l, sb ? scratch.raw() : nullptr, g.stream), "launchReduce",
          x.dtype());
}

}  // namespace tlens::cuda
