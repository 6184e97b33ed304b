// Joining, splitting, tiling and padding: ConcatV2, ConcatOffset, Pack, Unpack, Split, SplitV,
// Tile, Pad, PadV2 -- shape functions, shape-valued results, kernel errors and the case table.
#include "ArrayTestUtil.h"

using namespace tlens;
using namespace tlens::test;
using namespace tlens::test::arraytest;

using Ints = std::vector<int64_t>;

TEST_CASE("concat checks ranks and non-axis dims and sums the axis", "[engine][shape]") {
  ARRAY_ERROR("Shape must be rank 0 but is rank 1", "ConcatV2", "?;?;int32:[1]");
  ARRAY_OK("ConcatV2", "?;?;?;?;[1,2,3];?;[3,2,1];int32:[]", "[?,?,?]");
  ARRAY_OK("ConcatV2", "?;?;int32:[]", "?");
  ARRAY_ERROR("Can't concatenate scalars (use tf.pack instead)", "ConcatV2", "?;[];[];int32:[]");
  ARRAY_ERROR("Shape must be rank 2 but is rank 3", "ConcatV2", "[1,2];[1,2,3];int32:[]");
  ARRAY_OK("ConcatV2", "[100,2,?];[10,?,3];int32=0", "[110,2,3]");
  ARRAY_OK("ConcatV2", "[100,2,?];[?,?,3];int32=0", "[?,2,3]");
  ARRAY_ERROR("Dimension 1 in both shapes must be equal, but are 5 and 3. Shapes are [100,5,?] and [10,3,?]",
              "ConcatV2", "[100,5,?];[10,3,?];int32=0");
  ARRAY_OK("ConcatV2", "[b,100];[b,10];int32=1", "[b,110]");
  ARRAY_OK("ConcatV2", "[b,100];[?,10];int64=-1", "[b,110]");
  ARRAY_OK("ConcatV2", "[b,3];[c,3];int32=0", "[?,3]");
  ARRAY_OK("ConcatV2", "[b,3];int32=0", "[b,3]");
  ARRAY_OK("ConcatV2", "?;[1,100,?];[?,?,?];[?,10,3];?;int32=1", "[1,?,3]");
  ARRAY_ERROR("Shape must be at least rank 2 but is rank 1", "ConcatV2", "[100];[10];int32=1");
  ARRAY_ERROR("Shape must be at least rank 2 but is rank 1", "ConcatV2", "[100];[10];int32=-2");
  ARRAY_ERROR("has type int32 that does not match type float32", "ConcatV2", "[1];int32:[1];int32=0");
  auto r = inferArray("ConcatV2", "shape=[b];int32=[-1];int32=0");
  CHECK(r.shapes == "[2]");
  CHECK(r.asShape() == "[b, -1]");
  CHECK(inferArray("ConcatV2", "int32=[1,2];int32=[3];int32=0").value() == Ints{1, 2, 3});
  CHECK(inferArray("ConcatV2", "int32=[1,2,3,4]@[2,2];int32=[5,6]@[2,1];int32=1").value() == Ints{1, 2, 5, 3, 4, 6});
}

TEST_CASE("concat offsets are values when shapes and axis are known", "[engine][shape]") {
  auto r = inferArray("ConcatOffset", "int32=1;int32=[2,3];int32=[2,5]");
  CHECK(r.shapes == "[2];[2]");
  CHECK(r.value(0) == Ints{0, 0});
  CHECK(r.value(1) == Ints{0, 3});
  ARRAY_ERROR("All dimensions except 1 must match. Input 2 has shape [4, 5] and doesn't match input 1 with shape [2, 3]",
              "ConcatOffset", "int32=1;int32=[2,3];int32=[4,5]");
}

