// MaxPool, AvgPool and their gradients on the CPU (NHWC, like TensorFlow's CPU kernels). Inner
// loops run over contiguous channel vectors; work is split over (image, output row) or, for the
// scattering MaxPoolGrad, over (image, channel block).
#include <Eigen/Core>

#include <algorithm>
#include <limits>
#include <vector>

#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

struct PoolGeom {
  int64_t n, h, w, c;
  int64_t oh, ow;
  int64_t kh, kw, sh, sw;
  int64_t padT, padL;
  /// Clipped window of output (y, x): rows [h0, h1), cols [w0, w1).
  void window(int64_t y, int64_t x, int64_t& h0, int64_t& h1, int64_t& w0, int64_t& w1) const {
    h0 = y * sh - padT;
    w0 = x * sw - padL;
    h1 = std::min(h0 + kh, h);
    w1 = std::min(w0 + kw, w);
    h0 = std::max<int64_t>(h0, 0);
    w0 = std::max<int64_t>(w0, 0);
  }
};

PoolGeom poolGeom(KernelContext& ctx, const ConcreteShape& in, const ConcreteShape& out) {
  if (ctx.getString("data_format", "NHWC") != "NHWC")
    ctx.fail("Default " + std::string(ctx.op().type.rfind("Max", 0) == 0 ? "MaxPoolingOp" : "AvgPoolingOp") +
                 " only supports NHWC on device type CPU",
             ErrorCode::InvalidArgument);
  const std::vector<int64_t> ks = ctx.getInts("ksize").value_or(std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int64_t> st = ctx.getInts("strides").value_or(std::vector<int64_t>{1, 1, 1, 1});
  PoolGeom g{};
  g.n = in[0]; g.h = in[1]; g.w = in[2]; g.c = in[3];
  g.oh = out[1]; g.ow = out[2];
  g.kh = ks[1]; g.kw = ks[2]; g.sh = st[1]; g.sw = st[2];
  if (ctx.getString("padding") == "SAME") {
    g.padT = std::max<int64_t>((g.oh - 1) * g.sh + g.kh - g.h, 0) / 2;
    g.padL = std::max<int64_t>((g.ow - 1) * g.sw + g.kw - g.w, 0) / 2;
  }
  return g;
}

template <typename T>
bool isNan(T v) { return v != v; }

template <typename T>
void maxPool(const PoolGeom& g, const T* x, T* y) {
  parallelFor(g.n * g.oh, std::max<int64_t>(1, 2048 / std::max<int64_t>(g.ow * g.c, 1)), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = t / g.oh, oy = t % g.oh;
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        int64_t h0, h1, w0, w1;
        g.window(oy, ox, h0, h1, w0, w1);
        T* o = y + ((n * g.oh + oy) * g.ow + ox) * g.c;
        std::fill(o, o + g.c, T(-std::numeric_limits<float>::infinity()));
        for (int64_t i = h0; i < h1; ++i)
          for (int64_t j = w0; j < w1; ++j) {
            const T* p = x + ((n * g.h + i) * g.w + j) * g.c;
            // NaN wins and then stays (NaN > v and v > NaN are both false).
            for (int64_t k = 0; k < g.c; ++k) o[k] = (p[k] > o[k] || isNan(p[k])) ? p[k] : o[k];
          }
      }
    }
  });
}

/// One window cell against the running maxima: `best`/`arg` take `p`'s value and `pos` where it
/// is larger or NaN (the first NaN stays). Branch-free and alias-free, so it vectorises.
template <typename T>
inline void argMaxStep(const T* __restrict p, T* __restrict best, int32_t* __restrict arg, int32_t pos,
                       int64_t c) {
  for (int64_t k = 0; k < c; ++k) {
    const T v = p[k], b = best[k];
    // Bitwise on purpose (no branch: the loop vectorises): greater, or a NaN over a number.
    const bool take = static_cast<int>(v > b) | (static_cast<int>(v != v) & static_cast<int>(b == b));
    best[k] = take ? v : b;
    arg[k] = take ? pos : arg[k];
  }
}

