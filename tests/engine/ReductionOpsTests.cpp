#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("reductions honour axes, negative axes and keep_dims", "[engine][shape]") {
  INFER_OK("Sum", "[2,3,4]", "[]");
  INFER_OK("Sum", "[2,3,4]", "[2,4]", {"axis", std::vector<int64_t>{1}});
  INFER_OK("Mean", "[2,3,4]", "[2,3,1]", {"axis", std::vector<int64_t>{-1}}, {"keep_dims", true});
  INFER_OK("Sum", "[b,10]", "[b]", {"axis", int64_t{1}});
  INFER_OK("Sum", "[2,3]", "[2,3]", {"axis", std::vector<int64_t>{}});
  INFER_ERROR("Invalid reduction dimension 2 for input with 2 dimensions", "Sum", "[2,3]", {"axis", int64_t{2}});
}

static CaseRegistrar reductionCases({
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {F32({21}, {})}},
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{0}}}, {F32({5, 7, 9})}},
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{1}}, {"keep_dims", true}}, {F32({6, 15}, {2, 1})}},
    {"Sum", {randomF32({2, 3, 4, 5})}, {{"axis", std::vector<int64_t>{0, 2}}}, {}, 1e-5, true, {}, 1e-4, "non-adjacent axes"},
    {"Sum", {randomF32({2, 3, 4})}, {{"axis", std::vector<int64_t>{1}}}, {}, 1e-5, true, {}, 1e-4, "middle axis"},
    {"Sum", {I32({1, 2, 3, 4}, {2, 2})}, {{"axis", int64_t{-1}}}, {I32({3, 7})}},
    {"Mean", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{1}}}, {F32({2, 5})}},
    {"Mean", {F32({1, 2, 3, 4}, {2, 2})}, {}, {F32({2.5f}, {})}},
    {"SumToShape", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({3})}, {}, {F32({5, 7, 9})}},
    {"SumToShape", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({2, 1})}, {}, {F32({6, 15}, {2, 1})}},
    {"ReducedShape", {I32({2, 3, 4})}, {{"axis", int64_t{1}}}, {I32({2, 1, 4})}},
});
