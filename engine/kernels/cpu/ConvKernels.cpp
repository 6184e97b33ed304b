// Conv2D and its backprops on the CPU (NHWC, like TensorFlow's CPU kernels). float32 (and
// float16, computed in float32) runs oneDNN's convolution primitives when libdnnl is installed
// (DnnlConv.h: what TensorFlow runs on x86), except where dnnlconv::preferred() measures ours
// faster (a thin input's gradient, 1x1 stride-1 products). The fallback, and float64: im2col into a
// patch matrix [rows, kh*kw*c] in bounded chunks, and a GEMM against the filter seen as a
// [kh*kw*c, out] matrix (Gemm.h: oneDNN's sgemm for float32 when installed, else Eigen). With
// several threads and enough chunks, each pool thread runs whole chunks (im2col, then a
// single-threaded GEMM) on a cache-sized buffer: one fork/join per op. Otherwise chunks run in
// order with a parallel im2col and a single-threaded GEMM. 1x1 stride-1 convolutions are a single GEMM. float16 runs in float32.
#include <Eigen/Core>
#include <atomic>

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/kernels/cpu/DnnlConv.h"
#include "engine/kernels/cpu/Gemm.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using MapM = Eigen::Map<RowMat<T>>;
template <typename T>
using CMapM = Eigen::Map<const RowMat<T>>;

/// Patch-matrix elements per chunk (4 MiB of float32): the chunk stays in cache between im2col
/// and the GEMM, and each GEMM is still large enough to amortise its threading.
constexpr int64_t kChunkElems = int64_t{1} << 20;
/// Per-thread patch buffer in the parallel-chunks mode (1 MiB of float32: stays in L2).
constexpr int64_t kTileElems = int64_t{1} << 18;

/// Runs f(begin, end) over [0, n): through parallelFor, or inline (inside a chunk thread).
template <typename F>
void loop(bool parallel, int64_t n, int64_t grain, F f) {
  if (parallel) parallelFor(n, grain, f);
  else f(0, n);
}

/// body(chunk, slot) for every chunk in [0, n) on the engine's pool; `slot` < threads identifies
/// the worker's private buffer. Eigen's GEMM runs single-threaded inside.
template <typename F>
void forChunks(int64_t n, int threads, F body) {
  std::atomic<int> nextSlot{0};
  parallelFor(n, std::max<int64_t>(1, (n + threads - 1) / threads), [&](int64_t b, int64_t e) {
    const int slot = nextSlot.fetch_add(1) % threads;
    for (int64_t i = b; i < e; ++i) body(i, slot);
  });
}

/// How many chunks of about kTileElems patch elements `rows` rows of width K make, rounded up to
/// a multiple of `threads`; 0 when there are too few to give every thread one.
int64_t parallelChunks(int64_t rows, int64_t K, int threads) {
  if (threads <= 1) return 0;
  const int64_t want = (rows * K + kTileElems - 1) / kTileElems;
  if (want < threads || rows < threads) return 0;
  return (want + threads - 1) / threads * threads;
}

struct Geometry {
  int64_t n, h, w, c;      ///< input
  int64_t kh, kw, o;       ///< filter [kh, kw, c, o]
  int64_t oh, ow;          ///< output
  int64_t sh, sw, dh, dw;  ///< strides, dilations
  int64_t padT, padL;
  int64_t K() const { return kh * kw * c; }
  int64_t M() const { return n * oh * ow; }
  bool pointwise() const { return kh == 1 && kw == 1 && sh == 1 && sw == 1 && padT == 0 && padL == 0; }
};

int64_t padBefore(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d, bool same) {
  if (!same) return 0;
  const int64_t eff = (k - 1) * d + 1;
  return std::max<int64_t>((out - 1) * s + eff - in, 0) / 2;
}

