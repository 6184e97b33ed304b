// Elementwise math: shape functions (broadcasting, select rules, clip bounds, folding of shape
// arithmetic), the op case table, kernel errors and gradient routing.
#include <cmath>
#include <limits>

#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
}  // namespace

TEST_CASE("binary ops broadcast like numpy and keep symbolic dims", "[engine][shape]") {
  INFER_OK("Add", "[2,3];[3]", "[2,3]");
  INFER_OK("Add", "[2,1];[1,3]", "[2,3]");
  INFER_OK("Mul", "[b,3];[b,3]", "[b,3]");
  INFER_OK("Mul", "[b,3];[1,3]", "[b,3]");
  INFER_OK("Sub", "[?,3];[4,1]", "[4,3]");
  INFER_OK("Add", "?;[3]", "?");
  INFER_OK("RealDiv", "[];[5,6]", "[5,6]");
  INFER_OK("FloorDiv", "int32:[b,1];int32:[4]", "[b,4]");
  INFER_OK("FloorMod", "[b,3];[]", "[b,3]");
  INFER_OK("Pow", "[b,3];[3]", "[b,3]");
  INFER_OK("Maximum", "[b,1,5];[7,1]", "[b,7,5]");
  INFER_OK("Minimum", "?;[]", "?");
  INFER_OK("SquaredDifference", "[b,3];[b,3]", "[b,3]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "Add", "[2,3];[2,4]");
  INFER_ERROR("with input shapes: [2,3], [2,4]", "Add", "[2,3];[2,4]");
  INFER_ERROR("Dimensions must be equal, but are 5 and 6", "Maximum", "[b,5];[6]");
  INFER_ERROR("(op: 'SquaredDifference')", "SquaredDifference", "[3];[4]");
}

TEST_CASE("binary ops refuse mixed dtypes and name both tensors", "[engine][shape]") {
  INFER_ERROR("has type int32 that does not match type float32", "Add", "float32:[2];int32:[2]");
  INFER_OK("Add", "int32:[2];int32:[2]", "[2]");
  INFER_ERROR("has type float64 that does not match type float32", "Pow", "float32:[2];float64:[2]");
  INFER_ERROR("Value for attr 'T' of bool", "Add", "bool:[2];bool:[2]");
  INFER_ERROR("Value for attr 'T' of bool", "Maximum", "bool:[2];bool:[2]");
  INFER_ERROR("Value for attr 'T' of uint8", "Pow", "uint8:[2];uint8:[2]");
}

TEST_CASE("AddN needs one dtype and compatible shapes", "[engine][shape]") {
  INFER_OK("AddN", "[2,?];[?,3];[2,3]", "[2,3]");
  INFER_ERROR("compatible", "AddN", "[2,3];[3,2]");
}

TEST_CASE("SelectV2 broadcasts condition, t and e together", "[engine][shape]") {
  INFER_OK("SelectV2", "bool:[b,1];[1,3];[]", "[b,3]");
  INFER_OK("SelectV2", "bool:[];[b,3];[b,3]", "[b,3]");
  INFER_OK("SelectV2", "bool:?;[2];[2]", "?");
  INFER_OK("SelectV2", "bool:[4,1,1];[3,1];[5]", "[4,3,5]");
  INFER_ERROR("Dimensions must be equal, but are 2 and 3", "SelectV2", "bool:[2];[3];[3]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "SelectV2", "bool:[3];[3];[4]");
  INFER_ERROR("that does not match expected type of bool", "SelectV2", "float32:[2];[2];[2]");
  INFER_ERROR("has type int32 that does not match type float32", "SelectV2", "bool:[2];float32:[2];int32:[2]");
  auto r = infer("SelectV2", "bool:[3];[3];[4]");
  CHECK_FALSE(r.ok);
}

TEST_CASE("Select (TF1 where) takes a scalar, same-shape or row condition", "[engine][shape]") {
  INFER_OK("Select", "bool:[b,3];[b,3];[b,3]", "[b,3]");
  INFER_OK("Select", "bool:[];[2,3];[2,3]", "[2,3]");
  INFER_OK("Select", "bool:[b];[?,3];[?,3]", "[b,3]");
  INFER_OK("Select", "bool:[4];[?,3];[4,?]", "[4,3]");
  INFER_OK("Select", "bool:?;[2];[2]", "[2]");
  INFER_ERROR("Dimension 0 in both shapes must be equal, but are 4 and 5", "Select", "bool:[4];[5,3];[5,3]");
  INFER_ERROR("Shapes must be equal rank, but are 2 and 1", "Select", "bool:[2];[2,3];[3]");
  INFER_ERROR("Dimension 1 in both shapes must be equal, but are 4 and 3", "Select", "bool:[2,3];[2,4];[2,4]");
  INFER_ERROR("Shapes must be equal rank, but are 0 and 1", "Select", "bool:[2];[];[]");
  INFER_ERROR("that does not match expected type of bool", "Select", "int32:[2];[2];[2]");
}

TEST_CASE("ClipByValue keeps t's shape and refuses bounds that would enlarge it", "[engine][shape]") {
  INFER_OK("ClipByValue", "[b,3];[];[]", "[b,3]");
  INFER_OK("ClipByValue", "[b,3];[3];[b,1]", "[b,3]");
  INFER_OK("ClipByValue", "[?,3];[5,3];[]", "[5,3]");
  INFER_OK("ClipByValue", "?;[];[]", "?");
  INFER_ERROR("Shapes (3,) and (2, 3) are incompatible", "ClipByValue", "[3];[2,3];[]");
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "ClipByValue", "[2,3];[];[4]");
  INFER_ERROR("has type int32 that does not match type float32", "ClipByValue", "[2];int32:[];[]");
  INFER_ERROR("Value for attr 'T' of bool", "ClipByValue", "bool:[2];bool:[];bool:[]");
}

TEST_CASE("integer arithmetic on known values and shape dims is folded", "[engine][shape]") {
  const OpDef& mul = OpRegistry::global().get("Mul");
  const OpDef& fdiv = OpRegistry::global().get("FloorDiv");
  const OpDef& add = OpRegistry::global().get("Add");
  auto constant = [](Tensor t) {
    TensorType tt(t.dtype(), Shape::fromConcrete(t.shape()));
    tt.value = std::make_shared<const Tensor>(t);
    return tt;
  };
  // Both values known: the result's value is known.
  ShapeResult r = mul.infer({constant(I32({2, 3})), constant(I32({4}, {}))}, {});
  REQUIRE(r.ok());
  REQUIRE(r.outputs[0].value);
  CHECK(tensorsEqual(*r.outputs[0].value, I32({8, 12})));
  r = fdiv.infer({constant(I32({7, -7})), constant(I32({2}, {}))}, {});
  REQUIRE(r.outputs[0].value);
  CHECK(tensorsEqual(*r.outputs[0].value, I32({3, -4})));
  r = fdiv.infer({constant(I32({7})), constant(I32({0}))}, {});
  CHECK(r.ok());
  CHECK_FALSE(r.outputs[0].value);  // division by zero: left to the kernel's error

  // Dims of a shape: tf.shape(x)[1] * tf.shape(x)[2] with x [b, 7, 7, 64].
  const uint32_t b = Symbols::create("b");
  TensorType d1(DType::Int32, Shape::scalar());
  d1.asShape = Shape{Dim::known(7)};
  r = mul.infer({d1, d1}, {});
  REQUIRE(r.outputs[0].asShape);
  CHECK(r.outputs[0].asShape->str() == "[49]");
  TensorType db(DType::Int32, Shape::scalar());
  db.asShape = Shape{Dim::symbol(b)};
  r = mul.infer({db, constant(I32({1}, {}))}, {});
  REQUIRE(r.outputs[0].asShape);
  CHECK((*r.outputs[0].asShape)[0] == Dim::symbol(b));  // b * 1 keeps the symbol
  r = mul.infer({db, constant(I32({2}, {}))}, {});
  REQUIRE(r.outputs[0].asShape);
  CHECK_FALSE((*r.outputs[0].asShape)[0].isKnown());
  TensorType vec(DType::Int32, Shape{Dim::known(2)});
  vec.asShape = Shape{Dim::symbol(b), Dim::known(4)};
  r = add.infer({vec, constant(I32({0, 6}))}, {});
  REQUIRE(r.outputs[0].asShape);
  CHECK((*r.outputs[0].asShape)[0] == Dim::symbol(b));
  CHECK((*r.outputs[0].asShape)[1] == Dim::known(10));
}

TEST_CASE("integer division by zero and negative integer powers are errors", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("FloorDiv", {I32({4, 5}), I32({2, 0})}), Catch::Contains("Integer division by zero"));
  CHECK_THROWS_WITH(runEager("FloorMod", {I64({4}, {1}), I64({0}, {})}), Catch::Contains("Integer division by zero"));
  CHECK_THROWS_WITH(runGraph("FloorDiv", {I32({4}), I32({0})}), Catch::Contains("Integer division by zero"));
  CHECK_THROWS_WITH(runEager("Pow", {I32({2}), I32({-1})}), Catch::Contains("Integers to negative integer powers are not allowed"));
  CHECK_THROWS_WITH(runEager("RealDiv", {I32({2}), I32({0})}), Catch::Contains("Integer division by zero"));
  CHECK(tensorsEqual(runEager("RealDiv", {I32({7, -7, std::numeric_limits<int32_t>::min()}), I32({2, 2, -1})})[0],
                     I32({3, -3, std::numeric_limits<int32_t>::min()})));
  // Floats divide by zero as IEEE says.
  Tensor q = runEager("FloorDiv", {F32({1, -1, 0}), F32({0, 0, 0})})[0];
  CHECK(q.data<float>()[0] == kInf);
  CHECK(q.data<float>()[1] == -kInf);
  CHECK(std::isnan(q.data<float>()[2]));
  // No output, no division.
  CHECK(runEager("FloorDiv", {I32({}, {0}), I32({0}, {})})[0].numElements() == 0);
}

