// The per-cell computations of the GPU pooling kernels (NHWC), compiled for device and host: the
// clipped window of an output cell, its first maximum (the first NaN wins), its average over the
// cells inside the input (padding excluded), and the gathered average gradient of an input cell.
// NN.cu runs one thread per cell with these; tests/cuda runs them on the host against the CPU's
// pooling kernels (engine/kernels/cpu/PoolKernels.cpp), whose semantics they follow.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/cuda/IndexMath.h"
#include "engine/cuda/Launch.h"

namespace tlens::cuda::pool {

TLENS_HD int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
TLENS_HD int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }

struct Window {
  int64_t h0, h1, w0, w1;
};

/// Rows [h0, h1) and columns [w0, w1) of the input that output cell (y, x) covers.
TLENS_HD Window windowOf(const PoolGeom& g, int64_t y, int64_t x) {
  Window w;
  w.h0 = y * g.sh - g.padT;
  w.w0 = x * g.sw - g.padL;
  w.h1 = imin(w.h0 + g.kh, g.h);
  w.w1 = imin(w.w0 + g.kw, g.w);
  w.h0 = imax(w.h0, 0);
  w.w0 = imax(w.w0, 0);
  return w;
}

/// Output cell u = ((n * oh + y) * ow + x) * c + k.
struct Cell {
  int64_t n, y, x, k;
};
TLENS_HD Cell outCell(const PoolGeom& g, int64_t u) {
  Cell c;
  c.k = u % g.c;
  u /= g.c;
  c.x = u % g.ow;
  u /= g.ow;
  c.y = u % g.oh;
  c.n = u / g.oh;
  return c;
}

TLENS_HD int64_t inIndex(const PoolGeom& g, int64_t n, int64_t i, int64_t j, int64_t k) {
  return ((n * g.h + i) * g.w + j) * g.c + k;
}

/// Flat input index of output cell u's first maximum (the first NaN if any), -1 for an empty window.
template <typename T>
TLENS_HD int64_t argMaxAt(const PoolGeom& g, const T* x, int64_t u) {
  const Cell c = outCell(g, u);
  const Window w = windowOf(g, c.y, c.x);
  int64_t arg = -1;
  T best = T(0);
  for (int64_t i = w.h0; i < w.h1; ++i)
    for (int64_t j = w.w0; j < w.w1; ++j) {
      const int64_t idx = inIndex(g, c.n, i, j, c.k);
      const T v = x[idx];
      if (arg < 0 || v > best || (isNaN(v) && !isNaN(best))) {
        best = v;
        arg = idx;
      }
    }
  return arg;
}

/// MaxPool of output cell u: -inf for an empty window; NaN wins and stays.
template <typename T>
TLENS_HD T maxAt(const PoolGeom& g, const T* x, int64_t u) {
  const Cell c = outCell(g, u);
  const Window w = windowOf(g, c.y, c.x);
  T o = -static_cast<T>(INFINITY);
  for (int64_t i = w.h0; i < w.h1; ++i)
    for (int64_t j = w.w0; j < w.w1; ++j) {
      const T p = x[inIndex(g, c.n, i, j, c.k)];
      o = (p > o || isNaN(p)) ? p : o;
    }
  return o;
}

/// AvgPool of output cell u over the window's cells inside the input.
template <typename T>
TLENS_HD T avgAt(const PoolGeom& g, const T* x, int64_t u) {
  const Cell c = outCell(g, u);
  const Window w = windowOf(g, c.y, c.x);
  T acc = 0;
  for (int64_t i = w.h0; i < w.h1; ++i)
    for (int64_t j = w.w0; j < w.w1; ++j) acc += x[inIndex(g, c.n, i, j, c.k)];
  return acc * (T(1) / static_cast<T>((w.h1 - w.h0) * (w.w1 - w.w0)));
}

/// AvgPoolGrad of input cell u (NHWC over the input): the sum of dy / count over the windows that
/// contain it.
template <typename T>
TLENS_HD T avgGradAt(const PoolGeom& g, const T* dy, int64_t u) {
  int64_t r = u;
  const int64_t k = r % g.c;
  r /= g.c;
  const int64_t j = r % g.w;
  r /= g.w;
  const int64_t i = r % g.h;
  const int64_t n = r / g.h;
  const int64_t a = i + g.padT - g.kh + 1, b = j + g.padL - g.kw + 1;
  const int64_t oy0 = a <= 0 ? 0 : (a + g.sh - 1) / g.sh, oy1 = imin(g.oh, (i + g.padT) / g.sh + 1);
  const int64_t ox0 = b <= 0 ? 0 : (b + g.sw - 1) / g.sw, ox1 = imin(g.ow, (j + g.padL) / g.sw + 1);
  T acc = 0;
  for (int64_t oy = oy0; oy < oy1; ++oy)
    for (int64_t ox = ox0; ox < ox1; ++ox) {
      const Window w = windowOf(g, oy, ox);
      const int64_t cnt = imax((w.h1 - w.h0) * (w.w1 - w.w0), 1);
      acc += dy[((n * g.oh + oy) * g.ow + ox) * g.c + k] * (T(1) / static_cast<T>(cnt));
    }
  return acc;
}

}  // namespace tlens::cuda::pool