/// For the output cells of row `oy` of image n: calls f(outIndex, inIndex) with the flat input
/// index of each window's first maximum (the first NaN, if any), per channel. `best`/`arg` are
/// scratch vectors of c elements.
template <typename T, typename F>
void forEachArgMax(const PoolGeom& g, const T* x, int64_t n, int64_t oy, std::vector<T>& best,
                   std::vector<int32_t>& arg, std::vector<int64_t>& offsets, F f) {
  for (int64_t ox = 0; ox < g.ow; ++ox) {
    int64_t h0, h1, w0, w1;
    g.window(oy, ox, h0, h1, w0, w1);
    offsets.clear();
    for (int64_t i = h0; i < h1; ++i)
      for (int64_t j = w0; j < w1; ++j) offsets.push_back(((n * g.h + i) * g.w + j) * g.c);
    if (offsets.empty()) continue;  // an empty window (cannot happen with valid attributes)
    std::copy(x + offsets[0], x + offsets[0] + g.c, best.begin());
    std::fill(arg.begin(), arg.end(), 0);
    for (size_t q = 1; q < offsets.size(); ++q)
      argMaxStep(x + offsets[q], best.data(), arg.data(), static_cast<int32_t>(q), g.c);
    const int64_t outBase = ((n * g.oh + oy) * g.ow + ox) * g.c;
    for (int64_t k = 0; k < g.c; ++k) f(outBase + k, offsets[static_cast<size_t>(arg[static_cast<size_t>(k)])] + k);
  }
}

/// Scatters dy to the window maxima. Windows that cannot overlap (stride >= window) are
/// independent, so rows run in parallel; otherwise whole images do.
template <typename T>
void maxPoolGrad(const PoolGeom& g, const T* x, const T* dy, T* dx) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const int64_t total = g.n * g.h * g.w * g.c;
  std::vector<A> buf;  // float16 accumulates in float32; float and double in dx itself
  A* acc;
  if constexpr (std::is_same_v<T, A>) {
    acc = dx;
  } else {
    buf.resize(static_cast<size_t>(total));
    acc = buf.data();
  }
  std::fill(acc, acc + total, A(0));
  const bool disjoint = g.sh >= g.kh && g.sw >= g.kw;
  const int64_t tasks = disjoint ? g.n * g.oh : g.n;
  parallelFor(tasks, 1, [&](int64_t b, int64_t e) {
    std::vector<T> best(static_cast<size_t>(g.c));
    std::vector<int32_t> arg(static_cast<size_t>(g.c));
    std::vector<int64_t> offsets;
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = disjoint ? t / g.oh : t;
      const int64_t y0 = disjoint ? t % g.oh : 0, y1 = disjoint ? y0 + 1 : g.oh;
      for (int64_t oy = y0; oy < y1; ++oy)
        forEachArgMax(g, x, n, oy, best, arg, offsets,
                      [&](int64_t o, int64_t i) { acc[i] += static_cast<A>(dy[o]); });
    }
  });
  if constexpr (!std::is_same_v<T, A>)
    parallelFor(total, 16384, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) dx[i] = static_cast<T>(acc[i]);
    });
}

template <typename T>
void maxPoolGradGrad(const PoolGeom& g, const T* x, const T* gin, T* out) {
  std::fill(out, out + g.n * g.oh * g.ow * g.c, T(0));
  parallelFor(g.n * g.oh, 1, [&](int64_t b, int64_t e) {
    std::vector<T> best(static_cast<size_t>(g.c));
    std::vector<int32_t> arg(static_cast<size_t>(g.c));
    std::vector<int64_t> offsets;
    for (int64_t t = b; t < e; ++t)
      forEachArgMax(g, x, t / g.oh, t % g.oh, best, arg, offsets, [&](int64_t o, int64_t i) { out[o] = gin[i]; });
  });
}

template <typename T>
void avgPool(const PoolGeom& g, const T* x, T* y) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  parallelFor(g.n * g.oh, std::max<int64_t>(1, 2048 / std::max<int64_t>(g.ow * g.c, 1)), [&](int64_t b, int64_t e) {
    std::vector<A> acc(static_cast<size_t>(g.c));
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = t / g.oh, oy = t % g.oh;
      for (int64_t ox = 0; ox < g.ow; ++ox) {
        int64_t h0, h1, w0, w1;
        g.window(oy, ox, h0, h1, w0, w1);
        std::fill(acc.begin(), acc.end(), A(0));
        for (int64_t i = h0; i < h1; ++i)
          for (int64_t j = w0; j < w1; ++j) {
            const T* p = x + ((n * g.h + i) * g.w + j) * g.c;
            for (int64_t k = 0; k < g.c; ++k) acc[static_cast<size_t>(k)] += static_cast<A>(p[k]);
          }
        const A inv = A(1) / static_cast<A>((h1 - h0) * (w1 - w0));
        T* o = y + ((n * g.oh + oy) * g.ow + ox) * g.c;
        for (int64_t k = 0; k < g.c; ++k) o[k] = static_cast<T>(acc[static_cast<size_t>(k)] * inv);
      }
    }
  });
}

