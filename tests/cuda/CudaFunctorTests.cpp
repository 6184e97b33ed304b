// The GPU kernels' elementwise functors (engine/cuda/ElementwiseFns.h, the code Elementwise.cu
// applies on the device) run on the host against the CPU kernels, for every unary and binary op
// and dtype they serve: integer wrapping, floor division and modulo signs, NaN propagation,
// comparison results. Needs no device. (Device math libraries round transcendental functions
// differently by an ulp or two; that part is the GPU parity suite's.)
#include <cmath>
#include <limits>
#include <random>

#include "CudaTestUtil.h"
#include "engine/cuda/ElementwiseFns.h"
#include "engine/cuda/GpuKernel.h"
#include "engine/cuda/ReduceFns.h"

using namespace tlens;
using namespace tlens::cudatest;
namespace fns = tlens::cuda::fns;
using tlens::cuda::BOp;
using tlens::cuda::UOp;

namespace {

enum Set { Float = 1, Ints = 2, Numeric = 3, Bools = 4, All = 7 };

std::vector<DType> dtypesOf(int set) {
  std::vector<DType> v;
  if (set & Float) v.insert(v.end(), {DType::Float32, DType::Float64});
  if (set & Ints) v.insert(v.end(), {DType::Int32, DType::Int64});
  if (set & Bools) v.push_back(DType::Bool);
  return v;
}

/// Calls f(T{}) for `t`, instantiating only the types of SET.
template <int SET, typename F>
void dispatch(DType t, F f) {
  if constexpr ((SET & Float) != 0) {
    if (t == DType::Float32) return f(float{});
    if (t == DType::Float64) return f(double{});
  }
  if constexpr ((SET & Ints) != 0) {
    if (t == DType::Int32) return f(int32_t{});
    if (t == DType::Int64) return f(int64_t{});
  }
  if constexpr ((SET & Bools) != 0) {
    if (t == DType::Bool) return f(bool{});
  }
  FAIL("dtype outside the set");
}

/// Inputs: random values in [lo, hi) (integers rounded down), plus special values for floats.
Tensor values(DType dt, int64_t n, double lo, double hi, uint64_t seed, bool specials) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  Tensor t(dt, {n});
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const double special[] = {nan, inf, -inf, 0.0, 6.0, -6.0, 0.5, -0.5};
  for (int64_t i = 0; i < n; ++i) {
    double v = d(rng);
    if (specials && isFloating(dt) && i % 7 == 3) v = special[(i / 7) % 8];
    if (dt == DType::Bool) t.data<bool>()[i] = v > 0;
    else if (isFloating(dt)) t.setDouble(i, v);
    else if (dt == DType::Int64) t.data<int64_t>()[i] = static_cast<int64_t>(std::floor(v));
    else t.setDouble(i, std::floor(v));
  }
  return t;
}

double tolFor(DType t) { return t == DType::Float32 ? 1e-5 : t == DType::Float64 ? 1e-12 : 0; }

template <BOp OP, int SET>
void binaryCase(const char* op, double lo = -20, double hi = 20, double blo = -20, double bhi = 20,
                bool specials = true, double alpha = 0.2) {
  for (DType dt : dtypesOf(SET)) {
    INFO(op << " " << dtypeName(dt));
    const Tensor a = values(dt, 512, lo, hi, 1, specials), b = values(dt, 512, blo, bhi, 2, specials);
    Resources res;
    const Attrs attrs = std::string(op) == "LeakyReluGrad" ? Attrs{{"alpha", alpha}} : Attrs{};
    const Tensor cpu = runCpu(op, {a, b}, attrs, res)[0];
    Tensor host(cpu.dtype(), cpu.shape());
    dispatch<SET>(dt, [&](auto z) {
      using T = decltype(z);
      for (int64_t i = 0; i < a.numElements(); ++i) {
        const auto r = fns::binaryFn<OP, T>(a.data<T>()[i], b.data<T>()[i], static_cast<T>(alpha));
        if constexpr (std::is_same_v<std::decay_t<decltype(r)>, bool>) host.data<bool>()[i] = r;
        else host.data<T>()[i] = r;
      }
    });
    CHECK(compare(cpu, host, tolFor(dt)) == "");
  }
}

