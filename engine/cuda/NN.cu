// Softmax, LogSoftmax and the softmax cross entropies (one block per row), pooling (NHWC, one
// thread per output or input cell), random numbers (Philox4x32-10) and the optimizer updates.
// Semantics follow engine/kernels/cpu/{Softmax,Loss,Pool,Random,Optimizer}Kernels.cpp; random
// streams differ from the CPU's (a different generator), as TensorFlow's do between devices.
#include "engine/cuda/DeviceUtil.cuh"
#include "engine/cuda/BatchNormFns.h"
#include "engine/cuda/OptimizerFns.h"
#include "engine/cuda/PoolFns.h"
#include "engine/cuda/RandomFns.h"

namespace tlens::cuda {

using namespace dev;

namespace {

template <typename T>
__device__ __forceinline__ T maxNaN(T a, T b) { return (b > a || isNaN(b)) ? b : a; }
template <typename T>
__device__ __forceinline__ T negInf() { return -static_cast<T>(INFINITY); }

// ---- softmax ----

template <typename T, bool Log>
__global__ void softmaxRows(const T* __restrict__ x, T* __restrict__ y, int64_t cols) {
  const T* xr = x + blockIdx.x * cols;
  T* yr = y + blockIdx.x * cols;
  T m = negInf<T>();
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) m = maxNaN(m, xr[j]);
  m = blockReduce(m, [](T a, T b) { return maxNaN(a, b); });
  __shared__ T shared;
  if (threadIdx.x == 0) shared = m;
  __syncthreads();
  m = shared;
  T s = 0;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) s += exp(xr[j] - m);
  s = blockReduce(s, [](T a, T b) { return a + b; });
  if (threadIdx.x == 0) shared = s;
  __syncthreads();
  s = shared;
  if (Log) {
    const T ls = log(s);
    for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = (xr[j] - m) - ls;
  } else {
    for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) yr[j] = exp(xr[j] - m) / s;
  }
}

template <typename T, bool Log>
__global__ void softmaxColumns(const T* __restrict__ x, T* __restrict__ y, int64_t outer, int64_t len,
                               int64_t inner) {
  TLENS_GRID_LOOP(u, outer * inner) {
    const int64_t o = u / inner, i = u % inner;
    const T* p = x + o * len * inner + i;
    T* q = y + o * len * inner + i;
    T m = negInf<T>();
    for (int64_t a = 0; a < len; ++a) m = maxNaN(m, p[a * inner]);
    T s = 0;
    for (int64_t a = 0; a < len; ++a) s += exp(p[a * inner] - m);
    if (Log) {
      const T ls = log(s) + m;
      for (int64_t a = 0; a < len; ++a) q[a * inner] = p[a * inner] - ls;
    } else {
      for (int64_t a = 0; a < len; ++a) q[a * inner] = exp(p[a * inner] - m) / s;
    }
  }
}

// ---- cross entropies ----

template <typename T>
__global__ void xentRows(const T* __restrict__ f, const T* __restrict__ z, T* __restrict__ loss, T* __restrict__ bp,
                         int64_t cols) {
  const int64_t r = blockIdx.x;
  const T* x = f + r * cols;
  const T* l = z + r * cols;
  T* b = bp + r * cols;
  __shared__ T shared[3];
  T m = negInf<T>();
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) m = maxNaN(m, x[j]);
  m = blockReduce(m, [](T a, T c) { return maxNaN(a, c); });
  if (threadIdx.x == 0) shared[0] = m;
  __syncthreads();
  m = shared[0];
  T zy = 0, zs = 0, s = 0;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) {
    const T y = x[j] - m;
    zy += l[j] * y;
    zs += l[j];
    s += exp(y);
  }
  auto add = [](T a, T c) { return a + c; };
  zy = blockReduce(zy, add);
  zs = blockReduce(zs, add);
  s = blockReduce(s, add);
  if (threadIdx.x == 0) {
    shared[1] = s;
    loss[r] = log(s) * zs - zy;
  }
  __syncthreads();
  s = shared[1];
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) b[j] = exp(x[j] - m) / s - l[j];
}

