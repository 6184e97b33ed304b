// Array ops: shape functions (reshape with -1 and symbolic dims) and the op case table.
#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("reshape infers -1, keeps a symbolic batch and reports element counts", "[engine][shape]") {
  INFER_OK("Reshape", "[2,3,4];int32=[6,-1]", "[6,4]");
  INFER_OK("Reshape", "[b,7,7,64];int32=[-1,3136]", "[b,3136]");
  INFER_OK("Reshape", "[?,7,7,64];int32=[-1,3136]", "[?,3136]");
  INFER_OK("Reshape", "[b,28,28];int32=[-1,28]", "[?,28]");
  INFER_ERROR("Cannot reshape a tensor with 10 elements to shape [3, 4] (12 elements)", "Reshape", "[10];int32=[3,4]");
  INFER_ERROR("does not divide", "Reshape", "[10];int32=[3,-1]");
  INFER_ERROR("Cannot infer multiple unknown dimensions", "Reshape", "[10];int32=[-1,-1]");
  INFER_OK("Reshape", "[10];int32:[2]", "[?,?]");
}

TEST_CASE("shape and size are values when the dims are known", "[engine][shape]") {
  auto r = infer("Shape", "[2,3]");
  CHECK(r.outputs == "[2]");
  INFER_OK("Size", "[b,3]", "[]");
  INFER_OK("BroadcastTo", "[3];int32=[2,3]", "[2,3]");
  INFER_ERROR("Unable to broadcast", "BroadcastTo", "[4];int32=[2,3]");
}

static CaseRegistrar arrayCases({
    {"Const", {}, {{"value", F32({1, 2})}, {"dtype", DType::Float32}}, {F32({1, 2})}},
    {"Identity", {F32({1, 2, 3})}, {}, {F32({1, 2, 3})}},
    {"Shape", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {I32({2, 3})}},
    {"Size", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {I32({6}, {})}},
    {"Reshape", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({3, -1})}, {}, {F32({1, 2, 3, 4, 5, 6}, {3, 2})}},
    {"BroadcastTo", {F32({1, 2, 3}), I32({2, 3})}, {}, {F32({1, 2, 3, 1, 2, 3}, {2, 3})}},
    {"BroadcastTo", {F32({1, 2}, {2, 1}), I32({2, 3})}, {}, {F32({1, 1, 1, 2, 2, 2}, {2, 3})}},
    {"ZerosLike", {F32({1, 2})}, {}, {F32({0, 0})}},
    {"OnesLike", {I32({1, 2})}, {}, {I32({1, 1})}},
});