TEST_CASE("Maximum and Minimum route ties to x, SelectV2 routes by the condition", "[engine][grad]") {
  Graph g;
  Output x = ops::constant(g, F64({1, 3, 5}));
  Output y = ops::constant(g, F64({3}, {}));
  Output mx = g.op("Maximum", {x, y});
  Output mn = g.op("Minimum", {x, y});
  auto gm = gradients(g, {ops::reduceSum(g, mx, {})}, {x, y});
  auto gn = gradients(g, {ops::reduceSum(g, mn, {})}, {x, y});
  Output cond = ops::constant(g, B({true, false}, {2, 1}));
  Output t = ops::constant(g, F64({1, 2, 3}));
  Output e = ops::constant(g, F64({7}, {}));
  Output sel = g.op("SelectV2", {cond, t, e});
  auto gs = gradients(g, {ops::reduceSum(g, sel, {})}, {t, e});
  Session s(g);
  auto v = s.run({gm[0], gm[1], gn[0], gn[1], gs[0], gs[1]}, {});
  CHECK(tensorsEqual(v[0], F64({0, 1, 1})));  // the tie at 3 goes to x
  CHECK(tensorsEqual(v[1], F64({1}, {})));
  CHECK(tensorsEqual(v[2], F64({1, 1, 0})));
  CHECK(tensorsEqual(v[3], F64({1}, {})));
  CHECK(tensorsEqual(v[4], F64({1, 1, 1})));  // row 0 takes t
  CHECK(tensorsEqual(v[5], F64({3}, {})));    // row 1 takes e, broadcast 3 times
}

