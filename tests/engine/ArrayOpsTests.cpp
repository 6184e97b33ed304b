// Array ops: shape functions (reshape with -1 and symbolic dims, transpose, expand/squeeze, fill,
// range, one-hot), shape-valued tensors, kernel errors and the op case table.
#include <cmath>

#include "ArrayTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;
using namespace tlens::test::arraytest;

using Ints = std::vector<int64_t>;

TEST_CASE("reshape infers -1, keeps a symbolic batch and reports element counts", "[engine][shape]") {
  INFER_OK("Reshape", "[2,3,4];int32=[6,-1]", "[6,4]");
  INFER_OK("Reshape", "[b,7,7,64];int32=[-1,3136]", "[b,3136]");
  INFER_OK("Reshape", "[?,7,7,64];int32=[-1,3136]", "[?,3136]");
  INFER_OK("Reshape", "[b,28,28];int32=[-1,28]", "[?,28]");
  INFER_ERROR("Cannot reshape a tensor with 10 elements to shape [3, 4] (12 elements)", "Reshape", "[10];int32=[3,4]");
  INFER_ERROR("does not divide", "Reshape", "[10];int32=[3,-1]");
  INFER_ERROR("Cannot infer multiple unknown dimensions", "Reshape", "[10];int32=[-1,-1]");
  INFER_OK("Reshape", "[10];int32:[2]", "[?,?]");
  INFER_OK("Reshape", "[0,2];int32=[0,-1]", "[0,?]");
  INFER_ERROR("Size 1 must be non-negative, not -2", "Reshape", "[4];int32=[2,-2]");
}

TEST_CASE("reshape cancels a symbol present on both sides", "[engine][shape]") {
  ARRAY_OK("Reshape", "[b,28,28];shape=[b,-1]", "[b,784]");
  ARRAY_OK("Reshape", "[b,28,28];shape=[b,28,-1]", "[b,28,28]");
  ARRAY_OK("Reshape", "[b,4];shape=[b,2,2]", "[b,2,2]");
  ARRAY_OK("Reshape", "[b,c,4];shape=[c,-1]", "[c,?]");
  ARRAY_OK("Reshape", "[12];shape=[?,4]", "[3,4]");
  ARRAY_ERROR("Cannot reshape a tensor with b*12 elements to shape [b, 5] (b*5 elements)", "Reshape",
              "[b,3,4];shape=[b,5]");
  auto r = inferArray("Reshape", "int32=[1,2,3,4]@[2,2];int32=[-1]");
  CHECK(r.value() == Ints{1, 2, 3, 4});
  CHECK(r.asShape() == "[1, 2, 3, 4]");
}

TEST_CASE("shape, size and rank are values when the dims are known", "[engine][shape]") {
  auto r = infer("Shape", "[2,3]");
  CHECK(r.outputs == "[2]");
  INFER_OK("Size", "[b,3]", "[]");
  INFER_OK("BroadcastTo", "[3];int32=[2,3]", "[2,3]");
  INFER_ERROR("Unable to broadcast", "BroadcastTo", "[4];int32=[2,3]");
  CHECK(inferArray("Shape", "[b,3]").asShape() == "[b, 3]");
  CHECK_FALSE(inferArray("Shape", "[b,3]").hasValue());
  auto rank = inferArray("Rank", "[b,3]");
  ARRAY_OK("Rank", "[b,3]", "[]");
  CHECK(rank.value() == Ints{2});
  CHECK(rank.outputs[0].dtype == DType::Int32);
  CHECK_FALSE(inferArray("Rank", "?").hasValue());
}

TEST_CASE("identity and stop_gradient pass values and shape-valued elements through", "[engine][shape]") {
  for (const char* op : {"Identity", "StopGradient"}) {
    auto r = inferArray(op, "int32=[4,-1]");
    CHECK(r.value() == Ints{4, -1});
    CHECK(r.asShape() == "[4, -1]");
    CHECK(inferArray(op, "shape=[b,3]").asShape() == "[b, 3]");
    ARRAY_OK(op, "[b,?,3]", "[b,?,3]");
  }
}

