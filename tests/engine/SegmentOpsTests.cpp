// UnsortedSegmentSum and SegmentSum/Mean/Max: TensorFlow's documented examples, empty segments,
// negative ids, and the gradients checked numerically.
#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("segment reductions replace the segmented dims with the number of segments", "[engine][shape]") {
  INFER_OK("UnsortedSegmentSum", "[n,4];int32:[n];int32=2", "[2,4]");
  INFER_OK("UnsortedSegmentSum", "[n,m,4];int32:[n,m];int32:[]", "[?,4]");
  INFER_OK("UnsortedSegmentSum", "[n,4];int32:?;int32=2", "?");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "UnsortedSegmentSum", "[3,4];int32:[4];int32=2");
  INFER_ERROR("Shape must be rank 0 but is rank 1", "UnsortedSegmentSum", "[3,4];int32:[3];int32=[2]");
  INFER_OK("SegmentSum", "[n,4];int32:[n]", "[?,4]");
  INFER_OK("SegmentMean", "[3,4];int32=[0,0,1]", "[2,4]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 2", "SegmentMax", "[3,4];int32:[2]");
  INFER_ERROR("Shape must be rank 1 but is rank 2", "SegmentSum", "[3,4];int32:[3,4]");
}

TEST_CASE("segment ops report bad ids as TensorFlow does", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("UnsortedSegmentSum", {F32({1, 2, 3}), I32({0, 5, 1}), I32({3}, {})}),
                    Catch::Contains("segment_ids[1] = 5 is out of range [0, 3)"));
  CHECK_THROWS_WITH(runEager("SegmentSum", {F32({1, 2, 3}), I32({1, 0, 1})}),
                    Catch::Contains("segment ids are not increasing"));
  CHECK_THROWS_WITH(runEager("SegmentSum", {F32({1, 2, 3}), I32({0, 1})}),
                    Catch::Contains("Dimensions must be equal, but are 3 and 2"));
}

static const std::vector<double> kC = {1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1};

static CaseRegistrar segmentCases({
    {"UnsortedSegmentSum", {F64(kC, {3, 4}), I32({0, 1, 0}), I32({2}, {})}, {},
     {F64({5, 5, 5, 5, 5, 6, 7, 8}, {2, 4})}, 1e-12, true, {0}, 1e-6},
    {"UnsortedSegmentSum", {F64({1, 2, 3, 4}, {2, 2}), I64({-1, 2, 0, 2}, {2, 2}), I32({3}, {})}, {},
     {F64({3, 0, 6}, {3})}, 1e-12, true, {0}, 1e-6, "2-D ids; a negative id is dropped"},
    {"SegmentSum", {F64(kC, {3, 4}), I32({0, 0, 1})}, {}, {F64({6, 8, 10, 12, 4, 3, 2, 1}, {2, 4})}, 1e-12, true, {0},
     1e-6},
    {"SegmentSum", {F32({1, 2, 3}), I32({0, 0, 2})}, {}, {F32({3, 0, 3})}, 1e-6, false, {}, 1e-4,
     "an empty segment is 0"},
    {"SegmentMean", {F64({1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8}, {3, 4}), I32({0, 0, 1})}, {},
     {F64({2.5, 2.5, 2.5, 2.5, 5, 6, 7, 8}, {2, 4})}, 1e-12, true, {0}, 1e-6},
    {"SegmentMean", {F64({1, 2, 3, 6}), I32({0, 0, 0, 3})}, {}, {F64({2, 0, 0, 6})}, 1e-12, true, {0}, 1e-6,
     "empty segments are 0 and take no gradient"},
    {"SegmentMax", {I32({1, 2, 3, 4, 4, 3, 2, 1, 5, 6, 7, 8}, {3, 4}), I32({0, 0, 1})}, {},
     {I32({4, 3, 3, 4, 5, 6, 7, 8}, {2, 4})}},
    {"SegmentMax", {F64({0.5, 2.5, -1, 3, 1.5, 0.25}, {3, 2}), I32({0, 0, 2})}, {},
     {F64({0.5, 3, 0, 0, 1.5, 0.25}, {3, 2})}, 1e-12, true, {0}, 1e-6, "the gradient goes to the maximum"},
});
