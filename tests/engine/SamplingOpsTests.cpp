// Multinomial and RandomShuffle: shapes, frequencies close to softmax(logits), a class of logit
// -inf never drawn, a shuffle that is a permutation of rows, and seeded runs that repeat.
#include <algorithm>
#include <cmath>
#include <limits>

#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("multinomial draws num_samples per row", "[engine][shape]") {
  INFER_OK("Multinomial", "[b,10];int32=5", "[b,5]");
  INFER_OK("Multinomial", "?;int32:[]", "[?,?]");
  INFER_ERROR("Shape must be rank 2 but is rank 1", "Multinomial", "[10];int32=5");
  INFER_ERROR("num_samples should be nonnegative, got -1", "Multinomial", "[2,10];int32=-1");
  INFER_OK("RandomShuffle", "[n,3]", "[n,3]");
}

TEST_CASE("multinomial samples follow softmax(logits), and -inf is never drawn", "[engine][ops]") {
  const float ninf = -std::numeric_limits<float>::infinity();
  const Tensor logits = F32({std::log(0.2f), std::log(0.8f), ninf, 0, 0, 0}, {2, 3});
  const Tensor s = runEager("Multinomial", {logits, I32({20000}, {})}, {{"seed", int64_t{7}}})[0];
  REQUIRE(s.dtype() == DType::Int64);
  REQUIRE(s.shape() == ConcreteShape{2, 20000});
  int64_t ones = 0, row1[3] = {0, 0, 0};
  for (int64_t i = 0; i < 20000; ++i) {
    const int64_t a = s.data<int64_t>()[i], b = s.data<int64_t>()[20000 + i];
    CHECK(a != 2);
    ones += a == 1;
    REQUIRE((b >= 0 && b < 3));
    ++row1[b];
  }
  CHECK(std::abs(ones / 20000.0 - 0.8) < 0.02);
  for (int64_t k : row1) CHECK(std::abs(k / 20000.0 - 1.0 / 3) < 0.02);
  const Tensor again = runEager("Multinomial", {logits, I32({20000}, {})}, {{"seed", int64_t{7}}})[0];
  CHECK(tensorsEqual(s, again));  // the same op seed, a fresh context: the same draws
  CHECK(runEager("Multinomial", {logits, I32({3}, {})}, {{"output_dtype", DType::Int32}})[0].dtype() == DType::Int32);
}

TEST_CASE("random_shuffle permutes the rows and keeps each row whole", "[engine][ops]") {
  std::vector<int32_t> v;
  for (int i = 0; i < 100; ++i) v.insert(v.end(), {i, -i});
  const Tensor s = runEager("RandomShuffle", {I32(v, {100, 2})}, {{"seed", int64_t{3}}})[0];
  std::vector<int32_t> firsts;
  bool moved = false;
  for (int64_t i = 0; i < 100; ++i) {
    CHECK(s.data<int32_t>()[2 * i + 1] == -s.data<int32_t>()[2 * i]);
    firsts.push_back(s.data<int32_t>()[2 * i]);
    moved = moved || s.data<int32_t>()[2 * i] != i;
  }
  CHECK(moved);
  std::sort(firsts.begin(), firsts.end());
  for (int i = 0; i < 100; ++i) CHECK(firsts[static_cast<size_t>(i)] == i);
}

static CaseRegistrar samplingCases({
    {"Multinomial", {F32({0, 0}, {1, 2}), I32({0}, {})}, {}, {I64({}, {1, 0})}, 0, true, {}, 1e-4, "no samples"},
    {"Multinomial", {F32({0, -1e9f, -1e9f, 0}, {2, 2}), I32({3}, {})}, {}, {I64({0, 0, 0, 1, 1, 1}, {2, 3})}, 0, true,
     {}, 1e-4, "one class certain per row"},
    {"RandomShuffle", {F32({5}, {1})}, {}, {F32({5}, {1})}},
    {"RandomShuffle", {F32({1, 2, 3}, {3})}, {{"seed", int64_t{2}}}, {}},
});
