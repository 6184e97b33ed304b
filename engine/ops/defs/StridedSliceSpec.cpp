#include "engine/ops/defs/StridedSliceSpec.h"

#include <algorithm>

namespace tlens::slicing {

StridedSliceMasks StridedSliceMasks::read(const AttrReader& a) {
  StridedSliceMasks m;
  m.begin = a.getInt("begin_mask");
  m.end = a.getInt("end_mask");
  m.ellipsis = a.getInt("ellipsis_mask");
  m.newAxis = a.getInt("new_axis_mask");
  m.shrink = a.getInt("shrink_axis_mask");
  return m;
}

bool StridedSliceAnalysis::fullyKnown() const {
  if (!rankKnown) return false;
  for (const SliceDim& d : dims)
    if (d.size < 0 || !d.beginKnown) return false;
  return true;
}

ConcreteShape StridedSliceAnalysis::processingShape() const {
  ConcreteShape s;
  for (const SliceDim& d : dims) s.push_back(d.size);
  return s;
}

std::vector<int64_t> StridedSliceAnalysis::flatIndices(const ConcreteShape& in) const {
  const size_t r = dims.size();
  std::vector<int64_t> inStride(r, 1);
  for (size_t i = r; i-- > 1;) inStride[i - 1] = inStride[i] * in[i];
  int64_t total = 1;
  for (const SliceDim& d : dims) total *= d.size;
  std::vector<int64_t> out;
  if (total <= 0) return out;
  out.reserve(static_cast<size_t>(total));
  std::vector<int64_t> idx(r, 0);
  int64_t base = 0;
  for (size_t i = 0; i < r; ++i) base += dims[i].begin * inStride[i];
  int64_t off = base;
  for (int64_t k = 0; k < total; ++k) {
    out.push_back(off);
    for (size_t d = r; d-- > 0;) {
      off += dims[d].stride * inStride[d];
      if (++idx[d] < dims[d].size) break;
      off -= dims[d].stride * inStride[d] * dims[d].size;
      idx[d] = 0;
    }
  }
  return out;
}

namespace {

bool bit(int64_t mask, int64_t i) { return i < 63 && ((mask >> i) & 1) != 0; }

/// One dense dim before canonicalisation.
struct DenseDim {
  std::optional<int64_t> begin, end, stride;
  bool beginMasked = false, endMasked = false, shrink = false;
};

}  // namespace

StridedSliceAnalysis analyzeStridedSlice(const Shape& input, int64_t sparseLen,
                                         const std::optional<std::vector<int64_t>>& begin,
                                         const std::optional<std::vector<int64_t>>& end,
                                         const std::optional<std::vector<int64_t>>& strides,
                                         const StridedSliceMasks& m) {
  StridedSliceAnalysis a;
  if (m.ellipsis != 0 && (m.ellipsis & (m.ellipsis - 1)) != 0) {
    a.error = "Multiple ellipses in slice spec not allowed";
    return a;
  }
  if (sparseLen > 62) {
    a.error = "Too many slice dimensions: " + std::to_string(sparseLen);
    return a;
  }
  if (!input.rankKnown() || sparseLen < 0) return a;  // unknown rank

  // Sparse spec: the ellipsis (implicit at the end when absent) and the new axes after it.
  int64_t n = sparseLen;
  int64_t ellipsisMask = m.ellipsis;
  bool ellipsisSeen = false;
  int64_t addAfterEllipsis = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (ellipsisSeen && bit(m.newAxis, i)) ++addAfterEllipsis;
    if (bit(ellipsisMask, i)) ellipsisSeen = true;
  }
  int64_t sparseDims = n;
  if (!ellipsisSeen) {
    ellipsisMask |= int64_t{1} << n;
    ++sparseDims;
  }