template <UOp OP, int SET>
void unaryCase(const char* op, double lo = -5, double hi = 5, double alpha = 0.2, bool specials = true) {
  for (DType dt : dtypesOf(SET)) {
    INFO(op << " " << dtypeName(dt));
    const Tensor x = values(dt, 512, lo, hi, 3, specials);
    Resources res;
    const Attrs attrs = std::string(op) == "LeakyRelu" ? Attrs{{"alpha", alpha}} : Attrs{};
    const Tensor cpu = runCpu(op, {x}, attrs, res)[0];
    Tensor host(cpu.dtype(), cpu.shape());
    dispatch<SET>(dt, [&](auto z) {
      using T = decltype(z);
      for (int64_t i = 0; i < x.numElements(); ++i) {
        const auto r = fns::unaryFn<OP, T>(x.data<T>()[i], static_cast<T>(alpha));
        if constexpr (std::is_same_v<std::decay_t<decltype(r)>, bool>) host.data<bool>()[i] = r;
        else host.data<T>()[i] = r;
      }
    });
    CHECK(compare(cpu, host, tolFor(dt)) == "");
  }
}

}  // namespace

TEST_CASE("binary functors of the GPU kernels agree with the CPU kernels", "[cuda][functors]") {
  binaryCase<BOp::Add, Numeric>("Add");
  binaryCase<BOp::Sub, Numeric>("Sub");
  binaryCase<BOp::Mul, Numeric>("Mul");
  binaryCase<BOp::Div, Float>("RealDiv");
  binaryCase<BOp::Div, Ints>("RealDiv", -20, 20, 1, 9);
  binaryCase<BOp::Div, Ints>("RealDiv", -20, 20, -9, -1);
  binaryCase<BOp::FloorDiv, Float>("FloorDiv");
  binaryCase<BOp::FloorDiv, Ints>("FloorDiv", -20, 20, 1, 9);
  binaryCase<BOp::FloorDiv, Ints>("FloorDiv", -20, 20, -9, -1);
  binaryCase<BOp::FloorMod, Float>("FloorMod");
  binaryCase<BOp::FloorMod, Ints>("FloorMod", -20, 20, 1, 9);
  binaryCase<BOp::FloorMod, Ints>("FloorMod", -20, 20, -9, -1);
  binaryCase<BOp::Pow, Float>("Pow", 0.1, 3, -2, 2, false);
  binaryCase<BOp::Pow, Ints>("Pow", -4, 4, 0, 6);
  binaryCase<BOp::Maximum, Numeric>("Maximum");
  binaryCase<BOp::Minimum, Numeric>("Minimum");
  binaryCase<BOp::SquaredDifference, Numeric>("SquaredDifference");
  binaryCase<BOp::Equal, All>("Equal", -3, 3, -3, 3);
  binaryCase<BOp::NotEqual, All>("NotEqual", -3, 3, -3, 3);
  binaryCase<BOp::Less, Numeric>("Less", -3, 3, -3, 3);
  binaryCase<BOp::LessEqual, Numeric>("LessEqual", -3, 3, -3, 3);
  binaryCase<BOp::Greater, Numeric>("Greater", -3, 3, -3, 3);
  binaryCase<BOp::GreaterEqual, Numeric>("GreaterEqual", -3, 3, -3, 3);
  binaryCase<BOp::LogicalAnd, Bools>("LogicalAnd");
  binaryCase<BOp::LogicalOr, Bools>("LogicalOr");
  binaryCase<BOp::ReluGrad, Numeric>("ReluGrad");
  binaryCase<BOp::Relu6Grad, Numeric>("Relu6Grad", -10, 10, -10, 10);
  binaryCase<BOp::EluGrad, Float>("EluGrad", -3, 3, -1, 3);
  binaryCase<BOp::SeluGrad, Float>("SeluGrad", -3, 3, -1.7, 3);
  binaryCase<BOp::SoftplusGrad, Float>("SoftplusGrad", -3, 3, -5, 5, false);
  binaryCase<BOp::LeakyReluGrad, Float>("LeakyReluGrad", -3, 3, -3, 3, true, 0.3);
  binaryCase<BOp::SigmoidGrad, Float>("SigmoidGrad", 0, 1, -3, 3);
  binaryCase<BOp::TanhGrad, Float>("TanhGrad", -1, 1, -3, 3);
  binaryCase<BOp::SqrtGrad, Float>("SqrtGrad", 0.1, 3, -3, 3, false);
  binaryCase<BOp::RsqrtGrad, Float>("RsqrtGrad", 0.1, 3, -3, 3);
  binaryCase<BOp::ReciprocalGrad, Float>("ReciprocalGrad", -3, 3, -3, 3);
  // Integer extremes wrap as two's complement on both sides.
  Resources res;
  const Tensor lo = Tensor::fromVector<int32_t>({INT32_MIN, INT32_MIN, INT32_MAX, 7});
  const Tensor m1 = Tensor::fromVector<int32_t>({-1, 1, 1, -1});
  for (const char* op : {"RealDiv", "FloorDiv", "FloorMod", "Add", "Sub", "Mul"}) {
    INFO(op << " int32 extremes");
    const Tensor cpu = runCpu(op, {lo, m1}, {}, res)[0];
    Tensor host(DType::Int32, {4});
    for (int i = 0; i < 4; ++i) {
      const int32_t a = lo.data<int32_t>()[i], b = m1.data<int32_t>()[i];
      const std::string o = op;
      host.data<int32_t>()[i] = o == "RealDiv"    ? fns::binaryFn<BOp::Div, int32_t>(a, b, 0)
                                : o == "FloorDiv" ? fns::binaryFn<BOp::FloorDiv, int32_t>(a, b, 0)
                                : o == "FloorMod" ? fns::binaryFn<BOp::FloorMod, int32_t>(a, b, 0)
                                : o == "Add"      ? fns::binaryFn<BOp::Add, int32_t>(a, b, 0)
                                : o == "Sub"      ? fns::binaryFn<BOp::Sub, int32_t>(a, b, 0)
                                                  : fns::binaryFn<BOp::Mul, int32_t>(a, b, 0);
    }
    CHECK(compare(cpu, host, 0) == "");
  }
}

