// Cumsum and Cumprod: exclusive and reverse, any axis, with gradients checked numerically.
#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("cumsum keeps its input's shape and checks the axis", "[engine][shape]") {
  INFER_OK("Cumsum", "[b,3];int32=1", "[b,3]");
  INFER_OK("Cumprod", "?;int32=0", "?");
  INFER_ERROR("ScanOp: Expected scan axis in the range [-2, 2), but got 2", "Cumsum", "[b,3];int32=2");
  INFER_ERROR("ScanOp: axis must be a scalar, not [1]", "Cumsum", "[b,3];int32=[1]");
  INFER_ERROR("is not in the list of allowed values", "Cumsum", "bool:[3];int32=0");
}

static Attrs scan(bool exclusive, bool reverse) { return {{"exclusive", exclusive}, {"reverse", reverse}}; }

static CaseRegistrar scanCases({
    {"Cumsum", {F32({1, 2, 3, 4}), I32({0}, {})}, {}, {F32({1, 3, 6, 10})}},
    {"Cumsum", {F32({1, 2, 3, 4}), I32({0}, {})}, scan(true, false), {F32({0, 1, 3, 6})}},
    {"Cumsum", {F32({1, 2, 3, 4}), I32({0}, {})}, scan(false, true), {F32({10, 9, 7, 4})}},
    {"Cumsum", {F32({1, 2, 3, 4}), I32({0}, {})}, scan(true, true), {F32({9, 7, 4, 0})}},
    {"Cumsum", {F64({1, 2, 3, 4, 5, 6}, {2, 3}), I32({1}, {})}, {}, {F64({1, 3, 6, 4, 9, 15}, {2, 3})}},
    {"Cumsum", {F64({1, 2, 3, 4, 5, 6}, {2, 3}), I32({-2}, {})}, scan(true, true), {F64({4, 5, 6, 0, 0, 0}, {2, 3})}},
    {"Cumsum", {I32({1, 2, 3}), I64({0}, {})}, {}, {I32({1, 3, 6})}},
    {"Cumprod", {F32({1, 2, 3, 4}), I32({0}, {})}, {}, {F32({1, 2, 6, 24})}},
    {"Cumprod", {F32({1, 2, 3, 4}), I32({0}, {})}, scan(true, false), {F32({1, 1, 2, 6})}},
    {"Cumprod", {F32({1, 2, 3, 4}), I32({0}, {})}, scan(false, true), {F32({24, 24, 12, 4})}},
    {"Cumprod", {F64({1.5, 2, 0.5, -1, 3, 2}, {2, 3}), I32({0}, {})}, scan(true, true),
     {F64({-1, 3, 2, 1, 1, 1}, {2, 3})}},
    {"Cumprod", {F64({1.5, 2, 0.5, -1, 3, 2}, {3, 2}), I32({1}, {})}, {}, {F64({1.5, 3, 0.5, -0.5, 3, 6}, {3, 2})}},
});