TEST_CASE("stack merges shapes and inserts the count at axis", "[engine][shape]") {
  ARRAY_OK("Pack", "?;?;?", "?");
  ARRAY_OK("Pack", "[1,3];[1,3];?", "[3,1,3]");
  ARRAY_OK("Pack", "[?,3];[1,?];?", "[3,1,3]");
  ARRAY_OK("Pack", "[b,3];[b,3]", "[b,2,3]", {"axis", int64_t{1}});
  ARRAY_OK("Pack", "[b,3];[b,3]", "[b,3,2]", {"axis", int64_t{-1}});
  ARRAY_OK("Pack", "[b,3];[?,3]", "[2,b,3]");
  ARRAY_ERROR("Invalid axis: -4; must be in [-3,3)", "Pack", "[1,3];[1,3];?", {"axis", int64_t{-4}});
  ARRAY_ERROR("Invalid axis: 3; must be in [-3,3)", "Pack", "[1,3];[1,3];?", {"axis", int64_t{3}});
  ARRAY_ERROR("Shapes must be equal rank, but are 3 and 2", "Pack", "[1,2,3];?;[1,4]");
  ARRAY_ERROR("From merging shape 0 with other shapes", "Pack", "[1,2,3];?;[1,4]");
  ARRAY_ERROR("Dimension 1 in both shapes must be equal, but are 2 and 4", "Pack", "[1,2];[1,4]");
  ARRAY_ERROR("does not match type float32", "Pack", "[2];int32:[2]");
  auto r = inferArray("Pack", "int32=2;int32=-1");
  CHECK(r.shapes == "[2]");
  CHECK(r.asShape() == "[2, -1]");
  CHECK(r.value() == Ints{2, -1});
  CHECK(inferArray("Pack", "int32=[1,2];int32=[3,4]", Attrs{{"axis", int64_t{1}}}).value() == Ints{1, 3, 2, 4});
}

TEST_CASE("unstack infers num from the shape and checks it", "[engine][shape]") {
  ARRAY_OK("Unpack", "[1,2,3]", "[2,3]");
  ARRAY_OK("Unpack", "[b,2,3]", "[b,3];[b,3]", {"axis", int64_t{1}});
  ARRAY_OK("Unpack", "[b,2,3]", "[b,2];[b,2];[b,2]", {"axis", int64_t{-1}});
  ARRAY_OK("Unpack", "?", "?;?", {"num", int64_t{2}});
  ARRAY_OK("Unpack", "[b,3]", "[3];[3]", {"num", int64_t{2}});
  ARRAY_ERROR("Dimension must be 2 but is 3", "Unpack", "[1,2,3]", {"axis", int64_t{2}}, {"num", int64_t{2}});
  ARRAY_ERROR("Invalid axis: -4; must be in [-3,3)", "Unpack", "[1,2,3]", {"axis", int64_t{-4}});
  ARRAY_ERROR("Cannot infer argument `num` from shape (?, 3)", "Unpack", "[b,3]");
  ARRAY_ERROR("Cannot infer argument `num` from shape <unknown>", "Unpack", "?");
  auto r = inferArray("Unpack", "shape=[b,28]");
  REQUIRE(r.outputs.size() == 2);
  CHECK(r.shapes == "[];[]");
  CHECK(r.asShape(0) == "[b]");
  CHECK(r.asShape(1) == "[28]");
  auto v = inferArray("Unpack", "int32=[1,2,3,4]@[2,2]", Attrs{{"axis", int64_t{1}}});
  CHECK(v.value(0) == Ints{1, 3});
  CHECK(v.value(1) == Ints{2, 4});
}