TEST_CASE("unary functors of the GPU kernels agree with the CPU kernels", "[cuda][functors]") {
  unaryCase<UOp::Neg, Numeric>("Neg");
  unaryCase<UOp::Abs, Numeric>("Abs");
  unaryCase<UOp::Sign, Numeric>("Sign");
  unaryCase<UOp::Square, Numeric>("Square");
  unaryCase<UOp::Reciprocal, Float>("Reciprocal");
  unaryCase<UOp::Floor, Float>("Floor");
  unaryCase<UOp::Ceil, Float>("Ceil");
  unaryCase<UOp::Round, Float>("Round");
  unaryCase<UOp::Exp, Float>("Exp");
  unaryCase<UOp::Log, Float>("Log", -1, 5);
  unaryCase<UOp::Log1p, Float>("Log1p", -1.5, 5);
  unaryCase<UOp::Sqrt, Float>("Sqrt", -1, 5);
  unaryCase<UOp::Rsqrt, Float>("Rsqrt", 0.1, 5);
  unaryCase<UOp::Sin, Float>("Sin");
  unaryCase<UOp::Cos, Float>("Cos");
  unaryCase<UOp::Tanh, Float>("Tanh");
  unaryCase<UOp::Sigmoid, Float>("Sigmoid");
  unaryCase<UOp::Relu, Numeric>("Relu");
  unaryCase<UOp::Relu6, Numeric>("Relu6", -10, 10);
  unaryCase<UOp::Elu, Float>("Elu");
  unaryCase<UOp::Selu, Float>("Selu");
  unaryCase<UOp::Softplus, Float>("Softplus", -40, 40);
  unaryCase<UOp::LeakyRelu, Float>("LeakyRelu", -5, 5, 0.3);
  unaryCase<UOp::IsNan, Float>("IsNan");
  unaryCase<UOp::IsInf, Float>("IsInf");
  unaryCase<UOp::IsFinite, Float>("IsFinite");
  unaryCase<UOp::LogicalNot, Bools>("LogicalNot");
  Resources res;
  const Tensor ext = Tensor::fromVector<int64_t>({INT64_MIN, -1, INT64_MAX});
  for (const char* op : {"Neg", "Abs", "Square"}) {
    INFO(op << " int64 extremes");
    const Tensor cpu = runCpu(op, {ext}, {}, res)[0];
    Tensor host(DType::Int64, {3});
    for (int i = 0; i < 3; ++i) {
      const int64_t x = ext.data<int64_t>()[i];
      const std::string o = op;
      host.data<int64_t>()[i] = o == "Neg"   ? fns::unaryFn<UOp::Neg, int64_t>(x, 0)
                                : o == "Abs" ? fns::unaryFn<UOp::Abs, int64_t>(x, 0)
                                             : fns::unaryFn<UOp::Square, int64_t>(x, 0);
    }
    CHECK(compare(cpu, host, 0) == "");
  }
}