template <typename T, typename L>
__global__ void sparseXentRows(const T* __restrict__ f, const L* __restrict__ labels, T* __restrict__ loss,
                               T* __restrict__ bp, int64_t cols, int* bad) {
  const int64_t r = blockIdx.x;
  const T* x = f + r * cols;
  T* b = bp + r * cols;
  const int64_t k = static_cast<int64_t>(labels[r]);
  if (k < 0 || k >= cols) {  // reported by the host through *bad; the row becomes NaN
    for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) b[j] = static_cast<T>(NAN);
    if (threadIdx.x == 0) {
      *bad = 1;
      loss[r] = static_cast<T>(NAN);
    }
    return;
  }
  __shared__ T shared[2];
  T m = negInf<T>();
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) m = maxNaN(m, x[j]);
  m = blockReduce(m, [](T a, T c) { return maxNaN(a, c); });
  if (threadIdx.x == 0) shared[0] = m;
  __syncthreads();
  m = shared[0];
  T s = 0;
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) s += exp(x[j] - m);
  s = blockReduce(s, [](T a, T c) { return a + c; });
  if (threadIdx.x == 0) {
    shared[1] = s;
    loss[r] = log(s) - (x[k] - m);
  }
  __syncthreads();
  s = shared[1];
  for (int64_t j = threadIdx.x; j < cols; j += blockDim.x) b[j] = exp(x[j] - m) / s - (j == k ? T(1) : T(0));
}

// ---- pooling (PoolFns.h: windows, first maxima, averages) ----

template <typename T>
__global__ void maxPoolKernel(const T* __restrict__ x, T* __restrict__ y, PoolGeom g, int64_t total) {
  TLENS_GRID_LOOP(u, total) y[u] = pool::maxAt(g, x, u);
}

template <typename T>
__global__ void maxPoolGradKernel(const T* __restrict__ x, const T* __restrict__ dy, T* __restrict__ dx, PoolGeom g,
                                  int64_t total) {
  TLENS_GRID_LOOP(u, total) {
    const int64_t a = pool::argMaxAt(g, x, u);
    if (a >= 0) atomicAdd(dx + a, dy[u]);
  }
}

template <typename T>
__global__ void maxPoolGradGradKernel(const T* __restrict__ x, const T* __restrict__ gin, T* __restrict__ out,
                                      PoolGeom g, int64_t total) {
  TLENS_GRID_LOOP(u, total) {
    const int64_t a = pool::argMaxAt(g, x, u);
    out[u] = a >= 0 ? gin[a] : T(0);
  }
}

template <typename T>
__global__ void avgPoolKernel(const T* __restrict__ x, T* __restrict__ y, PoolGeom g, int64_t total) {
  TLENS_GRID_LOOP(u, total) y[u] = pool::avgAt(g, x, u);
}

template <typename T>
__global__ void avgPoolGradKernel(const T* __restrict__ dy, T* __restrict__ dx, PoolGeom g, int64_t total) {
  TLENS_GRID_LOOP(u, total) dx[u] = pool::avgGradAt(g, dy, u);
}

// ---- random (RandomFns.h: Philox4x32-10 and the conversions) ----

template <typename T>
__global__ void randomKernel(RandKind kind, T* __restrict__ out, int64_t n, uint2 key) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  TLENS_GRID_LOOP(i, n) st(out, i, rnd::randomValue<C>(kind, static_cast<uint64_t>(i), key.x, key.y));
}

// ---- optimizers (OptimizerFns.h: TensorFlow's training_ops.cc formulas, as the CPU kernels) ----

template <typename T>
__global__ void gdKernel(T* __restrict__ w, const T* __restrict__ alpha, const T* __restrict__ d, int64_t n) {
  const T a = *alpha;
  TLENS_GRID_LOOP(i, n) opt::gradientDescent(w[i], a, d[i]);
}

template <typename T>
__global__ void momentumKernel(T* __restrict__ w, T* __restrict__ acc, const T* __restrict__ lrp,
                               const T* __restrict__ g, const T* __restrict__ mp, bool nesterov, int64_t n) {
  const T lr = *lrp, mom = *mp;
  TLENS_GRID_LOOP(i, n) opt::momentum(w[i], acc[i], lr, g[i], mom, nesterov);
}

