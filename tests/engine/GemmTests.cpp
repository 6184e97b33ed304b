// Gemm.h: the products of MatMul, BatchMatMul and the convolutions. oneDNN's sgemm (when
// installed) and Eigen's GEMM agree on every transpose, leading dimension and accumulation; the
// kernels give the same results on either.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "engine/graph/Builder.h"
#include "engine/kernels/cpu/Gemm.h"
#include "engine/runtime/Session.h"

using namespace tlens;

namespace {

std::vector<float> randomVector(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

/// C = op(A) op(B) + beta C by the definition, in double.
std::vector<float> reference(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const std::vector<float>& a, int64_t lda,
                             const std::vector<float>& b, int64_t ldb, float beta, std::vector<float> c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += double(ta ? a[size_t(p * lda + i)] : a[size_t(i * lda + p)]) * double(tb ? b[size_t(j * ldb + p)] : b[size_t(p * ldb + j)]);
      c[size_t(i * ldc + j)] = float(s + double(beta) * c[size_t(i * ldc + j)]);
    }
  return c;
}

struct EigenOnly {
  explicit EigenOnly(bool on) { gemm::setEigenOnly(on); }
  ~EigenOnly() { gemm::setEigenOnly(false); }
};

}  // namespace

TEST_CASE("gemm: every transpose, leading dimension and beta gives the defined product, on each backend", "[engine][gemm]") {
  const bool eigenOnly = GENERATE(false, true);
  EigenOnly pick(eigenOnly);
  INFO("backend " << gemm::backendName());
  const bool ta = GENERATE(false, true), tb = GENERATE(false, true);
  const float beta = GENERATE(0.f, 1.f);
  const int64_t m = 37, n = 29, k = 53, pad = 3;  // odd sizes, rows longer than the matrices
  const int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
  const auto a = randomVector(size_t((ta ? k : m) * lda), 1), b = randomVector(size_t((tb ? n : k) * ldb), 2);
  const auto before = randomVector(size_t(m * ldc), 3);
  auto c = before;
  const auto want = reference(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc);
  gemm::gemm<float>(ta, tb, m, n, k, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < ldc; ++j) {
      const size_t at = size_t(i * ldc + j);
      if (j >= n) {
        REQUIRE(c[at] == before[at]);  // the padding is never written
        continue;
      }
      REQUIRE(std::abs(c[at] - want[at]) <= 1e-4f * (1 + std::abs(want[at])));
    }
}

TEST_CASE("gemm: a MatMul split over the pool gives the same float32 results on oneDNN and on Eigen", "[engine][gemm]") {
  Graph g;
  const int64_t n = 300;  // large enough for MatMul to split over the pool's threads
  Output a = ops::placeholder(g, DType::Float32, Shape::fromConcrete({n, n}));
  Output mm = ops::matmul(g, a, a, true, false);
  Tensor ta(DType::Float32, {n, n});
  const auto va = randomVector(size_t(n * n), 7);
  std::copy(va.begin(), va.end(), ta.data<float>());
  Session s(g);
  auto run = [&](bool eigen) {
    EigenOnly pick(eigen);
    return s.run({mm}, {{a, ta}})[0];
  };
  Tensor one = run(false), two = run(true);
  REQUIRE(one.numElements() == two.numElements());
  for (int64_t i = 0; i < one.numElements(); ++i)
    REQUIRE(std::abs(one.data<float>()[i] - two.data<float>()[i]) <= 1e-3f * (1 + std::abs(two.data<float>()[i])));
}

TEST_CASE("gemm: an empty inner dimension gives zeros, or leaves C alone when accumulating", "[engine][gemm]") {
  const bool eigenOnly = GENERATE(false, true);
  EigenOnly pick(eigenOnly);
  std::vector<float> c(6, 5.f);
  gemm::gemm<float>(false, false, 2, 3, 0, nullptr, 1, nullptr, 3, 1.f, c.data(), 3);
  CHECK(c == std::vector<float>(6, 5.f));
  gemm::gemm<float>(false, false, 2, 3, 0, nullptr, 1, nullptr, 3, 0.f, c.data(), 3);
  CHECK(c == std::vector<float>(6, 0.f));
}
