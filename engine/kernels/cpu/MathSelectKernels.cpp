// Three-input elementwise ops on the CPU: SelectV2 (all three numpy-broadcast), the TF1 Select
// (scalar, same-shape or row-vector condition) and ClipByValue. Selects only move elements, so
// they are instantiated per element size, not per dtype.
#include <cstring>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

/// out[i] = f(a[ia], b[ib], c[ic]) with numpy broadcasting of a, b, c into out's shape.
template <typename Ta, typename Tb, typename Tc, typename Tout, typename F>
void broadcastTernary(const Tensor& a, const Tensor& b, const Tensor& c, Tensor& out, F f) {
  const Ta* pa = a.data<Ta>();
  const Tb* pb = b.data<Tb>();
  const Tc* pc = c.data<Tc>();
  Tout* po = out.data<Tout>();
  const int64_t n = out.numElements();
  if (n == 0) return;
  if (a.numElements() == n && b.numElements() == n && c.numElements() == n) {
    parallelFor(n, cpu::kElementwiseGrain, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = f(pa[i], pb[i], pc[i]);
    });
    return;
  }
  const ConcreteShape& os = out.shape();
  const size_t r = os.size();
  const std::vector<int64_t> sa = cpu::broadcastStrides(a.shape(), os);
  const std::vector<int64_t> sb = cpu::broadcastStrides(b.shape(), os);
  const std::vector<int64_t> sc = cpu::broadcastStrides(c.shape(), os);
  const int64_t inner = os[r - 1];
  const int64_t ia = sa[r - 1], ib = sb[r - 1], ic = sc[r - 1];
  parallelFor(n / inner, std::max<int64_t>(1, cpu::kElementwiseGrain / inner), [&](int64_t rs, int64_t re) {
    for (int64_t row = rs; row < re; ++row) {
      int64_t offA = 0, offB = 0, offC = 0, rem = row;
      for (size_t d = r - 1; d-- > 0;) {
        const int64_t idx = rem % os[d];
        rem /= os[d];
        offA += idx * sa[d];
        offB += idx * sb[d];
        offC += idx * sc[d];
      }
      Tout* o = po + row * inner;
      const Ta* x = pa + offA;
      const Tb* y = pb + offB;
      const Tc* z = pc + offC;
      if (ia == 1 && ib == 1 && ic == 1)
        for (int64_t i = 0; i < inner; ++i) o[i] = f(x[i], y[i], z[i]);
      else
        for (int64_t i = 0; i < inner; ++i) o[i] = f(x[i * ia], y[i * ib], z[i * ic]);
    }
  });
}

/// Calls f(U{}) with an unsigned type of the dtype's element size.
template <typename F>
void dispatchBySize(DType t, F f) {
  switch (dtypeSize(t)) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    default: f(uint64_t{}); break;
  }
}

void selectV2Kernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  dispatchBySize(out.dtype(), [&](auto z) {
    using U = decltype(z);
    broadcastTernary<bool, U, U, U>(c.input(0), c.input(1), c.input(2), out,
                                    [](bool cond, U t, U e) { return cond ? t : e; });
  });
}

void selectKernel(KernelContext& c) {
  const Tensor& cond = c.input(0);
  const Tensor& t = c.input(1);
  const Tensor& e = c.input(2);
  if (cond.rank() == 0) {  // picks one whole tensor
    c.setOutput(0, cond.data<bool>()[0] ? t : e);
    return;
  }
  Tensor& out = c.allocateOutput(0);
  const bool* pc = cond.data<bool>();
  if (cond.rank() == 1 && t.rank() > 1) {  // one condition per row
    const int64_t rows = t.dim(0);
    const size_t rowBytes = rows ? t.bytes() / static_cast<size_t>(rows) : 0;
    const char* pt = static_cast<const char*>(t.raw());
    const char* pe = static_cast<const char*>(e.raw());
    char* po = static_cast<char*>(out.raw());
    parallelFor(rows, std::max<int64_t>(1, static_cast<int64_t>(65536 / std::max<size_t>(rowBytes, 1))),
                [&](int64_t b, int64_t en) {
      for (int64_t r = b; r < en; ++r) {
        const size_t off = static_cast<size_t>(r) * rowBytes;
        std::memcpy(po + off, (pc[r] ? pt : pe) + off, rowBytes);
      }
    });
    return;
  }
  dispatchBySize(out.dtype(), [&](auto z) {
    using U = decltype(z);
    const U* pt = t.data<U>();
    const U* pe = e.data<U>();
    U* po = out.data<U>();
    parallelFor(out.numElements(), cpu::kElementwiseGrain, [&](int64_t b, int64_t en) {
      for (int64_t i = b; i < en; ++i) po[i] = pc[i] ? pt[i] : pe[i];
    });
  });
}

void clipByValueKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  dispatchNumeric(out.dtype(), [&](auto z) {
    using T = decltype(z);
    // max(min(t, hi), lo) as tf.clip_by_value computes it; NaN in t stays NaN.
    broadcastTernary<T, T, T, T>(c.input(0), c.input(1), c.input(2), out, [](T x, T lo, T hi) {
      const T v = x > hi ? hi : x;
      return v < lo ? lo : v;
    });
  });
}

}  // namespace

void registerCpuMathSelectKernels(KernelRegistry& r) {
  r.add("SelectV2", Device::CPU, selectV2Kernel);
  r.add("Select", Device::CPU, selectKernel);
  r.add("ClipByValue", Device::CPU, clipByValueKernel);
}

}  // namespace tlens
