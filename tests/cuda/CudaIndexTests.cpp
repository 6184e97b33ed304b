// The index arithmetic of the GPU kernels (engine/cuda/IndexMath.h and the builders in
// GpuKernel.h), run on the host against plain loops: broadcasting with dim merging, reduction
// layouts, strided copies (transposes, strided slices, pads). Needs no device: these run everywhere.
#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "CudaTestUtil.h"
#include "engine/cuda/GpuKernel.h"
#include "engine/cuda/IndexMath.h"

using namespace tlens;
using namespace tlens::cuda;

namespace {

std::vector<int64_t> unravel(int64_t i, const ConcreteShape& s) {
  std::vector<int64_t> idx(s.size());
  for (size_t d = s.size(); d-- > 0;) {
    idx[d] = i % s[d];
    i /= s[d];
  }
  return idx;
}

/// numpy: the flat offset in an operand of shape `op` of output multi-index `idx`.
int64_t broadcastOffset(const std::vector<int64_t>& idx, const ConcreteShape& op) {
  const size_t lead = idx.size() - op.size();
  int64_t off = 0;
  for (size_t d = 0; d < op.size(); ++d) off = off * op[d] + (op[d] == 1 ? 0 : idx[lead + d]);
  return off;
}

ConcreteShape randomShape(std::mt19937_64& rng, int rank, int maxDim) {
  ConcreteShape s;
  for (int d = 0; d < rank; ++d) s.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(maxDim)) + 1);
  return s;
}

/// An operand broadcastable to `out`: a suffix of it with some dims set to 1.
ConcreteShape operandOf(std::mt19937_64& rng, const ConcreteShape& out) {
  const size_t keep = rng() % (out.size() + 1);
  ConcreteShape s(out.end() - static_cast<std::ptrdiff_t>(keep), out.end());
  for (int64_t& d : s)
    if (rng() % 3 == 0) d = 1;
  return s;
}

}  // namespace

TEST_CASE("broadcast index spaces give numpy's operand offsets for every element", "[cuda][index]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    const ConcreteShape out = randomShape(rng, static_cast<int>(rng() % 6), 4);
    const int nops = 2 + static_cast<int>(rng() % 2);
    std::vector<ConcreteShape> shapes;
    for (int k = 0; k < nops; ++k) shapes.push_back(trial % 5 == 0 && k == 0 ? out : operandOf(rng, out));
    std::vector<const ConcreteShape*> ops;
    for (const ConcreteShape& s : shapes) ops.push_back(&s);
    const Strided3 ix = elementwiseIndex(out, ops);
    const int64_t n = numElements(out);
    for (int64_t i = 0; i < n; ++i) {
      const std::vector<int64_t> idx = unravel(i, out);
      for (int k = 0; k < nops; ++k) {
        INFO("out " << concreteStr(out) << " operand " << k << " " << concreteStr(shapes[static_cast<size_t>(k)])
                    << " element " << i);
        REQUIRE(operandOffset(ix, k, i) == broadcastOffset(idx, shapes[static_cast<size_t>(k)]));
      }
    }
  }
  // Nine dims that merge fit; nine that cannot merge are refused, not mis-indexed.
  const ConcreteShape nine = {2, 2, 2, 2, 2, 2, 2, 2, 2}, last = {2};
  const Strided3 ok = elementwiseIndex(nine, {&nine, &last});
  CHECK(operandOffset(ok, 1, 511) == 1);
  const ConcreteShape alternating = {2, 1, 2, 1, 2, 1, 2, 1, 2};
  CHECK_THROWS_AS(elementwiseIndex(nine, {&nine, &alternating}), EngineError);
}

