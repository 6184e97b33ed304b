// Slicing: Slice, StridedSlice (Python indexing semantics), StridedSliceGrad, GatherV2 and its
// gradient -- shape functions with symbolic dims, shape-valued slices, kernel errors, case table.
#include "ArrayTestUtil.h"

using namespace tlens;
using namespace tlens::test;
using namespace tlens::test::arraytest;

using Ints = std::vector<int64_t>;

namespace {
Attrs masks(int64_t b, int64_t e, int64_t ell = 0, int64_t na = 0, int64_t sh = 0) {
  return {{"begin_mask", b}, {"end_mask", e}, {"ellipsis_mask", ell}, {"new_axis_mask", na}, {"shrink_axis_mask", sh}};
}
ArrayInfer ss(const std::string& in, const std::string& b, const std::string& e, const std::string& s, const Attrs& a = {}) {
  return inferArray("StridedSlice", in + ";int32=" + b + ";int32=" + e + ";int32=" + s, a);
}
}  // namespace

TEST_CASE("strided slice computes exact shapes for Python slicing", "[engine][shape]") {
  // x[1] on [3,4]
  CHECK(ss("[3,4]", "[1]", "[2]", "[1]", masks(0, 0, 0, 0, 1)).shapes == "[4]");
  // x[-1]
  CHECK(ss("[3,4]", "[-1]", "[0]", "[1]", masks(0, 0, 0, 0, 1)).shapes == "[4]");
  // x[:, 1:3]
  CHECK(ss("[3,4]", "[0,1]", "[0,3]", "[1,1]", masks(1, 1)).shapes == "[3, 2]");
  // x[::-1], x[::2, ::-2]
  CHECK(ss("[3,4]", "[0]", "[0]", "[-1]", masks(1, 1)).shapes == "[3, 4]");
  CHECK(ss("[3,4]", "[0,0]", "[0,0]", "[2,-2]", masks(3, 3)).shapes == "[2, 2]");
  // x[..., 1] on [2,3,4]; x[tf.newaxis, 1:, -1] on [3,4]; x[..., tf.newaxis]
  CHECK(ss("[2,3,4]", "[0,1]", "[0,2]", "[1,1]", masks(0, 0, 1, 0, 2)).shapes == "[2, 3]");
  CHECK(ss("[3,4]", "[0,1,-1]", "[0,0,0]", "[1,1,1]", masks(0, 2, 0, 1, 4)).shapes == "[1, 2]");
  CHECK(ss("[2,2]", "[0,0]", "[0,0]", "[1,1]", masks(0, 0, 1, 2)).shapes == "[2, 2, 1]");
  // clamping, empty and reversed ranges on [5]
  CHECK(ss("[5]", "[1]", "[-1]", "[1]").shapes == "[3]");
  CHECK(ss("[5]", "[-100]", "[100]", "[1]").shapes == "[5]");
  CHECK(ss("[5]", "[3]", "[1]", "[1]").shapes == "[0]");
  CHECK(ss("[5]", "[4]", "[0]", "[-2]").shapes == "[2]");
  CHECK(ss("[5]", "[-1]", "[-6]", "[-1]").shapes == "[5]");
  CHECK(ss("[10]", "[1]", "[8]", "[3]").shapes == "[3]");
  // x[1:3] on [4, 5, 6] with the implicit trailing ellipsis
  CHECK(ss("[4,5,6]", "[1]", "[3]", "[1]").shapes == "[2, 5, 6]");
}