TEST_CASE("transpose permutes dims, checks perm and copes with an unknown perm", "[engine][shape]") {
  ARRAY_OK("Transpose", "?;int32:?", "?");
  ARRAY_OK("Transpose", "?;int32:[2]", "[?,?]");
  ARRAY_OK("Transpose", "[b,3];int32:[2]", "[?,?]");
  ARRAY_OK("Transpose", "[b,b];int32:[2]", "[b,b]");
  ARRAY_OK("Transpose", "[b,3];int32:?", "[?,?]");
  ARRAY_OK("Transpose", "[b,3,5];int32=[2,0,1]", "[5,b,3]");
  ARRAY_OK("Transpose", "[b,3,5];int64=[0,2,1]", "[b,5,3]");
  ARRAY_OK("Transpose", "?;int32=[1,0]", "[?,?]");
  ARRAY_ERROR("Dimension must be 3 but is 2", "Transpose", "[1,2,3];int32:[2]");
  ARRAY_ERROR("perm dim 2 is out of range of input rank 2", "Transpose", "[1,2];int32=[1,2]");
  ARRAY_ERROR("perm dim -1 is out of range of input rank 2", "Transpose", "[1,2];int32=[-1,0]");
  ARRAY_ERROR("1 is missing from {0,0}", "Transpose", "[1,2];int32=[0,0]");
  ARRAY_ERROR("Value for attr 'Tperm' of float32", "Transpose", "[1,2];float32:[2]");
  ARRAY_ERROR("Shape must be rank 1 but is rank 2", "Transpose", "[1,2];int32:[2,1]");
  auto r = inferArray("Transpose", "int32=[1,2,3,4,5,6]@[2,3];int32=[1,0]");
  CHECK(r.value() == Ints{1, 4, 2, 5, 3, 6});
}

TEST_CASE("expand_dims inserts a 1 at an axis in [-rank-1, rank]", "[engine][shape]") {
  ARRAY_OK("ExpandDims", "[5,b,7];int32=0", "[1,5,b,7]");
  ARRAY_OK("ExpandDims", "[5,b,7];int32=-1", "[5,b,7,1]");
  ARRAY_OK("ExpandDims", "[5,b,7];int32=-4", "[1,5,b,7]");
  ARRAY_OK("ExpandDims", "[5,b,7];int64=[2]", "[5,b,1,7]");
  ARRAY_OK("ExpandDims", "[5,6];int32:[]", "[?,?,?]");
  ARRAY_OK("ExpandDims", "?;int32=0", "?");
  ARRAY_ERROR("dim 4 not in the interval [-4, 3]", "ExpandDims", "[5,b,7];int32=4");
  ARRAY_ERROR("dim -5 not in the interval [-4, 3]", "ExpandDims", "[5,b,7];int32=-5");
  ARRAY_ERROR("'dim' input must be a tensor with a single value", "ExpandDims", "[5,6,7];int32=[0,1]");
  auto r = inferArray("ExpandDims", "int32=7;int32=0");
  CHECK(r.value() == Ints{7});
  CHECK(r.asShape() == "[7]");
}

TEST_CASE("squeeze removes size-1 dims, and a known dim that is not 1 is an error", "[engine][shape]") {
  ARRAY_OK("Squeeze", "?", "?");
  ARRAY_OK("Squeeze", "[1,4,1,5,1]", "[4,5]");
  ARRAY_OK("Squeeze", "[1,?,1,?,1]", "?");
  ARRAY_OK("Squeeze", "[b,1,3]", "?");
  ARRAY_OK("Squeeze", "[4,1,5]", "[4,5]", {"squeeze_dims", Ints{1}});
  ARRAY_OK("Squeeze", "[4,b,5]", "[4,5]", {"squeeze_dims", Ints{1}});
  ARRAY_OK("Squeeze", "[b,1,1,5]", "[b,5]", {"squeeze_dims", Ints{1, -2}});
  ARRAY_OK("Squeeze", "[b,1,3]", "[b,3]", {"axis", int64_t{1}});
  ARRAY_ERROR("Can not squeeze dim[1], expected a dimension of 1, got 3", "Squeeze", "[4,3,5]",
              {"squeeze_dims", Ints{1}});
  ARRAY_ERROR("Tried to squeeze dim index 3 for tensor with 3 dimensions", "Squeeze", "[1,2,3]",
              {"squeeze_dims", Ints{3}});
  ARRAY_ERROR("Tried to squeeze dim index -4 for tensor with 3 dimensions", "Squeeze", "[1,2,3]",
              {"squeeze_dims", Ints{-4}});
}

