// Unary math on the CPU: exponentials, logarithms, roots, trigonometric and hyperbolic functions,
// vectorised through Eigen array expressions and split over threads for large tensors. IEEE
// semantics throughout: log(0) = -inf, log(-1) = nan, sqrt(-1) = nan, NaN in -> NaN out.
// The other unary families register from here: UnaryBasicKernels.cpp (sign, rounding,
// classification) and UnaryActivationKernels.cpp (Relu ... LeakyRelu and the gradient ops).
#include <limits>
#include <type_traits>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

void registerCpuUnaryBasicKernels(KernelRegistry& r);
void registerCpuUnaryActivationKernels(KernelRegistry& r);

namespace {

/// Output 0 = f(input 0) for float32 / float64 / float16; f maps an Eigen array to an expression.
template <typename F>
void floatUnary(KernelContext& c, F f) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::unaryKernel<T>(c, f);
  });
}

void expKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return cpu::ieeeExp(x); }); }
void logKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.log(); }); }
void log1pKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.log1p(); }); }
// Eigen's vectorised float sqrt (an rsqrt estimate refined by Newton steps) gives NaN for +inf;
// IEEE (and TensorFlow) say +inf.
void sqrtKernel(KernelContext& c) {
  floatUnary(c, [](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    return (x == std::numeric_limits<S>::infinity()).select(x, x.sqrt());
  });
}
void rsqrtKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.rsqrt(); }); }
void sinKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.sin(); }); }
void cosKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.cos(); }); }
void tanhKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.tanh(); }); }
void sigmoidKernel(KernelContext& c) { floatUnary(c, [](const auto& x) { return x.logistic(); }); }

}  // namespace

void registerCpuUnaryKernels(KernelRegistry& r) {
  r.add("Exp", Device::CPU, expKernel);
  r.add("Log", Device::CPU, logKernel);
  r.add("Log1p", Device::CPU, log1pKernel);
  r.add("Sqrt", Device::CPU, sqrtKernel);
  r.add("Rsqrt", Device::CPU, rsqrtKernel);
  r.add("Sin", Device::CPU, sinKernel);
  r.add("Cos", Device::CPU, cosKernel);
  r.add("Tanh", Device::CPU, tanhKernel);
  r.add("Sigmoid", Device::CPU, sigmoidKernel);
  registerCpuUnaryBasicKernels(r);
  registerCpuUnaryActivationKernels(r);
}

}  // namespace tlens
