// GPU kernels of the reduction family: Sum, Mean, Prod, Max, Min, Any, All (axes as attributes,
// as the CPU kernels read them), ArgMax/ArgMin, L2Loss, BiasAddGrad and the gradient helpers
// SumToShape, ReductionIndicators, ReductionProdOthers, ReducedShape.
#include "engine/kernels/KernelChecks.h"
#include "engine/ops/OpRegistry.h"
#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

namespace {

/// Copies host values into a new device output i.
void hostValuesToOutput(Gpu& g, size_t i, const Tensor& host) {
  Tensor& out = g.out(i, host.shape(), host.dtype());
  g.alloc()->copyFromHost(out.raw(), host.raw(), host.bytes());
}

template <ROp OP>
void reduceKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0);
  Tensor& y = g.out(0);
  reduceInto(g, OP, x, y, reducedMask(c.getInts("axis"), x.rank()));
}

template <bool IsMax>
void argKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  const AxisView v = argReductionView(c, in);
  Tensor& out = g.out(0);
  const int64_t outer = v.outer, inner = v.inner;
  if (out.numElements() == 0) return;
  // float16 and uint8 compare exactly after a widening cast.
  const Tensor x = in.dtype() == DType::Float16 ? castTo(g, in, DType::Float32)
                   : in.dtype() == DType::UInt8 ? castTo(g, in, DType::Int32)
                                                : in;
  g.check(launchArgReduce(IsMax, g.et(x.dtype()), x.raw(), out.raw(), out.dtype() == DType::Int64, outer,
                          v.n, inner, g.stream),
          "launchArgReduce", in.dtype());
}

void l2LossKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0);
  Tensor& y = g.out(0);
  reduceInto(g, ROp::HalfSumSquares, x, y, std::vector<char>(static_cast<size_t>(x.rank()), 1));
}

void biasAddGradKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor dy = g.in(0);
  Tensor& out = g.out(0);
  const ConcreteShape& s = dy.shape();
  const bool nchw = c.getString("data_format", "NHWC") == "NCHW";
  int64_t outer = 1, ch = 1, inner = 1;
  if (!s.empty()) {
    if (nchw && s.size() >= 3) {
      outer = s[0];
      ch = s[1];
      for (size_t i = 2; i < s.size(); ++i) inner *= s[i];
    } else {
      ch = s.back();
      for (size_t i = 0; i + 1 < s.size(); ++i) outer *= s[i];
    }
  }
  reduceInto(g, ROp::Sum, dy.reshaped({outer, ch, inner}), out, {1, 0, 1});
}

void sumToShapeKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.in(0);
  const std::vector<int64_t> target = g.hostInts(1);
  const int r = in.rank();
  const int lead = r - static_cast<int>(target.size());
  if (lead < 0) c.fail("SumToShape: cannot sum " + concreteStr(in.shape()) + " to " + concreteStr(target));
  std::vector<char> mask(static_cast<size_t>(r), 0);
  for (int i = 0; i < r; ++i) {
    if (i < lead) {
      mask[static_cast<size_t>(i)] = 1;
      continue;
    }
    const int64_t t = target[static_cast<size_t>(i - lead)];
    const int64_t d = in.dim(i);
    if (t == 1 && d != 1) mask[static_cast<size_t>(i)] = 1;
    else if (t != d)
      c.fail("SumToShape: " + concreteStr(in.shape()) + " does not broadcast from " + concreteStr(target));
  }
  Tensor& out = g.out(0, ConcreteShape(target.begin(), target.end()));
  reduceInto(g, ROp::Sum, in, out, mask);
}

void reducedShapeKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor in = g.hostInput(0);
  Tensor host(c.outputType(0).dtype, {in.numElements()});
  const std::vector<char> mask = reducedMask(c.getInts("axis"), static_cast<int>(in.numElements()));
  for (int64_t i = 0; i < in.numElements(); ++i)
    host.setDouble(i, mask[static_cast<size_t>(i)] ? 1.0 : in.getDouble(i));
  hostValuesToOutput(g, 0, host);
}

void indicatorsKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0), y = g.in(1);
  Tensor& out = g.out(0);
  const std::vector<char> mask = reducedMask(c.getInts("axis"), x.rank());
  ConcreteShape keep;
  for (int i = 0; i < x.rank(); ++i) {
    const bool red = mask[static_cast<size_t>(i)];
    keep.push_back(red ? 1 : x.dim(i));
  }
  const int64_t n = x.numElements();
  if (n == 0) return;
  const ConcreteShape keepShape = keep;
  Strided3 ix = elementwiseIndex(g, x.shape(), {&x.shape(), &keepShape});
  g.check(launchEqualMask(g.et(x.dtype()), x.raw(), y.raw(), out.raw(), n, ix, g.stream), "launchEqualMask",
          x.dtype());
  Tensor count = g.temp(x.dtype(), keepShape);
  reduceInto(g, ROp::Sum, out, count, mask);
  g.check(launchBinary(BOp::Div, g.et(x.dtype()), out.raw(), count.raw(), out.raw(), n, ix, 0, g.stream),
          "launchBinary", x.dtype());
}

void prodOthersKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0);
  Tensor& out = g.out(0);
  if (!isFloating(x.dtype()) || x.dtype() == DType::Float16) g.unsupported(x.dtype());
  const ReduceLayout l = reduceLayout(g, x.shape(), reducedMask(c.getInts("axis"), x.rank()));
  if (x.numElements() == 0) return;
  Tensor scratch = g.scratch(static_cast<size_t>(l.outN) * 16);
  g.check(launchProdOthers(g.et(x.dtype()), x.raw(), out.raw(), l, scratch.raw(), g.stream), "launchProdOthers",
          x.dtype());
}

// Shape computations the op registry keeps on the host (OpDef::cpuOnly, as TensorFlow's
// host-memory kernels): their GPU kernels stay unregistered so placement and kernels agree; they
// are kept for the day the registry moves them.
void addUnlessCpuOnly(KernelRegistry& r, const char* type, KernelFn fn) {
  if (OpRegistry::global().get(type).cpuOnly.empty()) r.add(type, Device::GPU, fn);
}

}  // namespace

void registerReductionKernels(KernelRegistry& r) {
  const Device::Kind G = Device::GPU;
  r.add("Sum", G, reduceKernel<ROp::Sum>);
  r.add("Mean", G, reduceKernel<ROp::Mean>);
  r.add("Prod", G, reduceKernel<ROp::Prod>);
  r.add("Max", G, reduceKernel<ROp::Max>);
  r.add("Min", G, reduceKernel<ROp::Min>);
  r.add("Any", G, reduceKernel<ROp::Any>);
  r.add("All", G, reduceKernel<ROp::All>);
  r.add("ArgMax", G, argKernel<true>);
  r.add("ArgMin", G, argKernel<false>);
  r.add("L2Loss", G, l2LossKernel);
  r.add("BiasAddGrad", G, biasAddGradKernel);
  r.add("SumToShape", G, sumToShapeKernel);
  addUnlessCpuOnly(r, "ReducedShape", reducedShapeKernel);
  r.add("ReductionIndicators", G, indicatorsKernel);
  r.add("ReductionProdOthers", G, prodOthersKernel);
}

}  // namespace tlens::cuda