TEST_CASE("strided slice keeps symbolic dims for full slices and handles unknowns", "[engine][shape]") {
  // x[:, 0] on [b, 10]: the batch dim survives
  CHECK(ss("[b,10]", "[0,0]", "[0,1]", "[1,1]", masks(1, 1, 0, 0, 2)).shapes == "[b]");
  // x[..., :5] on [b, t, 10]
  CHECK(ss("[b,t,10]", "[0,0]", "[0,5]", "[1,1]", masks(0, 0, 1)).shapes == "[b, t, 5]");
  // x[::-1] on [b]; x[1:] on [b] is unknown
  CHECK(ss("[b]", "[0]", "[0]", "[-1]", masks(1, 1)).shapes == "[b]");
  CHECK(ss("[b]", "[1]", "[0]", "[1]", masks(0, 1)).shapes == "[?]");
  CHECK(ss("[b,3]", "[0]", "[0]", "[1]", masks(0, 1)).shapes == "[b, 3]");
  // unknown begin values: rank known, sizes unknown unless fully masked
  ARRAY_OK("StridedSlice", "[b,3];int32:[2];int32=[0,2];int32=[1,1]", "[?,2]", masks(2, 0));
  ARRAY_OK("StridedSlice", "[b,3];int32:[2];int32:[2];int32:[2]", "[?]", masks(0, 0, 0, 0, 1));
  ARRAY_OK("StridedSlice", "?;int32=[0];int32=[1];int32=[1]", "?");
  ARRAY_OK("StridedSlice", "[2,3];int32:[?];int32:[?];int32:[?]", "?");
  // shrink of an unknown dim is not an error
  CHECK(ss("[b,3]", "[5]", "[6]", "[1]", masks(0, 0, 0, 0, 1)).shapes == "[3]");
}

TEST_CASE("strided slice reports TensorFlow's errors", "[engine][shape]") {
  ARRAY_ERROR("Expected begin, end, and strides to be 1D equal size tensors, but got shapes [2], [1], and [2] instead",
              "StridedSlice", "[3,4];int32=[0,0];int32=[1];int32=[1,1]");
  ARRAY_ERROR("Multiple ellipses in slice spec not allowed", "StridedSlice", "[3,4];int32=[0,0];int32=[0,0];int32=[1,1]",
              masks(0, 0, 3));
  ARRAY_ERROR("Index out of range using input dim 2; input has only 2 dims", "StridedSlice",
              "[3,4];int32=[0,0,0];int32=[1,1,1];int32=[1,1,1]");
  ARRAY_ERROR("strides[1] must be non-zero", "StridedSlice", "[3,4];int32=[0,0];int32=[1,1];int32=[1,0]");
  ARRAY_ERROR("slice index 3 of dimension 0 out of bounds", "StridedSlice", "[3,4];int32=[3];int32=[4];int32=[1]",
              masks(0, 0, 0, 0, 1));
  ARRAY_ERROR("slice index -1 of dimension 0 out of bounds", "StridedSlice", "[3,4];int32=[-4];int32=[-3];int32=[1]",
              masks(0, 0, 0, 0, 1));
  ARRAY_ERROR("only stride 1 allowed on non-range indexing", "StridedSlice", "[3,4];int32=[1];int32=[2];int32=[-1]",
              masks(0, 0, 0, 0, 1));
  ARRAY_ERROR("Value for attr 'Index' of float32", "StridedSlice", "[3,4];[1];int32=[2];int32=[1]");
}

TEST_CASE("slices of shape vectors keep their dims: tf.shape(x)[0] is the batch dim", "[engine][shape]") {
  auto r = ss("shape=[b,28,28]", "[0]", "[1]", "[1]", masks(0, 0, 0, 0, 1));
  CHECK(r.shapes == "[]");
  CHECK(r.asShape() == "[b]");
  CHECK(ss("shape=[b,28,28]", "[1]", "[0]", "[1]", masks(0, 1)).asShape() == "[28, 28]");
  CHECK(ss("shape=[b,28,28]", "[-1]", "[0]", "[1]", masks(0, 0, 0, 0, 1)).asShape() == "[28]");
  CHECK(ss("shape=[b,t,5]", "[0]", "[0]", "[-1]", masks(1, 1)).asShape() == "[5, t, b]");
  auto v = ss("int32=[4,5,6]", "[1]", "[0]", "[1]", masks(0, 1));
  CHECK(v.value() == Ints{5, 6});
  CHECK(v.asShape() == "[5, 6]");
  CHECK(inferArray("Slice", "shape=[b,28,28];int32=[1];int32=[-1]").asShape() == "[28, 28]");
  CHECK(inferArray("Slice", "int32=[1,2,3,4,5,6]@[2,3];int32=[0,1];int32=[-1,2]").value() == Ints{2, 3, 5, 6});
  CHECK(inferArray("GatherV2", "shape=[b,h,3];int32=[2,0];int32=0").asShape() == "[3, b]");
  CHECK(inferArray("GatherV2", "shape=[b,h,3];int32=1;int32=0").asShape() == "[h]");
  CHECK(inferArray("GatherV2", "int32=[1,2,3,4]@[2,2];int32=[1];int32=1").value() == Ints{2, 4});
}

