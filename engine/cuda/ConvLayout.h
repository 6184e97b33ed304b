// The layout permutations around the cuDNN convolutions (ConvOps.cpp): TensorFlow's NHWC
// activations and HWIO filters to cuDNN's NCHW/OIHW and back, with the explicit zero padding of
// asymmetric SAME padding folded into the input's copy. Each is one strided copy; the specs are
// plain data so tests/cuda checks them on the host against naive index maps.
#pragma once

#include <cstdint>
#include <vector>

namespace tlens::cuda {

struct ConvGeom {
  int64_t n, h, w, c;      ///< input (NHWC)
  int64_t kh, kw, o;       ///< filter (HWIO: kh, kw, c, o)
  int64_t oh, ow;          ///< output
  int64_t sh, sw, dh, dw;  ///< strides, dilations
  int64_t padT, padB, padL, padR;
  bool symmetric() const { return padT == padB && padL == padR; }
  /// Input dims as cuDNN sees them (explicitly padded when asymmetric).
  int64_t hp() const { return symmetric() ? h : h + padT + padB; }
  int64_t wp() const { return symmetric() ? w : w + padL + padR; }
  /// Offset of the unpadded input inside the padded NCHW buffer (per (n, c) plane).
  int64_t padBase() const { return symmetric() ? 0 : padT * wp() + padL; }
};

/// dst[dstBase + sum p_i dstStrides_i] = src[srcBase + sum p_i srcStrides_i] over `sizes`.
struct CopySpec {
  std::vector<int64_t> sizes, srcStrides;
  int64_t srcBase = 0;
  std::vector<int64_t> dstStrides;
  int64_t dstBase = 0;
};

namespace convlayout {

/// x NHWC [n, h, w, c] -> NCHW [n, c, hp, wp] (interior when padded; the caller zeroes the rest).
inline CopySpec inputToNchw(const ConvGeom& g) {
  const int64_t Hp = g.hp(), Wp = g.wp();
  return {{g.n, g.h, g.w, g.c}, {g.h * g.w * g.c, g.w * g.c, g.c, 1}, 0, {g.c * Hp * Wp, Wp, 1, Hp * Wp}, g.padBase()};
}
/// filter HWIO [kh, kw, c, o] -> OIHW [o, c, kh, kw]
inline CopySpec filterToOihw(const ConvGeom& g) {
  return {{g.kh, g.kw, g.c, g.o}, {g.kw * g.c * g.o, g.c * g.o, g.o, 1}, 0, {g.kw, 1, g.kh * g.kw, g.c * g.kh * g.kw}, 0};
}
/// dy NHWC [n, oh, ow, o] -> NCHW [n, o, oh, ow]
inline CopySpec gradToNchw(const ConvGeom& g) {
  return {{g.n, g.oh, g.ow, g.o}, {g.oh * g.ow * g.o, g.ow * g.o, g.o, 1}, 0,
          {g.o * g.oh * g.ow, g.ow, 1, g.oh * g.ow}, 0};
}
/// y NCHW [n, o, oh, ow] -> NHWC [n, oh, ow, o]
inline CopySpec outputToNhwc(const ConvGeom& g) {
  return {{g.n, g.o, g.oh, g.ow}, {g.o * g.oh * g.ow, g.oh * g.ow, g.ow, 1}, 0,
          {g.oh * g.ow * g.o, 1, g.ow * g.o, g.o}, 0};
}
/// dx NCHW [n, c, hp, wp] (interior when padded) -> NHWC [n, h, w, c]
inline CopySpec inputGradToNhwc(const ConvGeom& g) {
  const int64_t Hp = g.hp(), Wp = g.wp();
  return {{g.n, g.h, g.w, g.c}, {g.c * Hp * Wp, Wp, 1, Hp * Wp}, g.padBase(), {g.h * g.w * g.c, g.w * g.c, g.c, 1}, 0};
}
/// filter gradient OIHW [o, c, kh, kw] -> HWIO [kh, kw, c, o]
inline CopySpec filterGradToHwio(const ConvGeom& g) {
  return {{g.o, g.c, g.kh, g.kw}, {g.c * g.kh * g.kw, g.kh * g.kw, g.kw, 1}, 0,
          {1, g.o, g.kw * g.c * g.o, g.c * g.o}, 0};
}

}  // namespace convlayout

}  // namespace tlens::cuda