TEST_CASE("sqrt(+inf) is +inf on the CPU as on the GPU (IEEE)", "[cuda][functors]") {
  // The CPU kernel once took Eigen's vectorised sqrt, NaN for +inf (found by these tests).
  Resources res;
  // 64 elements: the vectorised path (a lone element takes the scalar tail).
  const Tensor x = Tensor::filled(DType::Float32, {64}, std::numeric_limits<double>::infinity());
  const Tensor cpu = runCpu("Sqrt", {x}, {}, res)[0];
  const float gpu = fns::unaryFn<UOp::Sqrt, float>(x.data<float>()[0], 0.f);
  CHECK(std::isinf(gpu));
  for (int64_t i = 0; i < cpu.numElements(); ++i) CHECK(std::isinf(cpu.getDouble(i)));
}

namespace {

/// The reduction kernels' fold, run sequentially on the host: the layout the kernel gets
/// (reduceLayout) and the reducer it folds with (ReduceFns.h).
template <tlens::cuda::ROp OP, typename T>
Tensor hostReduce(const Tensor& x, const std::vector<char>& mask, const ConcreteShape& outShape) {
  using R = tlens::cuda::rfns::Red<OP, T>;
  const tlens::cuda::ReduceLayout l = tlens::cuda::reduceLayout(x.shape(), mask);
  Tensor y(x.dtype(), outShape);
  REQUIRE(l.outN == y.numElements());
  for (int64_t o = 0; o < l.outN; ++o) {
    auto acc = R::init();
    for (int64_t g = 0; g < l.groupN; ++g)
      acc = R::combine(acc, R::lift(x.data<T>()[tlens::cuda::layoutOffset(l.keptRank, l.keptDims, l.keptStrides, o) +
                                                tlens::cuda::layoutOffset(l.redRank, l.redDims, l.redStrides, g)]));
    y.data<T>()[o] = R::finish(acc, l.groupN);
  }
  return y;
}

template <tlens::cuda::ROp OP, int SET>
void reduceCase(const char* op) {
  std::mt19937_64 rng(17);
  for (DType dt : dtypesOf(SET))
    for (int trial = 0; trial < 40; ++trial) {
      ConcreteShape shape;
      const int rank = static_cast<int>(rng() % 5);
      for (int d = 0; d < rank; ++d) shape.push_back(static_cast<int64_t>(rng() % 4));  // zeros included
      std::vector<int64_t> axes;
      std::vector<char> mask(static_cast<size_t>(rank), 0);
      for (int d = 0; d < rank; ++d)
        if (rng() % 2) {
          axes.push_back(d);
          mask[static_cast<size_t>(d)] = 1;
        }
      const Tensor x = values(dt, numElements(shape), -3, 3, 100 + static_cast<uint64_t>(trial),
                              OP == tlens::cuda::ROp::Max || OP == tlens::cuda::ROp::Min)
                           .reshaped(shape);
      INFO(op << " " << dtypeName(dt) << " " << concreteStr(shape) << " trial " << trial);
      Resources res;
      const Tensor cpu = runCpu(op, {x}, {{"axis", axes}}, res)[0];
      Tensor host;
      dispatch<SET>(dt, [&](auto z) { host = hostReduce<OP, decltype(z)>(x, mask, cpu.shape()); });
      CHECK(compare(cpu, host, tolFor(dt)) == "");
    }
}

}  // namespace

TEST_CASE("reducers and reduction layouts fold like the CPU reductions, empty groups included", "[cuda][functors]") {
  using tlens::cuda::ROp;
  reduceCase<ROp::Sum, Numeric>("Sum");
  reduceCase<ROp::Mean, Float>("Mean");  // integer Mean of an empty group: the CPU casts NaN (undefined)
  reduceCase<ROp::Prod, Numeric>("Prod");
  reduceCase<ROp::Max, Numeric>("Max");
  reduceCase<ROp::Min, Numeric>("Min");
  reduceCase<ROp::Any, Bools>("Any");
  reduceCase<ROp::All, Bools>("All");
}

#include "engine/cuda/RandomFns.h"

TEST_CASE("the random ops' Philox4x32-10 matches Random123's known answers", "[cuda][functors][random]") {
  namespace rnd = tlens::cuda::rnd;
  struct Kat {
    rnd::Block ctr;
    uint32_t k0, k1;
    rnd::Block out;
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, 0, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 0xffffffff, 0xffffffff,
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0,
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const rnd::Block r = rnd::philox(k.ctr, k.k0, k.k1);
    CHECK(r.x == k.out.x);
    CHECK(r.y == k.out.y);
    CHECK(r.z == k.out.z);
    CHECK(r.w == k.out.w);
  }
}