TEST_CASE("slice takes begin and size, -1 meaning to the end", "[engine][shape]") {
  ARRAY_OK("Slice", "[2,3,4,5];int32:[4];int32:[4]", "[?,?,?,?]");
  ARRAY_OK("Slice", "[2,3,4,5];int32:[?];int32:[?]", "[?,?,?,?]");
  ARRAY_OK("Slice", "?;int32:[?];int32:[?]", "?");
  ARRAY_OK("Slice", "?;int32:[4];int32:[?]", "[?,?,?,?]");
  ARRAY_ERROR("Shape must be rank 1 but is rank 2", "Slice", "[2,3,4,5];int32:[2,3];int32:[3]");
  ARRAY_ERROR("Expected begin and size arguments to be 1-D tensors of size 4, but got shapes [2] and [2] instead",
              "Slice", "[2,3,4,5];int32:[2];int32:[2]");
  ARRAY_OK("Slice", "[2,3,4,5];int32=[0,1,2,1];int32=[1,2,1,3]", "[1,2,1,3]");
  ARRAY_OK("Slice", "[2,3,4,5];int32=[0,1,2,1];int32=[-1,-1,1,-1]", "[2,2,1,4]");
  ARRAY_OK("Slice", "[b,3];int32=[0,1];int32=[-1,2]", "[b,2]");
  ARRAY_OK("Slice", "[b,3];int32=[1,1];int32=[-1,2]", "[?,2]");
  ARRAY_OK("Slice", "[b,3];int64=[1,1];int64=[4,2]", "[4,2]");
  ARRAY_ERROR("Expected begin[3] in [0, 5], but got 6", "Slice", "[2,3,4,5];int32=[0,1,2,6];int32=[-1,-1,-1,-1]");
  ARRAY_ERROR("sizes vector cannot be < -1, but was -2", "Slice", "[2,3,4,5];int32=[0,1,2,5];int32=[-1,-1,-1,-2]");
  ARRAY_ERROR("Expected size[1] in [0, 2], but got 3", "Slice", "[2,3];int32=[0,1];int32=[1,3]");
}