TEST_CASE("reduction layouts group exactly the elements that share their kept indices", "[cuda][index]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const int rank = static_cast<int>(rng() % 6);
    const ConcreteShape shape = randomShape(rng, rank, 4);
    std::vector<char> mask(static_cast<size_t>(rank));
    for (char& m : mask) m = static_cast<char>(rng() % 2);
    const ReduceLayout l = reduceLayout(shape, mask);
    int64_t outN = 1, groupN = 1;
    for (int d = 0; d < rank; ++d) (mask[static_cast<size_t>(d)] ? groupN : outN) *= shape[static_cast<size_t>(d)];
    INFO("shape " << concreteStr(shape) << " trial " << trial);
    REQUIRE(l.outN == outN);
    REQUIRE(l.groupN == groupN);
    // Expected: input element -> output index (row-major over the kept dims).
    std::map<int64_t, int64_t> expected;
    for (int64_t i = 0; i < numElements(shape); ++i) {
      const std::vector<int64_t> idx = unravel(i, shape);
      int64_t o = 0;
      for (int d = 0; d < rank; ++d)
        if (!mask[static_cast<size_t>(d)]) o = o * shape[static_cast<size_t>(d)] + idx[static_cast<size_t>(d)];
      expected[i] = o;
    }
    std::set<int64_t> seen;
    for (int64_t o = 0; o < l.outN; ++o)
      for (int64_t g = 0; g < l.groupN; ++g) {
        const int64_t off = layoutOffset(l.keptRank, l.keptDims, l.keptStrides, o) +
                            layoutOffset(l.redRank, l.redDims, l.redStrides, g);
        REQUIRE(expected.count(off) == 1);
        REQUIRE(expected[off] == o);
        REQUIRE(seen.insert(off).second);
      }
    CHECK(static_cast<int64_t>(seen.size()) == numElements(shape));
  }
}

TEST_CASE("strided copies (transposes, strided slices, pads) visit the right source and destination", "[cuda][index]") {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = 1 + static_cast<int>(rng() % 5);
    const ConcreteShape in = randomShape(rng, rank, 5);
    const std::vector<int64_t> inSt = rowMajorStrides(in);
    // A strided slice of a random permutation of `in`, written into a padded destination.
    std::vector<int> perm(static_cast<size_t>(rank));
    for (int d = 0; d < rank; ++d) perm[static_cast<size_t>(d)] = d;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int64_t> sizes, srcStrides;
    int64_t srcBase = 0;
    for (int d = 0; d < rank; ++d) {
      const int p = perm[static_cast<size_t>(d)];
      const int64_t dim = in[static_cast<size_t>(p)];
      const bool reverse = rng() % 3 == 0;
      const int64_t step = 1 + static_cast<int64_t>(rng() % 2);
      const int64_t count = (dim + step - 1) / step;
      sizes.push_back(count);
      srcStrides.push_back((reverse ? -step : step) * inSt[static_cast<size_t>(p)]);
      if (reverse) srcBase += (dim - 1) * inSt[static_cast<size_t>(p)];
    }
    ConcreteShape dstShape;
    int64_t dstBase = 0;
    for (int d = 0; d < rank; ++d) dstShape.push_back(sizes[static_cast<size_t>(d)] + (d % 2));
    const std::vector<int64_t> dstSt = rowMajorStrides(dstShape);
    for (int d = 0; d < rank; ++d) dstBase += (d % 2) * dstSt[static_cast<size_t>(d)];
    const StridedCopy c = makeCopy(sizes, srcStrides, srcBase, dstSt, dstBase);
    const int64_t n = numElements(sizes);
    for (int64_t i = 0; i < n; ++i) {
      const std::vector<int64_t> idx = unravel(i, sizes);
      int64_t so = srcBase, d = dstBase;
      for (int k = 0; k < rank; ++k) {
        so += idx[static_cast<size_t>(k)] * srcStrides[static_cast<size_t>(k)];
        d += idx[static_cast<size_t>(k)] * dstSt[static_cast<size_t>(k)];
      }
      int64_t gs = -1, gd = -1;
      copyOffsets(c, i, &gs, &gd);
      INFO("sizes " << concreteStr(sizes) << " element " << i);
      REQUIRE(gs == so);
      REQUIRE(gd == d);
      REQUIRE(gs >= 0);
      REQUIRE(gs < numElements(in));
    }
  }
}

#include "engine/cuda/ConvLayout.h"

namespace {

/// Runs a layout spec through the kernels' copy builder and offsets on host vectors.
std::vector<int64_t> applySpec(const CopySpec& spec, const std::vector<int64_t>& src, size_t dstSize) {
  std::vector<int64_t> dst(dstSize, -1);
  const StridedCopy c = makeCopy(spec.sizes, spec.srcStrides, spec.srcBase, spec.dstStrides, spec.dstBase);
  int64_t n = 1;
  for (int64_t s : spec.sizes) n *= s;
  for (int64_t i = 0; i < n; ++i) {
    int64_t so, d;
    copyOffsets(c, i, &so, &d);
    REQUIRE(so >= 0);
    REQUIRE(so < static_cast<int64_t>(src.size()));
    REQUIRE(d >= 0);
    REQUIRE(d < static_cast<int64_t>(dstSize));
    dst[static_cast<size_t>(d)] = src[static_cast<size_t>(so)];
  }
  return dst;
}

std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = i;
  return v;
}

}  // namespace

