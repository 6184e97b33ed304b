#include "OpTestUtil.h"

#include <array>

using namespace tlens;
using namespace tlens::test;

TEST_CASE("matmul checks inner dims, honours transposes and keeps the batch symbol", "[engine][shape]") {
  INFER_OK("MatMul", "[2,3];[3,4]", "[2,4]");
  INFER_OK("MatMul", "[b,784];[784,256]", "[b,256]");
  INFER_OK("MatMul", "[3,2];[3,4]", "[2,4]", {"transpose_a", true});
  INFER_OK("MatMul", "[2,3];[4,3]", "[2,4]", {"transpose_b", true});
  INFER_OK("MatMul", "?;[3,4]", "[?,4]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4 for 'MatMul' (op: 'MatMul') with input shapes: [2,3], [4,5]",
              "MatMul", "[2,3];[4,5]");
  INFER_ERROR("Shape must be rank 2 but is rank 3", "MatMul", "[2,3,4];[4,5]");
  INFER_ERROR("does not match", "MatMul", "[2,3];int32:[3,4]");
}

static CaseRegistrar matmulCases({
    {"MatMul", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), F32({1, 0, 0, 1, 1, 1}, {3, 2})}, {}, {F32({4, 5, 10, 11}, {2, 2})}},
    {"MatMul", {randomF32({3, 2}), randomF32({4, 3}, -1, 1, 2)}, {{"transpose_a", true}, {"transpose_b", true}}, {}},
    {"MatMul", {randomF32({3, 2}), randomF32({3, 4}, -1, 1, 2)}, {{"transpose_a", true}}, {}},
    {"MatMul", {randomF32({2, 3}), randomF32({4, 3}, -1, 1, 2)}, {{"transpose_b", true}}, {}},
    {"MatMul", {I32({1, 2, 3, 4}, {2, 2}), I32({1, 1, 1, 1}, {2, 2})}, {}, {I32({3, 3, 7, 7}, {2, 2})}},
});

TEST_CASE("BatchMatMulV2 broadcasts batch dims, checks inner dims and keeps symbols", "[engine][shape]") {
  INFER_OK("BatchMatMulV2", "[2,3,4];[2,4,5]", "[2,3,5]");
  INFER_OK("BatchMatMulV2", "[b,3,4];[4,5]", "[b,3,5]");
  INFER_OK("BatchMatMulV2", "[3,4];[b,4,5]", "[b,3,5]");
  INFER_OK("BatchMatMulV2", "[2,1,3,4];[5,4,6]", "[2,5,3,6]");
  INFER_OK("BatchMatMulV2", "[b,t,64];[b,64,t]", "[b,t,t]");
  INFER_OK("BatchMatMulV2", "[2,4,3];[2,4,5]", "[2,3,5]", {"adj_x", true});
  INFER_OK("BatchMatMulV2", "[2,3,4];[2,5,4]", "[2,3,5]", {"adj_y", true});
  INFER_OK("BatchMatMulV2", "[2,4,3];[2,5,4]", "[2,3,5]", {"adj_x", true}, {"adj_y", true});
  INFER_OK("BatchMatMulV2", "[?,3,?];[2,4,5]", "[2,3,5]");
  INFER_OK("BatchMatMulV2", "?;[2,4,5]", "?");
  INFER_OK("BatchMatMulV2", "[3,4];[4,5]", "[3,5]");
  INFER_ERROR("Dimensions must be equal, but are 4 and 5 for 'BatchMatMulV2' (op: 'BatchMatMulV2') with input shapes: [2,3,4], [2,5,6]",
              "BatchMatMulV2", "[2,3,4];[2,5,6]");
  INFER_ERROR("Dimensions must be equal, but are 4 and 5", "BatchMatMulV2", "[2,4,3];[2,5,6]", {"adj_x", true});
  INFER_ERROR("Dimensions must be equal, but are 4 and 6", "BatchMatMulV2", "[2,4,3];[2,5,6]", {"adj_x", true}, {"adj_y", true});
  INFER_ERROR("In[0] and In[1] must have compatible batch dimensions: [2,3,4] vs. [3,4,5]", "BatchMatMulV2",
              "[2,3,4];[3,4,5]");
  INFER_ERROR("Shape must be at least rank 2 but is rank 1", "BatchMatMulV2", "[4];[2,4,5]");
  INFER_ERROR("does not match", "BatchMatMulV2", "[2,3,4];float64:[2,4,5]");
  INFER_ERROR("not in the list of allowed values", "BatchMatMulV2", "bool:[2,3,4];bool:[2,4,5]");
}