TEST_CASE("fill takes its shape from dims, including shape-valued dims", "[engine][shape]") {
  ARRAY_OK("Fill", "int32:?;[]", "?");
  ARRAY_OK("Fill", "int32:[3];[]", "[?,?,?]");
  ARRAY_OK("Fill", "int32=[2,3];[]", "[2,3]");
  ARRAY_OK("Fill", "shape=[b,3];[]", "[b,3]");
  ARRAY_OK("Fill", "int64=[2];bool:[]", "[2]");
  ARRAY_ERROR("Fill dimensions must be >= 0", "Fill", "int32=[2,-1];[]");
  ARRAY_ERROR("Shape must be rank 0 but is rank 1", "Fill", "int32=[2];[2]");
  ARRAY_ERROR("Shape must be rank 1 but is rank 2", "Fill", "int32:[2,2];[]");
  auto r = inferArray("Fill", "int32=[3];int32=7");
  CHECK(r.value() == Ints{7, 7, 7});
  CHECK(r.outputs[0].dtype == DType::Int32);
}

TEST_CASE("range sizes and values are known from known inputs", "[engine][shape]") {
  auto r = inferArray("Range", "int32=0;int32=10;int32=3");
  CHECK(r.shapes == "[4]");
  CHECK(r.value() == Ints{0, 3, 6, 9});
  CHECK(inferArray("Range", "int32=10;int32=0;int32=-3").value() == Ints{10, 7, 4, 1});
  CHECK(inferArray("Range", "int64=5;int64=5;int64=1").shapes == "[0]");
  ARRAY_OK("Range", "int32:[];int32=5;int32=1", "[?]");
  ARRAY_OK("Range", "[];[];[]", "[?]");
  ARRAY_ERROR("Requires delta != 0", "Range", "int32=0;int32=5;int32=0");
  ARRAY_ERROR("Requires start <= limit when delta > 0: 5/1", "Range", "int32=5;int32=1;int32=1");
  ARRAY_ERROR("Requires start >= limit when delta < 0: 1/5", "Range", "int32=1;int32=5;int32=-1");
  ARRAY_ERROR("Shape must be rank 0 but is rank 1", "Range", "int32=[1];int32=5;int32=1");
  ARRAY_ERROR("that does not match type int32", "Range", "int32=0;int64=5;int32=1");
  ARRAY_ERROR("Value for attr 'T' of bool", "Range", "bool:[];bool:[];bool:[]");
}

TEST_CASE("one_hot inserts depth at axis and takes on_value's dtype", "[engine][shape]") {
  ARRAY_OK("OneHot", "int32:?;int32=3;[];[]", "?");
  ARRAY_OK("OneHot", "int32:[b,4];int32=3;[];[]", "[b,4,3]");
  ARRAY_OK("OneHot", "int32:[b,4];int32=3;[];[]", "[b,3,4]", {"axis", int64_t{1}});
  ARRAY_OK("OneHot", "int64:[b,4];int32:[];[];[]", "[b,4,?]");
  auto r = inferArray("OneHot", "int32:[2];int32=3;float64:[];float64:[]");
  CHECK(r.outputs[0].dtype == DType::Float64);
  ARRAY_ERROR("axis must be >= -1", "OneHot", "int32:?;int32=3;[];[]", {"axis", int64_t{-2}});
  ARRAY_ERROR("Expected axis to be -1 or between [0, 2].  But received: 3", "OneHot", "int32:[b,4];int32=3;[];[]",
              {"axis", int64_t{3}});
  ARRAY_ERROR("Shape must be rank 0 but is rank 1", "OneHot", "int32:[4];int32=[3];[];[]");
  ARRAY_ERROR("depth must be non-negative, got: -1", "OneHot", "int32:[4];int32=-1;[];[]");
  ARRAY_ERROR("Value for attr 'T' of float32", "OneHot", "[4];int32=3;[];[]");
  ARRAY_ERROR("does not match type float32", "OneHot", "int32:[4];int32=3;[];int32:[]");
}