TEST_CASE("the random ops' conversions give the right ranges and moments", "[cuda][functors][random]") {
  namespace rnd = tlens::cuda::rnd;
  using tlens::cuda::RandKind;
  const uint32_t k0 = 0x12345678, k1 = 0x9abcdef0;
  const int64_t n = 200000;
  auto moments = [&](RandKind kind, auto zero, double* mean, double* sd, double* lo, double* hi) {
    using C = decltype(zero);
    double s = 0, q = 0;
    *lo = 1e300;
    *hi = -1e300;
    for (int64_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(rnd::randomValue<C>(kind, static_cast<uint64_t>(i), k0, k1));
      s += v;
      q += v * v;
      *lo = std::min(*lo, v);
      *hi = std::max(*hi, v);
    }
    *mean = s / static_cast<double>(n);
    *sd = std::sqrt(q / static_cast<double>(n) - *mean * *mean);
  };
  double mean, sd, lo, hi;
  for (bool dbl : {false, true}) {
    INFO((dbl ? "float64" : "float32"));
    auto run = [&](RandKind k) {
      if (dbl) moments(k, 0.0, &mean, &sd, &lo, &hi);
      else moments(k, 0.0f, &mean, &sd, &lo, &hi);
    };
    run(RandKind::Uniform);
    CHECK(std::fabs(mean - 0.5) < 0.005);
    CHECK(std::fabs(sd - std::sqrt(1.0 / 12)) < 0.005);
    CHECK(lo >= 0);
    CHECK(hi < 1);
    run(RandKind::Normal);
    CHECK(std::fabs(mean) < 0.01);
    CHECK(std::fabs(sd - 1) < 0.01);
    run(RandKind::TruncatedNormal);
    CHECK(std::fabs(mean) < 0.01);
    CHECK(std::fabs(sd - 0.8796) < 0.01);
    CHECK(lo >= -2);
    CHECK(hi <= 2);
  }
  // Different keys and different elements give different values.
  CHECK(rnd::randomValue<float>(RandKind::Uniform, 0, k0, k1) != rnd::randomValue<float>(RandKind::Uniform, 1, k0, k1));
  CHECK(rnd::randomValue<float>(RandKind::Uniform, 0, k0, k1) != rnd::randomValue<float>(RandKind::Uniform, 0, k0 + 1, k1));
}

#include "engine/cuda/PoolFns.h"

TEST_CASE("the pooling kernels' per-cell code matches the CPU pools on random geometries", "[cuda][functors][pool]") {
  namespace pool = tlens::cuda::pool;
  std::mt19937_64 rng(23);
  using Ints = std::vector<int64_t>;
  for (int trial = 0; trial < 60; ++trial) {
    const int64_t n = 1 + rng() % 2, h = 1 + rng() % 7, w = 1 + rng() % 7, c = 1 + rng() % 3;
    const int64_t kh = 1 + rng() % 3, kw = 1 + rng() % 3, sh = 1 + rng() % 3, sw = 1 + rng() % 3;
    const bool same = rng() % 2;
    if (!same && (kh > h || kw > w)) continue;
    const Attrs attrs = {{"ksize", Ints{1, kh, kw, 1}}, {"strides", Ints{1, sh, sw, 1}},
                         {"padding", std::string(same ? "SAME" : "VALID")}};
    Tensor x = values(DType::Float64, n * h * w * c, -2, 2, 300 + static_cast<uint64_t>(trial), false).reshaped({n, h, w, c});
    if (trial % 3 == 0) x.setDouble(0, std::numeric_limits<double>::quiet_NaN());
    if (trial % 4 == 0) x.setDouble(1, x.getDouble(2));  // a tie
    INFO("trial " << trial << " input [" << n << "," << h << "," << w << "," << c << "] k " << kh << "x" << kw
                  << " s " << sh << "x" << sw << (same ? " SAME" : " VALID"));
    Resources res;
    const Tensor y = runCpu("MaxPool", {x}, attrs, res)[0];
    tlens::cuda::PoolGeom g{};
    g.n = n; g.h = h; g.w = w; g.c = c; g.oh = y.dim(1); g.ow = y.dim(2);
    g.kh = kh; g.kw = kw; g.sh = sh; g.sw = sw;
    if (same) {
      g.padT = std::max<int64_t>((g.oh - 1) * sh + kh - h, 0) / 2;
      g.padL = std::max<int64_t>((g.ow - 1) * sw + kw - w, 0) / 2;
    }
    const double* px = x.data<double>();
    Tensor hy(DType::Float64, y.shape()), ha(DType::Float64, y.shape());
    for (int64_t u = 0; u < y.numElements(); ++u) {
      hy.data<double>()[u] = pool::maxAt(g, px, u);
      ha.data<double>()[u] = pool::avgAt(g, px, u);
    }
    CHECK(compare(y, hy, 0) == "");
    CHECK(compare(runCpu("AvgPool", {x}, attrs, res)[0], ha, 1e-12) == "");
    const Tensor dy = values(DType::Float64, y.numElements(), -1, 1, 900 + static_cast<uint64_t>(trial), false).reshaped(y.shape());
    // MaxPoolGrad: scatter to each window's first maximum, as the kernel's atomics do.
    Tensor hdx = Tensor::filled(DType::Float64, x.shape(), 0);
    Tensor hgg(DType::Float64, y.shape());
    const Tensor gin = values(DType::Float64, x.numElements(), -1, 1, 1700 + static_cast<uint64_t>(trial), false).reshaped(x.shape());
    for (int64_t u = 0; u < y.numElements(); ++u) {
      const int64_t a = pool::argMaxAt(g, px, u);
      if (a >= 0) hdx.data<double>()[a] += dy.data<double>()[u];
      hgg.data<double>()[u] = a >= 0 ? gin.data<double>()[a] : 0.0;
    }
    CHECK(compare(runCpu("MaxPoolGrad", {x, y, dy}, attrs, res)[0], hdx, 1e-12) == "");
    CHECK(compare(runCpu("MaxPoolGradGrad", {x, y, gin}, attrs, res)[0], hgg, 0) == "");
    Tensor hag(DType::Float64, x.shape());
    for (int64_t u = 0; u < x.numElements(); ++u) hag.data<double>()[u] = pool::avgGradAt(g, dy.data<double>(), u);
    const Tensor shape = Tensor::fromVector<int32_t>({static_cast<int32_t>(n), static_cast<int32_t>(h),
                                                      static_cast<int32_t>(w), static_cast<int32_t>(c)});
    CHECK(compare(runCpu("AvgPoolGrad", {shape, dy}, attrs, res)[0], hag, 1e-12) == "");
  }
}

