// Comparisons and logical ops: shapes, dtypes, broadcasting, NaN semantics.
#include <limits>

#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("comparisons broadcast and give bool", "[engine][shape]") {
  INFER_OK("Less", "[b,3];[3]", "[b,3]");
  INFER_OK("Equal", "bool:[2];bool:[]", "[2]");
  INFER_OK("GreaterEqual", "?;[3]", "?");
  INFER_OK("LogicalAnd", "bool:[b,1];bool:[4]", "[b,4]");
  INFER_OK("LogicalNot", "bool:[b]", "[b]");
  auto r = OpRegistry::global().get("Greater").infer(
      {TensorType(DType::Int32, parseShape("[2]")), TensorType(DType::Int32, parseShape("[]"))}, {});
  REQUIRE(r.ok());
  CHECK(r.outputs[0].dtype == DType::Bool);
  INFER_ERROR("Dimensions must be equal, but are 2 and 3", "Equal", "[2];[3]");
  INFER_ERROR("has type int32 that does not match type float32", "Less", "float32:[2];int32:[2]");
  INFER_ERROR("Value for attr 'T' of bool", "Less", "bool:[2];bool:[2]");
  INFER_ERROR("Value for attr 'T' of float32", "LogicalAnd", "float32:[2];bool:[2]");
  INFER_ERROR("Value for attr 'T' of int32", "LogicalOr", "bool:[2];int32:[2]");
  INFER_ERROR("Value for attr 'T' of float32", "LogicalNot", "float32:[2]");
}

TEST_CASE("comparisons and logical ops are not differentiable", "[engine][registry]") {
  for (const char* op : {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd",
                         "LogicalOr", "LogicalNot"})
    CHECK_FALSE(OpRegistry::global().get(op).differentiable);
  CHECK(OpRegistry::global().findByApi("tf.math.less_equal")->type == "LessEqual");
  CHECK(OpRegistry::global().findByApi("tf.logical_not")->type == "LogicalNot");
}

static CaseRegistrar comparisonCases({
    {"Equal", {F32({1, 2, kNaN}), F32({1, 3, kNaN})}, {}, {B({true, false, false}, {3})}, 0, true, {}, 1e-4, "NaN != NaN"},
    {"Equal", {I32({1, 2, 3, 4}, {2, 2}), I32({2}, {})}, {}, {B({false, true, false, false}, {2, 2})}},
    {"Equal", {B({true, false}, {2}), B({true, true}, {2})}, {}, {B({true, false}, {2})}},
    {"NotEqual", {F32({1, 2, kNaN}), F32({1, 3, kNaN})}, {}, {B({false, true, true}, {3})}},
    {"NotEqual", {I64({1, 2}, {2, 1}), I64({1, 2}, {2})}, {}, {B({false, true, true, false}, {2, 2})}},
    {"Less", {F32({1, 2, 3}), F32({2}, {})}, {}, {B({true, false, false}, {3})}},
    {"Less", {I32({1, 5}, {2, 1}), I32({2, 6}, {1, 2})}, {}, {B({true, true, false, true}, {2, 2})}},
    {"Less", {F32({kNaN}), F32({1})}, {}, {B({false}, {1})}},
    {"LessEqual", {F32({1, 2, 3}), F32({2}, {})}, {}, {B({true, true, false}, {3})}},
    {"LessEqual", {F64({1, 2}, {2}), F64({1, 1}, {2})}, {}, {B({true, false}, {2})}},
    {"Greater", {F32({1, 2, 3}), F32({2}, {})}, {}, {B({false, false, true}, {3})}},
    {"Greater", {I32({-1, 4}), I32({0, 4})}, {}, {B({false, false}, {2})}},
    {"GreaterEqual", {F32({1, 2, 3}), F32({2}, {})}, {}, {B({false, true, true}, {3})}},
    {"GreaterEqual", {F32({kNaN, 2}), F32({kNaN, 2})}, {}, {B({false, true}, {2})}},
    {"LogicalAnd", {B({true, true, false, false}, {4}), B({true, false, true, false}, {4})}, {}, {B({true, false, false, false}, {4})}},
    {"LogicalAnd", {B({true, false}, {2, 1}), B({true, false}, {2})}, {}, {B({true, false, false, false}, {2, 2})}},
    {"LogicalOr", {B({true, true, false, false}, {4}), B({true, false, true, false}, {4})}, {}, {B({true, true, true, false}, {4})}},
    {"LogicalOr", {B({false}, {}), B({true, false}, {2})}, {}, {B({true, false}, {2})}},
    {"LogicalNot", {B({true, false}, {2})}, {}, {B({false, true}, {2})}},
    {"LogicalNot", {B({true, false, false, true}, {2, 2})}, {}, {B({false, true, true, false}, {2, 2})}},
});