TEST_CASE("invert_permutation inverts known permutations", "[engine][shape]") {
  ARRAY_OK("InvertPermutation", "int32:?", "[?]");
  ARRAY_OK("InvertPermutation", "int32:[3]", "[3]");
  ARRAY_ERROR("Shape must be rank 1 but is rank 0", "InvertPermutation", "int32:[]");
  CHECK(inferArray("InvertPermutation", "int32=[2,0,1]").value() == Ints{1, 2, 0});
  ARRAY_ERROR("0 is duplicated in the input", "InvertPermutation", "int32=[0,0]");
  ARRAY_ERROR("3 is not between 0 and 2", "InvertPermutation", "int32=[3,0]");
}

// ---- graphs: shape-valued tensors keep reshape targets exact ----

namespace {
Output intsConst(Graph& g, std::vector<int32_t> v) { return ops::constant(g, Tensor::fromVector(v)); }
Output slice0(Graph& g, Output s, int32_t i, bool shrink) {
  Attrs a;
  if (shrink) a.emplace("shrink_axis_mask", int64_t{1});
  return g.op("StridedSlice", {s, intsConst(g, {i}), intsConst(g, {i + 1}), intsConst(g, {1})}, a);
}
}  // namespace

TEST_CASE("tf.reshape(x, [tf.shape(x)[0], -1]) keeps the batch symbol and infers the rest", "[engine][graph]") {
  Graph g;
  std::map<std::string, uint32_t> names;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[b,28,28]", &names), "x");
  Output s = ops::shape(g, x);
  Output s0 = slice0(g, s, 0, true);
  CHECK(s0.type().shape == Shape::scalar());
  REQUIRE(s0.type().asShape);
  CHECK(s0.type().asShape->str() == "[b]");
  Output packed = g.op("Pack", {s0, ops::scalar(g, DType::Int32, -1)});
  REQUIRE(packed.type().asShape);
  CHECK(packed.type().asShape->str() == "[b, -1]");
  Output y = ops::reshape(g, x, packed);
  CHECK(y.type().shape.str() == "[b, 784]");
  CHECK(y.type().shape[0] == x.type().shape[0]);

  // The same through tf.concat([tf.shape(x)[:1], [-1]], 0) and tf.gather(tf.shape(x), [0]).
  Output head = slice0(g, s, 0, false);
  CHECK(head.type().asShape->str() == "[b]");
  Output cat = g.op("ConcatV2", {head, intsConst(g, {-1}), ops::scalar(g, DType::Int32, 0)});
  CHECK(ops::reshape(g, x, cat).type().shape.str() == "[b, 784]");
  Output gathered = g.op("GatherV2", {s, intsConst(g, {0, 2}), ops::scalar(g, DType::Int32, 0)});
  CHECK(gathered.type().asShape->str() == "[b, 28]");
  Node* parts = g.addNode("Unpack", {s});
  REQUIRE(parts->numOutputs() == 3);
  CHECK(parts->outputs[0].asShape->str() == "[b]");
  CHECK(parts->outputs[2].asShape->str() == "[28]");
  REQUIRE(parts->outputs[2].value);
  CHECK(parts->outputs[2].value->toInt64Vector() == Ints{28});
  // tf.fill([tf.shape(x)[0], 3], 0.0) and tf.zeros_like-style fills keep the symbol too.
  Output dims = g.op("Pack", {s0, ops::scalar(g, DType::Int32, 3)});
  CHECK(g.op("Fill", {dims, ops::scalar(g, DType::Float32, 0)}).type().shape.str() == "[b, 3]");

  Session sess(g);
  auto out = sess.run({y, ops::reshape(g, x, cat)}, {{x, randomF32({2, 28, 28})}});
  CHECK(out[0].shape() == ConcreteShape{2, 784});
  CHECK(out[1].shape() == ConcreteShape{2, 784});
}

