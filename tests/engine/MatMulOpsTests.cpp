#include "OpTestUtil.h"

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