TEST_CASE("large broadcasting ternary and binary ops agree with a scalar reference", "[engine][ops]") {
  Tensor cond(DType::Bool, {64, 1, 50});
  for (int64_t i = 0; i < cond.numElements(); ++i) cond.data<bool>()[i] = (i * 7) % 3 == 0;
  Tensor t = randomF32({40, 1}, -1, 1, 5), e = randomF32({50}, -1, 1, 6);
  Tensor out = runEager("SelectV2", {cond, t, e})[0];
  REQUIRE(out.shape() == ConcreteShape{64, 40, 50});
  Tensor lo = randomF32({40, 50}, -0.5, 0, 8);
  Tensor big = randomF32({64, 40, 50}, -1, 1, 9);
  Tensor clipped = runEager("ClipByValue", {big, lo, F32({0.5f}, {})})[0];
  Tensor mx = runEager("Maximum", {big, e})[0];
  bool ok = true;
  for (int64_t a = 0; a < 64; ++a)
    for (int64_t b = 0; b < 40; ++b)
      for (int64_t c = 0; c < 50; ++c) {
        const int64_t i = (a * 40 + b) * 50 + c;
        const float want = cond.data<bool>()[a * 50 + c] ? t.data<float>()[b] : e.data<float>()[c];
        ok = ok && out.data<float>()[i] == want;
        const float v = big.data<float>()[i], l = lo.data<float>()[b * 50 + c];
        ok = ok && clipped.data<float>()[i] == std::max(std::min(v, 0.5f), l);
        ok = ok && mx.data<float>()[i] == std::max(v, e.data<float>()[c]);
      }
  CHECK(ok);
}