/// Gather form: each input cell sums dy / count over the windows that contain it.
template <typename T>
void avgPoolGrad(const PoolGeom& g, const T* dy, T* dx) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  // 1 / count for every output cell.
  std::vector<A> inv(static_cast<size_t>(g.oh * g.ow));
  for (int64_t oy = 0; oy < g.oh; ++oy)
    for (int64_t ox = 0; ox < g.ow; ++ox) {
      int64_t h0, h1, w0, w1;
      g.window(oy, ox, h0, h1, w0, w1);
      inv[static_cast<size_t>(oy * g.ow + ox)] = A(1) / static_cast<A>(std::max<int64_t>((h1 - h0) * (w1 - w0), 1));
    }
  auto range = [](int64_t i, int64_t pad, int64_t k, int64_t s, int64_t outSize, int64_t& lo, int64_t& hi) {
    // Outputs o with o*s - pad <= i < o*s - pad + k.
    const int64_t a = i + pad - k + 1;
    lo = a <= 0 ? 0 : (a + s - 1) / s;
    hi = std::min(outSize, (i + pad) / s + 1);
  };
  parallelFor(g.n * g.h, std::max<int64_t>(1, 2048 / std::max<int64_t>(g.w * g.c, 1)), [&](int64_t b, int64_t e) {
    std::vector<A> acc(static_cast<size_t>(g.c));
    for (int64_t t = b; t < e; ++t) {
      const int64_t n = t / g.h, i = t % g.h;
      int64_t oy0, oy1;
      range(i, g.padT, g.kh, g.sh, g.oh, oy0, oy1);
      for (int64_t j = 0; j < g.w; ++j) {
        int64_t ox0, ox1;
        range(j, g.padL, g.kw, g.sw, g.ow, ox0, ox1);
        std::fill(acc.begin(), acc.end(), A(0));
        for (int64_t oy = oy0; oy < oy1; ++oy)
          for (int64_t ox = ox0; ox < ox1; ++ox) {
            const A s = inv[static_cast<size_t>(oy * g.ow + ox)];
            const T* p = dy + ((n * g.oh + oy) * g.ow + ox) * g.c;
            for (int64_t k = 0; k < g.c; ++k) acc[static_cast<size_t>(k)] += static_cast<A>(p[k]) * s;
          }
        T* o = dx + ((n * g.h + i) * g.w + j) * g.c;
        for (int64_t k = 0; k < g.c; ++k) o[k] = static_cast<T>(acc[static_cast<size_t>(k)]);
      }
    }
  });
}

template <typename F>
void dispatchPool(KernelContext& c, DType t, F f) {
  switch (t) {
    case DType::Float32: f(float{}); break;
    case DType::Float64: f(double{}); break;
    case DType::Float16: f(Eigen::half{}); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(t)));
  }
}

void maxPoolKernel(KernelContext& c) {
  Tensor& y = c.allocateOutput(0);
  const PoolGeom g = poolGeom(c, c.input(0).shape(), y.shape());
  dispatchPool(c, y.dtype(), [&](auto z) {
    using T = decltype(z);
    maxPool<T>(g, c.input(0).data<T>(), y.data<T>());
  });
}

void maxPoolGradKernel(KernelContext& c) {
  Tensor& dx = c.allocateOutput(0);
  const PoolGeom g = poolGeom(c, c.input(0).shape(), c.input(2).shape());
  dispatchPool(c, dx.dtype(), [&](auto z) {
    using T = decltype(z);
    maxPoolGrad<T>(g, c.input(0).data<T>(), c.input(2).data<T>(), dx.data<T>());
  });
}

void maxPoolGradGradKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const PoolGeom g = poolGeom(c, c.input(0).shape(), out.shape());
  dispatchPool(c, out.dtype(), [&](auto z) {
    using T = decltype(z);
    maxPoolGradGrad<T>(g, c.input(0).data<T>(), c.input(2).data<T>(), out.data<T>());
  });
}

void avgPoolKernel(KernelContext& c) {
  Tensor& y = c.allocateOutput(0);
  const PoolGeom g = poolGeom(c, c.input(0).shape(), y.shape());
  dispatchPool(c, y.dtype(), [&](auto z) {
    using T = decltype(z);
    avgPool<T>(g, c.input(0).data<T>(), y.data<T>());
  });
}

void avgPoolGradKernel(KernelContext& c) {
  Tensor& dx = c.allocateOutput(0);
  const PoolGeom g = poolGeom(c, dx.shape(), c.input(1).shape());
  dispatchPool(c, dx.dtype(), [&](auto z) {
    using T = decltype(z);
    avgPoolGrad<T>(g, c.input(1).data<T>(), dx.data<T>());
  });
}

}  // namespace

void registerCpuPoolKernels(KernelRegistry& r) {
  r.add("MaxPool", Device::CPU, maxPoolKernel);
  r.add("MaxPoolGrad", Device::CPU, maxPoolGradKernel);
  r.add("MaxPoolGradGrad", Device::CPU, maxPoolGradGradKernel);
  r.add("AvgPool", Device::CPU, avgPoolKernel);
  r.add("AvgPoolGrad", Device::CPU, avgPoolGradKernel);
}

}  // namespace tlens
