// Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter on cuDNN (legacy convolution API).
//
// TensorFlow's layouts are NHWC activations and HWIO filters; cuDNN runs here in NCHW/OIHW,
// the layout every cuDNN algorithm supports for float16, float32 and float64, so each call
// permutes its operands on the way in and out (one strided-copy kernel each). SAME padding with
// an odd total pads one more row/column at the bottom/right, which cuDNN's symmetric padding
// cannot express: the input is then zero-padded explicitly (fused into the layout permutation)
// and cuDNN runs unpadded. float32 convolutions use CUDNN_FMA_MATH (no TF32 tensor-core
// rounding) so that results match the CPU kernels.
//
// cuDNN is loaded with dlopen on first use (Cudnn.h). Placement asks gpuKernelUsable before it
// puts a convolution on a GPU: when cuDNN cannot be loaded the answer is no, and convolutions run
// on the CPU exactly as in a build without cuDNN. A kernel run anyway (a direct call, a
// colocation) fails with FailedPrecondition saying which library could not be loaded.
#include "engine/cuda/ConvLayout.h"
#include "engine/cuda/Cudnn.h"
#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

#ifdef TLENS_HAVE_CUDNN

namespace {

ConvGeom geometry(KernelContext& c, const ConcreteShape& in, const ConcreteShape& filter, const ConcreteShape& out) {
  if (c.getString("data_format", "NHWC") != "NHWC")
    c.fail("The GPU kernel of " + c.op().type + " supports only the NHWC format, got " + c.getString("data_format"),
           ErrorCode::Unimplemented);
  if (in[3] != filter[2])
    c.fail("The Conv2D GPU kernel does not support grouped convolutions: the input depth of " +
               std::to_string(in[3]) + " does not match the filter input depth of " + std::to_string(filter[2]),
           ErrorCode::Unimplemented);
  const std::vector<int64_t> st = c.getInts("strides").value_or(std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int64_t> di = c.getInts("dilations").value_or(std::vector<int64_t>{1, 1, 1, 1});
  ConvGeom g{};
  g.n = in[0]; g.h = in[1]; g.w = in[2]; g.c = in[3];
  g.kh = filter[0]; g.kw = filter[1]; g.o = filter[3];
  g.oh = out[1]; g.ow = out[2];
  g.sh = st[1]; g.sw = st[2]; g.dh = di[1]; g.dw = di[2];
  if (c.getString("padding") == "SAME") {
    const int64_t th = std::max<int64_t>((g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1 - g.h, 0);
    const int64_t tw = std::max<int64_t>((g.ow - 1) * g.sw + (g.kw - 1) * g.dw + 1 - g.w, 0);
    g.padT = th / 2;
    g.padB = th - g.padT;
    g.padL = tw / 2;
    g.padR = tw - g.padL;
  }
  return g;
}

class Descriptors {
 public:
  Descriptors(const Gpu& g, const CudnnApi& lib, const ConvGeom& geo, DType dt) : api(lib), g_(g) {
    chk(api.createTensorDescriptor(&x), "cudnnCreateTensorDescriptor");
    chk(api.createTensorDescriptor(&y), "cudnnCreateTensorDescriptor");
    chk(api.createFilterDescriptor(&f), "cudnnCreateFilterDescriptor");
    chk(api.createConvolutionDescriptor(&conv), "cudnnCreateConvolutionDescriptor");
    const cudnnDataType_t t = dt == DType::Float64 ? CUDNN_DATA_DOUBLE
                              : dt == DType::Float16 ? CUDNN_DATA_HALF
                                                     : CUDNN_DATA_FLOAT;
    const cudnnDataType_t compute = dt == DType::Float64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    chk(api.setTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, t, i32(geo.n), i32(geo.c), i32(geo.hp()), i32(geo.wp())),
        "cudnnSetTensor4dDescriptor (input)");
    chk(api.setFilter4dDescriptor(f, t, CUDNN_TENSOR_NCHW, i32(geo.o), i32(geo.c), i32(geo.kh), i32(geo.kw)),
        "cudnnSetFilter4dDescriptor");
    const bool sym = geo.symmetric();
    chk(api.setConvolution2dDescriptor(conv, sym ? i32(geo.padT) : 0, sym ? i32(geo.padL) : 0, i32(geo.sh),
                                       i32(geo.sw), i32(geo.dh), i32(geo.dw), CUDNN_CROSS_CORRELATION, compute),
        "cudnnSetConvolution2dDescriptor");
    if (dt == DType::Float32) chk(api.setConvolutionMathType(conv, CUDNN_FMA_MATH), "cudnnSetConvolutionMathType");
    int on = 0, oc = 0, ohh = 0, oww = 0;
    chk(api.getConvolution2dForwardOutputDim(conv, x, f, &on, &oc, &ohh, &oww),
        "cudnnGetConvolution2dForwardOutputDim");
    if (on != geo.n || oc != geo.o || ohh != geo.oh || oww != geo.ow)
      g.ctx.fail("Internal: cuDNN computes output [" + std::to_string(on) + ", " + std::to_string(ohh) + ", " +
                     std::to_string(oww) + ", " + std::to_string(oc) + "] but shape inference said [" +
                     std::to_string(geo.n) + ", " + std::to_string(geo.oh) + ", " + std::to_string(geo.ow) + ", " +
                     std::to_string(geo.o) + "]",
                 ErrorCode::Internal);
    chk(api.setTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, t, on, oc, ohh, oww), "cudnnSetTensor4dDescriptor (output)");
  }
  ~Descriptors() {
    if (conv) api.destroyConvolutionDescriptor(conv);
    if (f) api.destroyFilterDescriptor(f);
    if (y) api.destroyTensorDescriptor(y);
    if (x) api.destroyTensorDescriptor(x);
  }
  Descriptors(const Descriptors&) = delete;
  Descriptors& operator=(const Descriptors&) = delete;

  void chk(cudnnStatus_t s, const char* what) const {
    if (s != CUDNN_STATUS_SUCCESS)
      g_.ctx.fail(std::string("cuDNN error in ") + what + ": " + api.getErrorString(s),
                  s == CUDNN_STATUS_ALLOC_FAILED ? ErrorCode::ResourceExhausted
                  : s == CUDNN_STATUS_NOT_SUPPORTED ? ErrorCode::Unimplemented
                                                    : ErrorCode::Internal);
  }
  int i32(int64_t v) const {
    if (v > INT32_MAX) g_.ctx.fail("Conv2D dimension " + std::to_string(v) + " is too large for cuDNN");
    return static_cast<int>(v);
  }

  const CudnnApi& api;
  cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  cudnnFilterDescriptor_t f = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;

 private:
  const Gpu& g_;
};

/// The loaded library, or the kernel fails (FailedPrecondition) naming what could not be loaded.
const CudnnApi& library(const Gpu& g) {
  try {
    return cudnn();
  } catch (const EngineError& e) {
    g.ctx.fail(e.what(), e.code());
  }
}

cudnnHandle_t handle(const Gpu& g) {
  try {
    return dnnHandle(g.dev);
  } catch (const EngineError& e) {
    g.ctx.fail(e.what(), e.code());
  }
}

/// alpha/beta scalars: double for float64 tensors, float otherwise (cuDNN's rule).
struct Scale {
  double d1 = 1, d0 = 0;
  float f1 = 1, f0 = 0;
  const void* one(DType t) const { return t == DType::Float64 ? static_cast<const void*>(&d1) : &f1; }
  const void* zero(DType t) const { return t == DType::Float64 ? static_cast<const void*>(&d0) : &f0; }
};

/// The fastest algorithm cuDNN ranked that ran successfully and, for float32, uses no tensor-core
/// (TF32) math; the descriptor gets the algorithm's math type. -1 when none qualifies.
template <typename Perf>
int pickAlgorithm(const Perf* perf, int returned, DType dt, const Descriptors& d) {
  for (int i = 0; i < returned; ++i) {
    if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
    const bool tensorOps = perf[i].mathType == CUDNN_TENSOR_OP_MATH ||
                           perf[i].mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION;
    if (dt == DType::Float32 && tensorOps) continue;
    d.chk(d.api.setConvolutionMathType(d.conv, perf[i].mathType), "cudnnSetConvolutionMathType");
    return i;
  }
  return -1;
}

void requireFloat(const Gpu& g, DType t) {
  if (t != DType::Float32 && t != DType::Float64 && t != DType::Float16) g.unsupported(t);
}

void runCopy(const Gpu& g, const Tensor& src, Tensor& dst, const CopySpec& c) {
  stridedCopy(g, src, dst, c.sizes, c.srcStrides, c.srcBase, c.dstStrides, c.dstBase);
}

/// x (NHWC) -> NCHW, zero-padded when the geometry's padding is asymmetric.
Tensor inputToNchw(const Gpu& g, const Tensor& x, const ConvGeom& geo) {
  const int64_t Hp = geo.hp(), Wp = geo.wp();
  Tensor xp = g.temp(x.dtype(), {geo.n, geo.c, Hp, Wp});
  const bool padded = !geo.symmetric();
  if (padded) g.check(cudaMemsetAsync(xp.raw(), 0, xp.bytes(), g.stream), "cudaMemsetAsync (conv padding)");
  runCopy(g, x, xp, convlayout::inputToNchw(geo));
  return xp;
}

/// filter HWIO [kh, kw, c, o] -> OIHW [o, c, kh, kw]
Tensor filterToOihw(const Gpu& g, const Tensor& f, const ConvGeom& geo) {
  Tensor t = g.temp(f.dtype(), {geo.o, geo.c, geo.kh, geo.kw});
  runCopy(g, f, t, convlayout::filterToOihw(geo));
  return t;
}

/// dy NHWC [n, oh, ow, o] -> NCHW [n, o, oh, ow]
Tensor gradToNchw(const Gpu& g, const Tensor& dy, const ConvGeom& geo) {
  Tensor t = g.temp(dy.dtype(), {geo.n, geo.o, geo.oh, geo.ow});
  runCopy(g, dy, t, convlayout::gradToNchw(geo));
  return t;
}

void conv2dKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0), f = g.in(1);
  Tensor& out = g.out(0);
  requireFloat(g, out.dtype());
  const ConvGeom geo = geometry(c, x.shape(), f.shape(), out.shape());
  if (out.numElements() == 0) return;
  if (x.numElements() == 0 || f.numElements() == 0) {
    g.check(cudaMemsetAsync(out.raw(), 0, out.bytes(), g.stream), "cudaMemsetAsync (empty convolution)");
    return;
  }
  const CudnnApi& dnn = library(g);
  const DType dt = out.dtype();
  const Tensor xp = inputToNchw(g, x, geo), fo = filterToOihw(g, f, geo);
  Tensor yn = g.temp(dt, {geo.n, geo.o, geo.oh, geo.ow});
  Descriptors d(g, dnn, geo, dt);
  cudnnHandle_t h = handle(g);
  cudnnConvolutionFwdAlgoPerf_t perf[8];
  int returned = 0;
  d.chk(dnn.getConvolutionForwardAlgorithm_v7(h, d.x, d.f, d.conv, d.y, 8, &returned, perf),
        "cudnnGetConvolutionForwardAlgorithm_v7");
  const int pick = pickAlgorithm(perf, returned, dt, d);
  if (pick < 0) c.fail("cuDNN has no forward convolution algorithm for this configuration", ErrorCode::Unimplemented);
  size_t ws = 0;
  d.chk(dnn.getConvolutionForwardWorkspaceSize(h, d.x, d.f, d.conv, d.y, perf[pick].algo, &ws),
        "cudnnGetConvolutionForwardWorkspaceSize");
  Tensor work = ws ? g.scratch(ws) : Tensor();
  Scale s;
  d.chk(dnn.convolutionForward(h, s.one(dt), d.x, xp.raw(), d.f, fo.raw(), d.conv, perf[pick].algo,
                               ws ? work.raw() : nullptr, ws, s.zero(dt), d.y, yn.raw()),
        "cudnnConvolutionForward");
  // NCHW [n, o, oh, ow] -> NHWC
  runCopy(g, yn, out, convlayout::outputToNhwc(geo));
}