template <typename T>
__global__ void adamKernel(T* __restrict__ w, T* __restrict__ m, T* __restrict__ v, const T* b1pp, const T* b2pp,
                           const T* lrp, const T* b1p, const T* b2p, const T* epsp, const T* __restrict__ g,
                           bool nesterov, int64_t n) {
  const T b1 = *b1p, b2 = *b2p, eps = *epsp;
  const T alpha = opt::adamAlpha(*lrp, *b1pp, *b2pp);
  TLENS_GRID_LOOP(i, n) opt::adam(w[i], m[i], v[i], alpha, b1, b2, eps, g[i], nesterov);
}

template <typename T>
__global__ void rmspropKernel(T* __restrict__ w, T* __restrict__ ms, T* __restrict__ mom, const T* lrp,
                              const T* rhop, const T* momp, const T* epsp, const T* __restrict__ g, int64_t n) {
  const T lr = *lrp, rho = *rhop, momentum = *momp, eps = *epsp;
  TLENS_GRID_LOOP(i, n) opt::rmsprop(w[i], ms[i], mom[i], lr, rho, momentum, eps, g[i]);
}

template <typename T>
__global__ void adagradKernel(T* __restrict__ w, T* __restrict__ accum, const T* lrp, const T* __restrict__ g,
                              bool updateSlots, int64_t n) {
  const T lr = *lrp;
  TLENS_GRID_LOOP(i, n) opt::adagrad(w[i], accum[i], lr, g[i], updateSlots);
}

template <typename T>
__global__ void adadeltaKernel(T* __restrict__ w, T* __restrict__ accum, T* __restrict__ accumUpdate, const T* lrp,
                               const T* rhop, const T* epsp, const T* __restrict__ g, int64_t n) {
  const T lr = *lrp, rho = *rhop, eps = *epsp;
  TLENS_GRID_LOOP(i, n) opt::adadelta(w[i], accum[i], accumUpdate[i], lr, rho, eps, g[i]);
}

// ---- batch normalisation (the CPU's NNKernels.cpp formulas; sums in double) ----

__device__ __forceinline__ int64_t bnIndex(const BnLayout& l, int64_t k, int64_t j) {
  // j-th element of channel k: j = o * inner + i
  const int64_t o = j / l.inner, i = j % l.inner;
  return (o * l.c + k) * l.inner + i;
}

/// Block k: mean and biased variance of channel k (training), or the given statistics.
template <typename T, typename U>
__global__ void bnStatsKernel(const T* __restrict__ x, const U* inMean, const U* inVar, bool training, BnLayout l,
                              double* mean, double* var) {
  const int64_t k = blockIdx.x;
  if (!training) {
    if (threadIdx.x == 0) {
      mean[k] = static_cast<double>(inMean[k]);
      var[k] = static_cast<double>(inVar[k]);
    }
    return;
  }
  const int64_t per = l.outer * l.inner;
  __shared__ double shared;
  double s = 0;
  for (int64_t j = threadIdx.x; j < per; j += blockDim.x) s += static_cast<double>(ld(x, bnIndex(l, k, j)));
  s = blockReduce(s, [](double a, double b) { return a + b; });
  if (threadIdx.x == 0) shared = per > 0 ? s / static_cast<double>(per) : 0.0;
  __syncthreads();
  const double m = shared;
  double q = 0;
  for (int64_t j = threadIdx.x; j < per; j += blockDim.x) {
    const double d = static_cast<double>(ld(x, bnIndex(l, k, j))) - m;
    q += d * d;
  }
  q = blockReduce(q, [](double a, double b) { return a + b; });
  if (threadIdx.x == 0) {
    mean[k] = m;
    var[k] = per > 0 ? q / static_cast<double>(per) : 0.0;
  }
}

template <typename U>
__global__ void bnForwardFinishKernel(const U* scale, const U* offset, const U* inMean, const U* inVar, bool training,
                                      double eps, double factor, double n, const double* mean, const double* var,
                                      U* a, U* b, U* bm, U* bv, U* r1, U* r2, int64_t c) {
  TLENS_GRID_LOOP(k, c)
  bn::forwardChannel(k, scale, offset, inMean, inVar, training, eps, factor, n, mean, var, a, b, bm, bv, r1, r2);
}

