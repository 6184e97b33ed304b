#include "engine/runtime/Numerics.h"

#include "engine/core/Dispatch.h"

#ifdef TLENS_HAVE_CUDA
#include "engine/cuda/CudaBackend.h"
#endif

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace tlens {

namespace {

// A float is non-finite iff all its exponent bits are set: with the sign bit cleared, iff its bits
// are >= the exponent mask. So one running unsigned max over the raw bits per block answers "any
// NaN/Inf?": one vector max per element (unlike std::isfinite in a loop or Eigen's scalar
// allFinite), and -ffast-math could not fold it away.
template <typename Bits>
bool bitsAllFinite(const void* data, int64_t n, Bits expMask, Bits absMask) {
  const Bits* p = static_cast<const Bits*>(data);
  constexpr int64_t kBlock = 1024;  // check for an early exit once per block, not per element
  int64_t i = 0;
  for (; i + kBlock <= n; i += kBlock) {
    Bits hi = 0;
    for (int64_t k = 0; k < kBlock; ++k) {
      const Bits v = p[i + k] & absMask;
      hi = v > hi ? v : hi;
    }
    if (hi >= expMask) return false;
  }
  Bits hi = 0;
  for (; i < n; ++i) {
    const Bits v = p[i] & absMask;
    hi = v > hi ? v : hi;
  }
  return hi < expMask;
}

template <typename T>
void countRange(const T* p, int64_t n, NonFiniteCounts& c) {
  for (int64_t i = 0; i < n; ++i) {
    double v = static_cast<double>(p[i]);
    if (std::isnan(v)) ++c.nan;
    else if (std::isinf(v)) (v > 0 ? c.posInf : c.negInf)++;
  }
}

}  // namespace

bool allFinite(DType dtype, const void* data, int64_t n) {
  switch (dtype) {
    case DType::Float32: return bitsAllFinite<uint32_t>(data, n, 0x7f800000u, 0x7fffffffu);
    case DType::Float64:
      return bitsAllFinite<uint64_t>(data, n, 0x7ff0000000000000ull, 0x7fffffffffffffffull);
    case DType::Float16: return bitsAllFinite<uint16_t>(data, n, uint16_t{0x7c00}, uint16_t{0x7fff});
    default: return true;
  }
}

// A tensor in device memory is scanned on its device (one fused reduction) or, without the CUDA
// backend, copied to the host first.
bool allFinite(const Tensor& t) {
  if (!t.hostAccessible()) {
#ifdef TLENS_HAVE_CUDA
    if (t.device().kind == Device::GPU) return cuda::allFinite(t);
#endif
    return allFinite(t.toHost());
  }
  return allFinite(t.dtype(), t.raw(), t.numElements());
}

NonFiniteCounts countNonFinite(const Tensor& t) {
  NonFiniteCounts c;
  if (!isFloating(t.dtype()) || allFinite(t)) return c;
  if (!t.hostAccessible()) return countNonFinite(t.toHost());
  dispatchFloat(t.dtype(), [&](auto z) {
    using T = decltype(z);
    countRange(t.data<T>(), t.numElements(), c);
  });
  return c;
}

bool sharesBufferWith(const Tensor& t, const std::vector<Tensor>& inputs) {
  for (const Tensor& in : inputs)
    if (in.valid() && in.buffer() == t.buffer()) return true;
  return false;
}

TensorSummary summarize(const Tensor& t) {
  if (t.valid() && !t.hostAccessible()) return summarize(t.toHost());
  TensorSummary s;
  s.count = t.numElements();
  if (!t.valid() || s.count == 0 || t.dtype() == DType::String) return s;  // strings: a count only
  double sum = 0, sumSq = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
  // First pass: moments and counts. Second (cheap, same data still hot for small tensors):
  // histogram once the range is known.
  dispatchAll(t.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* p = t.data<T>();
    for (int64_t i = 0; i < s.count; ++i) {
      double v = static_cast<double>(p[i]);
      if (std::isnan(v)) { ++s.nan; continue; }
      if (std::isinf(v)) { (v > 0 ? s.posInf : s.negInf)++; continue; }
      ++s.finite;
      if (v == 0) ++s.zero;
      sum += v;
      sumSq += v * v;
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    if (s.finite == 0) return;
    const double width = (hi - lo) / TensorSummary::kBins;
    for (int64_t i = 0; i < s.count; ++i) {
      double v = static_cast<double>(p[i]);
      if (!std::isfinite(v)) continue;
      int b = width > 0 ? static_cast<int>((v - lo) / width) : 0;
      s.histogram[static_cast<size_t>(b >= TensorSummary::kBins ? TensorSummary::kBins - 1 : b)]++;
    }
  });
  if (s.finite) {
    s.min = lo;
    s.max = hi;
    s.mean = sum / static_cast<double>(s.finite);
    double var = sumSq / static_cast<double>(s.finite) - s.mean * s.mean;
    s.std = var > 0 ? std::sqrt(var) : 0;
  }
  return s;
}

std::string TensorSummary::line() const {
  std::ostringstream os;
  os.precision(4);
  os << "min=" << min << " max=" << max << " mean=" << mean << " std=" << std << " nan=" << nan
     << " inf=" << (posInf + negInf);
  return os.str();
}

std::string TensorSummary::sparkline() const {
  static const char* kBars[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                "\u2585", "\u2586", "\u2587", "\u2588"};
  int64_t peak = 0;
  for (int64_t h : histogram) peak = h > peak ? h : peak;
  std::string s;
  for (int64_t h : histogram) {
    if (peak == 0 || h == 0) { s += " "; continue; }
    int level = static_cast<int>((h * 7 + peak - 1) / peak);
    s += kBars[level > 7 ? 7 : level];
  }
  return s;
}

}  // namespace tlens
