// DynamicPartition and DynamicStitch: TensorFlow's documented examples, shape functions, bad
// partitions, and gradients checked numerically.
#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("dynamic_partition gives num_partitions outputs of unknown length", "[engine][shape]") {
  INFER_OK("DynamicPartition", "[5,3];int32:[5]", "[?,3];[?,3]", {"num_partitions", int64_t{2}});
  INFER_OK("DynamicPartition", "[b,t,3];int32:[b,t]", "[?,3]", {"num_partitions", int64_t{1}});
  INFER_ERROR("Dimensions must be equal, but are 5 and 4", "DynamicPartition", "[5,3];int32:[4]",
              {"num_partitions", int64_t{2}});
  INFER_OK("DynamicStitch", "int32=[0,2];int32=[1];[2,3];[1,3]", "[3,3]", {"N", int64_t{2}});
  INFER_OK("DynamicStitch", "int32:[n];int32:[m];[n,3];[m,3]", "[?,3]", {"N", int64_t{2}});
  INFER_ERROR("Shapes must be equal rank and compatible", "DynamicStitch", "int32:[n];int32:[m];[n,3];[m,4]",
              {"N", int64_t{2}});
}

TEST_CASE("dynamic_partition rejects a partition out of range", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("DynamicPartition", {F32({1, 2, 3}), I32({0, 2, 1})}, {{"num_partitions", int64_t{2}}}),
                    Catch::Contains("partitions[1] = 2 is not in [0, 2)"));
}

static CaseRegistrar partitionCases({
    {"DynamicPartition", {F64({10, 20, 30, 40, 50}), I32({0, 0, 1, 1, 0})}, {{"num_partitions", int64_t{2}}},
     {F64({10, 20, 50}), F64({30, 40})}, 1e-12, true, {0}, 1e-6},
    {"DynamicPartition", {F64({1, 1, 2, 2, 3, 3, 4, 4}, {2, 2, 2}), I32({2, 0, 0, 2}, {2, 2})},
     {{"num_partitions", int64_t{3}}}, {F64({2, 2, 3, 3}, {2, 2}), F64({}, {0, 2}), F64({1, 1, 4, 4}, {2, 2})}, 1e-12,
     true, {0}, 1e-6, "2-D partitions; an empty partition"},
    {"DynamicStitch",
     {I32({6}, {}), I32({4, 1}), I32({5, 2, 0, 3}, {2, 2}), F64({61, 62}), F64({41, 42, 11, 12}, {2, 2}),
      F64({51, 52, 21, 22, 1, 2, 31, 32}, {2, 2, 2})},
     {{"N", int64_t{3}}},
     {F64({1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62}, {7, 2})}, 1e-12, true, {3, 4, 5}, 1e-6,
     "TensorFlow's documented example"},
});
