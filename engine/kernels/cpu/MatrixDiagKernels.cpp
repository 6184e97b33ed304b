// MatrixBandPart, MatrixDiag, MatrixDiagPart, MatrixSetDiag, Atan2 and Bincount on the CPU.
#include <cmath>
#include <cstring>

#include "engine/core/Dispatch.h"
#include "engine/kernels/cpu/Elementwise.h"

namespace tlens {

namespace {

/// Batch count and the innermost [m, n] of a tensor of rank >= 2.
struct Mats {
  int64_t batch, m, n;
};
Mats mats(const Tensor& t) {
  const int64_t m = t.dim(t.rank() - 2), n = t.dim(t.rank() - 1);
  return {m * n == 0 ? 0 : t.numElements() / (m * n), m, n};
}

void bandPartKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const Mats s = mats(x);
  const int64_t lo = c.input(1).getInt(0), up = c.input(2).getInt(0);
  if (lo > s.m) c.fail("num_lower must be negative or less or equal to number of rows (" + std::to_string(s.m) + ") got: " + std::to_string(lo));
  if (up > s.n) c.fail("num_upper must be negative or less or equal to number of columns (" + std::to_string(s.n) + ") got: " + std::to_string(up));
  Tensor& out = c.allocateOutput(0, x.shape(), x.dtype());
  const size_t es = dtypeSize(x.dtype());
  const char* src = static_cast<const char*>(x.raw());
  char* dst = static_cast<char*>(out.raw());
  if (out.bytes()) std::memset(dst, 0, out.bytes());
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t j = 0; j < s.n; ++j)
        if ((lo < 0 || i - j <= lo) && (up < 0 || j - i <= up)) {
          const int64_t k = (b * s.m + i) * s.n + j;
          std::memcpy(dst + k * es, src + k * es, es);
        }
}

void diagKernel(KernelContext& c) {
  const Tensor& d = c.input(0);
  const int64_t n = d.dim(d.rank() - 1), batch = n == 0 ? 0 : d.numElements() / n;
  ConcreteShape os = d.shape();
  os.push_back(n);
  Tensor& out = c.allocateOutput(0, os, d.dtype());
  const size_t es = dtypeSize(d.dtype());
  char* dst = static_cast<char*>(out.raw());
  if (out.bytes()) std::memset(dst, 0, out.bytes());
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + ((b * n + i) * n + i) * es, static_cast<const char*>(d.raw()) + (b * n + i) * es, es);
}

void diagPartKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const Mats s = mats(x);
  const int64_t k = std::min(s.m, s.n);
  ConcreteShape os(x.shape().begin(), x.shape().end() - 2);
  os.push_back(k);
  Tensor& out = c.allocateOutput(0, os, x.dtype());
  const size_t es = dtypeSize(x.dtype());
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t i = 0; i < k; ++i)
      std::memcpy(static_cast<char*>(out.raw()) + (b * k + i) * es,
                  static_cast<const char*>(x.raw()) + ((b * s.m + i) * s.n + i) * es, es);
}

void setDiagKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const Tensor& d = c.input(1);
  const Mats s = mats(x);
  const int64_t k = std::min(s.m, s.n);
  Tensor& out = c.allocateOutput(0, x.shape(), x.dtype());
  const size_t es = dtypeSize(x.dtype());
  if (out.bytes()) std::memcpy(out.raw(), x.raw(), out.bytes());
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t i = 0; i < k; ++i)
      std::memcpy(static_cast<char*>(out.raw()) + ((b * s.m + i) * s.n + i) * es,
                  static_cast<const char*>(d.raw()) + (b * k + i) * es, es);
}

template <typename T>
struct Atan2F {
  T operator()(T y, T x) const {
    return static_cast<T>(std::atan2(static_cast<double>(y), static_cast<double>(x)));
  }
};

void atan2Kernel(KernelContext& c) {
  dispatchFloat(c.input(0).dtype(), [&](auto z) {
    using T = decltype(z);
    cpu::binaryKernel<T, T>(c, Atan2F<T>{});
  });
}

void bincountKernel(KernelContext& c) {
  const Tensor& arr = c.input(0);
  const Tensor& w = c.input(2);
  const int64_t size = c.input(1).getInt(0);
  if (size < 0) c.fail("size (" + std::to_string(size) + ") must be non-negative");
  const bool weighted = w.numElements() > 0;
  Tensor& out = c.allocateOutput(0, {size}, w.dtype());
  const int32_t* a = arr.data<int32_t>();
  for (int64_t i = 0; i < arr.numElements(); ++i)
    if (a[i] < 0) c.fail("Input arr must be non-negative!");
  dispatchNumeric(w.dtype(), [&](auto z) {
    using T = decltype(z);
    T* o = out.data<T>();
    std::fill(o, o + size, T(0));
    for (int64_t i = 0; i < arr.numElements(); ++i)
      if (a[i] < size) o[a[i]] = static_cast<T>(o[a[i]] + (weighted ? w.data<T>()[i] : T(1)));
  });
}

}  // namespace

void registerCpuMatrixDiagKernels(KernelRegistry& r) {
  r.add("MatrixBandPart", Device::CPU, bandPartKernel);
  r.add("MatrixDiag", Device::CPU, diagKernel);
  r.add("MatrixDiagPart", Device::CPU, diagPartKernel);
  r.add("MatrixSetDiag", Device::CPU, setDiagKernel);
  r.add("Atan2", Device::CPU, atan2Kernel);
  r.add("Bincount", Device::CPU, bincountKernel);
}

}  // namespace tlens