/// Reads the attributes; fails like TensorFlow for NCHW on the CPU.
Geometry geometry(KernelContext& ctx, const ConcreteShape& in, const ConcreteShape& filter,
                  const ConcreteShape& out) {
  if (ctx.getString("data_format", "NHWC") != "NHWC")
    ctx.fail("The " + ctx.op().type +
                 " op currently only supports the NHWC tensor format on the CPU. The op was given the format: " +
                 ctx.getString("data_format"),
             ErrorCode::Unimplemented);
  if (in[3] != filter[2])
    ctx.fail("The Conv2D op currently does not support grouped convolutions on the CPU. A grouped "
                 "convolution was attempted to be run because the input depth of " +
                 std::to_string(in[3]) + " does not match the filter input depth of " + std::to_string(filter[2]),
             ErrorCode::Unimplemented);
  const std::vector<int64_t> st = ctx.getInts("strides").value_or(std::vector<int64_t>{1, 1, 1, 1});
  const std::vector<int64_t> di = ctx.getInts("dilations").value_or(std::vector<int64_t>{1, 1, 1, 1});
  Geometry g{};
  g.n = in[0]; g.h = in[1]; g.w = in[2]; g.c = in[3];
  g.kh = filter[0]; g.kw = filter[1]; g.o = filter[3];
  g.oh = out[1]; g.ow = out[2];
  g.sh = st[1]; g.sw = st[2]; g.dh = di[1]; g.dw = di[2];
  const bool same = ctx.getString("padding") == "SAME";
  g.padT = padBefore(g.h, g.oh, g.kh, g.sh, g.dh, same);
  g.padL = padBefore(g.w, g.ow, g.kw, g.sw, g.dw, same);
  return g;
}

/// Rows [r0, r1) of the patch matrix (row = (n, oh, ow), column = (kh, kw, c)) into `cols`.
template <typename T, typename A>
void im2col(const Geometry& g, const T* x, int64_t r0, int64_t r1, A* cols, bool parallel = true) {
  const int64_t K = g.K();
  loop(parallel, r1 - r0, std::max<int64_t>(1, 8192 / std::max<int64_t>(K, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = r0 + b; r < r0 + e; ++r) {
      const int64_t ow = r % g.ow, oh = (r / g.ow) % g.oh, n = r / (g.ow * g.oh);
      A* dst = cols + (r - r0) * K;
      const int64_t ih0 = oh * g.sh - g.padT, iw0 = ow * g.sw - g.padL;
      for (int64_t i = 0; i < g.kh; ++i) {
        const int64_t ih = ih0 + i * g.dh;
        A* row = dst + i * g.kw * g.c;
        if (ih < 0 || ih >= g.h) {
          std::fill(row, row + g.kw * g.c, A(0));
          continue;
        }
        const T* src = x + ((n * g.h + ih) * g.w) * g.c;
        for (int64_t j = 0; j < g.kw; ++j) {
          const int64_t iw = iw0 + j * g.dw;
          A* d = row + j * g.c;
          if (iw < 0 || iw >= g.w) {
            std::fill(d, d + g.c, A(0));
          } else if constexpr (std::is_same_v<T, A>) {
            std::memcpy(d, src + iw * g.c, static_cast<size_t>(g.c) * sizeof(T));
          } else {
            for (int64_t k = 0; k < g.c; ++k) d[k] = static_cast<A>(src[iw * g.c + k]);
          }
        }
      }
    }
  });
}

/// dx for images [n0, n1) from the patch-gradient rows of those images (a gather, so images and
/// input rows run in parallel without conflicts).
template <typename T, typename A>
void col2im(const Geometry& g, const A* cols, int64_t n0, int64_t n1, T* dx, bool parallel = true) {
  const int64_t K = g.K();
  loop(parallel, (n1 - n0) * g.h, std::max<int64_t>(1, 4096 / std::max<int64_t>(g.w * g.c, 1)), [&](int64_t b, int64_t e) {
    std::vector<A> acc(static_cast<size_t>(g.c));
    for (int64_t t = b; t < e; ++t) {
      const int64_t nl = t / g.h, ih = t % g.h;
      for (int64_t iw = 0; iw < g.w; ++iw) {
        std::fill(acc.begin(), acc.end(), A(0));
        for (int64_t i = 0; i < g.kh; ++i) {
          const int64_t y = ih + g.padT - i * g.dh;
          if (y < 0 || y % g.sh) continue;
          const int64_t oh = y / g.sh;
          if (oh >= g.oh) continue;
          for (int64_t j = 0; j < g.kw; ++j) {
            const int64_t xw = iw + g.padL - j * g.dw;
            if (xw < 0 || xw % g.sw) continue;
            const int64_t ow = xw / g.sw;
            if (ow >= g.ow) continue;
            const A* src = cols + ((nl * g.oh + oh) * g.ow + ow) * K + (i * g.kw + j) * g.c;
            for (int64_t k = 0; k < g.c; ++k) acc[static_cast<size_t>(k)] += src[k];
          }
        }
        T* d = dx + (((n0 + nl) * g.h + ih) * g.w + iw) * g.c;
        for (int64_t k = 0; k < g.c; ++k) d[k] = static_cast<T>(acc[static_cast<size_t>(k)]);
      }
    }
  });
}