TEST_CASE("BatchMatMul needs equal batch dims", "[engine][shape]") {
  INFER_OK("BatchMatMul", "[b,3,4];[b,4,5]", "[b,3,5]");
  INFER_OK("BatchMatMul", "[?,3,4];[7,4,5]", "[7,3,5]");
  INFER_OK("BatchMatMul", "?;[7,4,5]", "[7,?,5]");
  INFER_ERROR("Dimensions must be equal, but are 2 and 3", "BatchMatMul", "[2,3,4];[3,4,5]");
  INFER_ERROR("Shape must be rank 3 but is rank 2", "BatchMatMul", "[2,3,4];[4,5]");
}

static CaseRegistrar batchMatmulCases({
    {"BatchMatMulV2", {F32({1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0}, {2, 2, 3}), F32({1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 0, 0}, {2, 3, 2})},
     {}, {F32({4, 5, 10, 11, 2, 0, 0, 2}, {2, 2, 2})}},
    {"BatchMatMulV2", {randomF32({2, 2, 3}), randomF32({3, 4}, -1, 1, 2)}, {}, {}, 1e-5, true, {}, 1e-4,
     "rank-2 y broadcast over the batch"},
    {"BatchMatMulV2", {randomF32({2, 1, 2, 3}), randomF32({3, 3, 2}, -1, 1, 2)}, {}, {}, 1e-5, true, {}, 1e-4,
     "both broadcast: [2,1] x [3] -> [2,3]"},
    {"BatchMatMulV2", {randomF32({2, 3, 2}), randomF32({2, 3, 4}, -1, 1, 2)}, {{"adj_x", true}}, {}},
    {"BatchMatMulV2", {randomF32({2, 2, 3}), randomF32({1, 4, 3}, -1, 1, 2)}, {{"adj_y", true}}, {}},
    {"BatchMatMulV2", {randomF32({3, 2}), randomF32({2, 4, 3}, -1, 1, 2)}, {{"adj_x", true}, {"adj_y", true}}, {}},
    {"BatchMatMulV2", {F32({}, {2, 2, 0}), F32({}, {2, 0, 3})}, {}, {F32({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {2, 2, 3})},
     1e-6, true, {}, 1e-4, "empty inner dim: zeros"},
    {"BatchMatMulV2", {I32({1, 2, 3, 4, 1, 0, 0, 1}, {2, 2, 2}), I32({1, 1, 1, 1}, {2, 2})}, {},
     {I32({3, 3, 7, 7, 1, 1, 1, 1}, {2, 2, 2})}},
    {"BatchMatMul", {randomF32({2, 2, 3}), randomF32({2, 3, 4}, -1, 1, 2)}, {}, {}},
    {"BatchMatMulV2", {F32({1, 2, 3, 4}, {1, 2, 2}).cast(DType::Float16), F32({1, 1, 1, 1}, {2, 2}).cast(DType::Float16)}, {},
     {F32({3, 3, 7, 7}, {1, 2, 2}).cast(DType::Float16)}, 1e-3, true, {}, 1e-4, "float16"},
    {"BatchMatMul", {randomF64({2, 3, 2}), randomF64({2, 4, 3}, -1, 1, 2)}, {{"adj_x", true}, {"adj_y", true}}, {}},
});

TEST_CASE("BatchMatMulV2 matches per-matrix MatMul, small and large matrices", "[engine][ops]") {
  for (auto [batch, m, k, n] : std::vector<std::array<int64_t, 4>>{{64, 4, 5, 3}, {3, 70, 80, 90}, {1, 1, 1, 1}}) {
    INFO(batch << " " << m << " " << k << " " << n);
    Tensor a = randomF32({batch, m, k}, -1, 1, 3), b = randomF32({k, n}, -1, 1, 4);
    Tensor c = runEager("BatchMatMulV2", {a, b})[0];
    REQUIRE(c.shape() == ConcreteShape{batch, m, n});
    for (int64_t i = 0; i < batch; i += std::max<int64_t>(1, batch / 4)) {
      Tensor ai(DType::Float32, {m, k});
      std::copy(a.data<float>() + i * m * k, a.data<float>() + (i + 1) * m * k, ai.data<float>());
      Tensor ci = runEager("MatMul", {ai, b})[0];
      Tensor got(DType::Float32, {m, n});
      std::copy(c.data<float>() + i * m * n, c.data<float>() + (i + 1) * m * n, got.data<float>());
      CHECK(maxRelativeError(got, ci) <= 1e-5);
    }
  }
}
