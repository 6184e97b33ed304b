// Softmax and LogSoftmax on the CPU, numerically stable (the maximum is subtracted first) with
// Eigen's vectorised exp. The last axis runs row by row; another axis runs on [outer, axis, inner]
// blocks with contiguous inner vectors. float16 is computed in float32.
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

template <typename T, bool Log>
void softmaxLastAxis(const T* x, T* y, int64_t rows, int64_t cols) {
  parallelFor(rows, std::max<int64_t>(1, 65536 / std::max<int64_t>(cols, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      cpu::ConstArrayMap<T> xr(x + r * cols, cols);
      cpu::ArrayMap<T> yr(y + r * cols, cols);
      const T m = xr.template maxCoeff<Eigen::PropagateNaN>();
      if constexpr (Log) {
        yr = xr - m;
        yr -= std::log(yr.exp().sum());
      } else {
        yr = cpu::ieeeExp((xr - m).eval());
        yr /= yr.sum();
      }
    }
  });
}

template <typename T, bool Log>
void softmaxInnerAxis(const T* x, T* y, int64_t outer, int64_t len, int64_t inner) {
  const int64_t chunk = std::min<int64_t>(inner, 1024);
  const int64_t nc = (inner + chunk - 1) / chunk;
  parallelFor(outer * nc, std::max<int64_t>(1, 65536 / (len * chunk)), [&](int64_t b, int64_t e) {
    Eigen::Array<T, Eigen::Dynamic, 1> m(chunk), s(chunk);
    for (int64_t t = b; t < e; ++t) {
      const int64_t o = t / nc, c0 = (t % nc) * chunk, w = std::min(chunk, inner - c0);
      const T* xo = x + o * len * inner + c0;
      T* yo = y + o * len * inner + c0;
      auto mw = m.head(w);
      auto sw = s.head(w);
      mw = cpu::ConstArrayMap<T>(xo, w);
      for (int64_t a = 1; a < len; ++a) {
        const T* xa = xo + a * inner;
        for (int64_t i = 0; i < w; ++i) mw[i] = (xa[i] > mw[i] || xa[i] != xa[i]) ? xa[i] : mw[i];
      }
      sw.setZero();
      for (int64_t a = 0; a < len; ++a) {
        cpu::ArrayMap<T> ya(yo + a * inner, w);
        ya = cpu::ieeeExp((cpu::ConstArrayMap<T>(xo + a * inner, w) - mw).eval());
        sw += ya;
      }
      if constexpr (Log) {
        sw = sw.log() + mw;
        for (int64_t a = 0; a < len; ++a)
          cpu::ArrayMap<T>(yo + a * inner, w) = cpu::ConstArrayMap<T>(xo + a * inner, w) - sw;
      } else {
        for (int64_t a = 0; a < len; ++a) cpu::ArrayMap<T>(yo + a * inner, w) /= sw;
      }
    }
  });
}

template <bool Log>
void softmaxKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const int rank = in.rank();
  const int64_t a = c.getInt("axis", -1);
  const int64_t axis = a < 0 ? a + rank : a;
  // softmaxShape (engine/ops/defs/LossOps.cpp), run before every kernel, checked rank and axis.
  assert(rank >= 1 && axis >= 0 && axis < rank);
  if (in.numElements() == 0) {
    c.allocateOutput(0);
    return;
  }
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= in.dim(i);
  for (int i = static_cast<int>(axis) + 1; i < rank; ++i) inner *= in.dim(i);
  const int64_t len = in.dim(static_cast<int>(axis));
  auto run = [&](auto z, const Tensor& x, Tensor& y) {
    using T = decltype(z);
    if (inner == 1) softmaxLastAxis<T, Log>(x.data<T>(), y.data<T>(), outer, len);
    else softmaxInnerAxis<T, Log>(x.data<T>(), y.data<T>(), outer, len, inner);
  };
  switch (in.dtype()) {
    case DType::Float32: run(float{}, in, c.allocateOutput(0)); break;
    case DType::Float64: run(double{}, in, c.allocateOutput(0)); break;
    case DType::Float16: {
      Tensor y(DType::Float32, in.shape());
      run(float{}, in.cast(DType::Float32), y);
      c.setOutput(0, y.cast(DType::Float16));
      break;
    }
    default: c.fail(c.op().type + " does not support " + std::string(dtypeName(in.dtype())));
  }
}

}  // namespace

void registerCpuSoftmaxKernels(KernelRegistry& r) {
  r.add("Softmax", Device::CPU, softmaxKernel<false>);
  r.add("LogSoftmax", Device::CPU, softmaxKernel<true>);
}

}  // namespace tlens