/// A float-typed view of a tensor: the data itself, or a float32 copy for float16.
template <typename T, typename A>
struct AsCompute {
  std::vector<A> copy;
  const A* ptr;
  explicit AsCompute(const Tensor& t) {
    if constexpr (std::is_same_v<T, A>) {
      ptr = t.data<T>();
    } else {
      copy.resize(static_cast<size_t>(t.numElements()));
      const T* s = t.data<T>();
      for (size_t i = 0; i < copy.size(); ++i) copy[i] = static_cast<A>(s[i]);
      ptr = copy.data();
    }
  }
};

/// Output storage in the compute type (a temporary for float16, copied back by finish()).
template <typename T, typename A>
struct OutCompute {
  Tensor& t;
  std::vector<A> buf;
  A* ptr;
  explicit OutCompute(Tensor& out) : t(out) {
    if constexpr (std::is_same_v<T, A>) {
      ptr = out.data<T>();
    } else {
      buf.resize(static_cast<size_t>(out.numElements()));
      ptr = buf.data();
    }
  }
  void finish() {
    if constexpr (!std::is_same_v<T, A>) {
      T* d = t.data<T>();
      for (size_t i = 0; i < buf.size(); ++i) d[i] = static_cast<T>(buf[i]);
    }
  }
};

template <typename T>
using Compute = std::conditional_t<std::is_same_v<T, Eigen::half>, float, T>;

/// Runs a pass on oneDNN's convolution primitive into `out` (the compute-type output): float32,
/// and float16 computed in float32 (copies of the inputs); false when it does not (DnnlConv.h:
/// not installed, disabled, a geometry it rejects, float64), and the caller runs im2col + GEMM.
template <typename T>
bool viaDnnl(dnnlconv::Pass pass, const Geometry& g, const Tensor& a, const Tensor& b, Compute<T>* out) {
  if constexpr (std::is_same_v<Compute<T>, float>) {
    if (!dnnlconv::available()) return false;
    const dnnlconv::Geometry d{g.n, g.h, g.w, g.c, g.kh, g.kw, g.o, g.oh, g.ow, g.sh, g.sw, g.dh, g.dw, g.padT, g.padL};
    AsCompute<T, float> A(a), B(b);
    return dnnlconv::run(pass, d, A.ptr, B.ptr, out);
  } else {
    return false;
  }
}

