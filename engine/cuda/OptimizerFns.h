// The per-element optimizer updates of the GPU kernels (TensorFlow's training_ops.cc formulas, as
// engine/kernels/cpu/OptimizerKernels.cpp computes them), compiled for device and host: NN.cu
// applies them one thread per element; tests/cuda runs them on the host against the CPU kernels.
#pragma once

#include <cmath>

#include "engine/cuda/IndexMath.h"

namespace tlens::cuda::opt {

#if !defined(__CUDACC__)
using std::sqrt;
#endif

template <typename T>
TLENS_HD void gradientDescent(T& w, T alpha, T delta) {
  w -= alpha * delta;
}

template <typename T>
TLENS_HD void momentum(T& w, T& accum, T lr, T g, T mom, bool nesterov) {
  const T a = accum * mom + g;
  accum = a;
  if (nesterov) w -= g * lr + a * mom * lr;
  else w -= a * lr;
}

/// Adam's step size lr * sqrt(1 - beta2^t) / (1 - beta1^t), computed in double as the CPU does.
template <typename T>
TLENS_HD T adamAlpha(T lr, T beta1Power, T beta2Power) {
  return static_cast<T>(static_cast<double>(lr) * sqrt(1.0 - static_cast<double>(beta2Power)) /
                        (1.0 - static_cast<double>(beta1Power)));
}

template <typename T>
TLENS_HD void adam(T& w, T& m, T& v, T alpha, T b1, T b2, T eps, T g, bool nesterov) {
  const T one(1);
  const T mm = m + (g - m) * (one - b1);
  const T vv = v + (g * g - v) * (one - b2);
  m = mm;
  v = vv;
  if (nesterov) w -= ((g * (one - b1) + b1 * mm) * alpha) / (sqrt(vv) + eps);
  else w -= (mm * alpha) / (sqrt(vv) + eps);
}

template <typename T>
TLENS_HD void rmsprop(T& w, T& ms, T& mom, T lr, T rho, T momentum, T eps, T g) {
  const T one(1);
  const T s = ms + (g * g - ms) * (one - rho);
  ms = s;
  const T mo = mom * momentum + (g * lr) / sqrt(s + eps);
  mom = mo;
  w -= mo;
}

template <typename T>
TLENS_HD void adagrad(T& w, T& accum, T lr, T g, bool updateSlots) {
  if (updateSlots) accum += g * g;
  w -= g * lr / sqrt(accum);
}

template <typename T>
TLENS_HD void adadelta(T& w, T& accum, T& accumUpdate, T lr, T rho, T eps, T g) {
  const T one(1);
  const T a = accum * rho + g * g * (one - rho);
  accum = a;
  const T update = sqrt(accumUpdate + eps) / sqrt(a + eps) * g;
  accumUpdate = accumUpdate * rho + update * update * (one - rho);
  w -= update * lr;
}

}  // namespace tlens::cuda::opt