TEST_CASE("split divides the axis evenly, split_v takes sizes with one -1", "[engine][shape]") {
  const Attrs two{{"num_split", int64_t{2}}};
  ARRAY_OK("Split", "int32:[];?", "?;?", {"num_split", int64_t{2}});
  ARRAY_OK("Split", "int32:[];[?,?]", "[?,?];[?,?]", {"num_split", int64_t{2}});
  ARRAY_ERROR("Input must be scalar but has rank 1", "Split", "int32=[1,2];[?,?]", {"num_split", int64_t{2}});
  ARRAY_OK("Split", "int32=1;[b,4]", "[b,2];[b,2]", {"num_split", int64_t{2}});
  ARRAY_OK("Split", "int32=1;[b,?]", "[b,?];[b,?]", {"num_split", int64_t{2}});
  ARRAY_OK("Split", "int32=0;[b,4]", "[b,4]", {"num_split", int64_t{1}});
  ARRAY_OK("Split", "int32=-1;[b,6]", "[b,2];[b,2];[b,2]", {"num_split", int64_t{3}});
  ARRAY_ERROR("Dimension size must be evenly divisible by 2 but is 5", "Split", "int32=1;[1,5]", {"num_split", int64_t{2}});
  ARRAY_ERROR("-input rank(-2) <= split_dim < input rank (2), but got 2", "Split", "int32=2;[1,4]",
              {"num_split", int64_t{2}});
  ARRAY_ERROR("Value for attr 'num_split' of 0 must be at least minimum 1", "Split", "int32=0;[4]",
              {"num_split", int64_t{0}});
  auto r = inferArray("Split", "int32=0;shape=[b,28,28,1]", Attrs{{"num_split", int64_t{2}}});
  CHECK(r.asShape(0) == "[b, 28]");
  CHECK(r.asShape(1) == "[28, 1]");

  ARRAY_OK("SplitV", "[b,7];int32=[2,-1];int32=1", "[b,2];[b,5]", {"num_split", int64_t{2}});
  ARRAY_OK("SplitV", "[b,7];int32=[2,5];int32=-1", "[b,2];[b,5]");
  ARRAY_OK("SplitV", "[b,?];int32=[2,-1];int32=1", "[b,2];[b,?]");
  ARRAY_OK("SplitV", "[b,7];int32:[2];int32=1", "[b,?];[b,?]");
  ARRAY_OK("SplitV", "[7,b];int32=[3,4];int32:[]", "[?,?];[?,?]");
  ARRAY_OK("SplitV", "[b,3];int32=[-1];int32=0", "[b,3]");
  ARRAY_ERROR("There can only be one -1 in the input", "SplitV", "[9];int32=[-1,2,-1];int32=0");
  ARRAY_ERROR("Determined shape must either match input shape along split_dim exactly if fully specified, or be "
              "less than the size of the input along split_dim if not fully specified.  Got: 8",
              "SplitV", "[7];int32=[3,5];int32=0");
  ARRAY_ERROR("Got: 9", "SplitV", "[7];int32=[9,-1];int32=0");
  ARRAY_ERROR("Length of size_splits should be equal to num_split: 2 vs. 3", "SplitV", "[7];int32=[3,4];int32=0",
              {"num_split", int64_t{3}});
  ARRAY_ERROR("-input rank(-1) <= split_dim < input rank (1), but got 1", "SplitV", "[7];int32=[3,4];int32=1");
  auto v = inferArray("SplitV", "int32=[5,6,7];int32=[1,2];int32=0");
  CHECK(v.value(0) == Ints{5});
  CHECK(v.value(1) == Ints{6, 7});
}

TEST_CASE("tile multiplies dims, keeping symbols for multiples of 1", "[engine][shape]") {
  ARRAY_OK("Tile", "?;int32:?", "?");
  ARRAY_OK("Tile", "[2,3,1,4];int32:?", "[?,?,?,?]");
  ARRAY_ERROR("Shape must be rank 1 but is rank 2", "Tile", "[2,3,1,4];int32:[4,1]");
  ARRAY_OK("Tile", "?;int32:[4]", "[?,?,?,?]");
  ARRAY_OK("Tile", "[2,3,1,4];int32=[2,3,4,5]", "[4,9,4,20]");
  ARRAY_OK("Tile", "[2,3,1,4];int64=[2,3,4,5]", "[4,9,4,20]");
  ARRAY_OK("Tile", "[b,3];int32=[1,2]", "[b,6]");
  ARRAY_OK("Tile", "[1,3];shape=[b,1]", "[b,3]");
  ARRAY_OK("Tile", "[b,3];int32=[0,1]", "[0,3]");
  ARRAY_ERROR("Expected multiples argument to be a vector of length 2 but got length 3", "Tile", "[2,3];int32=[1,2,3]");
  ARRAY_ERROR("Expected multiples[1] >= 0, but got -1", "Tile", "[2,3];int32=[1,-1]");
  auto r = inferArray("Tile", "int32=[1,2];int32=[2]");
  CHECK(r.value() == Ints{1, 2, 1, 2});
  CHECK(r.asShape() == "[1, 2, 1, 2]");
}

