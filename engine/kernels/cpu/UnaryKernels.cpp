// Unary math and activations on the CPU, vectorised through Eigen arrays.
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

void negKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::unaryKernel<T>(c, [](const auto& x) { return -x; });
  });
}

void squareKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::unaryKernel<T>(c, [](const auto& x) { return x * x; });
  });
}

void reluKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    // x > 0 ? x : 0 keeps NaN as NaN (NaN > 0 is false... so select NaN explicitly via x != x).
    cpu::unaryKernel<T>(c, [](const auto& x) { return (x > T(0) || x != x).select(x, T(0)); });
  });
}

void reluGradKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::binaryKernel<T, T>(c, [](T dy, T x) { return x > T(0) ? dy : T(0); });
  });
}

}  // namespace

void registerCpuUnaryKernels(KernelRegistry& r) {
  r.add("Neg", Device::CPU, negKernel);
  r.add("Square", Device::CPU, squareKernel);
  r.add("Relu", Device::CPU, reluKernel);
  r.add("ReluGrad", Device::CPU, reluGradKernel);
}

}  // namespace tlens