TEST_CASE("array gradients work when shapes and axes are only known at run time", "[engine][graph]") {
  Graph g;
  Output x = ops::placeholder(g, DType::Float64, parseShape("[?,?]"), "x");
  Output axis = ops::placeholder(g, DType::Int32, Shape::scalar(), "axis");
  Output mult = ops::placeholder(g, DType::Int32, parseShape("[2]"), "mult");
  Output pads = ops::placeholder(g, DType::Int32, parseShape("[2,2]"), "pads");
  Output cat = g.op("ConcatV2", {x, x, axis});
  Output tiled = g.op("Tile", {x, mult});
  Output padded = g.op("Pad", {x, pads});
  Output perm = ops::placeholder(g, DType::Int32, parseShape("[2]"), "perm");
  Output tr = g.op("Transpose", {x, perm});
  Output loss = ops::addN(g, {ops::reduceSum(g, cat, {}), ops::reduceSum(g, tiled, {}),
                              ops::reduceSum(g, padded, {}), ops::reduceSum(g, tr, {})});
  std::vector<Output> dx = gradients(g, {loss}, {x});
  Session s(g);
  auto r = s.run({dx[0]}, {{x, F64({1, 2, 3, 4, 5, 6}, {2, 3})},
                           {axis, I32({1}, {})},
                           {mult, I32({2, 3})},
                           {pads, I32({1, 0, 2, 1}, {2, 2})},
                           {perm, I32({1, 0})}});
  // concat of x twice: 2; tile 2x3: 6; pad: 1; transpose: 1.
  CHECK(tensorsEqual(r[0], F64(std::vector<double>(6, 10.0), {2, 3})));
}