void conv2dBackpropInputKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor f = g.in(1), dy = g.in(2);
  Tensor& dx = g.out(0);
  requireFloat(g, dx.dtype());
  const ConvGeom geo = geometry(c, dx.shape(), f.shape(), dy.shape());
  if (dx.numElements() == 0) return;
  if (dy.numElements() == 0 || f.numElements() == 0) {
    g.check(cudaMemsetAsync(dx.raw(), 0, dx.bytes(), g.stream), "cudaMemsetAsync (empty convolution)");
    return;
  }
  const CudnnApi& dnn = library(g);
  const DType dt = dx.dtype();
  const Tensor fo = filterToOihw(g, f, geo), dyn = gradToNchw(g, dy, geo);
  const int64_t Hp = geo.hp(), Wp = geo.wp();
  Tensor dxp = g.temp(dt, {geo.n, geo.c, Hp, Wp});
  Descriptors d(g, dnn, geo, dt);
  cudnnHandle_t h = handle(g);
  cudnnConvolutionBwdDataAlgoPerf_t perf[8];
  int returned = 0;
  d.chk(dnn.getConvolutionBackwardDataAlgorithm_v7(h, d.f, d.y, d.conv, d.x, 8, &returned, perf),
        "cudnnGetConvolutionBackwardDataAlgorithm_v7");
  const int pick = pickAlgorithm(perf, returned, dt, d);
  if (pick < 0) c.fail("cuDNN has no backward-data convolution algorithm for this configuration", ErrorCode::Unimplemented);
  size_t ws = 0;
  d.chk(dnn.getConvolutionBackwardDataWorkspaceSize(h, d.f, d.y, d.conv, d.x, perf[pick].algo, &ws),
        "cudnnGetConvolutionBackwardDataWorkspaceSize");
  Tensor work = ws ? g.scratch(ws) : Tensor();
  Scale s;
  d.chk(dnn.convolutionBackwardData(h, s.one(dt), d.f, fo.raw(), d.y, dyn.raw(), d.conv, perf[pick].algo,
                                    ws ? work.raw() : nullptr, ws, s.zero(dt), d.x, dxp.raw()),
        "cudnnConvolutionBackwardData");
  // dxp NCHW (padded) -> dx NHWC: iterate dx's dims (n, h, w, c) reading the interior of dxp.
  runCopy(g, dxp, dx, convlayout::inputGradToNhwc(geo));
}

