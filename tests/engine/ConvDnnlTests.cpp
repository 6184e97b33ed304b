// Conv2D and its backprops on both CPU paths: oneDNN's convolution primitives (DnnlConv.h, when
// libdnnl is installed) and the im2col + GEMM fallback. On random inputs both must match a direct
// double-precision implementation of TensorFlow's formulas, on geometries that exercise strides,
// VALID with leftover rows, SAME with the odd padding row at the bottom/right, dilations, 1x1
// filters, and a batch split over the pool's threads into unequal parts; oneDNN runs every pass
// dnnlconv::preferred() gives it, and the two paths agree on a real convnet layer.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "engine/kernels/cpu/DnnlConv.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/ThreadPool.h"

using namespace tlens;

namespace {

struct Case {
  int64_t n, h, w, c, kh, kw, o, sh, sw, dh, dw;
  bool same;
  int64_t eff(int64_t k, int64_t d) const { return (k - 1) * d + 1; }
  int64_t oh() const { return same ? (h + sh - 1) / sh : (h - eff(kh, dh)) / sh + 1; }
  int64_t ow() const { return same ? (w + sw - 1) / sw : (w - eff(kw, dw)) / sw + 1; }
  int64_t padT() const { return same ? std::max<int64_t>((oh() - 1) * sh + eff(kh, dh) - h, 0) / 2 : 0; }
  int64_t padL() const { return same ? std::max<int64_t>((ow() - 1) * sw + eff(kw, dw) - w, 0) / 2 : 0; }
  dnnlconv::Geometry geometry() const {
    return {n, h, w, c, kh, kw, o, oh(), ow(), sh, sw, dh, dw, padT(), padL()};
  }
  Attrs attrs() const {
    return {{"strides", std::vector<int64_t>{1, sh, sw, 1}},
            {"dilations", std::vector<int64_t>{1, dh, dw, 1}},
            {"padding", std::string(same ? "SAME" : "VALID")}};
  }
};

Tensor randomTensor(ConcreteShape s, unsigned seed) {
  Tensor t(DType::Float32, s);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

/// The three passes by their definition: y[n,i,j,o] = sum x[n, i*sh - padT + a*dh, j*sw - padL +
/// b*dw, c] f[a,b,c,o]; dx and df are that sum's derivatives, accumulated in double.
struct Reference {
  std::vector<double> y, dx, df;
  Reference(const Case& k, const Tensor& x, const Tensor& f, const Tensor& dy) {
    y.assign(size_t(k.n * k.oh() * k.ow() * k.o), 0);
    dx.assign(size_t(x.numElements()), 0);
    df.assign(size_t(f.numElements()), 0);
    const float *X = x.data<float>(), *F = f.data<float>(), *DY = dy.data<float>();
    for (int64_t n = 0; n < k.n; ++n)
      for (int64_t i = 0; i < k.oh(); ++i)
        for (int64_t j = 0; j < k.ow(); ++j)
          for (int64_t a = 0; a < k.kh; ++a)
            for (int64_t b = 0; b < k.kw; ++b) {
              const int64_t r = i * k.sh - k.padT() + a * k.dh, s = j * k.sw - k.padL() + b * k.dw;
              if (r < 0 || r >= k.h || s < 0 || s >= k.w) continue;
              for (int64_t c = 0; c < k.c; ++c)
                for (int64_t o = 0; o < k.o; ++o) {
                  const size_t xi = size_t(((n * k.h + r) * k.w + s) * k.c + c);
                  const size_t fi = size_t(((a * k.kw + b) * k.c + c) * k.o + o);
                  const size_t yi = size_t(((n * k.oh() + i) * k.ow() + j) * k.o + o);
                  y[yi] += double(X[xi]) * F[fi];
                  dx[xi] += double(DY[yi]) * F[fi];
                  df[fi] += double(DY[yi]) * X[xi];
                }
            }
  }
};

void requireClose(const Tensor& got, const std::vector<double>& want, const char* what) {
  INFO(what);
  REQUIRE(got.numElements() == int64_t(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::abs(got.data<float>()[i] - want[i]) <= 1e-4 * (1 + std::abs(want[i])) * 10);
  }
}

void requireClose(const std::vector<float>& got, const std::vector<double>& want, const char* what) {
  Tensor t(DType::Float32, {int64_t(got.size())});
  std::copy(got.begin(), got.end(), t.data<float>());
  requireClose(t, want, what);
}

Tensor sizes(std::vector<int32_t> v) { return Tensor::fromVector(v, {int64_t(v.size())}); }

struct Disabled {
  explicit Disabled(bool on) { dnnlconv::setDisabled(on); }
  ~Disabled() { dnnlconv::setDisabled(false); }
};

struct Threads {
  int before = intraOpThreads();
  explicit Threads(int n) { setIntraOpThreads(n); }
  ~Threads() { setIntraOpThreads(before); }
};

const std::vector<Case> kCases = {
    // n, h, w, c, kh, kw, o, sh, sw, dh, dw, same
    {3, 7, 6, 5, 3, 2, 4, 1, 1, 1, 1, true},    // even filter width: SAME pads 0 left, 1 right
    {5, 8, 9, 6, 3, 3, 6, 2, 2, 1, 1, true},    // stride 2 SAME: 0 top / 1 bottom, 1 left / 1 right
    {2, 7, 7, 5, 2, 2, 5, 2, 2, 1, 1, false},   // stride 2 VALID: the last row and column unused
    {4, 6, 5, 8, 1, 1, 3, 1, 1, 1, 1, false},   // 1x1
    {3, 7, 7, 5, 1, 1, 4, 2, 2, 1, 1, true},    // 1x1 stride 2
    {2, 9, 8, 6, 3, 3, 3, 1, 1, 2, 2, true},    // dilation 2
    {3, 10, 9, 5, 3, 2, 3, 2, 1, 1, 1, false},  // unequal strides
    {5, 12, 12, 1, 5, 5, 8, 1, 1, 1, 1, true},  // MNIST's first layer, small (input gradient: im2col)
    {1, 6, 6, 5, 3, 3, 2, 1, 1, 1, 1, true},    // one image: fewer images than threads
    {4, 9, 9, 3, 3, 3, 4, 2, 2, 1, 1, true},    // RGB input, stride 2 (input gradient: im2col)
};

}  // namespace

TEST_CASE("Conv2D and its backprops give the defined results on oneDNN and on the im2col path", "[engine][conv][dnnl]") {
  const bool fallback = GENERATE(false, true);
  const int threads = GENERATE(1, 2);
  Disabled pick(fallback);
  Threads pool(threads);
  INFO("backend " << dnnlconv::backendName() << ", threads " << threads);
  unsigned seed = 1;
  for (const Case& k : kCases) {
    INFO("case n=" << k.n << " h=" << k.h << " w=" << k.w << " c=" << k.c << " k=" << k.kh << "x" << k.kw
                   << " o=" << k.o << " s=" << k.sh << "," << k.sw << " d=" << k.dh << " " << (k.same ? "SAME" : "VALID"));
    const Tensor x = randomTensor({k.n, k.h, k.w, k.c}, seed++), f = randomTensor({k.kh, k.kw, k.c, k.o}, seed++);
    const Tensor dy = randomTensor({k.n, k.oh(), k.ow(), k.o}, seed++);
    const Reference want(k, x, f, dy);
    EagerContext ctx;
    const EagerValue vx = ctx.wrap(x), vf = ctx.wrap(f), vdy = ctx.wrap(dy);
    const EagerValue xs = ctx.wrap(sizes({int32_t(k.n), int32_t(k.h), int32_t(k.w), int32_t(k.c)}));
    const EagerValue fs = ctx.wrap(sizes({int32_t(k.kh), int32_t(k.kw), int32_t(k.c), int32_t(k.o)}));
    requireClose(ctx.execute("Conv2D", {vx, vf}, k.attrs())[0].tensor, want.y, "Conv2D");
    requireClose(ctx.execute("Conv2DBackpropInput", {xs, vf, vdy}, k.attrs())[0].tensor, want.dx,
                 "Conv2DBackpropInput");
    requireClose(ctx.execute("Conv2DBackpropFilter", {vx, fs, vdy}, k.attrs())[0].tensor, want.df,
                 "Conv2DBackpropFilter");
  }
}

TEST_CASE("oneDNN's convolution primitives run the passes they are preferred for themselves", "[engine][conv][dnnl]") {
  if (!dnnlconv::available()) {
    WARN("oneDNN (libdnnl.so.2) is not installed or disabled: only the im2col path was tested");
    return;
  }
  const int threads = GENERATE(1, 2);
  Threads pool(threads);
  unsigned seed = 100;
  for (const Case& k : kCases) {
    INFO("case n=" << k.n << " h=" << k.h << " w=" << k.w << " k=" << k.kh << "x" << k.kw << " s=" << k.sh << ","
                   << k.sw << " d=" << k.dh << " " << (k.same ? "SAME" : "VALID") << ", threads " << threads);
    const Tensor x = randomTensor({k.n, k.h, k.w, k.c}, seed++), f = randomTensor({k.kh, k.kw, k.c, k.o}, seed++);
    const Tensor dy = randomTensor({k.n, k.oh(), k.ow(), k.o}, seed++);
    const Reference want(k, x, f, dy);
    const dnnlconv::Geometry g = k.geometry();
    // Poisoned outputs: every element must be written.
    std::vector<float> y(want.y.size(), NAN), dx(want.dx.size(), NAN), df(want.df.size(), NAN);
    // A thin input's gradient and a 1x1 stride-1 output or input gradient are left to GEMM
    // (faster there); every other pass runs on oneDNN.
    const bool thin = k.c <= 4, pointwise = k.kh == 1 && k.kw == 1 && k.sh == 1 && k.sw == 1;
    CHECK(dnnlconv::preferred(dnnlconv::Pass::Forward, g) == !pointwise);
    CHECK(dnnlconv::preferred(dnnlconv::Pass::BackwardData, g) == !(thin || pointwise));
    CHECK(dnnlconv::preferred(dnnlconv::Pass::BackwardWeights, g));
    REQUIRE(dnnlconv::run(dnnlconv::Pass::Forward, g, x.data<float>(), f.data<float>(), y.data()) == !pointwise);
    if (!pointwise) requireClose(y, want.y, "forward");
    REQUIRE(dnnlconv::run(dnnlconv::Pass::BackwardData, g, f.data<float>(), dy.data<float>(), dx.data()) ==
            !(thin || pointwise));
    if (!(thin || pointwise)) requireClose(dx, want.dx, "backward data");
    REQUIRE(dnnlconv::run(dnnlconv::Pass::BackwardWeights, g, x.data<float>(), dy.data<float>(), df.data()));
    requireClose(df, want.df, "backward weights");
  }
}

TEST_CASE("oneDNN declines an empty batch and the filter gradient is still all zeros", "[engine][conv][dnnl]") {
  const dnnlconv::Geometry g{0, 5, 5, 2, 3, 3, 4, 5, 5, 1, 1, 1, 1, 1, 1};
  float dummy = 0;
  CHECK_FALSE(dnnlconv::run(dnnlconv::Pass::BackwardWeights, g, &dummy, &dummy, &dummy));
  EagerContext ctx;
  const Tensor x(DType::Float32, {0, 5, 5, 2}), dy(DType::Float32, {0, 5, 5, 4});
  const Tensor df = ctx.execute("Conv2DBackpropFilter", {ctx.wrap(x), ctx.wrap(sizes({3, 3, 2, 4})), ctx.wrap(dy)},
                                {{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")}})[0]
                        .tensor;
  REQUIRE(df.numElements() == 3 * 3 * 2 * 4);
  for (int64_t i = 0; i < df.numElements(); ++i) REQUIRE(df.data<float>()[i] == 0.f);
}

TEST_CASE("oneDNN and im2col agree on a real convnet layer, every pass, 1 and 2 threads", "[engine][conv][dnnl]") {
  // MNIST's second layer (5x5, 32 -> 64, SAME on 14x14): sums of 800 products per output.
  const Case k{6, 14, 14, 32, 5, 5, 64, 1, 1, 1, 1, true};
  const int threads = GENERATE(1, 2);
  Threads pool(threads);
  const Tensor x = randomTensor({k.n, k.h, k.w, k.c}, 7), f = randomTensor({k.kh, k.kw, k.c, k.o}, 8);
  const Tensor dy = randomTensor({k.n, k.oh(), k.ow(), k.o}, 9);
  auto runAll = [&](bool fallback) {
    Disabled pick(fallback);
    EagerContext ctx;
    const EagerValue vx = ctx.wrap(x), vf = ctx.wrap(f), vdy = ctx.wrap(dy);
    const EagerValue xs = ctx.wrap(sizes({int32_t(k.n), int32_t(k.h), int32_t(k.w), int32_t(k.c)}));
    const EagerValue fs = ctx.wrap(sizes({int32_t(k.kh), int32_t(k.kw), int32_t(k.c), int32_t(k.o)}));
    return std::vector<Tensor>{ctx.execute("Conv2D", {vx, vf}, k.attrs())[0].tensor,
                               ctx.execute("Conv2DBackpropInput", {xs, vf, vdy}, k.attrs())[0].tensor,
                               ctx.execute("Conv2DBackpropFilter", {vx, fs, vdy}, k.attrs())[0].tensor};
  };
  const std::vector<Tensor> one = runAll(false), two = runAll(true);
  for (size_t p = 0; p < 3; ++p) {
    INFO("pass " << p << ", threads " << threads << ", backend " << dnnlconv::backendName());
    REQUIRE(one[p].numElements() == two[p].numElements());
    double worst = 0;
    for (int64_t i = 0; i < one[p].numElements(); ++i) {
      const double a = one[p].data<float>()[i], b = two[p].data<float>()[i];
      worst = std::max(worst, std::abs(a - b) / (1 + std::abs(b)));
    }
    CHECK(worst <= 1e-4);  // float32 rounding in sums of 800-1600 products: observed 1e-5 to 4e-5
  }
}