TEST_CASE("slicing and splitting gradients work on unknown shapes", "[engine][graph]") {
  Graph g;
  Output x = ops::placeholder(g, DType::Float64, parseShape("[?,?]"), "x");
  Output begin = ops::placeholder(g, DType::Int32, parseShape("[2]"), "begin");
  Output sl = g.op("Slice", {x, begin, intsConst(g, {-1, 2})});
  Output ss = g.op("StridedSlice", {x, intsConst(g, {0, 0}), intsConst(g, {0, 1}), intsConst(g, {-1, 1})},
                   {{"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}, {"shrink_axis_mask", int64_t{2}}});
  Output ga = g.op("GatherV2", {x, intsConst(g, {1, 1}), ops::scalar(g, DType::Int32, 0)});
  Node* sp = g.addNode("Split", {ops::scalar(g, DType::Int32, 1), x}, {{"num_split", int64_t{3}}});
  Node* un = g.addNode("Unpack", {x}, {{"num", int64_t{2}}});
  Output loss = ops::addN(g, {ops::reduceSum(g, sl, {}), ops::reduceSum(g, ss, {}), ops::reduceSum(g, ga, {}),
                              ops::reduceSum(g, sp->out(0), {}), ops::reduceSum(g, sp->out(2), {}),
                              ops::reduceSum(g, un->out(1), {})});
  std::vector<Output> dx = gradients(g, {loss}, {x});
  Session s(g);
  auto r = s.run({dx[0]}, {{x, F64({1, 2, 3, 4, 5, 6}, {2, 3})}, {begin, I32({0, 1})}});
  CHECK(tensorsEqual(r[0], F64({2, 1, 2, 5, 4, 5}, {2, 3})));
}

TEST_CASE("array kernels report bad inputs with TensorFlow's messages", "[engine][kernels]") {
  CHECK_THROWS_WITH(runEager("Transpose", {F32({1, 2}), I32({1})}), Catch::Contains("perm dim 1 is out of range"));
  CHECK_THROWS_WITH(runEager("Squeeze", {F32({1, 2, 3}, {1, 3})}, {{"squeeze_dims", Ints{1}}}),
                    Catch::Contains("Can not squeeze dim[1], expected a dimension of 1, got 3"));
  CHECK_THROWS_WITH(runEager("ExpandDims", {F32({1, 2}), I32({5}, {})}), Catch::Contains("not in the interval"));
  CHECK_THROWS_WITH(runEager("Range", {F32({0}, {}), F32({1}, {}), F32({0}, {})}),
                    Catch::Contains("Requires delta != 0"));
  CHECK_THROWS_WITH(runEager("Range", {F32({3}, {}), F32({1}, {}), F32({0.5f}, {})}),
                    Catch::Contains("Requires start <= limit when delta > 0: 3/1"));
  CHECK_THROWS_WITH(runEager("Range", {F32({0}, {}), F32({std::nanf("")}, {}), F32({1}, {})}),
                    Catch::Contains("Requires start, limit and delta to be finite"));
  CHECK_THROWS_WITH(runEager("Range", {F64({0}, {}), F64({1e300}, {}), F64({1e-300}, {})}),
                    Catch::Contains("Requires the range size to fit in int64"));
  CHECK_THROWS_WITH(runEager("Fill", {I32({-1}), F32({1}, {})}), Catch::Contains("Fill dimensions must be >= 0"));
  CHECK_THROWS_WITH(runEager("OneHot", {I32({1}), I32({-2}, {}), F32({1}, {}), F32({0}, {})}),
                    Catch::Contains("depth must be non-negative"));
  CHECK_THROWS_WITH(runEager("InvertPermutation", {I32({0, 0})}), Catch::Contains("duplicated"));
  CHECK_THROWS_WITH(runGraph("Reshape", {F32({1, 2, 3}), I32({2, 2})}), Catch::Contains("Cannot reshape"));
}

namespace {
Tensor F16(std::vector<float> v, ConcreteShape s) { return F32(std::move(v), std::move(s)).cast(DType::Float16); }
Tensor iota(ConcreteShape s) { return iotaF32(std::move(s)); }
Tensor T(const Tensor& x, std::vector<int64_t> perm) { return refTranspose(x, perm); }
Tensor perm32(std::vector<int32_t> p) { return I32(std::move(p)); }
}  // namespace

static CaseRegistrar arrayCases({
    {"Const", {}, {{"value", F32({1, 2})}, {"dtype", DType::Float32}}, {F32({1, 2})}},
    {"Const", {}, {{"value", B({true}, {})}, {"dtype", DType::Bool}}, {B({true}, {})}},
    {"Identity", {F32({1, 2, 3})}, {}, {F32({1, 2, 3})}},
    {"Identity", {I64({1, 2}, {2})}, {}, {I64({1, 2}, {2})}},
    {"StopGradient", {F32({1, 2})}, {}, {F32({1, 2})}},
    {"StopGradient", {B({true, false}, {2})}, {}, {B({true, false}, {2})}},
    {"Shape", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {I32({2, 3})}},
    {"Shape", {F32({1, 2}, {1, 2})}, {{"out_type", DType::Int64}}, {I64({1, 2}, {2})}},
    {"Size", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {I32({6}, {})}},
    {"Rank", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {I32({2}, {})}},
    {"Rank", {F32({1}, {})}, {}, {I32({0}, {})}},
    {"Reshape", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({3, -1})}, {}, {F32({1, 2, 3, 4, 5, 6}, {3, 2})}},
    {"Reshape", {B({true, false}, {2}), I64({1, 2}, {2})}, {}, {B({true, false}, {1, 2})}},
    {"BroadcastTo", {F32({1, 2, 3}), I32({2, 3})}, {}, {F32({1, 2, 3, 1, 2, 3}, {2, 3})}},
    {"BroadcastTo", {F32({1, 2}, {2, 1}), I32({2, 3})}, {}, {F32({1, 1, 1, 2, 2, 2}, {2, 3})}},
    {"ZerosLike", {F32({1, 2})}, {}, {F32({0, 0})}},
    {"OnesLike", {I32({1, 2})}, {}, {I32({1, 1})}},

    {"Transpose", {iota({2, 3}), perm32({1, 0})}, {}, {F32({0, 3, 1, 4, 2, 5}, {3, 2})}},
    {"Transpose", {iota({2, 3, 4}), perm32({2, 0, 1})}, {}, {T(iota({2, 3, 4}), {2, 0, 1})}, 0, true, {}, 1e-4, "3-D"},
    {"Transpose", {I32({1, 2, 3, 4}, {2, 2}), I64({1, 0}, {2})}, {}, {I32({1, 3, 2, 4}, {2, 2})}, 0, true, {}, 1e-4, "int32, int64 perm"},
    {"Transpose", {B({true, false, false, true, true, false}, {2, 3}), perm32({1, 0})}, {},
     {B({true, true, false, true, false, false}, {3, 2})}, 0, true, {}, 1e-4, "bool"},
    {"Transpose", {randomF64({2, 3, 4, 5}), perm32({0, 2, 3, 1})}, {}, {T(randomF64({2, 3, 4, 5}), {0, 2, 3, 1})},
     0, true, {}, 1e-4, "NCHW -> NHWC, float64"},
    {"Transpose", {iota({67, 131}), perm32({1, 0})}, {}, {T(iota({67, 131}), {1, 0})}, 0, false, {}, 1e-4,
     "tiled 2-D path with partial tiles"},
    {"Transpose", {iota({3, 40, 37}), perm32({2, 1, 0})}, {}, {T(iota({3, 40, 37}), {2, 1, 0})}, 0, false, {}, 1e-4,
     "tiled path with an outer dim"},
    {"Transpose", {F16({0, 1, 2, 3, 4, 5}, {3, 2}), perm32({1, 0})}, {}, {F16({0, 2, 4, 1, 3, 5}, {2, 3})}, 0, true,
     {}, 1e-3, "float16"},
    {"Transpose", {iota({4, 1, 3}), perm32({2, 1, 0})}, {}, {T(iota({4, 1, 3}), {2, 1, 0})}, 0, true, {}, 1e-4, "size-1 dim"},
    {"Transpose", {iota({2, 3, 4, 5}), perm32({0, 1, 3, 2})}, {}, {T(iota({2, 3, 4, 5}), {0, 1, 3, 2})}, 0, false, {},
     1e-4, "inner 2-D transpose of a batch"},
    {"Transpose", {iota({2, 3, 4}), perm32({1, 0, 2})}, {}, {T(iota({2, 3, 4}), {1, 0, 2})}, 0, true, {}, 1e-4,
     "innermost dim stays: row copies"},
    {"Transpose", {iota({2, 3}), perm32({0, 1})}, {}, {iota({2, 3})}, 0, true, {}, 1e-4, "identity"},
    {"Transpose", {F32({}, {0, 3}), perm32({1, 0})}, {}, {F32({}, {3, 0})}, 0, false, {}, 1e-4, "empty"},
    {"InvertPermutation", {I32({2, 0, 1})}, {}, {I32({1, 2, 0})}},
    {"InvertPermutation", {I64({0}, {1})}, {}, {I64({0}, {1})}},

    {"ExpandDims", {iota({2, 3}), I32({0}, {})}, {}, {iota({1, 2, 3})}},
    {"ExpandDims", {F32({1, 2}), I32({-1}, {})}, {}, {F32({1, 2}, {2, 1})}},
    {"ExpandDims", {F32({1, 2}), I64({1}, {1})}, {}, {F32({1, 2}, {2, 1})}, 0, true, {}, 1e-4, "int64 axis vector"},
    {"ExpandDims", {B({true}, {}), I32({0}, {})}, {}, {B({true}, {1})}},
    {"Squeeze", {iota({1, 2, 1, 3})}, {}, {iota({2, 3})}},
    {"Squeeze", {iota({1, 2, 1})}, {{"squeeze_dims", Ints{0}}}, {iota({2, 1})}},
    {"Squeeze", {iota({1, 2, 1})}, {{"squeeze_dims", Ints{-1}}}, {iota({1, 2})}},
    {"Squeeze", {I32({5}, {1, 1})}, {}, {I32({5}, {})}, 0, true, {}, 1e-4, "to a scalar"},

    {"Fill", {I32({2, 3}), F32({1.5f}, {})}, {}, {F32(std::vector<float>(6, 1.5f), {2, 3})}},
    {"Fill", {I32({3}), I32({7}, {})}, {}, {I32({7, 7, 7})}},
    {"Fill", {I64({2}, {1}), B({true}, {})}, {}, {B({true, true}, {2})}},
    {"Fill", {I32({0, 2}), F32({5}, {})}, {}, {F32({}, {0, 2})}, 0, true, {}, 1e-4, "empty"},
    {"Fill", {I32({2}), F16({0.5f}, {})}, {}, {F16({0.5f, 0.5f}, {2})}, 0, true, {}, 1e-3, "float16"},
    {"Fill", {I32({}, {0}), F64({2}, {})}, {}, {F64({2}, {})}, 0, true, {}, 1e-4, "scalar"},

    {"Range", {I32({0}, {}), I32({10}, {}), I32({3}, {})}, {}, {I32({0, 3, 6, 9})}},
    {"Range", {I32({10}, {}), I32({0}, {}), I32({-3}, {})}, {}, {I32({10, 7, 4, 1})}},
    {"Range", {F32({0}, {}), F32({1}, {}), F32({0.25f}, {})}, {}, {F32({0, 0.25f, 0.5f, 0.75f})}},
    {"Range", {F64({1}, {}), F64({2.5}, {}), F64({0.5}, {})}, {}, {F64({1, 1.5, 2})}},
    {"Range", {I64({-3}, {}), I64({3}, {}), I64({2}, {})}, {}, {I64({-3, -1, 1}, {3})}},
    {"Range", {I32({5}, {}), I32({5}, {}), I32({1}, {})}, {}, {I32({}, {0})}},
    {"Range", {F32({1}, {}), F32({0}, {}), F32({-0.4f}, {})}, {}, {F32({1, 0.6f, 0.2f})}, 1e-6},

    {"OneHot", {I32({0, 2, -1, 1}), I32({3}, {}), F32({1}, {}), F32({0}, {})}, {},
     {F32({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, {4, 3})}},
    {"OneHot", {I32({0, 2}), I32({3}, {}), F32({1}, {}), F32({0}, {})}, {{"axis", int64_t{0}}},
     {F32({1, 0, 0, 0, 0, 1}, {3, 2})}},
    {"OneHot", {I32({0, 1, 1, 0}, {2, 2}), I32({2}, {}), I32({5}, {}), I32({-1}, {})}, {{"axis", int64_t{1}}},
     {I32({5, -1, -1, 5, -1, 5, 5, -1}, {2, 2, 2})}},
    {"OneHot", {I64({1, 7}, {2}), I32({2}, {}), F64({2}, {}), F64({-2}, {})}, {}, {F64({-2, 2, -2, -2}, {2, 2})}},
    {"OneHot", {I32({1, 0}), I32({0}, {}), F32({1}, {}), F32({0}, {})}, {}, {F32({}, {2, 0})}},
    {"OneHot", {I32({1}, {}), I32({3}, {}), B({true}, {}), B({false}, {})}, {}, {B({false, true, false}, {3})}},
});
