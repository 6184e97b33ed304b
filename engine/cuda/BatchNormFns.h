// The per-channel finishing of the GPU batch normalisation (the CPU's NNKernels.cpp formulas):
// from a channel's statistics (in double) to the scale/shift coefficients the kernels apply and
// the statistics outputs, forward and backward. Compiled for device and host: NN.cu runs one
// thread per channel with these; tests/cuda runs them on the host against the CPU kernels.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/cuda/IndexMath.h"

namespace tlens::cuda::bn {

#if !defined(__CUDACC__)
using std::sqrt;
#endif

/// Forward: y = x * a[k] + b[k]; r1/r2 = the batch mean and (biased) variance; bm/bv the running
/// statistics (moving averages with `factor`, variance adjusted by n / (n - 1) in training).
template <typename U>
TLENS_HD void forwardChannel(int64_t k, const U* scale, const U* offset, const U* inMean, const U* inVar,
                             bool training, double eps, double factor, double n, const double* mean,
                             const double* var, U* a, U* b, U* bm, U* bv, U* r1, U* r2) {
  const double r = 1.0 / sqrt(var[k] + eps);
  const double sc = static_cast<double>(scale[k]);
  a[k] = static_cast<U>(sc * r);
  b[k] = static_cast<U>(static_cast<double>(offset[k]) - mean[k] * sc * r);
  r1[k] = static_cast<U>(mean[k]);
  r2[k] = static_cast<U>(var[k]);
  const double adjust = n > 1 ? n / (n - 1) : 1.0;
  if (!training) {
    bm[k] = static_cast<U>(mean[k]);
    bv[k] = static_cast<U>(var[k]);
  } else if (factor == 1.0) {
    bm[k] = static_cast<U>(mean[k]);
    bv[k] = static_cast<U>(var[k] * adjust);
  } else {
    const double m0 = static_cast<double>(inMean[k]), v0 = static_cast<double>(inVar[k]);
    bm[k] = static_cast<U>((1 - factor) * m0 + factor * mean[k]);
    bv[k] = static_cast<U>((1 - factor) * v0 + factor * var[k] * adjust);
  }
}

/// Backward: dx = dy * a[k] + x * b[k] + d[k]; dScale, dOffset per channel from the sums of dy
/// and dy * x_hat.
template <typename U>
TLENS_HD void gradChannel(int64_t k, const U* scale, bool training, double eps, double n, const double* mean,
                          const double* var, const double* sumDy, const double* sumDyXh, U* a, U* b, U* d, U* dScale,
                          U* dOffset) {
  const double r = 1.0 / sqrt(var[k] + eps);
  const double g = static_cast<double>(scale[k]) * r;
  if (training) {
    const double mdy = n > 0 ? sumDy[k] / n : 0, mdx = n > 0 ? sumDyXh[k] / n : 0;
    a[k] = static_cast<U>(g);
    b[k] = static_cast<U>(-g * mdx * r);
    d[k] = static_cast<U>(-g * mdy + g * mdx * r * mean[k]);
  } else {
    a[k] = static_cast<U>(g);
    b[k] = U(0);
    d[k] = U(0);
  }
  dScale[k] = static_cast<U>(sumDyXh[k]);
  dOffset[k] = static_cast<U>(sumDy[k]);
}

}  // namespace tlens::cuda::bn
