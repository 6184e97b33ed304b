// Elementwise math: shape functions and the op case table.
#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("binary ops broadcast like numpy and keep symbolic dims", "[engine][shape]") {
  INFER_OK("Add", "[2,3];[3]", "[2,3]");
  INFER_OK("Add", "[2,1];[1,3]", "[2,3]");
  INFER_OK("Mul", "[b,3];[b,3]", "[b,3]");
  INFER_OK("Mul", "[b,3];[1,3]", "[b,3]");
  INFER_OK("Sub", "[?,3];[4,1]", "[4,3]");
  INFER_OK("Add", "?;[3]", "?");
  INFER_OK("RealDiv", "[];[5,6]", "[5,6]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "Add", "[2,3];[2,4]");
  INFER_ERROR("with input shapes: [2,3], [2,4]", "Add", "[2,3];[2,4]");
}

TEST_CASE("binary ops refuse mixed dtypes and name both tensors", "[engine][shape]") {
  INFER_ERROR("has type int32 that does not match type float32", "Add", "float32:[2];int32:[2]");
  INFER_OK("Add", "int32:[2];int32:[2]", "[2]");
}

TEST_CASE("AddN needs one dtype and compatible shapes", "[engine][shape]") {
  INFER_OK("AddN", "[2,?];[?,3];[2,3]", "[2,3]");
  INFER_ERROR("compatible", "AddN", "[2,3];[3,2]");
}

static CaseRegistrar mathCases({
    {"Add", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), F32({10, 20, 30})}, {}, {F32({11, 22, 33, 14, 25, 36}, {2, 3})}},
    {"Add", {F32({1, 2}, {2, 1}), F32({10, 20, 30}, {1, 3})}, {}, {F32({11, 21, 31, 12, 22, 32}, {2, 3})}, 1e-6, true, {}, 1e-4, "both operands broadcast"},
    {"Add", {I32({1, 2}), I32({3, 4})}, {}, {I32({4, 6})}},
    {"Sub", {F32({5, 7}, {2}), F32({1}, {1})}, {}, {F32({4, 6})}},
    {"Mul", {F32({1, 2, 3, 4}, {2, 2}), F32({2}, {})}, {}, {F32({2, 4, 6, 8}, {2, 2})}},
    {"RealDiv", {F32({1, 4}, {2}), F32({2, 8}, {2})}, {}, {F32({0.5f, 0.5f})}},
    {"Neg", {F32({1, -2})}, {}, {F32({-1, 2})}},
    {"Square", {F32({3, -2})}, {}, {F32({9, 4})}},
    {"Relu", {F32({-1, 0.5f, 2, -3}, {2, 2})}, {}, {F32({0, 0.5f, 2, 0}, {2, 2})}},
    {"ReluGrad", {F32({1, 2, 3}), F32({-1, 0.5f, 2})}, {}, {F32({0, 2, 3})}, 1e-6, true, {0}},
    {"AddN", {F32({1, 2}), F32({3, 4}), F32({5, 6})}, {}, {F32({9, 12})}},
    {"Cast", {F32({1.7f, -2.2f})}, {{"DstT", DType::Int32}}, {I32({1, -2})}, 0, false},
    {"Cast", {F32({1.5f, 2})}, {{"DstT", DType::Float64}}, {F64({1.5, 2})}},
});
