// Transpose on the CPU. Dims that stay adjacent are merged first; when the innermost dim stays
// innermost, rows are memcpy'd; otherwise the two dims that are contiguous in the input and in
// the output are walked in cache-sized tiles.
#include <algorithm>

#include "engine/kernels/KernelChecks.h"
#include "engine/kernels/cpu/DataMovement.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

namespace {

namespace mv = cpu::movement;

constexpr int64_t kTile = 32;

template <typename U>
void tiledTranspose(const U* src, U* dst, const std::vector<int64_t>& sz, const std::vector<int64_t>& ss,
                    const std::vector<int64_t>& ds, size_t a) {
  // a: the output dim that is contiguous in the input (ss[a] == 1); the last output dim b is
  // contiguous in the output (ds[b] == 1).
  const size_t r = sz.size(), b = r - 1;
  std::vector<size_t> outerDims;
  for (size_t i = 0; i < r; ++i)
    if (i != a && i != b) outerDims.push_back(i);
  int64_t outer = 1;
  for (size_t i : outerDims) outer *= sz[i];
  const int64_t na = sz[a], nb = sz[b];
  const int64_t ta = (na + kTile - 1) / kTile, tb = (nb + kTile - 1) / kTile;
  const int64_t units = outer * ta * tb;
  const int64_t sa = ss[a], sb = ss[b], da = ds[a];
  parallelFor(units, std::max<int64_t>(1, 4096 / (kTile * kTile)), [&](int64_t ub, int64_t ue) {
    for (int64_t u = ub; u < ue; ++u) {
      int64_t rem = u;
      const int64_t jb = rem % tb;
      rem /= tb;
      const int64_t ja = rem % ta;
      rem /= ta;
      int64_t so = 0, dof = 0;
      for (size_t k = outerDims.size(); k-- > 0;) {
        const size_t d = outerDims[k];
        const int64_t i = rem % sz[d];
        rem /= sz[d];
        so += i * ss[d];
        dof += i * ds[d];
      }
      const int64_t a0 = ja * kTile, a1 = std::min(na, a0 + kTile);
      const int64_t b0 = jb * kTile, b1 = std::min(nb, b0 + kTile);
      for (int64_t ia = a0; ia < a1; ++ia) {
        const U* sp = src + so + ia * sa;
        U* dp = dst + dof + ia * da;
        for (int64_t ib = b0; ib < b1; ++ib) dp[ib] = sp[ib * sb];
      }
    }
  });
}

void transposeKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const std::vector<int64_t> perm = c.input(1).toInt64Vector();
  const int r = in.rank();
  checkPermutation(c, perm, r);
  Tensor& out = c.allocateOutput(0);
  if (out.numElements() == 0) return;
  const std::vector<int64_t> inSt = mv::rowMajorStrides(in.shape());
  // Output dims with their input strides, size-1 dims dropped, adjacent input-contiguous dims merged.
  std::vector<int64_t> sz, ss;
  for (int i = 0; i < r; ++i) {
    const int64_t n = out.dim(i), s = inSt[static_cast<size_t>(perm[static_cast<size_t>(i)])];
    if (n == 1) continue;
    if (!sz.empty() && ss.back() == s * n) {
      sz.back() *= n;
      ss.back() = s;
    } else {
      sz.push_back(n);
      ss.push_back(s);
    }
  }
  if (sz.empty()) {
    std::memcpy(out.raw(), in.raw(), in.bytes());
    return;
  }
  const std::vector<int64_t> ds = mv::rowMajorStrides(ConcreteShape(sz.begin(), sz.end()));
  auto a = std::find(ss.begin(), ss.end(), 1);
  if (ss.back() == 1 || a == ss.end()) {
    mv::stridedCopy(in, out, sz, ss, 0, ds, 0);
    return;
  }
  mv::dispatchBySize(in.dtype(), [&](auto z) {
    using U = decltype(z);
    tiledTranspose<U>(static_cast<const U*>(in.raw()), static_cast<U*>(out.raw()), sz, ss, ds,
                      static_cast<size_t>(a - ss.begin()));
  });
}

}  // namespace

void registerCpuTransposeKernels(KernelRegistry& r) { r.add("Transpose", Device::CPU, transposeKernel); }

}  // namespace tlens