void conv2dBackpropFilterKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0), dy = g.in(2);
  Tensor& df = g.out(0);
  requireFloat(g, df.dtype());
  const ConvGeom geo = geometry(c, x.shape(), df.shape(), dy.shape());
  if (df.numElements() == 0) return;
  if (dy.numElements() == 0 || x.numElements() == 0) {
    g.check(cudaMemsetAsync(df.raw(), 0, df.bytes(), g.stream), "cudaMemsetAsync (empty convolution)");
    return;
  }
  const CudnnApi& dnn = library(g);
  const DType dt = df.dtype();
  const Tensor xp = inputToNchw(g, x, geo), dyn = gradToNchw(g, dy, geo);
  Tensor dfo = g.temp(dt, {geo.o, geo.c, geo.kh, geo.kw});
  Descriptors d(g, dnn, geo, dt);
  cudnnHandle_t h = handle(g);
  cudnnConvolutionBwdFilterAlgoPerf_t perf[8];
  int returned = 0;
  d.chk(dnn.getConvolutionBackwardFilterAlgorithm_v7(h, d.x, d.y, d.conv, d.f, 8, &returned, perf),
        "cudnnGetConvolutionBackwardFilterAlgorithm_v7");
  const int pick = pickAlgorithm(perf, returned, dt, d);
  if (pick < 0)
    c.fail("cuDNN has no backward-filter convolution algorithm for this configuration", ErrorCode::Unimplemented);
  size_t ws = 0;
  d.chk(dnn.getConvolutionBackwardFilterWorkspaceSize(h, d.x, d.y, d.conv, d.f, perf[pick].algo, &ws),
        "cudnnGetConvolutionBackwardFilterWorkspaceSize");
  Tensor work = ws ? g.scratch(ws) : Tensor();
  Scale s;
  d.chk(dnn.convolutionBackwardFilter(h, s.one(dt), d.x, xp.raw(), d.y, dyn.raw(), d.conv, perf[pick].algo,
                                      ws ? work.raw() : nullptr, ws, s.zero(dt), d.f, dfo.raw()),
        "cudnnConvolutionBackwardFilter");
  // OIHW [o, c, kh, kw] -> HWIO [kh, kw, c, o]
  runCopy(g, dfo, df, convlayout::filterGradToHwio(geo));
}

}  // namespace

void registerConvKernels(KernelRegistry& r) {
  r.add("Conv2D", Device::GPU, conv2dKernel);
  r.add("Conv2DBackpropInput", Device::GPU, conv2dBackpropInputKernel);
  r.add("Conv2DBackpropFilter", Device::GPU, conv2dBackpropFilterKernel);
}

bool convKernelUsable(std::string_view type) {
  if (type != "Conv2D" && type != "Conv2DBackpropInput" && type != "Conv2DBackpropFilter") return true;
  return cudnnAvailable();
}

#else

void registerConvKernels(KernelRegistry&) {}  // built without cuDNN: convolutions run on the CPU
bool convKernelUsable(std::string_view) { return true; }  // none registered: placement sees that

#endif

}  // namespace tlens::cuda
