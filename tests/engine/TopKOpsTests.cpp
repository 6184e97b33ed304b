// TopKV2 and InTopKV2: shape functions, TensorFlow's test values (in_topk_op_test.py), ties, and
// the gradient (each picked position gets its dy).
#include <cmath>
#include <limits>

#include "OpTestUtil.h"
#include "ShapeErrorCheck.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("top_k replaces the last dim with k and checks k against it", "[engine][shape]") {
  INFER_OK("TopKV2", "[b,10];int32=3", "[b,3];[b,3]");
  INFER_OK("TopKV2", "[b,10];int32:[]", "[b,?];[b,?]");
  INFER_OK("TopKV2", "?;int32=3", "?;?");
  INFER_OK("TopKV2", "[b,?];int32=3", "[b,3];[b,3]");
  INFER_ERROR("input must have last dimension >= k = 5 but is 3", "TopKV2", "[2,3];int32=5");
  INFER_ERROR("Need k >= 0, got -1", "TopKV2", "[2,3];int32=-1");
  INFER_ERROR("Shape must be at least rank 1 but is rank 0", "TopKV2", "[];int32=1");
  INFER_ERROR("Shape must be rank 0 but is rank 1", "TopKV2", "[2,3];int32=[1]");
  INFER_ERROR("is not in the list of allowed values", "TopKV2", "bool:[2,3];int32=1");
}

TEST_CASE("in_top_k gives one bool per row", "[engine][shape]") {
  INFER_OK("InTopKV2", "[b,10];int32:[b];int32=1", "[b]");
  INFER_OK("InTopKV2", "[?,10];int32:[4];int32=1", "[4]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "InTopKV2", "[3,10];int32:[4];int32=1");
  INFER_ERROR("Shape must be rank 2 but is rank 1", "InTopKV2", "[10];int32:[4];int32=1");
  INFER_ERROR("is not in the list of allowed values", "InTopKV2", "float64:[3,10];int32:[3];int32=1");
}

TEST_CASE("top_k fails when k exceeds the last dim", "[engine][ops]") {
  // The shape function sees k's value eagerly too, so its message comes first.
  CHECK_THROWS_WITH(runEager("TopKV2", {F32({1, 2, 3}, {3}), I32({4}, {})}),
                    Catch::Contains("input must have last dimension >= k = 4 but is 3"));
}

static const float kNaN = std::numeric_limits<float>::quiet_NaN();
static const float kInf = std::numeric_limits<float>::infinity();

static CaseRegistrar topKCases({
    {"TopKV2", {F32({1, 4, 2, 4, 3, 3, 0, -1}, {2, 4}), I32({2}, {})}, {},
     {F32({4, 4, 3, 3}, {2, 2}), I32({1, 3, 0, 1}, {2, 2})}, 1e-6, false, {}, 1e-4, "ties: the lower index first"},
    {"TopKV2", {F64({0.5, -1, 3, 2, 7, 1.5}, {6}), I32({3}, {})}, {},
     {F64({7, 3, 2}, {3}), I32({4, 2, 3}, {3})}, 1e-12, true, {0}, 1e-6, "gradient: dy at the picked positions"},
    {"TopKV2", {I32({5, 1, 9}, {3}), I32({0}, {})}, {}, {I32({}, {0}), I32({}, {0})}, 0, false, {}, 1e-4, "k = 0"},
    {"InTopKV2", {F32({0.1f, 0.3f, 0.2f, 0.4f, 0.1f, 0.2f, 0.3f, 0.4f}, {2, 4}), I32({3, 1}), I32({1}, {})}, {},
     {B({true, false}, {2})}},
    {"InTopKV2", {F32({0.1f, 0.3f, 0.2f, 0.4f, 0.1f, 0.2f, 0.3f, 0.4f}, {2, 4}), I32({0, 2}), I32({2}, {})}, {},
     {B({false, true}, {2})}},
    {"InTopKV2", {F32({0.1f, 0.3f, 0.2f, 0.2f, 0.1f, 0.3f, 0.2f, 0.2f}, {2, 4}), I32({2, 3}), I32({2}, {})}, {},
     {B({true, true}, {2})}, 1e-5, true, {}, 1e-4, "ties count as in the top k"},
    {"InTopKV2", {F32({0.1f, kNaN, 0.2f, 0.4f, 0.1f, 0.2f, 0.3f, kInf}, {2, 4}), I32({0, 3}), I32({2}, {})}, {},
     {B({false, false}, {2})}, 1e-5, true, {}, 1e-4, "a non-finite target prediction is never in the top k"},
});

TEST_CASE("bad top_k and in_top_k arguments fail in the shape function, with its message", "[engine][ops]") {
  checkShapeErrorIsWhatRunsReport("TopKV2", {randomF32({2, 3}), I32({4}, {})});
  checkShapeErrorIsWhatRunsReport("TopKV2", {randomF32({2, 3}), I32({-1}, {})});
  checkShapeErrorIsWhatRunsReport("TopKV2", {randomF32({2, 3}), I32({1}, {1})});
  checkShapeErrorIsWhatRunsReport("TopKV2", {F32({1}, {}), I32({1}, {})});
  checkShapeErrorIsWhatRunsReport("InTopKV2", {randomF32({2, 3}), I32({0, 1, 2}, {3}), I32({1}, {})});
  checkShapeErrorIsWhatRunsReport("InTopKV2", {randomF32({2}), I32({0, 1}, {2}), I32({1}, {})});
  checkShapeErrorIsWhatRunsReport("InTopKV2", {randomF32({2, 3}), I32({0, 1}, {2}), I32({1}, {1})});
}
