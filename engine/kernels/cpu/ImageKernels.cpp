// ResizeBilinear, ResizeNearestNeighbor and their gradients on the CPU, with TensorFlow's sampling
// (image_resizer_state.h): scale in/out, or (in-1)/(out-1) with align_corners; the legacy scaler
// x * scale, or the half-pixel one (x + 0.5) * scale - 0.5 (bilinear) / (x + 0.5) * scale (nearest).
#include <cmath>
#include <cstring>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

float resizeScale(int64_t in, int64_t out, bool align) {
  return (align && out > 1) ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                            : static_cast<float>(in) / static_cast<float>(out);
}

struct Interp {
  int64_t lo, hi;
  float lerp;
};

/// Bilinear sample positions along one axis.
std::vector<Interp> weights(int64_t out, int64_t in, float scale, bool half) {
  std::vector<Interp> w(static_cast<size_t>(out));
  for (int64_t i = 0; i < out; ++i) {
    const float x = half ? (static_cast<float>(i) + 0.5f) * scale - 0.5f : static_cast<float>(i) * scale;
    const float f = std::floor(x);
    w[static_cast<size_t>(i)] = {std::max<int64_t>(static_cast<int64_t>(f), 0),
                                 std::min<int64_t>(static_cast<int64_t>(std::ceil(x)), in - 1), x - f};
  }
  return w;
}

/// Nearest source index along one axis.
int64_t nearest(int64_t i, int64_t in, float scale, bool align, bool half) {
  const float x = half ? (static_cast<float>(i) + 0.5f) * scale : static_cast<float>(i) * scale;
  int64_t k = std::min<int64_t>(align ? static_cast<int64_t>(std::round(x)) : static_cast<int64_t>(std::floor(x)), in - 1);
  if (half) k = std::max<int64_t>(0, k);
  return k;
}

struct Sizes {
  int64_t n, h, w, c, oh, ow;
  bool align, half;
};

Sizes sizes(KernelContext& c, const Tensor& images, int64_t oh, int64_t ow) {
  const bool align = c.getBool("align_corners", false), half = c.getBool("half_pixel_centers", false);
  return {images.dim(0), images.dim(1), images.dim(2), images.dim(3), oh, ow, align, half};
}

/// The size input (an int32 2-vector: the shape function checked that); its values are the kernel's to check.
std::pair<int64_t, int64_t> sizeInput(KernelContext& c, const Tensor& t) {
  if (t.getInt(0) <= 0 || t.getInt(1) <= 0) c.fail("output dimensions must be positive");
  return {t.getInt(0), t.getInt(1)};
}

void resizeBilinearKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const auto [oh, ow] = sizeInput(c, c.input(1));
  const Sizes s = sizes(c, x, oh, ow);
  Tensor& out = c.allocateOutput(0, {s.n, s.oh, s.ow, s.c}, DType::Float32);
  const auto ys = weights(s.oh, s.h, resizeScale(s.h, s.oh, s.align), s.half);
  const auto xs = weights(s.ow, s.w, resizeScale(s.w, s.ow, s.align), s.half);
  float* o = out.data<float>();
  dispatchNumeric(x.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* in = x.data<T>();
    parallelFor(s.n * s.oh, 1, [&](int64_t b0, int64_t b1) {
      for (int64_t row = b0; row < b1; ++row) {
        const int64_t b = row / s.oh, y = row % s.oh;
        const Interp& yi = ys[static_cast<size_t>(y)];
        const T* top = in + (b * s.h + yi.lo) * s.w * s.c;
        const T* bot = in + (b * s.h + yi.hi) * s.w * s.c;
        for (int64_t xo = 0; xo < s.ow; ++xo) {
          const Interp& xi = xs[static_cast<size_t>(xo)];
          for (int64_t ch = 0; ch < s.c; ++ch) {
            const float tl = static_cast<float>(top[xi.lo * s.c + ch]), tr = static_cast<float>(top[xi.hi * s.c + ch]);
            const float bl = static_cast<float>(bot[xi.lo * s.c + ch]), br = static_cast<float>(bot[xi.hi * s.c + ch]);
            const float t = tl + (tr - tl) * xi.lerp, bo = bl + (br - bl) * xi.lerp;
            o[((b * s.oh + y) * s.ow + xo) * s.c + ch] = t + (bo - t) * yi.lerp;
          }
        }
      }
    });
  });
}