/// Block k: sum(dy) and sum(dy * (x - mean) * rstd) over channel k.
template <typename T>
__global__ void bnGradSumsKernel(const T* __restrict__ dy, const T* __restrict__ x, const double* mean,
                                 const double* var, double eps, BnLayout l, double* sumDy, double* sumDyXh) {
  const int64_t k = blockIdx.x;
  const int64_t per = l.outer * l.inner;
  const double m = mean[k], r = 1.0 / sqrt(var[k] + eps);
  double a = 0, b = 0;
  for (int64_t j = threadIdx.x; j < per; j += blockDim.x) {
    const int64_t i = bnIndex(l, k, j);
    const double g = static_cast<double>(ld(dy, i));
    a += g;
    b += g * (static_cast<double>(ld(x, i)) - m) * r;
  }
  a = blockReduce(a, [](double p, double q) { return p + q; });
  b = blockReduce(b, [](double p, double q) { return p + q; });
  if (threadIdx.x == 0) {
    sumDy[k] = a;
    sumDyXh[k] = b;
  }
}

template <typename U>
__global__ void bnGradFinishKernel(const U* scale, bool training, double eps, double n, const double* mean,
                                   const double* var, const double* sumDy, const double* sumDyXh, U* a, U* b, U* d,
                                   U* dScale, U* dOffset, int64_t c) {
  TLENS_GRID_LOOP(k, c) bn::gradChannel(k, scale, training, eps, n, mean, var, sumDy, sumDyXh, a, b, d, dScale, dOffset);
}

/// out = T(U(p) * a[k] + U(q) * b[k] + d[k]) (q may be null: no middle term).
template <typename T, typename U>
__global__ void bnApplyKernel(const T* __restrict__ p, const T* __restrict__ q, const U* a, const U* b, const U* d,
                              T* __restrict__ out, BnLayout l, int64_t n) {
  TLENS_GRID_LOOP(i, n) {
    const int64_t k = (i / l.inner) % l.c;
    U v = static_cast<U>(ld(p, i)) * a[k];
    if (q) v = v + static_cast<U>(ld(q, i)) * b[k];
    st(out, i, v + d[k]);
  }
}

template <typename F>
cudaError_t dispatchBn(ET t, F&& f) {
  switch (t) {
    case ET::F32: return f(float{}, float{});
    case ET::F64: return f(double{}, double{});
    case ET::F16: return f(__half{}, float{});
    default: return cudaErrorNotSupported;
  }
}

template <typename T>
__global__ void gemmIntKernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int64_t strideA,
                              int64_t strideB, int64_t m, int64_t n, int64_t k, bool ta, bool tb, int64_t lda,
                              int64_t ldb, int64_t total) {
  using U = std::make_unsigned_t<T>;  // wrapping arithmetic, as the CPU's two's complement
  TLENS_GRID_LOOP(u, total) {
    const int64_t j = u % n, i = (u / n) % m, bt = u / (m * n);
    const T* pa = a + bt * strideA;
    const T* pb = b + bt * strideB;
    U acc = 0;
    for (int64_t q = 0; q < k; ++q) {
      const T x = ta ? pa[q * lda + i] : pa[i * lda + q];
      const T y = tb ? pb[j * ldb + q] : pb[q * ldb + j];
      acc = static_cast<U>(acc + static_cast<U>(x) * static_cast<U>(y));
    }
    c[u] = static_cast<T>(acc);
  }
}

unsigned rowThreads(int64_t cols) { return cols >= 1024 ? 1024 : cols >= 256 ? 256 : cols > 64 ? 128 : 32; }

}  // namespace

cudaError_t launchGemmInt(ET t, const void* a, const void* b, void* c, int64_t batch, int64_t strideA,
                          int64_t strideB, int64_t m, int64_t n, int64_t k, bool ta, bool tb, int64_t lda,
                          int64_t ldb, cudaStream_t s) {
  const int64_t total = batch * m * n;
  if (total <= 0) return cudaSuccess;
  auto run = [&](auto z) {
    using T = decltype(z);
    gemmIntKernel<T><<<blocksFor(total), kThreads, 0, s>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                                           static_cast<T*>(c), strideA, strideB, m, n, k, ta, tb,
                                                           lda, ldb, total);
    return launched();
  };
  switch (t) {
    case ET::I32: return run(int32_t{});
    case ET::I64: return run(int64_t{});
    default: return cudaErrorNotSupported;
  }
}