TEST_CASE("pad adds paddings to known dims and checks the paddings matrix", "[engine][shape]") {
  ARRAY_OK("Pad", "?;int32:?", "?");
  ARRAY_ERROR("Shape must be rank 2 but is rank 3", "Pad", "?;int32:[1,2,3]");
  ARRAY_ERROR("Dimension must be 2 but is 4", "Pad", "?;int32:[1,4]");
  ARRAY_ERROR("Shape must be rank 4 but is rank 3", "Pad", "[1,2,3];int32:[4,2]");
  ARRAY_OK("Pad", "[1,2,3];int32:?", "[?,?,?]");
  ARRAY_OK("Pad", "?;int32:[3,2]", "[?,?,?]");
  ARRAY_OK("Pad", "[100,200,300];int64=[1,10,2,20,3,30]@[3,2]", "[111,222,333]");
  ARRAY_OK("Pad", "[b,200,300];int32=[0,0,2,20,3,30]@[3,2]", "[b,222,333]");
  ARRAY_OK("Pad", "[b,200];int32=[1,0,0,0]@[2,2]", "[?,200]");
  ARRAY_ERROR("Paddings must be non-negative: -1 0", "Pad", "[2];int32=[-1,0]@[1,2]");
  ARRAY_OK("PadV2", "[2,3];int32=[1,1,0,2]@[2,2];[]", "[4,5]");
  ARRAY_ERROR("Shape must be rank 0 but is rank 1", "PadV2", "[2,3];int32:[2,2];[1]");
  ARRAY_ERROR("does not match type float32", "PadV2", "[2,3];int32:[2,2];int32:[]");
  ARRAY_OK("Pad", "[2];int32=[1,2]@[1,2]", "[5]", {"mode", std::string("constant")});
  ARRAY_ERROR("Padding mode REFLECT is not supported", "Pad", "[2];int32=[1,2]@[1,2]", {"mode", std::string("REFLECT")});
  CHECK(inferArray("Pad", "int32=[1,2];int32=[1,2]@[1,2]").value() == Ints{0, 1, 2, 0, 0});
  CHECK(inferArray("PadV2", "int32=[1,2];int32=[1,0]@[1,2];int32=9").value() == Ints{9, 1, 2});
}

TEST_CASE("join and split kernels report bad inputs", "[engine][kernels]") {
  CHECK_THROWS_WITH(runEager("ConcatV2", {F32({1, 2}), F32({1, 2, 3, 4}, {2, 2}), I32({0}, {})}),
                    Catch::Contains("Shape must be rank 1 but is rank 2"));
  CHECK_THROWS_WITH(runEager("ConcatV2", {F32({1, 2}), F32({3}), I32({1}, {})}),
                    Catch::Contains("Shape must be at least rank 2 but is rank 1"));
  CHECK_THROWS_WITH(runEager("Pack", {F32({1, 2}), F32({3})}), Catch::Contains("Dimension 0 in both shapes must be equal"));
  CHECK_THROWS_WITH(runEager("Split", {I32({0}, {}), F32({1, 2, 3})}, {{"num_split", int64_t{2}}}),
                    Catch::Contains("evenly divisible by 2 but is 3"));
  CHECK_THROWS_WITH(runEager("SplitV", {F32({1, 2, 3}), I32({1, 1}), I32({0}, {})}),
                    Catch::Contains("Determined shape must either match"));
  CHECK_THROWS_WITH(runEager("Tile", {F32({1, 2}), I32({-1})}), Catch::Contains("Expected multiples[0] >= 0"));
  CHECK_THROWS_WITH(runEager("Pad", {F32({1, 2}), I32({0, -1}, {1, 2})}),
                    Catch::Contains("Paddings must be non-negative: 0 -1"));
  CHECK_THROWS_WITH(runEager("Unpack", {F32({1, 2})}, {{"num", int64_t{3}}}), Catch::Contains("Dimension must be 3 but is 2"));
}

namespace {
Tensor iota(ConcreteShape s) { return iotaF32(std::move(s)); }
Tensor s32(int32_t v) { return I32({v}, {}); }
}  // namespace

