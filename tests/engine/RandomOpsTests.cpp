// Random ops: shapes from a shape tensor, seeding, advancing generators, distributions.
#include <cmath>

#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {

struct Stats {
  double mean = 0, stddev = 0, min = 1e300, max = -1e300;
};

Stats stats(const Tensor& t) {
  Stats s;
  const int64_t n = t.numElements();
  for (int64_t i = 0; i < n; ++i) {
    const double v = t.getDouble(i);
    s.mean += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean /= static_cast<double>(n);
  for (int64_t i = 0; i < n; ++i) s.stddev += (t.getDouble(i) - s.mean) * (t.getDouble(i) - s.mean);
  s.stddev = std::sqrt(s.stddev / static_cast<double>(n));
  return s;
}

Output randomOp(Graph& g, const std::string& type, ConcreteShape shape, int64_t seed, int64_t seed2 = 0,
                DType dt = DType::Float32) {
  std::vector<int32_t> s(shape.begin(), shape.end());
  return g.op(type, {ops::constant(g, Tensor::fromVector(s))}, {{"dtype", dt}, {"seed", seed}, {"seed2", seed2}});
}

}  // namespace

TEST_CASE("random ops take their shape from the shape tensor", "[engine][shape][random]") {
  INFER_OK("RandomUniform", "int32=[2,3]", "[2,3]");
  INFER_OK("RandomStandardNormal", "int64=[]", "[]");
  INFER_OK("TruncatedNormal", "int32:[3]", "[?,?,?]");
  INFER_OK("RandomUniform", "int32:?", "?");
  INFER_OK("RandomUniform", "int32=[4]", "[4]", {"dtype", DType::Float64});
  INFER_ERROR("Shape must be rank 1 but is rank 2", "RandomUniform", "int32:[2,2]");
  INFER_ERROR("Dimension 1 must be >= 0, but is -3", "RandomUniform", "int32=[2,-3]");
  INFER_ERROR("Value for attr 'dtype' of int32 is not in the list of allowed values", "RandomUniform", "int32=[2]",
              {"dtype", DType::Int32});
  INFER_ERROR("is not in the list of allowed values: int32, int64", "RandomUniform", "float32:[2]");
}

TEST_CASE("a random shape computed from tf.shape keeps its symbols", "[engine][graph][random]") {
  Graph g;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[batch,5]"), "x");
  Output u = g.op("RandomUniform", {ops::shape(g, x)}, {{"dtype", DType::Float32}});
  CHECK(u.type().shape.rank() == 2);
  CHECK(u.type().shape[1].size == 5);
  CHECK(u.type().shape[0].sameAs(x.type().shape[0]));
}

TEST_CASE("random ops are deterministic with seeds and advance across runs", "[engine][random]") {
  for (const char* op : {"RandomUniform", "RandomStandardNormal", "TruncatedNormal"}) {
    INFO(op);
    Graph g;
    Output a = randomOp(g, op, {1000}, 1, 2);
    Output b = randomOp(g, op, {1000}, 1, 2);
    Output c = randomOp(g, op, {1000}, 1, 3);
    Output d = randomOp(g, op, {1000}, 0, 0);
    Output e = randomOp(g, op, {1000}, 0, 0);
    Session s1(g), s2(g);
    auto r1 = s1.run({a, b, c, d, e});
    auto r2 = s2.run({a, b, c, d, e});
    for (size_t i = 0; i < r1.size(); ++i) CHECK(tensorsEqual(r1[i], r2[i]));  // same seeds, same values
    CHECK(tensorsEqual(r1[0], r1[1]));        // same (seed, seed2): same stream
    CHECK_FALSE(tensorsEqual(r1[0], r1[2]));  // another seed2
    CHECK_FALSE(tensorsEqual(r1[3], r1[4]));  // unseeded ops differ by node
    auto again = s1.run({a});
    CHECK_FALSE(tensorsEqual(again[0], r1[0]));  // the generator advanced
    auto third = s2.run({a});
    CHECK(tensorsEqual(third[0], again[0]));  // ... in the same way in every session
  }
}

TEST_CASE("random distributions have the right moments", "[engine][random]") {
  Graph g;
  Output u = randomOp(g, "RandomUniform", {100000}, 7);
  Output n = randomOp(g, "RandomStandardNormal", {100001}, 7);  // odd: the last Box-Muller pair is cut
  Output t = randomOp(g, "TruncatedNormal", {100000}, 7);
  Output u64 = randomOp(g, "RandomUniform", {100000}, 8, 0, DType::Float64);
  Output n16 = randomOp(g, "RandomStandardNormal", {100000}, 9, 0, DType::Float16);
  Output u16 = randomOp(g, "RandomUniform", {100000}, 9, 0, DType::Float16);
  Session s(g);
  auto r = s.run({u, n, t, u64, n16, u16});
  Stats su = stats(r[0]);
  CHECK(su.mean == Approx(0.5).margin(0.01));
  CHECK(su.stddev == Approx(std::sqrt(1.0 / 12)).margin(0.005));
  CHECK(su.min >= 0);
  CHECK(su.max < 1);
  Stats sn = stats(r[1]);
  CHECK(sn.mean == Approx(0).margin(0.02));
  CHECK(sn.stddev == Approx(1).margin(0.02));
  CHECK(sn.max > 3.5);
  Stats st = stats(r[2]);
  CHECK(st.mean == Approx(0).margin(0.02));
  CHECK(st.stddev == Approx(0.87962566103423978).margin(0.02));  // TF's documented value
  CHECK(st.min >= -2);
  CHECK(st.max <= 2);
  CHECK(st.max > 1.9);
  Stats s64 = stats(r[3]);
  CHECK(r[3].dtype() == DType::Float64);
  CHECK(s64.mean == Approx(0.5).margin(0.01));
  Stats s16 = stats(r[4]);
  CHECK(r[4].dtype() == DType::Float16);
  CHECK(s16.stddev == Approx(1).margin(0.02));
  Stats su16 = stats(r[5]);
  CHECK(su16.max < 1);
  CHECK(su16.min >= 0);
  CHECK(su16.mean == Approx(0.5).margin(0.01));
}

static CaseRegistrar randomCases({
    {"RandomUniform", {I32({2, 0})}, {}, {F32({}, {2, 0})}, 0, true, {}, 1e-4, "empty"},
    {"RandomUniform", {I32({3, 4})}, {{"seed", int64_t{1}}}, {}, 0, true, {}, 1e-4, "runs (values: see the moments test)"},
    {"RandomUniform", {I64({0, 3}, {2})}, {{"dtype", DType::Float64}}, {F64({}, {0, 3})}, 0, true, {}, 1e-4, "int64 shape"},
    {"RandomStandardNormal", {I32({0})}, {}, {F32({}, {0})}},
    {"RandomStandardNormal", {I32({5})}, {{"seed", int64_t{3}}, {"dtype", DType::Float16}}, {}},
    {"TruncatedNormal", {I32({1, 0})}, {}, {F32({}, {1, 0})}},
    {"TruncatedNormal", {I32({7})}, {{"seed2", int64_t{3}}}, {}},
});