cudaError_t launchBnForward(ET t, const void* x, const void* scale, const void* offset, const void* inMean,
                            const void* inVar, bool training, double eps, double factor, void* y, void* batchMean,
                            void* batchVar, void* r1, void* r2, const BnLayout& l, void* scratch, cudaStream_t s) {
  if (l.c <= 0) return cudaSuccess;
  return dispatchBn(t, [&](auto zt, auto zu) {
    using T = decltype(zt);
    using U = decltype(zu);
    double* mean = static_cast<double*>(scratch);
    double* var = mean + l.c;
    U* a = reinterpret_cast<U*>(var + l.c);
    U* b = reinterpret_cast<U*>(var + 2 * l.c);
    const unsigned th = rowThreads(l.outer * l.inner);
    bnStatsKernel<T, U><<<static_cast<unsigned>(l.c), th, 0, s>>>(static_cast<const T*>(x), static_cast<const U*>(inMean),
                                                                  static_cast<const U*>(inVar), training, l, mean, var);
    cudaError_t e = launched();
    if (e != cudaSuccess) return e;
    bnForwardFinishKernel<U><<<blocksFor(l.c), kThreads, 0, s>>>(
        static_cast<const U*>(scale), static_cast<const U*>(offset), static_cast<const U*>(inMean),
        static_cast<const U*>(inVar), training, eps, factor, static_cast<double>(l.outer * l.inner), mean, var, a, b,
        static_cast<U*>(batchMean), static_cast<U*>(batchVar), static_cast<U*>(r1), static_cast<U*>(r2), l.c);
    e = launched();
    const int64_t n = l.outer * l.c * l.inner;
    if (e != cudaSuccess || n <= 0) return e;
    bnApplyKernel<T, U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(x), nullptr, a, nullptr, b,
                                                          static_cast<T*>(y), l, n);
    return launched();
  });
}

cudaError_t launchBnGrad(ET t, const void* dy, const void* x, const void* scale, const void* r1, const void* r2,
                         bool training, double eps, void* dx, void* dScale, void* dOffset, const BnLayout& l,
                         void* scratch, cudaStream_t s) {
  if (l.c <= 0) return cudaSuccess;
  return dispatchBn(t, [&](auto zt, auto zu) {
    using T = decltype(zt);
    using U = decltype(zu);
    double* mean = static_cast<double*>(scratch);
    double* var = mean + l.c;
    double* sumDy = var + l.c;
    double* sumDyXh = sumDy + l.c;
    U* a = reinterpret_cast<U*>(sumDyXh + l.c);
    U* b = reinterpret_cast<U*>(sumDyXh + 2 * l.c);
    U* d = reinterpret_cast<U*>(sumDyXh + 3 * l.c);
    const unsigned th = rowThreads(l.outer * l.inner);
    bnStatsKernel<T, U><<<static_cast<unsigned>(l.c), th, 0, s>>>(static_cast<const T*>(x), static_cast<const U*>(r1),
                                                                  static_cast<const U*>(r2), training, l, mean, var);
    cudaError_t e = launched();
    if (e != cudaSuccess) return e;
    bnGradSumsKernel<T><<<static_cast<unsigned>(l.c), th, 0, s>>>(static_cast<const T*>(dy), static_cast<const T*>(x),
                                                                  mean, var, eps, l, sumDy, sumDyXh);
    if ((e = launched()) != cudaSuccess) return e;
    bnGradFinishKernel<U><<<blocksFor(l.c), kThreads, 0, s>>>(static_cast<const U*>(scale), training, eps,
                                                              static_cast<double>(l.outer * l.inner), mean, var, sumDy,
                                                              sumDyXh, a, b, d, static_cast<U*>(dScale),
                                                              static_cast<U*>(dOffset), l.c);
    if ((e = launched()) != cudaSuccess) return e;
    const int64_t n = l.outer * l.c * l.inner;
    if (n <= 0) return cudaSuccess;
    bnApplyKernel<T, U><<<blocksFor(n), kThreads, 0, s>>>(static_cast<const T*>(dy), static_cast<const T*>(x), a, b, d,
                                                          static_cast<T*>(dx), l, n);
    return launched();
  });
}