static CaseRegistrar concatCases({
    {"ConcatV2", {F32({1, 2, 3, 4}, {2, 2}), F32({5, 6}, {2, 1}), s32(1)}, {}, {F32({1, 2, 5, 3, 4, 6}, {2, 3})}},
    {"ConcatV2", {F32({1, 2}, {1, 2}), F32({3, 4, 5, 6}, {2, 2}), s32(0)}, {}, {F32({1, 2, 3, 4, 5, 6}, {3, 2})}},
    {"ConcatV2", {F32({1, 2, 3, 4}, {2, 2}), F32({5, 6}, {2, 1}), s32(-1)}, {}, {F32({1, 2, 5, 3, 4, 6}, {2, 3})},
     0, true, {}, 1e-4, "negative axis"},
    {"ConcatV2", {I32({1}), I32({2, 3}), I32({4}), I64({0}, {})}, {}, {I32({1, 2, 3, 4})}, 0, true, {}, 1e-4,
     "three int32 values, int64 axis"},
    {"ConcatV2", {B({true}, {1}), B({false, true}, {2}), s32(0)}, {}, {B({true, false, true}, {3})}},
    {"ConcatV2", {F32({1, 2}), s32(0)}, {}, {F32({1, 2})}, 0, true, {}, 1e-4, "single value"},
    {"ConcatV2", {F32({}, {2, 0}), F32({7, 8}, {2, 1}), s32(1)}, {}, {F32({7, 8}, {2, 1})}, 0, true, {}, 1e-4,
     "empty input"},
    {"ConcatV2", {randomF64({2, 3, 4}), randomF64({2, 1, 4}, -1, 1, 2), s32(1)}, {}, {}, 0, true, {}, 1e-4,
     "float64, middle axis"},
    {"ConcatOffset", {s32(1), I32({2, 3}), I32({2, 5}), I32({2, 1})}, {}, {I32({0, 0}), I32({0, 3}), I32({0, 8})}},
    {"ConcatOffset", {s32(-2), I32({2, 3}), I32({4, 3})}, {}, {I32({0, 0}), I32({2, 0})}},

    {"Pack", {F32({1, 2}), F32({3, 4})}, {}, {F32({1, 2, 3, 4}, {2, 2})}},
    {"Pack", {F32({1, 2}), F32({3, 4})}, {{"axis", int64_t{1}}}, {F32({1, 3, 2, 4}, {2, 2})}},
    {"Pack", {F32({0, 1, 2, 3}, {2, 2}), F32({10, 11, 12, 13}, {2, 2})}, {{"axis", int64_t{-1}}},
     {F32({0, 10, 1, 11, 2, 12, 3, 13}, {2, 2, 2})}},
    {"Pack", {F32({1}, {}), F32({2}, {}), F32({3}, {})}, {}, {F32({1, 2, 3})}, 0, true, {}, 1e-4, "scalars"},
    {"Pack", {s32(4), s32(-1)}, {}, {I32({4, -1})}},
    {"Pack", {B({true}, {1}), B({false}, {1})}, {{"axis", int64_t{1}}}, {B({true, false}, {1, 2})}},
    {"Unpack", {iota({2, 3})}, {}, {F32({0, 1, 2}), F32({3, 4, 5})}},
    {"Unpack", {iota({2, 3})}, {{"axis", int64_t{1}}}, {F32({0, 3}), F32({1, 4}), F32({2, 5})}},
    {"Unpack", {iota({2, 2, 2})}, {{"axis", int64_t{-1}}}, {F32({0, 2, 4, 6}, {2, 2}), F32({1, 3, 5, 7}, {2, 2})}},
    {"Unpack", {I32({1, 2, 3})}, {{"num", int64_t{3}}}, {I32({1}, {}), I32({2}, {}), I32({3}, {})}},
    {"Unpack", {randomF64({3, 2, 2})}, {{"axis", int64_t{1}}}, {}, 0, true, {}, 1e-4, "gradient with unused outputs"},

    {"Split", {s32(1), iota({2, 4})}, {{"num_split", int64_t{2}}}, {F32({0, 1, 4, 5}, {2, 2}), F32({2, 3, 6, 7}, {2, 2})}},
    {"Split", {s32(0), iota({2, 4})}, {{"num_split", int64_t{2}}}, {iota({1, 4}), F32({4, 5, 6, 7}, {1, 4})}},
    {"Split", {s32(-1), iota({2, 4})}, {{"num_split", int64_t{4}}},
     {F32({0, 4}, {2, 1}), F32({1, 5}, {2, 1}), F32({2, 6}, {2, 1}), F32({3, 7}, {2, 1})}},
    {"Split", {s32(0), B({true, false}, {2})}, {{"num_split", int64_t{2}}}, {B({true}, {1}), B({false}, {1})}},
    {"SplitV", {iota({2, 5}), I32({2, -1}), s32(1)}, {{"num_split", int64_t{2}}},
     {F32({0, 1, 5, 6}, {2, 2}), F32({2, 3, 4, 7, 8, 9}, {2, 3})}},
    {"SplitV", {iota({3, 2}), I64({1, 0, 2}, {3}), s32(0)}, {{"num_split", int64_t{3}}},
     {F32({0, 1}, {1, 2}), F32({}, {0, 2}), F32({2, 3, 4, 5}, {2, 2})}, 0, true, {}, 1e-4, "an empty part"},
    {"SplitV", {I32({1, 2, 3}), I32({1, 2}), s32(0)}, {}, {I32({1}), I32({2, 3})}},

    {"Tile", {F32({1, 2, 3, 4}, {2, 2}), I32({1, 2})}, {}, {F32({1, 2, 1, 2, 3, 4, 3, 4}, {2, 4})}},
    {"Tile", {F32({1, 2, 3, 4}, {2, 2}), I32({2, 1})}, {}, {F32({1, 2, 3, 4, 1, 2, 3, 4}, {4, 2})}},
    {"Tile", {F32({1, 2, 3, 4}, {2, 2}), I32({2, 2})}, {},
     {F32({1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}, {4, 4})}},
    {"Tile", {F32({1, 2, 3}), I64({2}, {1})}, {}, {F32({1, 2, 3, 1, 2, 3})}},
    {"Tile", {F32({1, 2}, {2, 1}), I32({1, 3})}, {}, {F32({1, 1, 1, 2, 2, 2}, {2, 3})}},
    {"Tile", {F32({1, 2}), I32({0})}, {}, {F32({}, {0})}, 0, true, {}, 1e-4, "zero multiple"},
    {"Tile", {B({true, false}, {2}), I32({2})}, {}, {B({true, false, true, false}, {4})}},
    {"Tile", {F32({5}, {}), I32({}, {0})}, {}, {F32({5}, {})}, 0, true, {}, 1e-4, "scalar"},
    {"Tile", {randomF64({2, 3, 2}), I32({2, 1, 3})}, {}, {}, 0, true, {}, 1e-4, "3-D gradient"},

    {"Pad", {F32({1, 2, 3, 4}, {2, 2}), I32({1, 0, 0, 1}, {2, 2})}, {}, {F32({0, 0, 0, 1, 2, 0, 3, 4, 0}, {3, 3})}},
    {"Pad", {F32({1, 2, 3}), I64({2, 1}, {1, 2})}, {}, {F32({0, 0, 1, 2, 3, 0})}},
    {"Pad", {I32({7}, {1}), I32({0, 0}, {1, 2})}, {}, {I32({7})}},
    {"Pad", {B({true}, {1}), I32({1, 1}, {1, 2})}, {}, {B({false, true, false}, {3})}},
    {"Pad", {randomF64({2, 3, 2}), I32({1, 0, 0, 2, 1, 1}, {3, 2})}, {}, {}, 0, true, {}, 1e-4, "3-D gradient"},
    {"PadV2", {F32({1, 2}), I32({1, 1}, {1, 2}), F32({9}, {})}, {}, {F32({9, 1, 2, 9})}, 0, true, {0}},
    {"PadV2", {I32({1, 2, 3, 4}, {2, 2}), I32({0, 1, 1, 0}, {2, 2}), s32(-1)}, {},
     {I32({-1, 1, 2, -1, 3, 4, -1, -1, -1}, {3, 3})}},
});
