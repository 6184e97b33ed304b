// Reductions on the CPU: Sum, Mean, SumToShape, ReducedShape.
#include "engine/kernels/cpu/Reduce.h"

namespace tlens {

namespace {

void sumKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    cpu::reduce<T, A>(c.input(0), mask, out, A(0), [](A a, A x) { return a + x; });
  });
}

void meanKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), c.input(0).rank());
  const int64_t count = out.numElements() ? c.input(0).numElements() / out.numElements() : 0;
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    cpu::reduce<T, A>(c.input(0), mask, out, A(0), [](A a, A x) { return a + x; });
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.numElements(); ++i)
      p[i] = count ? static_cast<T>(static_cast<A>(p[i]) / static_cast<A>(count))
                   : static_cast<T>(std::numeric_limits<double>::quiet_NaN());
  });
}

void sumToShapeKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const std::vector<int64_t> target = c.input(1).toInt64Vector();
  const int r = in.rank();
  const int lead = r - static_cast<int>(target.size());
  if (lead < 0) c.fail("SumToShape: cannot sum " + concreteStr(in.shape()) + " to " + concreteStr(target));
  std::vector<char> mask(static_cast<size_t>(r), 0);
  for (int i = 0; i < r; ++i) {
    if (i < lead) { mask[static_cast<size_t>(i)] = 1; continue; }
    const int64_t t = target[static_cast<size_t>(i - lead)];
    const int64_t d = in.dim(i);
    if (t == 1 && d != 1) mask[static_cast<size_t>(i)] = 1;
    else if (t != d) c.fail("SumToShape: " + concreteStr(in.shape()) + " does not broadcast from " + concreteStr(target));
  }
  Tensor& out = c.allocateOutput(0, ConcreteShape(target.begin(), target.end()));
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    using A = cpu::SumAcc<T>;
    cpu::reduce<T, A>(in, mask, out, A(0), [](A a, A x) { return a + x; });
  });
}

void reducedShapeKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const Tensor& in = c.input(0);
  const std::vector<char> mask = cpu::reducedMask(c.getInts("axis"), static_cast<int>(in.numElements()));
  for (int64_t i = 0; i < in.numElements(); ++i) out.setDouble(i, mask[static_cast<size_t>(i)] ? 1.0 : in.getDouble(i));
}

}  // namespace

void registerCpuReductionKernels(KernelRegistry& r) {
  r.add("Sum", Device::CPU, sumKernel);
  r.add("Mean", Device::CPU, meanKernel);
  r.add("SumToShape", Device::CPU, sumToShapeKernel);
  r.add("ReducedShape", Device::CPU, reducedShapeKernel);
}

}  // namespace tlens