template <typename T>
void conv2dForward(const Geometry& g, const Tensor& x, const Tensor& f, Tensor& out) {
  using A = Compute<T>;
  const int64_t K = g.K(), M = g.M();
  if (out.numElements() == 0) return;
  AsCompute<T, A> F(f);
  OutCompute<T, A> Y(out);
  if (K == 0) {
    MapM<A>(Y.ptr, M, g.o).setZero();
  } else if (viaDnnl<T>(dnnlconv::Pass::Forward, g, x, f, Y.ptr)) {
  } else if (g.pointwise()) {
    AsCompute<T, A> X(x);
    gemm::gemm<A>(false, false, M, g.o, K, X.ptr, K, F.ptr, g.o, A(0), Y.ptr, g.o);
  } else if (const int threads = intraOpThreads(); int64_t n = parallelChunks(M, K, threads)) {
    const int64_t rows = (M + n - 1) / n;
    n = (M + rows - 1) / rows;
    std::vector<std::vector<A>> bufs(static_cast<size_t>(threads), std::vector<A>(static_cast<size_t>(rows * K)));
    forChunks(n, threads, [&](int64_t ci, int t) {
      const int64_t r0 = ci * rows, r1 = std::min(M, r0 + rows);
      A* cols = bufs[static_cast<size_t>(t)].data();
      im2col<T, A>(g, x.data<T>(), r0, r1, cols, false);
      gemm::gemm<A>(false, false, r1 - r0, g.o, K, cols, K, F.ptr, g.o, A(0), Y.ptr + r0 * g.o, g.o);
    });
  } else {
    const int64_t chunk = std::max<int64_t>(1, std::min(M, kChunkElems / K));
    std::vector<A> cols(static_cast<size_t>(chunk * K));
    for (int64_t r0 = 0; r0 < M; r0 += chunk) {
      const int64_t r1 = std::min(M, r0 + chunk);
      im2col<T, A>(g, x.data<T>(), r0, r1, cols.data());
      gemm::gemm<A>(false, false, r1 - r0, g.o, K, cols.data(), K, F.ptr, g.o, A(0), Y.ptr + r0 * g.o, g.o);
    }
  }
  Y.finish();
}

template <typename T>
void conv2dBackpropInput(const Geometry& g, const Tensor& f, const Tensor& dy, Tensor& dx) {
  using A = Compute<T>;
  const int64_t K = g.K(), M = g.M();
  if (dx.numElements() == 0) return;
  if (M == 0 || g.o == 0) {
    std::fill(dx.data<T>(), dx.data<T>() + dx.numElements(), T(0));
    return;
  }
  if (OutCompute<T, A> DX(dx); viaDnnl<T>(dnnlconv::Pass::BackwardData, g, f, dy, DX.ptr)) {
    DX.finish();
    return;
  }
  AsCompute<T, A> F(f), DY(dy);
  if (g.pointwise()) {
    OutCompute<T, A> DX(dx);
    gemm::gemm<A>(false, true, M, K, g.o, DY.ptr, g.o, F.ptr, g.o, A(0), DX.ptr, K);
    DX.finish();
    return;
  }
  const int64_t perImage = g.oh * g.ow;
  const int threads = intraOpThreads();
  if (threads > 1 && g.n >= threads) {  // one image per chunk
    std::vector<std::vector<A>> bufs(static_cast<size_t>(threads), std::vector<A>(static_cast<size_t>(perImage * K)));
    forChunks(g.n, threads, [&](int64_t n, int t) {
      A* cols = bufs[static_cast<size_t>(t)].data();
      gemm::gemm<A>(false, true, perImage, K, g.o, DY.ptr + n * perImage * g.o, g.o, F.ptr, g.o, A(0), cols, K);
      col2im<T, A>(g, cols, n, n + 1, dx.data<T>(), false);
    });
    return;
  }
  const int64_t imgs = std::max<int64_t>(1, std::min(g.n, kChunkElems / std::max<int64_t>(perImage * K, 1)));
  std::vector<A> cols(static_cast<size_t>(imgs * perImage * K));
  for (int64_t n0 = 0; n0 < g.n; n0 += imgs) {
    const int64_t n1 = std::min(g.n, n0 + imgs);
    const int64_t rows = (n1 - n0) * perImage;
    gemm::gemm<A>(false, true, rows, K, g.o, DY.ptr + n0 * perImage * g.o, g.o, F.ptr, g.o, A(0), cols.data(), K);
    col2im<T, A>(g, cols.data(), n0, n1, dx.data<T>());
  }
}