TEST_CASE("the convolution layout permutations (NHWC/HWIO <-> NCHW/OIHW, asymmetric padding) map every element",
          "[cuda][index]") {
  std::mt19937_64 rng(29);
  for (int trial = 0; trial < 60; ++trial) {
    ConvGeom g{};
    g.n = 1 + rng() % 2; g.h = 1 + rng() % 5; g.w = 1 + rng() % 5; g.c = 1 + rng() % 3;
    g.kh = 1 + rng() % 3; g.kw = 1 + rng() % 3; g.o = 1 + rng() % 3;
    g.oh = 1 + rng() % 4; g.ow = 1 + rng() % 4;
    g.padT = rng() % 2; g.padB = g.padT + rng() % 2; g.padL = rng() % 2; g.padR = g.padL + rng() % 2;
    INFO("trial " << trial << (g.symmetric() ? " symmetric" : " asymmetric"));
    const int64_t Hp = g.hp(), Wp = g.wp(), pT = g.symmetric() ? 0 : g.padT, pL = g.symmetric() ? 0 : g.padL;
    const int64_t nx = g.n * g.h * g.w * g.c, nxp = g.n * g.c * Hp * Wp;
    const int64_t nf = g.kh * g.kw * g.c * g.o, ny = g.n * g.oh * g.ow * g.o;
    const std::vector<int64_t> xp = applySpec(convlayout::inputToNchw(g), iota(nx), static_cast<size_t>(nxp));
    const std::vector<int64_t> dx = applySpec(convlayout::inputGradToNhwc(g), xp, static_cast<size_t>(nx));
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t h = 0; h < g.h; ++h)
        for (int64_t w = 0; w < g.w; ++w)
          for (int64_t c = 0; c < g.c; ++c) {
            const int64_t nhwc = ((n * g.h + h) * g.w + w) * g.c + c;
            REQUIRE(xp[static_cast<size_t>(((n * g.c + c) * Hp + h + pT) * Wp + w + pL)] == nhwc);
            REQUIRE(dx[static_cast<size_t>(nhwc)] == nhwc);  // the way back reads the same interior
          }
    int64_t untouched = 0;
    for (int64_t v : xp) untouched += v < 0;
    CHECK(untouched == nxp - nx);  // the padding is left to the memset
    const std::vector<int64_t> fo = applySpec(convlayout::filterToOihw(g), iota(nf), static_cast<size_t>(nf));
    const std::vector<int64_t> fb = applySpec(convlayout::filterGradToHwio(g), fo, static_cast<size_t>(nf));
    for (int64_t i = 0; i < g.kh; ++i)
      for (int64_t j = 0; j < g.kw; ++j)
        for (int64_t c = 0; c < g.c; ++c)
          for (int64_t o = 0; o < g.o; ++o) {
            const int64_t hwio = ((i * g.kw + j) * g.c + c) * g.o + o;
            REQUIRE(fo[static_cast<size_t>(((o * g.c + c) * g.kh + i) * g.kw + j)] == hwio);
            REQUIRE(fb[static_cast<size_t>(hwio)] == hwio);
          }
    const std::vector<int64_t> yn = applySpec(convlayout::gradToNchw(g), iota(ny), static_cast<size_t>(ny));
    const std::vector<int64_t> yb = applySpec(convlayout::outputToNhwc(g), yn, static_cast<size_t>(ny));
    for (int64_t n = 0; n < g.n; ++n)
      for (int64_t y = 0; y < g.oh; ++y)
        for (int64_t x = 0; x < g.ow; ++x)
          for (int64_t o = 0; o < g.o; ++o) {
            const int64_t nhwc = ((n * g.oh + y) * g.ow + x) * g.o + o;
            REQUIRE(yn[static_cast<size_t>(((n * g.o + o) * g.oh + y) * g.ow + x)] == nhwc);
            REQUIRE(yb[static_cast<size_t>(nhwc)] == nhwc);
          }
  }
}