static CaseRegistrar mathCases({
    {"Add", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), F32({10, 20, 30})}, {}, {F32({11, 22, 33, 14, 25, 36}, {2, 3})}},
    {"Add", {F32({1, 2}, {2, 1}), F32({10, 20, 30}, {1, 3})}, {}, {F32({11, 21, 31, 12, 22, 32}, {2, 3})}, 1e-6, true, {}, 1e-4, "both operands broadcast"},
    {"Add", {I32({1, 2}), I32({3, 4})}, {}, {I32({4, 6})}},
    {"Sub", {F32({5, 7}, {2}), F32({1}, {1})}, {}, {F32({4, 6})}},
    {"Mul", {F32({1, 2, 3, 4}, {2, 2}), F32({2}, {})}, {}, {F32({2, 4, 6, 8}, {2, 2})}},
    {"RealDiv", {F32({1, 4}, {2}), F32({2, 8}, {2})}, {}, {F32({0.5f, 0.5f})}},
    {"AddN", {F32({1, 2}), F32({3, 4}), F32({5, 6})}, {}, {F32({9, 12})}},
    {"Cast", {F32({1.7f, -2.2f})}, {{"DstT", DType::Int32}}, {I32({1, -2})}, 0, false},
    {"Cast", {F32({1.5f, 2})}, {{"DstT", DType::Float64}}, {F64({1.5, 2})}},
    // floor division and modulo: Python semantics (round toward -inf, result has y's sign)
    {"FloorDiv", {F32({7, -7, 7, -7}), F32({2, 2, -2, -2})}, {}, {F32({3, -4, -4, 3})}},
    {"FloorDiv", {I32({7, -7, 7, -7}), I32({2, 2, -2, -2})}, {}, {I32({3, -4, -4, 3})}},
    {"FloorDiv", {I32({6, -6, 5, std::numeric_limits<int32_t>::min()}, {2, 2}), I32({3, -1}, {2})}, {}, {I32({2, 6, 1, std::numeric_limits<int32_t>::min()}, {2, 2})}, 0, true, {}, 1e-4, "broadcast; INT_MIN // -1 wraps"},
    {"FloorDiv", {F64({5.5, -5.5}, {2, 1}), F64({2}, {})}, {}, {F64({2, -3}, {2, 1})}},
    {"FloorMod", {F32({7, -7, 7, -7}), F32({3, 3, -3, -3})}, {}, {F32({1, 2, -2, -1})}},
    {"FloorMod", {I32({7, -7, 7, -7}), I32({3, 3, -3, -3})}, {}, {I32({1, 2, -2, -1})}},
    {"FloorMod", {I64({5, -5, 9}, {3}), I64({-1}, {})}, {}, {I64({0, 0, 0}, {3})}},
    {"FloorMod", {F64({5.5, -5.5, 1.25}, {3}), F64({2}, {1})}, {}, {F64({1.5, 0.5, 1.25}, {3})}},
    {"FloorMod", {F32({1}), F32({0})}, {}, {F32({kNaN})}, 0, false, {}, 1e-4, "float x % 0 = nan"},
    // powers
    {"Pow", {F32({2, 3, 4}), F32({3, 0.5f, -1})}, {}, {F32({8, 1.732050808f, 0.25f})}},
    {"Pow", {F32({1, 2, 3, 4}, {2, 2}), F32({2}, {})}, {}, {F32({1, 4, 9, 16}, {2, 2})}},
    {"Pow", {F64({0, 2}, {2}), F64({2, 3}, {2})}, {}, {F64({0, 8}, {2})}, 1e-12, true, {}, 1e-4, "x = 0: no false singularity"},
    {"Pow", {F64({1.5, 2.5}, {2, 1}), F64({2, -0.5, 1}, {1, 3})}, {}, {F64({2.25, 0.8164965809277261, 1.5, 6.25, 0.6324555320336759, 2.5}, {2, 3})}},
    {"Pow", {I32({2, 3, -2, 5}), I32({10, 3, 3, 0})}, {}, {I32({1024, 27, -8, 1})}},
    {"Pow", {F32({-8, 0}), F32({0.5f, -1})}, {}, {F32({kNaN, kInf})}, 0, false},
    // maximum / minimum: NaN propagates
    {"Maximum", {F32({1, 5, 3}), F32({4, 2, 3.5f})}, {}, {F32({4, 5, 3.5f})}},
    {"Maximum", {F32({1, -2, 3, 4, 0.5f, -6}, {2, 3}), F32({0.25f, 0.1f, 3.5f})}, {}, {F32({1, 0.1f, 3.5f, 4, 0.5f, 3.5f}, {2, 3})}, 1e-6, true, {}, 1e-4, "y broadcasts: its gradient sums"},
    {"Maximum", {F32({kNaN, 1, 2}), F32({1, kNaN, 2})}, {}, {F32({kNaN, kNaN, 2})}, 0, false, {}, 1e-4, "NaN on either side"},
    {"Maximum", {I32({1, 5}), I32({3}, {})}, {}, {I32({3, 5})}},
    {"Minimum", {F32({1, 5, 3}), F32({4, 2, 3.5f})}, {}, {F32({1, 2, 3})}},
    {"Minimum", {F64({1, -2, 3, 4}, {2, 2}), F64({0.5, 3.5}, {2, 1})}, {}, {F64({0.5, -2, 3, 3.5}, {2, 2})}},
    {"Minimum", {F32({kNaN, 1}), F32({1, kNaN})}, {}, {F32({kNaN, kNaN})}, 0, false},
    {"Minimum", {I64({1, 5}, {2}), I64({3, 3}, {2})}, {}, {I64({1, 3}, {2})}},
    {"SquaredDifference", {F32({1, 5}), F32({3, 2})}, {}, {F32({4, 9})}},
    {"SquaredDifference", {F64({1, 2, 3, 4}, {2, 2}), F64({1, -1}, {2})}, {}, {F64({0, 9, 4, 25}, {2, 2})}},
    {"SquaredDifference", {I32({1, -5}), I32({4}, {})}, {}, {I32({9, 81})}},
    // selects
    {"SelectV2", {B({true, false, true}, {3}), F32({1, 2, 3}), F32({10, 20, 30})}, {}, {F32({1, 20, 3})}},
    {"SelectV2", {B({true, false}, {2, 1}), F32({1, 2, 3}, {1, 3}), F32({9}, {})}, {}, {F32({1, 2, 3, 9, 9, 9}, {2, 3})}, 1e-6, true, {}, 1e-4, "all three broadcast"},
    {"SelectV2", {B({false}, {}), I32({1, 2}), I32({3, 4})}, {}, {I32({3, 4})}},
    {"SelectV2", {B({true, false}, {2}), B({true, true}, {2}), B({false, false}, {2})}, {}, {B({true, false}, {2})}},
    {"SelectV2", {B({true, false, true, false}, {2, 2}), F64({1, 2}, {2}), F64({5, 6}, {2, 1})}, {}, {F64({1, 5, 1, 6}, {2, 2})}},
    {"Select", {B({true, false, true}, {3}), F32({1, 2, 3}), F32({10, 20, 30})}, {}, {F32({1, 20, 3})}},
    {"Select", {B({false, true}, {2}), F32({1, 2, 3, 4, 5, 6}, {2, 3}), F32({-1, -2, -3, -4, -5, -6}, {2, 3})}, {}, {F32({-1, -2, -3, 4, 5, 6}, {2, 3})}, 1e-6, true, {}, 1e-4, "a vector condition picks rows"},
    {"Select", {B({true}, {}), F64({1, 2}, {2}), F64({3, 4}, {2})}, {}, {F64({1, 2}, {2})}, 1e-6, true, {}, 1e-4, "a scalar condition picks a whole tensor"},
    {"Select", {B({true, false, false, true}, {2, 2}), I64({1, 2, 3, 4}, {2, 2}), I64({5, 6, 7, 8}, {2, 2})}, {}, {I64({1, 6, 7, 4}, {2, 2})}},
    // clipping: gradients go to t inside the bounds, to the bounds outside
    {"ClipByValue", {F32({-1, 0.5f, 3}), F32({0}, {}), F32({1}, {})}, {}, {F32({0, 0.5f, 1})}},
    {"ClipByValue", {F32({-1, 0.5f, 3, 0.2f, -0.3f, 0.9f}, {2, 3}), F32({0, 0.1f, 0.2f}), F32({0.6f, 0.4f}, {2, 1})}, {}, {F32({0, 0.5f, 0.6f, 0.2f, 0.1f, 0.4f}, {2, 3})}, 1e-6, true, {}, 1e-4, "bounds broadcast and get their gradient"},
    {"ClipByValue", {F64({-5, 5}, {2}), F64({-1, -2}, {2}), F64({1, 2}, {2})}, {}, {F64({-1, 2}, {2})}},
    {"ClipByValue", {I32({-5, 3, 9}), I32({0}, {}), I32({6}, {})}, {}, {I32({0, 3, 6})}},
    {"ClipByValue", {F32({kNaN, 2}), F32({0}, {}), F32({1}, {})}, {}, {F32({kNaN, 1})}, 0, false, {}, 1e-4, "NaN stays NaN"},
});