#include "engine/cuda/OptimizerFns.h"

namespace {

/// Runs a CPU Apply* op `steps` times on variables initialised from `init` and the same updates
/// on the host with `update(elementIndex, scalars, grad)`; compares every variable.
template <typename T, typename F>
void optimizerCase(const char* op, std::vector<std::string> names, std::vector<Tensor> init,
                   std::vector<std::pair<size_t, double>> scalars, size_t gradIndex, size_t numInputs,
                   const Attrs& attrs, F update) {
  INFO(op << " " << dtypeName(DTypeOf<T>::value));
  Resources res;
  std::vector<std::vector<T>> host;
  for (size_t v = 0; v < names.size(); ++v) {
    res.setVariable(names[v], init[v]);
    host.emplace_back(init[v].data<T>(), init[v].data<T>() + init[v].numElements());
  }
  const int64_t n = init[0].numElements();
  for (int step = 0; step < 3; ++step) {
    std::vector<Tensor> inputs(numInputs);
    for (const auto& [i, v] : scalars) inputs[i] = Tensor::scalar<T>(static_cast<T>(v));
    inputs[gradIndex] = values(DTypeOf<T>::value, n, -1, 1, 500 + static_cast<uint64_t>(step), false).reshaped(init[0].shape());
    std::vector<std::string> refs(numInputs);
    for (size_t v = 0; v < names.size(); ++v) refs[v] = names[v];
    runCpu(op, inputs, attrs, res, "opt", &refs);
    for (int64_t i = 0; i < n; ++i) update(host, i, inputs, inputs[gradIndex].data<T>()[i]);
  }
  for (size_t v = 0; v < names.size(); ++v) {
    Tensor h(DTypeOf<T>::value, init[v].shape());
    std::copy(host[v].begin(), host[v].end(), h.data<T>());
    INFO("variable " << names[v]);
    CHECK(compare(*res.variable(names[v]), h, std::is_same_v<T, float> ? 1e-6 : 1e-14) == "");
  }
}

template <typename T>
T sc(const std::vector<Tensor>& in, size_t i) { return in[i].data<T>()[0]; }

template <typename T>
void optimizerCases() {
  namespace opt = tlens::cuda::opt;
  const DType dt = DTypeOf<T>::value;
  auto init = [&](uint64_t seed, double lo, double hi) { return values(dt, 64, lo, hi, seed, false).reshaped({8, 8}); };
  optimizerCase<T>("ApplyGradientDescent", {"w"}, {init(1, -1, 1)}, {{1, 0.1}}, 2, 3, {},
                   [](auto& h, int64_t i, const std::vector<Tensor>& in, T g) {
                     opt::gradientDescent(h[0][static_cast<size_t>(i)], sc<T>(in, 1), g);
                   });
  for (bool nesterov : {false, true}) {
    optimizerCase<T>("ApplyMomentum", {"w", "acc"}, {init(2, -1, 1), init(3, 0, 0.1)}, {{2, 0.05}, {4, 0.9}}, 3, 5,
                     {{"use_nesterov", nesterov}}, [nesterov](auto& h, int64_t i, const std::vector<Tensor>& in, T g) {
                       opt::momentum(h[0][static_cast<size_t>(i)], h[1][static_cast<size_t>(i)], sc<T>(in, 2), g,
                                     sc<T>(in, 4), nesterov);
                     });
    optimizerCase<T>("ApplyAdam", {"w", "m", "v"}, {init(4, -1, 1), init(5, -0.1, 0.1), init(6, 0, 0.1)},
                     {{3, 0.9}, {4, 0.999}, {5, 1e-3}, {6, 0.9}, {7, 0.999}, {8, 1e-8}}, 9, 10,
                     {{"use_nesterov", nesterov}}, [nesterov](auto& h, int64_t i, const std::vector<Tensor>& in, T g) {
                       const T alpha = opt::adamAlpha(sc<T>(in, 5), sc<T>(in, 3), sc<T>(in, 4));
                       opt::adam(h[0][static_cast<size_t>(i)], h[1][static_cast<size_t>(i)], h[2][static_cast<size_t>(i)],
                                 alpha, sc<T>(in, 6), sc<T>(in, 7), sc<T>(in, 8), g, nesterov);
                     });
  }
  optimizerCase<T>("ApplyRMSProp", {"w", "ms", "mom"}, {init(7, -1, 1), init(8, 0, 0.1), init(9, -0.1, 0.1)},
                   {{3, 1e-3}, {4, 0.9}, {5, 0.5}, {6, 1e-7}}, 7, 8, {},
                   [](auto& h, int64_t i, const std::vector<Tensor>& in, T g) {
                     opt::rmsprop(h[0][static_cast<size_t>(i)], h[1][static_cast<size_t>(i)], h[2][static_cast<size_t>(i)],
                                  sc<T>(in, 3), sc<T>(in, 4), sc<T>(in, 5), sc<T>(in, 6), g);
                   });
}

}  // namespace