cudaError_t launchSoftmax(bool log, ET t, const void* x, void* y, int64_t outer, int64_t len, int64_t inner,
                          cudaStream_t s) {
  if (outer * len * inner <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    const T* px = static_cast<const T*>(x);
    T* py = static_cast<T*>(y);
    if (inner == 1) {
      if (log) softmaxRows<T, true><<<static_cast<unsigned>(outer), rowThreads(len), 0, s>>>(px, py, len);
      else softmaxRows<T, false><<<static_cast<unsigned>(outer), rowThreads(len), 0, s>>>(px, py, len);
    } else {
      const int64_t n = outer * inner;
      if (log) softmaxColumns<T, true><<<blocksFor(n), kThreads, 0, s>>>(px, py, outer, len, inner);
      else softmaxColumns<T, false><<<blocksFor(n), kThreads, 0, s>>>(px, py, outer, len, inner);
    }
    return launched();
  });
}

cudaError_t launchSoftmaxXent(ET t, const void* logits, const void* labels, void* loss, void* backprop, int64_t rows,
                              int64_t cols, cudaStream_t s) {
  if (rows <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    if (cols == 0) return cudaMemsetAsync(loss, 0, static_cast<size_t>(rows) * sizeof(T), s);
    xentRows<T><<<static_cast<unsigned>(rows), rowThreads(cols), 0, s>>>(
        static_cast<const T*>(logits), static_cast<const T*>(labels), static_cast<T*>(loss),
        static_cast<T*>(backprop), cols);
    return launched();
  });
}

cudaError_t launchSparseXent(ET t, const void* logits, const void* labels, bool labels64, void* loss,
                             void* backprop, int64_t rows, int64_t cols, int* bad, cudaStream_t s) {
  if (rows <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    const unsigned th = rowThreads(cols);
    if (labels64)
      sparseXentRows<T, int64_t><<<static_cast<unsigned>(rows), th, 0, s>>>(
          static_cast<const T*>(logits), static_cast<const int64_t*>(labels), static_cast<T*>(loss),
          static_cast<T*>(backprop), cols, bad);
    else
      sparseXentRows<T, int32_t><<<static_cast<unsigned>(rows), th, 0, s>>>(
          static_cast<const T*>(logits), static_cast<const int32_t*>(labels), static_cast<T*>(loss),
          static_cast<T*>(backprop), cols, bad);
    return launched();
  });
}

cudaError_t launchMaxPool(ET t, const void* x, void* y, const PoolGeom& g, cudaStream_t s) {
  const int64_t total = g.n * g.oh * g.ow * g.c;
  if (total <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    maxPoolKernel<T><<<blocksFor(total), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(y), g, total);
    return launched();
  });
}

cudaError_t launchMaxPoolGrad(ET t, const void* x, const void* dy, void* dx, const PoolGeom& g, cudaStream_t s) {
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    const int64_t inTotal = g.n * g.h * g.w * g.c, total = g.n * g.oh * g.ow * g.c;
    cudaError_t e = cudaMemsetAsync(dx, 0, static_cast<size_t>(inTotal) * sizeof(T), s);
    if (e != cudaSuccess || total <= 0) return e;
    maxPoolGradKernel<T><<<blocksFor(total), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<const T*>(dy),
                                                               static_cast<T*>(dx), g, total);
    return launched();
  });
}

cudaError_t launchMaxPoolGradGrad(ET t, const void* x, const void* gin, void* out, const PoolGeom& g, cudaStream_t s) {
  const int64_t total = g.n * g.oh * g.ow * g.c;
  if (total <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    maxPoolGradGradKernel<T><<<blocksFor(total), kThreads, 0, s>>>(
        static_cast<const T*>(x), static_cast<const T*>(gin), static_cast<T*>(out), g, total);
    return launched();
  });
}

cudaError_t launchAvgPool(ET t, const void* x, void* y, const PoolGeom& g, cudaStream_t s) {
  const int64_t total = g.n * g.oh * g.ow * g.c;
  if (total <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    avgPoolKernel<T><<<blocksFor(total), kThreads, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(y), g, total);
    return launched();
  });
}