TEST_CASE("gather puts the indices' shape in place of the axis", "[engine][shape]") {
  ARRAY_OK("GatherV2", "?;int32:?;int32=0", "?");
  ARRAY_OK("GatherV2", "[b,?,2];int32:[3];int32=0", "[3,?,2]");
  ARRAY_OK("GatherV2", "[b,5,2];int32:[3,4];int32=1", "[b,3,4,2]");
  ARRAY_OK("GatherV2", "[b,5,2];int32:[];int32=-1", "[b,5]");
  ARRAY_OK("GatherV2", "[b,5,2];int64:[7];int32:[]", "[?,?,?]");
  ARRAY_OK("GatherV2", "[b];int32:[c,7];int32:[]", "[c,7]");
  ARRAY_ERROR("Shape must be at least rank 1 but is rank 0", "GatherV2", "[];int32:[1,2,3];int32=0");
  ARRAY_ERROR("Expected axis in the range [-2, 2), but got 2", "GatherV2", "[3,4];int32:[2];int32=2");
  ARRAY_ERROR("indices[1] = 5 is not in [0, 3)", "GatherV2", "[3,4];int32=[0,5];int32=0");
  ARRAY_ERROR("indices[1,0] = -1 is not in [0, 4)", "GatherV2", "[3,4];int32=[0,1,-1,2]@[2,2];int32=1");
  ARRAY_ERROR("Value for attr 'Tindices' of float32", "GatherV2", "[3,4];[2];int32=0");
  ARRAY_ERROR("batch_dims=1 is not supported", "GatherV2", "[3,4];int32:[3];int32=1", {"batch_dims", int64_t{1}});
  ARRAY_ERROR("axis must be a single value, got shape [0]", "GatherV2", "[3,4];int32:[2];int32=[]");
  ARRAY_ERROR("Dimension -3 must be >= 0", "GatherV2Grad", "[2,2];int32:[2];int32=[-3,2];int32=0");
  ARRAY_ERROR("Dimension -1 must be >= 0", "StridedSliceGrad", "int32=[-1];int32=[0];int32=[1];int32=[1];?");
  ARRAY_OK("GatherV2Grad", "[2,2];int32:[2];int32=[3,2];int32=0", "[3,2]");
  ARRAY_ERROR("Value for attr 'T' of bool", "GatherV2Grad", "bool:[2,2];int32:[2];int32=[3,2];int32=0");
  ARRAY_OK("GatherV2Grad", "[2,2];int32:[2];int32:[2];int32=0", "[?,?]");
  ARRAY_OK("StridedSliceGrad", "int32:[4];int32:[1];int32:[1];int32:[1];?", "[?,?,?,?]");
  ARRAY_OK("StridedSliceGrad", "int32=[1,2,3,4];int32:[1];int32:[1];int32:[1];?", "[1,2,3,4]");
  ARRAY_ERROR("shape of dy was [5] instead of [4]", "StridedSliceGrad",
              "int32=[3,4];int32=[1];int32=[2];int32=[1];[5]", masks(0, 0, 0, 0, 1));
}

TEST_CASE("slicing kernels report bad inputs", "[engine][kernels]") {
  CHECK_THROWS_WITH(runEager("GatherV2", {F32({1, 2, 3}), I32({0, 5}), I32({0}, {})}),
                    Catch::Contains("indices[1] = 5 is not in [0, 3)"));
  // Too many indices to be known to the shape function: the kernel checks them.
  std::vector<int32_t> many(5000, 1);
  many[4321] = 3;
  CHECK_THROWS_WITH(runEager("GatherV2", {F32({1, 2, 3}), I32(many), I32({0}, {})}),
                    Catch::Contains("indices[4321] = 3 is not in [0, 3)"));
  CHECK_THROWS_WITH(runGraph("GatherV2", {F32({1, 2, 3}), I32({-1}), I32({0}, {})}),
                    Catch::Contains("indices[0] = -1 is not in [0, 3)"));
  CHECK_THROWS_WITH(runEager("StridedSlice", {F32({1, 2, 3}), I32({0}), I32({2}), I32({0})}),
                    Catch::Contains("strides[0] must be non-zero"));
  CHECK_THROWS_WITH(runEager("StridedSlice", {F32({1, 2, 3}), I32({5}), I32({6}), I32({1})},
                             {{"shrink_axis_mask", int64_t{1}}}),
                    Catch::Contains("slice index 5 of dimension 0 out of bounds"));
  CHECK_THROWS_WITH(runEager("Slice", {F32({1, 2, 3}), I32({2}), I32({2})}),
                    Catch::Contains("Expected size[0] in [0, 1], but got 2"));
  CHECK_THROWS_WITH(runEager("GatherV2", {F32({1, 2, 3}), I32({0}), I32({}, {0})}),
                    Catch::Contains("axis must be a single value"));
  CHECK_THROWS_WITH(runEager("GatherV2Grad", {F32({1}), I32({0}), I32({2}), I32({}, {0})}),
                    Catch::Contains("Shape must be rank 0 but is rank 1"));
  CHECK_THROWS_WITH(runEager("GatherV2", {F32({1, 2, 3}), I32({0}), I32({1}, {})}),
                    Catch::Contains("Expected axis in the range [-1, 1), but got 1"));
}

