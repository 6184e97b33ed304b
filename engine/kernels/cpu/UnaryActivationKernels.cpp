// Activations on the CPU (Relu, Relu6, Elu, Selu, Softplus, LeakyRelu) and the gradient ops of
// the unary family (ReluGrad ... ReciprocalGrad). Transcendental parts run as vectorised Eigen
// expressions; the piecewise parts are loops the compiler vectorises, provided both sides of a
// select are computed unconditionally (with trapping math, GCC will not if-convert a multiply
// that only one branch performs, and a mispredicted branch per element costs 10x). NaN in any
// input gives NaN out.
#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

using cpu::ArrayMap;
using cpu::ConstArrayMap;
using cpu::kElementwiseGrain;

constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;

/// out[i] = f(in[i]) with a scalar f.
template <typename T, typename F>
void mapLoop(KernelContext& c, F f) {
  Tensor& out = c.allocateOutput(0);
  const T* s = c.input(0).data<T>();
  T* d = out.data<T>();
  parallelFor(out.numElements(), kElementwiseGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] = f(s[i]);
  });
}

/// out = g(x, y) over chunks: g gets the Eigen maps of input 0, input 1 and the output chunk.
/// The shape functions merge both inputs' shapes, so they hold the same number of elements.
template <typename T, typename G>
void chunks2(KernelContext& c, G g) {
  Tensor& out = c.allocateOutput(0);
  const T* a = c.input(0).data<T>();
  const T* b = c.input(1).data<T>();
  T* o = out.data<T>();
  parallelFor(out.numElements(), kElementwiseGrain, [&](int64_t s, int64_t e) {
    ConstArrayMap<T> x(a + s, e - s), y(b + s, e - s);
    ArrayMap<T> z(o + s, e - s);
    g(x, y, z);
  });
}

/// out[i] = f(a[i], b[i]) with a scalar f.
template <typename T, typename F>
void loop2(KernelContext& c, F f) {
  chunks2<T>(c, [&](const auto& x, const auto& y, auto& z) {
    const T* pa = x.data();
    const T* pb = y.data();
    T* po = z.data();
    for (Eigen::Index i = 0; i < z.size(); ++i) po[i] = f(pa[i], pb[i]);
  });
}

// ---- forward ----

void reluKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    // !(x <= 0) keeps NaN (every comparison with NaN is false).
    mapLoop<T>(c, [](T x) { return !(x <= T(0)) ? x : T(0); });
  });
}

void relu6Kernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    mapLoop<T>(c, [](T x) { return x <= T(0) ? T(0) : (x >= T(6) ? T(6) : x); });
  });
}

/// A vectorised Eigen pass into the output, then a scalar fix-up pass over the same chunk.
template <typename T, typename E, typename Fix>
void exprThenFix(KernelContext& c, E expr, Fix fix) {
  Tensor& out = c.allocateOutput(0);
  const T* s = c.input(0).data<T>();
  T* d = out.data<T>();
  parallelFor(out.numElements(), kElementwiseGrain, [&](int64_t b, int64_t e) {
    ConstArrayMap<T> x(s + b, e - b);
    ArrayMap<T> y(d + b, e - b);
    y = expr(x);
    for (int64_t i = b; i < e; ++i) d[i] = fix(s[i], d[i]);
  });
}

void eluKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    // exp(x) - 1 as TensorFlow computes it (and several times faster than expm1).
    exprThenFix<T>(c, [](const auto& x) { return x.exp() - T(1); },
                   [](T x, T em1) { return x < T(0) ? em1 : x; });
  });
}

void seluKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    const T sa = T(kSeluScale * kSeluAlpha), sc = T(kSeluScale);
    exprThenFix<T>(c, [sa](const auto& x) { return (x.exp() - T(1)) * sa; },
                   [sc](T x, T neg) {
                     const T pos = T(x * sc);  // unconditional arithmetic: the loop vectorises
                     return x < T(0) ? neg : pos;
                   });
  });
}

void softplusKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    // Above -log(eps) - 2, log(exp(x) + 1) == x to T's precision (and exp would overflow).
    const T big = T(-(std::log(static_cast<double>(std::numeric_limits<T>::epsilon())) + 2.0));
    exprThenFix<T>(c, [](const auto& x) { return x.exp().log1p(); },
                   [big](T x, T sp) { return x > big ? x : sp; });
  });
}

