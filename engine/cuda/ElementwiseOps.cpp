// GPU kernels of the elementwise families: unary math and activations, broadcasting binary math,
// comparisons and logical ops, the activation gradients, Cast, AddN, Select/SelectV2,
// ClipByValue, BiasAdd and the logistic loss. Checks and messages match the CPU kernels.
#include <cassert>

#include "engine/cuda/GpuKernel.h"

namespace tlens::cuda {

namespace {

template <UOp OP>
void unaryKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0);
  const DType dt = x.dtype();
  if constexpr (OP == UOp::Round || OP == UOp::Abs) {
    if (dt == DType::UInt8 || (OP == UOp::Round && isInteger(dt))) {  // already round / non-negative
      c.setOutput(0, x);
      return;
    }
  }
  if constexpr (OP == UOp::Reciprocal) {
    if (isInteger(dt) && x.numElements() > 0) {
      int* flag = g.clearedFlag();
      g.check(launchAnyZeroOrNegative(g.et(dt), x.raw(), x.numElements(), false, flag, g.stream),
              "launchAnyZeroOrNegative", dt);
      if (g.flagRaised()) c.fail("Integer division by zero");
    }
  }
  Tensor& y = g.out(0);
  const double alpha = OP == UOp::LeakyRelu ? c.getFloat("alpha", 0.2) : 0.0;
  g.check(launchUnary(OP, g.et(dt), x.raw(), y.raw(), x.numElements(), alpha, g.stream), "launchUnary", dt);
}

template <BOp OP>
void binaryKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor a = g.in(0), b = g.in(1);
  const DType dt = a.dtype();
  Tensor& out = g.out(0);
  if constexpr (OP == BOp::Div || OP == BOp::FloorDiv || OP == BOp::FloorMod || OP == BOp::Pow) {
    const bool signedInt = dt == DType::Int32 || dt == DType::Int64;
    const bool check = OP == BOp::Pow ? signedInt : isInteger(dt);
    if (check && out.numElements() > 0 && b.numElements() > 0) {
      int* flag = g.clearedFlag();
      g.check(launchAnyZeroOrNegative(g.et(dt), b.raw(), b.numElements(), OP == BOp::Pow, flag, g.stream),
              "launchAnyZeroOrNegative", dt);
      if (g.flagRaised())
        c.fail(OP == BOp::Pow ? "Integers to negative integer powers are not allowed" : "Integer division by zero");
    }
  }
  if (out.numElements() == 0) return;
  const Strided3 ix = elementwiseIndex(g, out.shape(), {&a.shape(), &b.shape()});
  const double alpha = OP == BOp::LeakyReluGrad ? c.getFloat("alpha", 0.2) : 0.0;
  g.check(launchBinary(OP, g.et(dt), a.raw(), b.raw(), out.raw(), out.numElements(), ix, alpha, g.stream),
          "launchBinary", dt);
}

void castKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0);
  const DType to = c.outputType(0).dtype;
  if (to == x.dtype()) {
    c.setOutput(0, x);
    return;
  }
  Tensor& y = g.out(0, x.shape(), to);
  g.check(launchCast(g.et(x.dtype()), g.et(to), x.raw(), y.raw(), x.numElements(), g.stream), "launchCast",
          x.dtype());
}

void addNKernel(KernelContext& c) {
  Gpu g(c);
  Tensor& out = g.out(0);
  const int64_t n = out.numElements();
  const Tensor first = g.in(0);
  if (c.numInputs() == 1) {
    g.alloc()->copyWithin(out.raw(), first.raw(), out.bytes());
    return;
  }
  Strided3 same;  // every operand has out's shape (the shape function requires it)
  for (size_t k = 1; k < c.numInputs(); ++k) {
    const Tensor x = g.in(k);
    const void* acc = k == 1 ? first.raw() : out.raw();
    g.check(launchBinary(BOp::Add, g.et(out.dtype()), acc, x.raw(), out.raw(), n, same, 0, g.stream), "launchBinary",
            out.dtype());
  }
}

void selectV2Kernel(KernelContext& c) {
  Gpu g(c);
  const Tensor cond = g.in(0), a = g.in(1), b = g.in(2);
  Tensor& out = g.out(0);
  if (out.numElements() == 0) return;
  const Strided3 ix = elementwiseIndex(g, out.shape(), {&cond.shape(), &a.shape(), &b.shape()});
  g.check(launchSelect(dtypeSize(out.dtype()), cond.raw(), a.raw(), b.raw(), out.raw(), out.numElements(), ix,
                       g.stream),
          "launchSelect", out.dtype());
}

void selectKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor& cond0 = c.input(0);
  const Tensor a = g.in(1), b = g.in(2);
  if (cond0.rank() == 0) {  // picks one whole tensor: one host read of the condition
    const bool pick = c.input(0).toHost().data<bool>()[0];
    c.setOutput(0, pick ? a : b);
    return;
  }
  const Tensor cond = g.in(0);
  Tensor& out = g.out(0);
  const int64_t n = out.numElements();
  if (n == 0) return;
  Strided3 ix;
  if (cond.rank() == 1 && a.rank() > 1) {  // one condition per row
    ix.rank = 2;
    ix.dims[0] = a.dim(0);
    ix.dims[1] = n / std::max<int64_t>(a.dim(0), 1);
    ix.mode[0] = 2;
    ix.st[0][0] = 1;
    ix.st[0][1] = 0;
  }
  g.check(launchSelect(dtypeSize(out.dtype()), cond.raw(), a.raw(), b.raw(), out.raw(), n, ix, g.stream),
          "launchSelect", out.dtype());
}

void clipByValueKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0), lo = g.in(1), hi = g.in(2);
  Tensor& out = g.out(0);
  if (out.numElements() == 0) return;
  const Strided3 ix = elementwiseIndex(g, out.shape(), {&x.shape(), &lo.shape(), &hi.shape()});
  g.check(launchClip(g.et(out.dtype()), x.raw(), lo.raw(), hi.raw(), out.raw(), out.numElements(), ix, g.stream),
          "launchClip", out.dtype());
}

void biasAddKernel(KernelContext& c) {
  Gpu g(c);
  const Tensor x = g.in(0), bias = g.in(1);
  Tensor& out = g.out(0);
  const ConcreteShape& s = out.shape();
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
  if (out.numElements() == 0) return;
  Strided3 ix;  // operand 0 (x) contiguous; operand 1 (bias) indexed by channel
  ix.rank = 3;
  ix.dims[0] = outer;
  ix.dims[1] = ch;
  ix.dims[2] = inner;
  ix.mode[1] = 2;
  ix.st[1][0] = 0;
  ix.st[1][1] = 1;
  ix.st[1][2] = 0;
  g.check(launchBinary(BOp::Add, g.et(out.dtype()), x.raw(), bias.raw(), out.raw(), out.numElements(), ix, 0,
                       g.stream),
          "launchBinary", out.dtype());
}

/// sigmoidXentShape (engine/ops/defs/LossOps.cpp), run before every kernel: labels, logits (and
/// dy) have one shape.
[[maybe_unused]] bool sameShapes(KernelContext& c, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (c.input(i).shape() != c.input(1).shape()) return false;
  return true;
}

/// float16 logistic losses run in float32, as on the CPU.
DType computeType(DType t) { return t == DType::Float16 ? DType::Float32 : t; }

void sigmoidXentKernel(KernelContext& c) {
  assert(sameShapes(c, 2));
  Gpu g(c);
  Tensor& y = g.out(0);
  const DType ct = computeType(y.dtype());
  const Tensor z = castTo(g, g.in(0), ct), x = castTo(g, g.in(1), ct);
  Tensor y2 = ct == y.dtype() ? y : g.temp(ct, y.shape());
  g.check(launchSigmoidXent(g.et(ct), z.raw(), x.raw(), y2.raw(), y.numElements(), g.stream), "launchSigmoidXent",
          y.dtype());
  if (ct != y.dtype()) castInto(g, y2, y);
}

void sigmoidXentGradKernel(KernelContext& c) {
  assert(sameShapes(c, 3));
  Gpu g(c);
  Tensor& y = g.out(0);
  const DType ct = computeType(y.dtype());
  const Tensor z = castTo(g, g.in(0), ct), x = castTo(g, g.in(1), ct), dy = castTo(g, g.in(2), ct);
  Tensor y2 = ct == y.dtype() ? y : g.temp(ct, y.shape());
  g.check(launchSigmoidXentGrad(g.et(ct), z.raw(), x.raw(), dy.raw(), y2.raw(), y.numElements(), g.stream),
          "launchSigmoidXentGrad", y.dtype());
  if (ct != y.dtype()) castInto(g, y2, y);
}

}  // namespace