  // Dense spec: one entry per input dim.
  const int64_t rank = input.rank();
  std::vector<DenseDim> dense(static_cast<size_t>(rank));
  auto at = [](const std::optional<std::vector<int64_t>>& v, int64_t i) -> std::optional<int64_t> {
    if (!v || i >= static_cast<int64_t>(v->size())) return std::nullopt;
    return (*v)[static_cast<size_t>(i)];
  };
  int64_t full = 0;
  for (int64_t i = 0; i < sparseDims; ++i) {
    if (bit(ellipsisMask, i)) {
      const int64_t next = std::min(rank - (sparseDims - i) + 1 + addAfterEllipsis, rank);
      for (; full < next; ++full) {
        DenseDim& d = dense[static_cast<size_t>(full)];
        d.stride = 1;
        d.beginMasked = d.endMasked = true;
        a.finalDims.push_back(static_cast<int>(full));
      }
    } else if (bit(m.newAxis, i)) {
      a.finalDims.push_back(-1);
    } else {
      if (full == rank) {
        a.error = "Index out of range using input dim " + std::to_string(full) +
                  "; input has only " + std::to_string(rank) + " dims";
        return a;
      }
      DenseDim& d = dense[static_cast<size_t>(full)];
      d.begin = at(begin, i);
      d.end = at(end, i);
      d.stride = at(strides, i);
      d.beginMasked = bit(m.begin, i);
      d.endMasked = bit(m.end, i);
      d.shrink = bit(m.shrink, i);
      a.finalDims.push_back(d.shrink ? -2 : static_cast<int>(full));
      ++full;
    }
  }

  // Canonical begin/size per dim (TensorFlow's ValidateStridedSliceOp).
  std::vector<Dim> outOf(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) {
    const DenseDim& d = dense[static_cast<size_t>(i)];
    const Dim& dim = input[static_cast<size_t>(i)];
    SliceDim& s = a.dims.emplace_back();
    s.shrink = d.shrink;
    if (d.stride && *d.stride == 0) {
      a.error = "strides[" + std::to_string(i) + "] must be non-zero";
      return a;
    }
    if (d.shrink && d.stride && *d.stride <= 0) {
      a.error = "only stride 1 allowed on non-range indexing.";
      return a;
    }
    if (d.stride) s.stride = *d.stride;
    Dim& out = outOf[static_cast<size_t>(i)];
    out = Dim::unknown();
    if (d.shrink) {
      s.size = 1;
      s.stride = 1;
      if (dim.isKnown() && d.begin) {
        const int64_t fwd = *d.begin < 0 ? dim.size + *d.begin : *d.begin;
        if (fwd < 0 || fwd >= dim.size) {
          a.error = "slice index " + std::to_string(fwd) + " of dimension " + std::to_string(i) +
                    " out of bounds.";
          return a;
        }
        s.begin = fwd;
        s.beginKnown = true;
      }
      continue;
    }
    if (!d.stride) continue;
    const int64_t st = *d.stride;
    if (!dim.isKnown()) {
      // A full slice keeps the dim (and its symbol): `:` and `::-1`.
      const bool fromStart = d.beginMasked || (d.begin && *d.begin == (st > 0 ? 0 : -1));
      if ((st == 1 || st == -1) && fromStart && d.endMasked) out = dim;
      continue;
    }
    const int64_t n0 = dim.size;
    const int64_t lo = st > 0 ? 0 : -1, hi = st > 0 ? n0 : n0 - 1;
    auto canonical = [&](std::optional<int64_t> x, bool masked, int c) -> std::optional<int64_t> {
      if (masked) return st > 0 ? (c == 0 ? lo : hi) : (c == 0 ? hi : lo);
      if (!x) return std::nullopt;
      const int64_t fwd = *x < 0 ? n0 + *x : *x;
      return std::clamp(fwd, lo, hi);
    };
    std::optional<int64_t> b = canonical(d.begin, d.beginMasked, 0);
    std::optional<int64_t> e = canonical(d.end, d.endMasked, 1);
    if (b) {
      s.begin = *b;
      s.beginKnown = true;
    }
    if (b && e) {
      const int64_t len = *e - *b;
      if (len == 0 || ((len < 0) != (st < 0))) s.size = 0;
      else s.size = len / st + (len % st != 0 ? 1 : 0);
      out = Dim::known(s.size);
    }
  }

  a.rankKnown = true;
  std::vector<Dim> outDims;
  std::vector<int> finalDims;
  for (int f : a.finalDims) {
    if (f == -2) continue;  // shrunk
    finalDims.push_back(f);
    outDims.push_back(f < 0 ? Dim::known(1) : outOf[static_cast<size_t>(f)]);
  }
  a.finalDims = std::move(finalDims);
  a.output = Shape(std::move(outDims));
  return a;
}

}  // namespace tlens::slicing