void leakyReluKernel(KernelContext& c) {
  const double alpha = c.getFloat("alpha", 0.2);
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    const T a = T(alpha);
    mapLoop<T>(c, [a](T x) {
      const T neg = T(x * a);
      return x > T(0) ? x : neg;
    });
  });
}

// ---- gradients ----

void reluGradKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    loop2<T>(c, [](T dy, T x) { return x > T(0) ? dy : T(0); });
  });
}

void relu6GradKernel(KernelContext& c) {
  dispatchNumeric(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    loop2<T>(c, [](T dy, T x) { return (x > T(0) && x < T(6)) ? dy : T(0); });
  });
}

void eluGradKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    loop2<T>(c, [](T dy, T y) {
      const T neg = T(dy * (y + T(1)));
      return y < T(0) ? neg : dy;
    });
  });
}

void seluGradKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    const T sa = T(kSeluScale * kSeluAlpha), sc = T(kSeluScale);
    loop2<T>(c, [sa, sc](T dy, T y) {
      const T neg = T(dy * (y + sa)), pos = T(dy * sc);
      return y < T(0) ? neg : pos;
    });
  });
}

void softplusGradKernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    chunks2<T>(c, [](const auto& dy, const auto& x, auto& out) { out = dy / ((-x).exp() + T(1)); });
  });
}

void leakyReluGradKernel(KernelContext& c) {
  const double alpha = c.getFloat("alpha", 0.2);
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    const T a = T(alpha);
    loop2<T>(c, [a](T dy, T x) {
      const T neg = T(dy * a);
      return x > T(0) ? dy : neg;
    });
  });
}

template <typename G>
void floatGrad(KernelContext& c, G g) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    chunks2<T>(c, [&](const auto& y, const auto& dy, auto& out) { out = g(y, dy, T(0)); });
  });
}

// (y, dy) -> dy * f'(x) from the forward output y; the third argument only carries the type.
void sigmoidGradKernel(KernelContext& c) {
  floatGrad(c, [](const auto& y, const auto& dy, auto t) {
    using T = decltype(t);
    return dy * y * (T(1) - y);
  });
}
void tanhGradKernel(KernelContext& c) {
  floatGrad(c, [](const auto& y, const auto& dy, auto t) {
    using T = decltype(t);
    return dy * (T(1) - y * y);
  });
}
void sqrtGradKernel(KernelContext& c) {
  floatGrad(c, [](const auto& y, const auto& dy, auto t) {
    using T = decltype(t);
    return T(0.5) * dy / y;
  });
}
void rsqrtGradKernel(KernelContext& c) {
  floatGrad(c, [](const auto& y, const auto& dy, auto t) {
    using T = decltype(t);
    return T(-0.5) * dy * y * y * y;
  });
}
void reciprocalGradKernel(KernelContext& c) {
  floatGrad(c, [](const auto& y, const auto& dy, auto) { return -dy * y * y; });
}

}  // namespace

void registerCpuUnaryActivationKernels(KernelRegistry& r) {
  r.add("Relu", Device::CPU, reluKernel);
  r.add("Relu6", Device::CPU, relu6Kernel);
  r.add("Elu", Device::CPU, eluKernel);
  r.add("Selu", Device::CPU, seluKernel);
  r.add("Softplus", Device::CPU, softplusKernel);
  r.add("LeakyRelu", Device::CPU, leakyReluKernel);
  r.add("ReluGrad", Device::CPU, reluGradKernel);
  r.add("Relu6Grad", Device::CPU, relu6GradKernel);
  r.add("EluGrad", Device::CPU, eluGradKernel);
  r.add("SeluGrad", Device::CPU, seluGradKernel);
  r.add("SoftplusGrad", Device::CPU, softplusGradKernel);
  r.add("LeakyReluGrad", Device::CPU, leakyReluGradKernel);
  r.add("SigmoidGrad", Device::CPU, sigmoidGradKernel);
  r.add("TanhGrad", Device::CPU, tanhGradKernel);
  r.add("SqrtGrad", Device::CPU, sqrtGradKernel);
  r.add("RsqrtGrad", Device::CPU, rsqrtGradKernel);
  r.add("ReciprocalGrad", Device::CPU, reciprocalGradKernel);
}

}  // namespace tlens