void registerElementwiseKernels(KernelRegistry& r) {
  const Device::Kind G = Device::GPU;
  r.add("Neg", G, unaryKernel<UOp::Neg>);
  r.add("Abs", G, unaryKernel<UOp::Abs>);
  r.add("Sign", G, unaryKernel<UOp::Sign>);
  r.add("Square", G, unaryKernel<UOp::Square>);
  r.add("Reciprocal", G, unaryKernel<UOp::Reciprocal>);
  r.add("Floor", G, unaryKernel<UOp::Floor>);
  r.add("Ceil", G, unaryKernel<UOp::Ceil>);
  r.add("Round", G, unaryKernel<UOp::Round>);
  r.add("Exp", G, unaryKernel<UOp::Exp>);
  r.add("Log", G, unaryKernel<UOp::Log>);
  r.add("Log1p", G, unaryKernel<UOp::Log1p>);
  r.add("Sqrt", G, unaryKernel<UOp::Sqrt>);
  r.add("Rsqrt", G, unaryKernel<UOp::Rsqrt>);
  r.add("Sin", G, unaryKernel<UOp::Sin>);
  r.add("Cos", G, unaryKernel<UOp::Cos>);
  r.add("Tanh", G, unaryKernel<UOp::Tanh>);
  r.add("Sigmoid", G, unaryKernel<UOp::Sigmoid>);
  r.add("Relu", G, unaryKernel<UOp::Relu>);
  r.add("Relu6", G, unaryKernel<UOp::Relu6>);
  r.add("Elu", G, unaryKernel<UOp::Elu>);
  r.add("Selu", G, unaryKernel<UOp::Selu>);
  r.add("Softplus", G, unaryKernel<UOp::Softplus>);
  r.add("LeakyRelu", G, unaryKernel<UOp::LeakyRelu>);
  r.add("IsNan", G, unaryKernel<UOp::IsNan>);
  r.add("IsInf", G, unaryKernel<UOp::IsInf>);
  r.add("IsFinite", G, unaryKernel<UOp::IsFinite>);
  r.add("LogicalNot", G, unaryKernel<UOp::LogicalNot>);

  r.add("Add", G, binaryKernel<BOp::Add>);
  r.add("Sub", G, binaryKernel<BOp::Sub>);
  r.add("Mul", G, binaryKernel<BOp::Mul>);
  r.add("RealDiv", G, binaryKernel<BOp::Div>);
  r.add("FloorDiv", G, binaryKernel<BOp::FloorDiv>);
  r.add("FloorMod", G, binaryKernel<BOp::FloorMod>);
  r.add("Pow", G, binaryKernel<BOp::Pow>);
  r.add("Maximum", G, binaryKernel<BOp::Maximum>);
  r.add("Minimum", G, binaryKernel<BOp::Minimum>);
  r.add("SquaredDifference", G, binaryKernel<BOp::SquaredDifference>);
  r.add("Equal", G, binaryKernel<BOp::Equal>);
  r.add("NotEqual", G, binaryKernel<BOp::NotEqual>);
  r.add("Less", G, binaryKernel<BOp::Less>);
  r.add("LessEqual", G, binaryKernel<BOp::LessEqual>);
  r.add("Greater", G, binaryKernel<BOp::Greater>);
  r.add("GreaterEqual", G, binaryKernel<BOp::GreaterEqual>);
  r.add("LogicalAnd", G, binaryKernel<BOp::LogicalAnd>);
  r.add("LogicalOr", G, binaryKernel<BOp::LogicalOr>);
  r.add("ReluGrad", G, binaryKernel<BOp::ReluGrad>);
  r.add("Relu6Grad", G, binaryKernel<BOp::Relu6Grad>);
  r.add("EluGrad", G, binaryKernel<BOp::EluGrad>);
  r.add("SeluGrad", G, binaryKernel<BOp::SeluGrad>);
  r.add("SoftplusGrad", G, binaryKernel<BOp::SoftplusGrad>);
  r.add("LeakyReluGrad", G, binaryKernel<BOp::LeakyReluGrad>);
  r.add("SigmoidGrad", G, binaryKernel<BOp::SigmoidGrad>);
  r.add("TanhGrad", G, binaryKernel<BOp::TanhGrad>);
  r.add("SqrtGrad", G, binaryKernel<BOp::SqrtGrad>);
  r.add("RsqrtGrad", G, binaryKernel<BOp::RsqrtGrad>);
  r.add("ReciprocalGrad", G, binaryKernel<BOp::ReciprocalGrad>);
  r.add("Atan2", G, binaryKernel<BOp::Atan2>);

  r.add("Cast", G, castKernel);
  r.add("AddN", G, addNKernel);
  r.add("SelectV2", G, selectV2Kernel);
  r.add("Select", G, selectKernel);
  r.add("ClipByValue", G, clipByValueKernel);
  r.add("BiasAdd", G, biasAddKernel);
  r.add("SigmoidCrossEntropyWithLogits", G, sigmoidXentKernel);
  r.add("SigmoidCrossEntropyWithLogitsGrad", G, sigmoidXentGradKernel);
}

}  // namespace tlens::cuda
