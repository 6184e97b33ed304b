// DepthwiseConv2dNative and its input/filter backprops on the CPU (NHWC): direct loops, one batch
// image per task; the three share one walk over (output position, filter tap).
#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

struct Geo {
  int64_t n, h, w, c, kh, kw, m, oh, ow, sh, sw, dh, dw, padT, padL;
};

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t d, bool same) {
  const int64_t eff = (k - 1) * d + 1;
  return same ? (in + s - 1) / s : (in - eff + s) / s;
}

Geo geometry(KernelContext& c, const ConcreteShape& in, const ConcreteShape& f) {
  const std::vector<int64_t> st = c.getInts("strides").value_or(std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int64_t> di = c.getInts("dilations").value_or(std::vector<int64_t>{1, 1, 1, 1});
  const bool same = c.getString("padding") == "SAME";
  Geo g{in[0], in[1], in[2], in[3], f[0], f[1], f[3], 0, 0, st[1], st[2], di[1], di[2], 0, 0};
  g.oh = outSize(g.h, g.kh, g.sh, g.dh, same);
  g.ow = outSize(g.w, g.kw, g.sw, g.dw, same);
  if (same) {
    g.padT = std::max<int64_t>(0, (g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1 - g.h) / 2;
    g.padL = std::max<int64_t>(0, (g.ow - 1) * g.sw + (g.kw - 1) * g.dw + 1 - g.w) / 2;
  }
  return g;
}

enum class Pass { Forward, Input, Filter };

/// For every (image, output position, tap, channel, multiplier) with the input position inside,
/// calls f(xIndex, filterIndex, yIndex).
template <typename F>
void walk(const Geo& g, int64_t b, F&& f) {
  for (int64_t oy = 0; oy < g.oh; ++oy)
    for (int64_t ox = 0; ox < g.ow; ++ox)
      for (int64_t i = 0; i < g.kh; ++i) {
        const int64_t y = oy * g.sh - g.padT + i * g.dh;
        if (y < 0 || y >= g.h) continue;
        for (int64_t j = 0; j < g.kw; ++j) {
          const int64_t x = ox * g.sw - g.padL + j * g.dw;
          if (x < 0 || x >= g.w) continue;
          const int64_t xi = ((b * g.h + y) * g.w + x) * g.c;
          const int64_t fi = (i * g.kw + j) * g.c * g.m;
          const int64_t yi = ((b * g.oh + oy) * g.ow + ox) * g.c * g.m;
          for (int64_t ch = 0; ch < g.c; ++ch)
            for (int64_t q = 0; q < g.m; ++q) f(xi + ch, fi + ch * g.m + q, yi + ch * g.m + q);
        }
      }
}

ConcreteShape sizes(KernelContext& c, size_t i) {
  const std::vector<int64_t> v = c.input(i).toInt64Vector();
  // The length is the shape function's; a negative size is a value the shape function leaves unknown.
  for (int64_t d : v)
    if (d < 0) c.fail("Dimension " + std::to_string(d) + " must be >= 0");
  return ConcreteShape(v.begin(), v.end());
}

template <Pass kPass>
void depthwiseKernel(KernelContext& c) {
  const ConcreteShape in = kPass == Pass::Input ? sizes(c, 0) : c.input(0).shape();
  const ConcreteShape f = kPass == Pass::Filter ? sizes(c, 1) : c.input(1).shape();
  const Geo g = geometry(c, in, f);
  const Tensor& a = c.input(kPass == Pass::Input ? 1 : 0);  // x (forward/filter) or the filter
  const Tensor* dy = kPass == Pass::Forward ? nullptr : &c.input(2);
  const ConcreteShape os = kPass == Pass::Forward ? ConcreteShape{g.n, g.oh, g.ow, g.c * g.m} : kPass == Pass::Input ? in : f;
  Tensor& out = c.allocateOutput(0, os, a.dtype());
  dispatchFloat(a.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    std::fill(o, o + out.numElements(), T(0));
    if (kPass == Pass::Forward) {
      const T* x = a.data<T>();
      const T* w = c.input(1).data<T>();
      parallelFor(g.n, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b)
          walk(g, b, [&](int64_t xi, int64_t fi, int64_t yi) { o[yi] = static_cast<T>(o[yi] + x[xi] * w[fi]); });
      });
    } else if (kPass == Pass::Input) {
      const T* w = a.data<T>();
      const T* d = dy->data<T>();
      parallelFor(g.n, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b)
          walk(g, b, [&](int64_t xi, int64_t fi, int64_t yi) { o[xi] = static_cast<T>(o[xi] + d[yi] * w[fi]); });
      });
    } else {
      const T* x = a.data<T>();
      const T* d = dy->data<T>();
      for (int64_t b = 0; b < g.n; ++b)  // every image adds into the same filter: sequential
        walk(g, b, [&](int64_t xi, int64_t fi, int64_t yi) { o[fi] = static_cast<T>(o[fi] + x[xi] * d[yi]); });
    }
  });
}

}  // namespace

void registerCpuDepthwiseConvKernels(KernelRegistry& r) {
  r.add("DepthwiseConv2dNative", Device::CPU, depthwiseKernel<Pass::Forward>);
  r.add("DepthwiseConv2dNativeBackpropInput", Device::CPU, depthwiseKernel<Pass::Input>);
  r.add("DepthwiseConv2dNativeBackpropFilter", Device::CPU, depthwiseKernel<Pass::Filter>);
}

}  // namespace tlens