void resizeBilinearGradKernel(KernelContext& c) {
  const Tensor& g = c.input(0);
  const Tensor& orig = c.input(1);
  const Sizes s = sizes(c, orig, g.dim(1), g.dim(2));
  Tensor& out = c.allocateOutput(0, orig.shape(), orig.dtype());
  const auto ys = weights(s.oh, s.h, resizeScale(s.h, s.oh, s.align), s.half);
  const auto xs = weights(s.ow, s.w, resizeScale(s.w, s.ow, s.align), s.half);
  std::vector<double> acc(static_cast<size_t>(out.numElements()), 0.0);
  const float* gp = g.data<float>();
  for (int64_t b = 0; b < s.n; ++b)
    for (int64_t y = 0; y < s.oh; ++y) {
      const Interp& yi = ys[static_cast<size_t>(y)];
      for (int64_t xo = 0; xo < s.ow; ++xo) {
        const Interp& xi = xs[static_cast<size_t>(xo)];
        for (int64_t ch = 0; ch < s.c; ++ch) {
          const double d = gp[((b * s.oh + y) * s.ow + xo) * s.c + ch];
          auto at = [&](int64_t yy, int64_t xx) -> double& {
            return acc[static_cast<size_t>(((b * s.h + yy) * s.w + xx) * s.c + ch)];
          };
          at(yi.lo, xi.lo) += d * (1 - yi.lerp) * (1 - xi.lerp);
          at(yi.lo, xi.hi) += d * (1 - yi.lerp) * xi.lerp;
          at(yi.hi, xi.lo) += d * yi.lerp * (1 - xi.lerp);
          at(yi.hi, xi.hi) += d * yi.lerp * xi.lerp;
        }
      }
    }
  dispatchFloat(out.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    for (size_t i = 0; i < acc.size(); ++i) o[i] = static_cast<T>(acc[i]);
  });
}

void resizeNearestKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const auto [oh, ow] = sizeInput(c, c.input(1));
  const Sizes s = sizes(c, x, oh, ow);
  Tensor& out = c.allocateOutput(0, {s.n, s.oh, s.ow, s.c}, x.dtype());
  const float hs = resizeScale(s.h, s.oh, s.align), ws = resizeScale(s.w, s.ow, s.align);
  const size_t es = dtypeSize(x.dtype());
  const char* in = static_cast<const char*>(x.raw());
  char* o = static_cast<char*>(out.raw());
  for (int64_t b = 0; b < s.n; ++b)
    for (int64_t y = 0; y < s.oh; ++y) {
      const int64_t sy = nearest(y, s.h, hs, s.align, s.half);
      for (int64_t xo = 0; xo < s.ow; ++xo) {
        const int64_t sx = nearest(xo, s.w, ws, s.align, s.half);
        std::memcpy(o + (((b * s.oh + y) * s.ow + xo) * s.c) * es, in + (((b * s.h + sy) * s.w + sx) * s.c) * es,
                    static_cast<size_t>(s.c) * es);
      }
    }
}

void resizeNearestGradKernel(KernelContext& c) {
  const Tensor& g = c.input(0);
  // Plain locals, not structured bindings: the lambda below captures them (clang rejects
  // capturing a structured binding before C++20).
  const auto size = sizeInput(c, c.input(1));
  const int64_t h = size.first, w = size.second;
  const bool align = c.getBool("align_corners", false), half = c.getBool("half_pixel_centers", false);
  const int64_t n = g.dim(0), oh = g.dim(1), ow = g.dim(2), ch = g.dim(3);
  Tensor& out = c.allocateOutput(0, {n, h, w, ch}, g.dtype());
  // The forward op mapped (h, w) -> (oh, ow): the scales are those of that resize.
  const float hs = resizeScale(h, oh, align), ws = resizeScale(w, ow, align);
  dispatchNumeric(g.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    const T* gp = g.data<T>();
    std::fill(o, o + out.numElements(), T(0));
    for (int64_t b = 0; b < n; ++b)
      for (int64_t y = 0; y < oh; ++y) {
        const int64_t sy = nearest(y, h, hs, align, half);
        for (int64_t xo = 0; xo < ow; ++xo) {
          const int64_t sx = nearest(xo, w, ws, align, half);
          for (int64_t k = 0; k < ch; ++k) {
            T& d = o[((b * h + sy) * w + sx) * ch + k];
            d = static_cast<T>(d + gp[((b * oh + y) * ow + xo) * ch + k]);
          }
        }
      }
  });
}

}  // namespace

void registerCpuImageKernels(KernelRegistry& r) {
  r.add("ResizeBilinear", Device::CPU, resizeBilinearKernel);
  r.add("ResizeBilinearGrad", Device::CPU, resizeBilinearGradKernel);
  r.add("ResizeNearestNeighbor", Device::CPU, resizeNearestKernel);
  r.add("ResizeNearestNeighborGrad", Device::CPU, resizeNearestGradKernel);
}

}  // namespace tlens
