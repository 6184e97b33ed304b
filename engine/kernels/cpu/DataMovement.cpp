#include "engine/kernels/cpu/DataMovement.h"

#include <algorithm>

#include "engine/runtime/ThreadPool.h"

namespace tlens::cpu::movement {

namespace {

constexpr int64_t kCopyGrainBytes = 1 << 18;

/// memcpy split over the pool when it is large.
void parallelMemcpy(unsigned char* dst, const unsigned char* src, int64_t bytes) {
  if (bytes <= 0) return;
  if (bytes < (int64_t{1} << 20)) {
    std::memcpy(dst, src, static_cast<size_t>(bytes));
    return;
  }
  parallelFor(bytes, int64_t{1} << 18, [&](int64_t b, int64_t e) {
    std::memcpy(dst + b, src + b, static_cast<size_t>(e - b));
  });
}

}  // namespace

std::vector<int64_t> indexValues(const Tensor& t) {
  const int64_t n = t.numElements();
  std::vector<int64_t> v(static_cast<size_t>(n));
  if (t.dtype() == DType::Int32) {
    const int32_t* p = t.data<int32_t>();
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = p[i];
  } else if (t.dtype() == DType::Int64) {
    const int64_t* p = t.data<int64_t>();
    std::copy(p, p + n, v.begin());
  } else {
    v = t.toInt64Vector();
  }
  return v;
}

std::vector<int64_t> rowMajorStrides(const ConcreteShape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

void stridedCopy(const Tensor& src, Tensor& dst, const std::vector<int64_t>& sizes,
                 const std::vector<int64_t>& srcStrides, int64_t srcBase,
                 const std::vector<int64_t>& dstStrides, int64_t dstBase) {
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  if (total <= 0) return;
  // Drop size-1 dims and merge dims that are contiguous on both sides.
  std::vector<int64_t> sz, ss, ds;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 1) continue;
    if (!sz.empty() && ss.back() == srcStrides[i] * sizes[i] && ds.back() == dstStrides[i] * sizes[i]) {
      sz.back() *= sizes[i];
      ss.back() = srcStrides[i];
      ds.back() = dstStrides[i];
    } else {
      sz.push_back(sizes[i]);
      ss.push_back(srcStrides[i]);
      ds.push_back(dstStrides[i]);
    }
  }
  if (sz.empty()) {
    sz = {1};
    ss = {1};
    ds = {1};
  }
  const int r = static_cast<int>(sz.size());
  const int64_t inner = sz[static_cast<size_t>(r - 1)];
  const int64_t si = ss[static_cast<size_t>(r - 1)], di = ds[static_cast<size_t>(r - 1)];
  const int64_t rows = total / inner;
  const int64_t es = static_cast<int64_t>(dtypeSize(src.dtype()));
  dispatchBySize(src.dtype(), [&](auto z) {
    using U = decltype(z);
    const U* s = static_cast<const U*>(src.raw());
    U* d = static_cast<U*>(dst.raw());
    if (rows == 1 && si == 1 && di == 1) {
      parallelMemcpy(reinterpret_cast<unsigned char*>(d + dstBase),
                     reinterpret_cast<const unsigned char*>(s + srcBase), inner * es);
      return;
    }
    const int64_t grain = std::max<int64_t>(1, kCopyGrainBytes / std::max<int64_t>(1, inner * es));
    parallelFor(rows, grain, [&](int64_t b, int64_t e) {
      std::vector<int64_t> idx(static_cast<size_t>(std::max(r - 1, 0)), 0);
      int64_t rem = b, so = srcBase, dof = dstBase;
      for (int k = r - 2; k >= 0; --k) {
        const size_t uk = static_cast<size_t>(k);
        idx[uk] = rem % sz[uk];
        rem /= sz[uk];
        so += idx[uk] * ss[uk];
        dof += idx[uk] * ds[uk];
      }
      for (int64_t row = b; row < e; ++row) {
        if (si == 1 && di == 1) {
          std::memcpy(d + dof, s + so, static_cast<size_t>(inner) * sizeof(U));
        } else {
          const U* sp = s + so;
          U* dp = d + dof;
          for (int64_t k = 0; k < inner; ++k) dp[k * di] = sp[k * si];
        }
        for (int k = r - 2; k >= 0; --k) {
          const size_t uk = static_cast<size_t>(k);
          so += ss[uk];
          dof += ds[uk];
          if (++idx[uk] < sz[uk]) break;
          so -= ss[uk] * sz[uk];
          dof -= ds[uk] * sz[uk];
          idx[uk] = 0;
        }
      }
    });
  });
}

void fillWith(Tensor& t, const Tensor& value) {
  dispatchBySize(t.dtype(), [&](auto z) {
    using U = decltype(z);
    U v;
    std::memcpy(&v, value.raw(), sizeof(U));
    U* p = static_cast<U*>(t.raw());
    parallelFor(t.numElements(), int64_t{1} << 15, [&](int64_t b, int64_t e) { std::fill(p + b, p + e, v); });
  });
}

void concatRows(const std::vector<const Tensor*>& ins, const std::vector<int64_t>& chunks, int64_t outer,
                Tensor& out) {
  const int64_t es = static_cast<int64_t>(dtypeSize(out.dtype()));
  int64_t row = 0;
  for (int64_t c : chunks) row += c;
  if (row == 0 || outer == 0) return;
  auto* dst = static_cast<unsigned char*>(out.raw());
  if (outer < 4) {
    for (int64_t o = 0; o < outer; ++o) {
      unsigned char* dp = dst + o * row * es;
      for (size_t i = 0; i < ins.size(); ++i) {
        parallelMemcpy(dp, static_cast<const unsigned char*>(ins[i]->raw()) + o * chunks[i] * es, chunks[i] * es);
        dp += chunks[i] * es;
      }
    }
    return;
  }
  parallelFor(outer, std::max<int64_t>(1, kCopyGrainBytes / (row * es)), [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      unsigned char* dp = dst + o * row * es;
      for (size_t i = 0; i < ins.size(); ++i) {
        const int64_t n = chunks[i] * es;
        if (n) std::memcpy(dp, static_cast<const unsigned char*>(ins[i]->raw()) + o * n, static_cast<size_t>(n));
        dp += n;
      }
    }
  });
}

void splitRows(const Tensor& in, int64_t outer, const std::vector<int64_t>& chunks, std::vector<Tensor*>& outs) {
  const int64_t es = static_cast<int64_t>(dtypeSize(in.dtype()));
  int64_t row = 0;
  for (int64_t c : chunks) row += c;
  if (row == 0 || outer == 0) return;
  const auto* src = static_cast<const unsigned char*>(in.raw());
  if (outer < 4) {
    for (int64_t o = 0; o < outer; ++o) {
      const unsigned char* sp = src + o * row * es;
      for (size_t i = 0; i < outs.size(); ++i) {
        parallelMemcpy(static_cast<unsigned char*>(outs[i]->raw()) + o * chunks[i] * es, sp, chunks[i] * es);
        sp += chunks[i] * es;
      }
    }
    return;
  }
  parallelFor(outer, std::max<int64_t>(1, kCopyGrainBytes / (row * es)), [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) {
      const unsigned char* sp = src + o * row * es;
      for (size_t i = 0; i < outs.size(); ++i) {
        const int64_t n = chunks[i] * es;
        if (n) std::memcpy(static_cast<unsigned char*>(outs[i]->raw()) + o * n, sp, static_cast<size_t>(n));
        sp += n;
      }
    }
  });
}

}  // namespace tlens::cpu::movement