TEST_CASE("the optimizer kernels' per-element updates match the CPU optimizers", "[cuda][functors][optimizer]") {
  optimizerCases<float>();
  optimizerCases<double>();
}

#include "engine/cuda/BatchNormFns.h"

namespace {

/// The GPU batch norm on the host: per-channel statistics in double (as the kernels' blocks
/// compute them), the kernels' per-channel finishing (BatchNormFns.h), the kernels' apply formula.
template <typename T>
void batchNormCase(bool nchw, bool training, double factor) {
  namespace bn = tlens::cuda::bn;
  const DType dt = DTypeOf<T>::value;
  INFO(dtypeName(dt) << (nchw ? " NCHW" : " NHWC") << (training ? " training" : " inference") << " factor " << factor);
  const ConcreteShape s{4, 5, 6, 3};
  const int64_t C = nchw ? 5 : 3, inner = nchw ? 18 : 1, outer = nchw ? 4 : 120, per = outer * inner;
  auto chan = [&](int64_t i) { return (i / inner) % C; };
  const Tensor x = values(dt, 360, -2, 3, 41, false).reshaped(s), dy = values(dt, 360, -1, 1, 43, false).reshaped(s);
  const Tensor scale = values(dt, C, 0.5, 1.5, 47, false), offset = values(dt, C, -1, 1, 53, false);
  const Tensor mean0 = values(dt, C, -0.5, 0.5, 59, false), var0 = values(dt, C, 0.5, 2, 61, false);
  const Tensor empty(dt, {0});
  const double eps = 1e-3;
  const bool readStats = !training || factor != 1.0;
  const Attrs attrs = {{"epsilon", eps}, {"data_format", std::string(nchw ? "NCHW" : "NHWC")},
                       {"is_training", training}, {"exponential_avg_factor", factor}};
  Resources res;
  const std::vector<Tensor> cpu = runCpu("FusedBatchNormV3", {x, scale, offset, readStats ? mean0 : empty,
                                                               readStats ? var0 : empty}, attrs, res);
  std::vector<double> mean(static_cast<size_t>(C)), var(static_cast<size_t>(C));
  const T* px = x.data<T>();
  for (int64_t k = 0; k < C; ++k) {
    if (!training) {
      mean[static_cast<size_t>(k)] = mean0.data<T>()[k];
      var[static_cast<size_t>(k)] = var0.data<T>()[k];
      continue;
    }
    double sum = 0, q = 0;
    for (int64_t i = 0; i < 360; ++i)
      if (chan(i) == k) sum += static_cast<double>(px[i]);
    const double m = sum / static_cast<double>(per);
    for (int64_t i = 0; i < 360; ++i)
      if (chan(i) == k) q += (static_cast<double>(px[i]) - m) * (static_cast<double>(px[i]) - m);
    mean[static_cast<size_t>(k)] = m;
    var[static_cast<size_t>(k)] = q / static_cast<double>(per);
  }
  std::vector<T> a(static_cast<size_t>(C)), b(static_cast<size_t>(C));
  Tensor bm(dt, {C}), bv(dt, {C}), r1(dt, {C}), r2(dt, {C}), y(dt, s);
  for (int64_t k = 0; k < C; ++k)
    bn::forwardChannel<T>(k, scale.data<T>(), offset.data<T>(), mean0.data<T>(), var0.data<T>(), training, eps, factor,
                          static_cast<double>(per), mean.data(), var.data(), a.data(), b.data(), bm.data<T>(),
                          bv.data<T>(), r1.data<T>(), r2.data<T>());
  for (int64_t i = 0; i < 360; ++i)
    y.data<T>()[i] = px[i] * a[static_cast<size_t>(chan(i))] + b[static_cast<size_t>(chan(i))];
  const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  CHECK(compare(cpu[0], y, tol) == "");
  CHECK(compare(cpu[1], bm, tol) == "");
  CHECK(compare(cpu[2], bv, tol) == "");
  CHECK(compare(cpu[3], r1, tol) == "");
  CHECK(compare(cpu[4], r2, tol) == "");
  if (factor != 1.0) return;
  // Gradient: sums of dy and dy * x_hat per channel, then the per-channel finishing and apply.
  // In training the reserve spaces' values are recomputed from x (only their shapes are checked).
  const std::vector<Tensor> g = runCpu("FusedBatchNormGradV3", {dy, x, scale, mean0, var0, empty},
                                       {{"epsilon", eps}, {"data_format", std::string(nchw ? "NCHW" : "NHWC")},
                                        {"is_training", training}},
                                       res);
  std::vector<double> sumDy(static_cast<size_t>(C)), sumDyXh(static_cast<size_t>(C));
  for (int64_t i = 0; i < 360; ++i) {
    const size_t k = static_cast<size_t>(chan(i));
    const double r = 1.0 / std::sqrt(var[k] + eps);
    sumDy[k] += static_cast<double>(dy.data<T>()[i]);
    sumDyXh[k] += static_cast<double>(dy.data<T>()[i]) * (static_cast<double>(px[i]) - mean[k]) * r;
  }
  std::vector<T> d(static_cast<size_t>(C));
  Tensor dScale(dt, {C}), dOffset(dt, {C}), dx(dt, s);
  for (int64_t k = 0; k < C; ++k)
    bn::gradChannel<T>(k, scale.data<T>(), training, eps, static_cast<double>(per), mean.data(), var.data(),
                       sumDy.data(), sumDyXh.data(), a.data(), b.data(), d.data(), dScale.data<T>(),
                       dOffset.data<T>());
  for (int64_t i = 0; i < 360; ++i) {
    const size_t k = static_cast<size_t>(chan(i));
    dx.data<T>()[i] = dy.data<T>()[i] * a[k] + px[i] * b[k] + d[k];
  }
  CHECK(compare(g[0], dx, tol) == "");
  CHECK(compare(g[1], dScale, tol) == "");
  CHECK(compare(g[2], dOffset, tol) == "");
}

}  // namespace

TEST_CASE("the batch-norm kernels' per-channel finishing matches the CPU's FusedBatchNormV3 and gradient",
          "[cuda][functors][batchnorm]") {
  for (bool nchw : {false, true})
    for (bool training : {true, false}) {
      batchNormCase<float>(nchw, training, 1.0);
      batchNormCase<double>(nchw, training, 1.0);
    }
  batchNormCase<double>(false, true, 0.3);
  batchNormCase<float>(true, true, 0.3);
}