namespace {
Tensor iota(ConcreteShape s) { return iotaF32(std::move(s)); }
OpCase sliceCase(Tensor x, std::vector<int32_t> b, std::vector<int32_t> e, std::vector<int32_t> s, Attrs a,
                 Tensor expected, std::string note) {
  OpCase c{"StridedSlice", {std::move(x), I32(std::move(b)), I32(std::move(e)), I32(std::move(s))}, std::move(a), {}};
  if (expected.valid()) c.expected = {std::move(expected)};
  c.note = std::move(note);
  return c;
}
}  // namespace

static CaseRegistrar slicingCases({
    {"Slice", {iota({3, 4}), I32({1, 1}), I32({2, 2})}, {}, {F32({5, 6, 9, 10}, {2, 2})}},
    {"Slice", {iota({3, 4}), I32({0, 2}), I32({-1, 2})}, {}, {F32({2, 3, 6, 7, 10, 11}, {3, 2})}},
    {"Slice", {iota({2, 3, 4}), I64({1, 0, 1}, {3}), I64({1, -1, 2}, {3})}, {}, {F32({13, 14, 17, 18, 21, 22}, {1, 3, 2})}},
    {"Slice", {B({true, false, true}, {3}), I32({1}), I32({2})}, {}, {B({false, true}, {2})}},
    {"Slice", {iota({3, 4}), I32({0, 0}), I32({0, 4})}, {}, {F32({}, {0, 4})}, 0, true, {}, 1e-4, "empty"},
    {"Slice", {randomF64({3, 4, 2}), I32({1, 0, 1}), I32({2, 3, 1})}, {}, {}, 0, true, {}, 1e-4, "gradient"},

    sliceCase(iota({3, 4}), {1}, {2}, {1}, masks(0, 0, 0, 0, 1), F32({4, 5, 6, 7}), "x[1]"),
    sliceCase(iota({3, 4}), {-1}, {0}, {1}, masks(0, 0, 0, 0, 1), F32({8, 9, 10, 11}), "x[-1]"),
    sliceCase(iota({3, 4}), {0, 1}, {0, 3}, {1, 1}, masks(1, 1), F32({1, 2, 5, 6, 9, 10}, {3, 2}), "x[:, 1:3]"),
    sliceCase(iota({3, 4}), {0}, {0}, {-1}, masks(1, 1), F32({8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}, {3, 4}), "x[::-1]"),
    sliceCase(iota({3, 4}), {0, 0}, {0, 0}, {2, -2}, masks(3, 3), F32({3, 1, 11, 9}, {2, 2}), "x[::2, ::-2]"),
    sliceCase(iota({2, 3, 4}), {0, 1}, {0, 2}, {1, 1}, masks(0, 0, 1, 0, 2), F32({1, 5, 9, 13, 17, 21}, {2, 3}),
              "x[..., 1]"),
    sliceCase(iota({3, 4}), {0, 1, -1}, {0, 0, 0}, {1, 1, 1}, masks(0, 2, 0, 1, 4), F32({7, 11}, {1, 2}),
              "x[tf.newaxis, 1:, -1]"),
    sliceCase(iota({2, 2}), {0, 0}, {0, 0}, {1, 1}, masks(0, 0, 1, 2), iota({2, 2, 1}), "x[..., tf.newaxis]"),
    sliceCase(iota({5}), {1}, {-1}, {1}, {}, F32({1, 2, 3}), "x[1:-1]"),
    sliceCase(iota({5}), {-100}, {100}, {1}, {}, iota({5}), "x[-100:100] clamps"),
    sliceCase(iota({5}), {3}, {1}, {1}, {}, F32({}, {0}), "x[3:1] is empty"),
    sliceCase(iota({5}), {4}, {0}, {-2}, {}, F32({4, 2}), "x[4:0:-2]"),
    sliceCase(iota({5}), {-1}, {-6}, {-1}, {}, F32({4, 3, 2, 1, 0}), "x[-1:-6:-1]"),
    sliceCase(iota({10}), {1}, {8}, {3}, {}, F32({1, 4, 7}), "x[1:8:3]"),
    sliceCase(iota({4, 5, 6}), {1}, {3}, {1}, {}, Tensor(), "x[1:3] with implicit ellipsis"),
    sliceCase(iota({3, 4}), {1, 2}, {2, 3}, {1, 1}, masks(0, 0, 0, 0, 3), F32({6}, {}), "x[1, 2] is a scalar"),
    sliceCase(randomF64({3, 4, 2}), {1, 0, 0}, {0, 0, 1}, {1, -1, 1}, masks(2, 3, 0, 0, 4), Tensor(),
              "x[1:, ::-1, 0] gradient"),
    {"StridedSlice", {I32({1, 2, 3, 4}, {2, 2}), I64({1}, {1}), I64({2}, {1}), I64({1}, {1})}, masks(0, 0, 0, 0, 1),
     {I32({3, 4})}},
    {"StridedSlice", {B({true, false, true}, {3}), I32({0}), I32({0}), I32({2})}, masks(1, 1), {B({true, true}, {2})}},

    {"StridedSliceGrad", {I32({3, 4}), I32({1}), I32({2}), I32({1}), F32({1, 2, 3, 4})}, masks(0, 0, 0, 0, 1),
     {F32({0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0}, {3, 4})}},
    {"StridedSliceGrad", {I32({5}), I32({4}), I32({0}), I32({-2}), F32({1, 2})}, {}, {F32({0, 0, 2, 0, 1})}},

    {"GatherV2", {iota({3, 2}), I32({2, 0}), I32({0}, {})}, {}, {F32({4, 5, 0, 1}, {2, 2})}},
    {"GatherV2", {iota({3, 2}), I32({1, 1, 0}), I32({1}, {})}, {}, {F32({1, 1, 0, 3, 3, 2, 5, 5, 4}, {3, 3})}},
    {"GatherV2", {iota({3, 2}), I32({1}, {}), I32({0}, {})}, {}, {F32({2, 3})}, 0, true, {}, 1e-4, "scalar index"},
    {"GatherV2", {F32({10, 20, 30}), I64({0, 1, 2, 0}, {2, 2}), I64({0}, {})}, {}, {F32({10, 20, 30, 10}, {2, 2})}},
    {"GatherV2", {iota({3, 2}), I32({1, 0}), I32({-1}, {})}, {}, {F32({1, 0, 3, 2, 5, 4}, {3, 2})}},
    {"GatherV2", {B({true, false}, {2}), I32({1, 1}), I32({0}, {})}, {}, {B({false, false}, {2})}},
    {"GatherV2", {randomF64({4, 3}), I32({1, 1, 3}), I32({0}, {})}, {}, {}, 0, true, {}, 1e-4,
     "duplicated indices accumulate"},
    {"GatherV2", {randomF64({2, 4, 3}), I32({3, 0, 3}, {3, 1}), I32({1}, {})}, {}, {}, 0, true, {}, 1e-4,
     "middle axis, 2-D indices"},
    {"GatherV2Grad", {F32({1, 2, 3, 4}, {2, 2}), I32({1, 1}), I32({3, 2}), I32({0}, {})}, {},
     {F32({0, 0, 4, 6, 0, 0}, {3, 2})}},
    {"GatherV2Grad", {F32({1, 2, 3}, {1, 3}), I32({0, 2, 0}), I32({1, 3}), I32({1}, {})}, {}, {F32({4, 0, 2}, {1, 3})}},
});