TEST_CASE("float16 binary and select kernels agree with float32 to half precision", "[engine][ops]") {
  Tensor x = F32({-3, -0.5f, 0.25f, 1.5f, 2.5f, 4}, {2, 3});
  Tensor y = F32({1.5f, -2, 0.75f});
  for (const char* op : {"Add", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Maximum", "Minimum",
                         "SquaredDifference"}) {
    INFO(op);
    Tensor want = runEager(op, {x, y})[0];
    Tensor got = runEager(op, {x.cast(DType::Float16), y.cast(DType::Float16)})[0];
    REQUIRE(got.dtype() == DType::Float16);
    CHECK(maxRelativeError(got.cast(DType::Float32), want) < 4e-3);
  }
  Tensor p = F32({0.5f, 1, 2}), q = F32({2, -1, 0.5f});
  CHECK(maxRelativeError(runEager("Pow", {p.cast(DType::Float16), q.cast(DType::Float16)})[0].cast(DType::Float32),
                         runEager("Pow", {p, q})[0]) < 4e-3);
  Tensor cond = B({true, false, true}, {3});
  CHECK(tensorsEqual(runEager("SelectV2", {cond, x.cast(DType::Float16), y.cast(DType::Float16)})[0],
                     runEager("SelectV2", {cond, x, y})[0].cast(DType::Float16)));
  CHECK(tensorsEqual(runEager("Less", {x.cast(DType::Float16), y.cast(DType::Float16)})[0], runEager("Less", {x, y})[0]));
  Tensor lo = F32({0}, {}), hi = F32({2}, {});
  CHECK(tensorsEqual(runEager("ClipByValue", {x.cast(DType::Float16), lo.cast(DType::Float16), hi.cast(DType::Float16)})[0],
                     runEager("ClipByValue", {x, lo, hi})[0].cast(DType::Float16)));
}

TEST_CASE("Pow with a scalar exponent of 2 matches the general path", "[engine][ops]") {
  Tensor x = randomF32({1000}, -10, 10, 4);
  Tensor sq = runEager("Pow", {x, F32({2}, {})})[0];
  Tensor gen = runEager("Pow", {x, F32(std::vector<float>(1000, 2.f))})[0];
  CHECK(maxRelativeError(sq, gen) < 1e-6);  // x * x is correctly rounded; powf within an ulp
  Tensor r = runEager("Pow", {F32({3}), F32({2}, {1, 1})})[0];
  CHECK(r.shape() == ConcreteShape{1, 1});
  CHECK(r.data<float>()[0] == 9);
}