template <typename T>
void conv2dBackpropFilter(const Geometry& g, const Tensor& x, const Tensor& dy, Tensor& df) {
  using A = Compute<T>;
  const int64_t K = g.K(), M = g.M();
  if (df.numElements() == 0) return;
  OutCompute<T, A> DF(df);
  MapM<A> D(DF.ptr, K, g.o);
  if (M > 0 && K > 0 && viaDnnl<T>(dnnlconv::Pass::BackwardWeights, g, x, dy, DF.ptr)) {
    DF.finish();
    return;
  }
  D.setZero();
  if (M > 0) {
    AsCompute<T, A> DY(dy);
    if (g.pointwise()) {
      AsCompute<T, A> X(x);
      gemm::gemm<A>(true, false, K, g.o, M, X.ptr, K, DY.ptr, g.o, A(0), DF.ptr, g.o);
    } else if (const int threads = intraOpThreads(); int64_t n = parallelChunks(M, K, threads)) {
      // Block b of the chunks accumulates into partial b; partials are summed in order, so the
      // result does not depend on scheduling.
      const int64_t rows = (M + n - 1) / n;
      n = (M + rows - 1) / rows;
      std::vector<std::vector<A>> parts(static_cast<size_t>(threads), std::vector<A>(static_cast<size_t>(K * g.o), A(0)));
      std::vector<std::vector<A>> bufs(static_cast<size_t>(threads), std::vector<A>(static_cast<size_t>(rows * K)));
      parallelFor(threads, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {  // block b owns parts[b] and bufs[b]
          A* cols = bufs[static_cast<size_t>(b)].data();
          A* P = parts[static_cast<size_t>(b)].data();
          for (int64_t ci = b * n / threads; ci < (b + 1) * n / threads; ++ci) {
            const int64_t r0 = ci * rows, r1 = std::min(M, r0 + rows);
            im2col<T, A>(g, x.data<T>(), r0, r1, cols, false);
            gemm::gemm<A>(true, false, K, g.o, r1 - r0, cols, K, DY.ptr + r0 * g.o, g.o, A(1), P, g.o);
          }
        }
      });
      for (const std::vector<A>& p : parts) D += CMapM<A>(p.data(), K, g.o);
    } else {
      const int64_t chunk = std::max<int64_t>(1, std::min(M, kChunkElems / K));
      std::vector<A> cols(static_cast<size_t>(chunk * K));
      for (int64_t r0 = 0; r0 < M; r0 += chunk) {
        const int64_t r1 = std::min(M, r0 + chunk);
        im2col<T, A>(g, x.data<T>(), r0, r1, cols.data());
        gemm::gemm<A>(true, false, K, g.o, r1 - r0, cols.data(), K, DY.ptr + r0 * g.o, g.o, A(1), DF.ptr, g.o);
      }
    }
  }
  DF.finish();
}

template <typename F>
void dispatchConv(KernelContext& c, DType t, F f) {
  switch (t) {
    case DType::Float32: f(float{}); break;
    case DType::Float64: f(double{}); break;
    case DType::Float16: f(Eigen::half{}); break;
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(t)));
  }
}

void conv2dKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const Geometry g = geometry(c, c.input(0).shape(), c.input(1).shape(), out.shape());
  dispatchConv(c, out.dtype(), [&](auto z) { conv2dForward<decltype(z)>(g, c.input(0), c.input(1), out); });
}

void conv2dBackpropInputKernel(KernelContext& c) {
  Tensor& dx = c.allocateOutput(0);
  const Geometry g = geometry(c, dx.shape(), c.input(1).shape(), c.input(2).shape());
  dispatchConv(c, dx.dtype(), [&](auto z) { conv2dBackpropInput<decltype(z)>(g, c.input(1), c.input(2), dx); });
}

void conv2dBackpropFilterKernel(KernelContext& c) {
  Tensor& df = c.allocateOutput(0);
  const Geometry g = geometry(c, c.input(0).shape(), df.shape(), c.input(2).shape());
  dispatchConv(c, df.dtype(), [&](auto z) { conv2dBackpropFilter<decltype(z)>(g, c.input(0), c.input(2), df); });
}

}  // namespace

void registerCpuConvKernels(KernelRegistry& r) {
  r.add("Conv2D", Device::CPU, conv2dKernel);
  r.add("Conv2DBackpropInput", Device::CPU, conv2dBackpropInputKernel);
  r.add("Conv2DBackpropFilter", Device::CPU, conv2dBackpropFilterKernel);
}

}  // namespace tlens