cudaError_t launchAvgPoolGrad(ET t, const void* dy, void* dx, const PoolGeom& g, cudaStream_t s) {
  const int64_t total = g.n * g.h * g.w * g.c;
  if (total <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    avgPoolGradKernel<T><<<blocksFor(total), kThreads, 0, s>>>(static_cast<const T*>(dy), static_cast<T*>(dx), g,
                                                               total);
    return launched();
  });
}

cudaError_t launchRandom(RandKind k, ET t, void* out, int64_t n, uint64_t key, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  const uint2 kk = make_uint2(static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32));
  auto run = [&](auto z) {
    using T = decltype(z);
    randomKernel<T><<<blocksFor(n), kThreads, 0, s>>>(k, static_cast<T*>(out), n, kk);
    return launched();
  };
  switch (t) {
    case ET::F32: return run(float{});
    case ET::F64: return run(double{});
    case ET::F16: return run(__half{});
    default: return cudaErrorNotSupported;
  }
}

cudaError_t launchApplyGradientDescent(ET t, void* var, const void* alpha, const void* delta, int64_t n,
                                       cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    gdKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<T*>(var), static_cast<const T*>(alpha),
                                                  static_cast<const T*>(delta), n);
    return launched();
  });
}

cudaError_t launchApplyMomentum(ET t, void* var, void* accum, const void* lr, const void* grad, const void* momentum,
                                bool nesterov, int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    momentumKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<T*>(var), static_cast<T*>(accum),
                                                        static_cast<const T*>(lr), static_cast<const T*>(grad),
                                                        static_cast<const T*>(momentum), nesterov, n);
    return launched();
  });
}

cudaError_t launchApplyAdam(ET t, void* var, void* m, void* v, const void* b1p, const void* b2p, const void* lr,
                            const void* b1, const void* b2, const void* eps, const void* grad, bool nesterov,
                            int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    adamKernel<T><<<blocksFor(n), kThreads, 0, s>>>(
        static_cast<T*>(var), static_cast<T*>(m), static_cast<T*>(v), static_cast<const T*>(b1p),
        static_cast<const T*>(b2p), static_cast<const T*>(lr), static_cast<const T*>(b1), static_cast<const T*>(b2),
        static_cast<const T*>(eps), static_cast<const T*>(grad), nesterov, n);
    return launched();
  });
}

cudaError_t launchApplyRMSProp(ET t, void* var, void* ms, void* mom, const void* lr, const void* rho,
                               const void* momentum, const void* eps, const void* grad, int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    rmspropKernel<T><<<blocksFor(n), kThreads, 0, s>>>(
        static_cast<T*>(var), static_cast<T*>(ms), static_cast<T*>(mom), static_cast<const T*>(lr),
        static_cast<const T*>(rho), static_cast<const T*>(momentum), static_cast<const T*>(eps),
        static_cast<const T*>(grad), n);
    return launched();
  });
}

cudaError_t launchApplyAdagrad(ET t, void* var, void* accum, const void* lr, const void* grad, bool updateSlots,
                               int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    adagradKernel<T><<<blocksFor(n), kThreads, 0, s>>>(static_cast<T*>(var), static_cast<T*>(accum),
                                                       static_cast<const T*>(lr), static_cast<const T*>(grad),
                                                       updateSlots, n);
    return launched();
  });
}

cudaError_t launchApplyAdadelta(ET t, void* var, void* accum, void* accumUpdate, const void* lr, const void* rho,
                                const void* eps, const void* grad, int64_t n, cudaStream_t s) {
  if (n <= 0) return cudaSuccess;
  return dispatchFloat(t, [&](auto z) {
    using T = decltype(z);
    adadeltaKernel<T><<<blocksFor(n), kThreads, 0, s>>>(
        static_cast<T*>(var), static_cast<T*>(accum), static_cast<T*>(accumUpdate), static_cast<const T*>(lr),
        static_cast<const T*>(rho), static_cast<const T*>(eps), static_cast<const T*>(grad), n);
    return launched();
  });
}

}  // namespace tlens::cuda
