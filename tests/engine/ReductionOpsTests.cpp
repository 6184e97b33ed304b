// Reductions: shape functions, the op case table, a reference check of every kernel layout, and
// gradient details (ties of Max/Min, zeros of Prod).
#include "OpTestUtil.h"

#include <cmath>
#include <limits>

#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();
using Axes = std::vector<int64_t>;
}  // namespace

TEST_CASE("reductions honour axes, negative axes and keep_dims", "[engine][shape]") {
  INFER_OK("Sum", "[2,3,4]", "[]");
  INFER_OK("Sum", "[2,3,4]", "[2,4]", {"axis", std::vector<int64_t>{1}});
  INFER_OK("Mean", "[2,3,4]", "[2,3,1]", {"axis", std::vector<int64_t>{-1}}, {"keep_dims", true});
  INFER_OK("Sum", "[b,10]", "[b]", {"axis", int64_t{1}});
  INFER_OK("Sum", "[2,3]", "[2,3]", {"axis", std::vector<int64_t>{}});
  INFER_ERROR("Invalid reduction dimension 2 for input with 2 dimensions", "Sum", "[2,3]", {"axis", int64_t{2}});
}

TEST_CASE("Max, Min, Prod, Any, All infer like Sum and check dtypes", "[engine][shape]") {
  for (const char* op : {"Max", "Min", "Prod"}) {
    INFO(op);
    INFER_OK(op, "[2,3,4]", "[]");
    INFER_OK(op, "[b,3,4]", "[b,4]", {"axis", Axes{1}});
    INFER_OK(op, "[b,3,4]", "[b,1,4]", {"axis", Axes{-2}}, {"keep_dims", true});
    INFER_OK(op, "[b,?]", "[b,?]", {"axis", Axes{}});
    INFER_OK(op, "?", "[]");
    INFER_OK(op, "?", "?", {"axis", Axes{0}});
    INFER_OK(op, "int32:[2,3]", "[3]", {"axis", Axes{0}});
    INFER_ERROR("Invalid reduction dimension -3 for input with 2 dimensions", op, "[2,3]", {"axis", Axes{-3}});
    INFER_ERROR("is not in the list of allowed values", op, "bool:[2,3]");
  }
  for (const char* op : {"Any", "All"}) {
    INFO(op);
    INFER_OK(op, "bool:[b,3]", "[b]", {"axis", Axes{1}});
    INFER_OK(op, "bool:[b,3]", "[1,1]", {"keep_dims", true});
    INFER_ERROR("Value for attr 'T' of float32 is not in the list of allowed values: bool", op, "[2,3]");
    INFER_ERROR("Invalid reduction dimension 2", op, "bool:[2,3]", {"axis", Axes{2}});
  }
}

TEST_CASE("ArgMax and ArgMin remove one axis and give int64 or int32 indexes", "[engine][shape]") {
  INFER_OK("ArgMax", "[b,10]", "[b]", {"axis", int64_t{1}});
  INFER_OK("ArgMax", "[b,10]", "[b]", {"axis", int64_t{-1}});
  INFER_OK("ArgMin", "[3,b]", "[b]");
  INFER_OK("ArgMax", "[2,3,4]", "[2,4]", {"axis", int64_t{1}}, {"output_type", DType::Int32});
  INFER_OK("ArgMax", "?", "?");
  INFER_OK("ArgMax", "[0,?]", "[?]");
  INFER_ERROR("Expected dimension in the range [-2, 2), but got 2", "ArgMax", "[2,3]", {"axis", int64_t{2}});
  INFER_ERROR("Expected dimension in the range [0, 0), but got 0", "ArgMin", "[]");
  INFER_ERROR("Value for attr 'output_type' of float32 is not in the list of allowed values: int32, int64", "ArgMax",
              "[2,3]", {"output_type", DType::Float32});
  INFER_ERROR("Reduction axis 1 is empty in shape [2,0]", "ArgMax", "[2,0]", {"axis", int64_t{1}});
  INFER_ERROR("not in the list of allowed values", "ArgMax", "bool:[2]");
  auto r = infer("ArgMax", "[2,3]");
  CHECK(r.ok);
  const OpDef& def = OpRegistry::global().get("ArgMax");
  TensorType t(DType::Float32, parseShape("[2,3]"));
  CHECK(def.infer({t}, def.withDefaults({})).outputs[0].dtype == DType::Int64);
  CHECK(def.infer({t}, def.withDefaults({{"output_type", DType::Int32}})).outputs[0].dtype == DType::Int32);
}

TEST_CASE("reduction gradient helpers keep the input shape", "[engine][shape]") {
  INFER_OK("ReductionIndicators", "[b,3];[b]", "[b,3]", {"axis", Axes{1}});
  INFER_OK("ReductionIndicators", "[b,3];[b,1]", "[b,3]", {"axis", Axes{1}}, {"keep_dims", true});
  INFER_ERROR("does not match output shape", "ReductionIndicators", "[2,3];[3]", {"axis", Axes{1}});
  INFER_OK("ReductionProdOthers", "[b,3]", "[b,3]", {"axis", Axes{0}});
  INFER_ERROR("Invalid reduction dimension 4", "ReductionProdOthers", "[2,3]", {"axis", Axes{4}});
}

static CaseRegistrar reductionCases({
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {F32({21}, {})}},
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{0}}}, {F32({5, 7, 9})}},
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{1}}, {"keep_dims", true}}, {F32({6, 15}, {2, 1})}},
    {"Sum", {randomF32({2, 3, 4, 5})}, {{"axis", std::vector<int64_t>{0, 2}}}, {}, 1e-5, true, {}, 1e-4, "non-adjacent axes"},
    {"Sum", {randomF32({2, 3, 4})}, {{"axis", std::vector<int64_t>{1}}}, {}, 1e-5, true, {}, 1e-4, "middle axis"},
    {"Sum", {randomF32({2, 3, 4})}, {{"axis", std::vector<int64_t>{0, 2}}}, {}, 1e-5, true, {}, 1e-4, "outer and inner axes"},
    {"Sum", {I32({1, 2, 3, 4}, {2, 2})}, {{"axis", int64_t{-1}}}, {I32({3, 7})}},
    {"Sum", {F32({}, {0, 3})}, {{"axis", Axes{0}}}, {F32({0, 0, 0})}, 1e-6, true, {}, 1e-4, "empty reduction: 0"},
    {"Mean", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", int64_t{1}}}, {F32({2, 5})}},
    {"Mean", {F32({1, 2, 3, 4}, {2, 2})}, {}, {F32({2.5f}, {})}},
    {"Mean", {F32({}, {0})}, {}, {F32({kNaN}, {})}, 0, false, {}, 1e-4, "empty mean: NaN"},

    {"Max", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {}, {F32({6}, {})}},
    {"Max", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {{"axis", Axes{0}}}, {F32({4, 5, 6})}},
    {"Max", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {{"axis", Axes{-1}}, {"keep_dims", true}}, {F32({5, 6}, {2, 1})}},
    {"Max", {randomF32({2, 3, 4, 5})}, {{"axis", Axes{0, 2}}}, {}, 1e-5, true, {}, 1e-4, "non-adjacent axes"},
    {"Max", {randomF32({3, 4, 5}, -1, 1, 3)}, {{"axis", Axes{1}}}, {}, 1e-5, true, {}, 1e-4, "middle axis"},
    {"Max", {F64({1, 3, 3, 2}, {4})}, {}, {F64({3}, {})}, 1e-6, false, {}, 1e-4, "ties (not differentiable there)"},
    {"Max", {F32({1, kNaN, 3}, {3})}, {}, {F32({kNaN}, {})}, 0, false, {}, 1e-4, "NaN propagates"},
    {"Max", {F32({}, {0})}, {}, {F32({-kInf}, {})}, 0, false, {}, 1e-4, "empty: -inf"},
    {"Max", {F32({}, {2, 0})}, {{"axis", Axes{1}}}, {F32({-kInf, -kInf}, {2})}, 0, false},
    {"Max", {I32({3, -7, 2, 9}, {2, 2})}, {{"axis", Axes{1}}}, {I32({3, 9})}},
    {"Max", {I64({}, {0})}, {}, {I64({std::numeric_limits<int64_t>::lowest()}, {})}, 0, false, {}, 1e-4,
     "empty int: lowest"},
    {"Min", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {{"axis", Axes{0}}}, {F32({1, 2, 3})}},
    {"Min", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {{"axis", Axes{1}}}, {F32({1, 2})}},
    {"Min", {randomF32({2, 3, 4, 5}, -1, 1, 5)}, {{"axis", Axes{1, 3}}}, {}, 1e-5, true, {}, 1e-4, "non-adjacent axes"},
    {"Min", {F32({2, kNaN, -1}, {3})}, {}, {F32({kNaN}, {})}, 0, false, {}, 1e-4, "NaN propagates"},
    {"Min", {F32({}, {0})}, {}, {F32({kInf}, {})}, 0, false, {}, 1e-4, "empty: +inf"},
    {"Min", {I32({3, -7, 2, 9}, {2, 2})}, {}, {I32({-7}, {})}},
    {"Prod", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", Axes{1}}}, {F32({6, 120})}},
    {"Prod", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {{"axis", Axes{0}}, {"keep_dims", true}}, {F32({4, 10, 18}, {1, 3})}},
    {"Prod", {F64({1, 0, 3, 4, 5, 6}, {2, 3})}, {{"axis", Axes{1}}}, {F64({0, 120})}, 1e-6, true, {}, 1e-4,
     "a zero: gradient still exact"},
    {"Prod", {F64({0, 0, 3, 4, 0.5, 6}, {2, 3})}, {}, {F64({0}, {})}, 1e-6, true, {}, 1e-4, "two zeros"},
    {"Prod", {randomF32({2, 3, 4}, 0.5, 1.5)}, {{"axis", Axes{0, 2}}}, {}, 1e-5, true, {}, 1e-4, "non-adjacent axes"},
    {"Prod", {I32({1, 2, 3, 4}, {2, 2})}, {}, {I32({24}, {})}},
    {"Prod", {F32({}, {0})}, {}, {F32({1}, {})}, 0, false, {}, 1e-4, "empty: 1"},
    {"Any", {B({false, true, false, false}, {2, 2})}, {{"axis", Axes{1}}}, {B({true, false}, {2})}},
    {"Any", {B({false, false}, {2})}, {}, {B({false}, {})}},
    {"Any", {B({}, {0})}, {}, {B({false}, {})}, 0, true, {}, 1e-4, "empty: false"},
    {"All", {B({true, true, false, true}, {2, 2})}, {{"axis", Axes{0}}}, {B({false, true}, {2})}},
    {"All", {B({true, true}, {1, 2})}, {{"keep_dims", true}}, {B({true}, {1, 1})}},
    {"All", {B({}, {0})}, {}, {B({true}, {})}, 0, true, {}, 1e-4, "empty: true"},
    {"ArgMax", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {{"axis", int64_t{1}}}, {I64({1, 2}, {2})}},
    {"ArgMax", {F32({1, 5, 3, 4, 2, 6}, {2, 3})}, {}, {I64({1, 0, 1}, {3})}, 0, true, {}, 1e-4, "default axis 0"},
    {"ArgMax", {F32({1, 5, 5, 4, 2, 6}, {2, 3})}, {{"axis", int64_t{-1}}, {"output_type", DType::Int32}},
     {I32({1, 2}, {2})}, 0, true, {}, 1e-4, "ties: first index; int32 output"},
    {"ArgMax", {F32({1, kNaN, 5}, {3})}, {}, {I64({1}, {})}, 0, true, {}, 1e-4, "NaN wins"},
    {"ArgMax", {I32({1, 8, 3, 4, 2, 6, 0, 9}, {2, 2, 2})}, {{"axis", int64_t{1}}}, {I64({1, 0, 0, 1}, {2, 2})}},
    {"ArgMin", {F32({1, 5, 3, 4, 0, 6}, {2, 3})}, {{"axis", int64_t{1}}}, {I64({0, 1}, {2})}},
    {"ArgMin", {F64({3, 1, 1, 2}, {4})}, {}, {I64({1}, {})}, 0, true, {}, 1e-4, "ties: first index"},
    {"ArgMin", {I64({5, 1, 3, 0, 2, 6}, {3, 2})}, {{"axis", int64_t{0}}}, {I64({2, 1}, {2})}},
    {"ReductionIndicators", {F32({3, 3, 1, 2}, {2, 2}), F32({3, 2}, {2})}, {{"axis", Axes{1}}},
     {F32({0.5f, 0.5f, 0, 1}, {2, 2})}},
    {"ReductionIndicators", {F32({3, 3, 1, 2}, {2, 2}), F32({1, 2}, {1, 2})}, {{"axis", Axes{0}}, {"keep_dims", true}},
     {F32({0, 0, 1, 1}, {2, 2})}},
    {"ReductionIndicators", {F32({1, 3, 3, 2}, {4}), F32({3}, {})}, {}, {F32({0, 0.5f, 0.5f, 0}, {4})}},
    {"ReductionProdOthers", {F64({1, 2, 3, 0, 5, 6, 0, 0, 2}, {3, 3})}, {{"axis", Axes{1}}},
     {F64({6, 3, 2, 30, 0, 0, 0, 0, 0}, {3, 3})}, 1e-6, false, {}, 1e-4,
     "zeros: exact values; its own gradient (second order of Prod) assumes no zeros"},
    {"ReductionProdOthers", {randomF64({2, 3, 2}, 0.5, 2)}, {{"axis", Axes{0, 2}}}, {}, 1e-6, true, {}, 1e-4},
    {"Sum", {F32({1, 2, 3, 4, 5, 6}, {2, 3}).cast(DType::Float16)}, {{"axis", Axes{0}}},
     {F32({5, 7, 9}).cast(DType::Float16)}, 1e-3, true, {}, 1e-4, "float16"},
    {"Mean", {F32({1, 2, 3, 4, 5, 6}, {2, 3}).cast(DType::Float16)}, {}, {F32({3.5f}, {}).cast(DType::Float16)}, 1e-3},
    {"Max", {F32({1, 5, 3, 4, 2, 6}, {2, 3}).cast(DType::Float16)}, {{"axis", Axes{1}}},
     {F32({5, 6}).cast(DType::Float16)}, 1e-3, true, {}, 1e-4, "float16"},
    {"Min", {I32({7, 200, 3, 9}, {4}).cast(DType::UInt8)}, {}, {I32({3}, {}).cast(DType::UInt8)}, 0, true, {}, 1e-4,
     "uint8"},
    {"Prod", {F32({1, 2, 3, 4}, {2, 2}).cast(DType::Float16)}, {{"axis", Axes{1}}}, {F32({2, 12}).cast(DType::Float16)},
     1e-3, true, {}, 1e-4, "float16"},
    {"Prod", {I64({3, -2, 5}, {3})}, {}, {I64({-30}, {})}},
    {"ArgMax", {F32({1, 5, 3}, {3}).cast(DType::Float16)}, {}, {I64({1}, {})}, 0, true, {}, 1e-4, "float16"},
    {"SumToShape", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({3})}, {}, {F32({5, 7, 9})}},
    {"SumToShape", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), I32({2, 1})}, {}, {F32({6, 15}, {2, 1})}},
    {"ReducedShape", {I32({2, 3, 4})}, {{"axis", int64_t{1}}}, {I32({2, 1, 4})}},
});

namespace {

/// Reference reduction in double over `axes` (all when empty) of a float32 tensor.
Tensor referenceReduce(const Tensor& x, const Axes& axes, const std::string& op) {
  const int r = x.rank();
  std::vector<char> red(static_cast<size_t>(r), axes.empty() ? 1 : 0);
  for (int64_t a : axes) red[static_cast<size_t>(a < 0 ? a + r : a)] = 1;
  ConcreteShape os;
  for (int i = 0; i < r; ++i) os.push_back(red[static_cast<size_t>(i)] ? 1 : x.dim(i));
  const int64_t on = numElements(os);
  const double init = op == "Sum" ? 0 : op == "Prod" ? 1 : op == "Max" ? -INFINITY : INFINITY;
  std::vector<double> acc(static_cast<size_t>(on), init);
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t o = 0;
    for (int d = 0; d < r; ++d) o = o * os[static_cast<size_t>(d)] + (red[static_cast<size_t>(d)] ? 0 : idx[static_cast<size_t>(d)]);
    double& a = acc[static_cast<size_t>(o)];
    const double v = x.getDouble(i);
    if (op == "Sum") a += v;
    else if (op == "Prod") a *= v;
    else if (op == "Max") a = std::max(a, v);
    else a = std::min(a, v);
    for (int d = r - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < x.dim(d)) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  ConcreteShape ks;
  for (int i = 0; i < r; ++i)
    if (!red[static_cast<size_t>(i)]) ks.push_back(x.dim(i));
  return Tensor::fromVector(acc, ks).cast(DType::Float32);
}

}  // namespace

TEST_CASE("reduction kernels match a reference on every layout, large tensors included", "[engine][ops]") {
  struct Layout {
    ConcreteShape shape;
    Axes axes;
  };
  const std::vector<Layout> layouts = {
      {{100000}, {}},             // everything, several blocks
      {{3, 50000}, {1}},          // few long rows
      {{5000, 7}, {1}},           // many short rows
      {{50000, 3}, {0}},          // columns, few of them: row blocks
      {{20, 3000}, {0}},          // columns, many of them
      {{4, 300, 50}, {1}},        // [K, R, K2]
      {{3, 40, 5000}, {1}},       // [K, R, K2] with long inner rows
      {{30, 20, 40}, {0, 2}},     // [R, K, R2]
      {{6, 5, 4, 3, 2}, {0, 2, 4}},  // general walk, inner reduced
      {{6, 5, 4, 3, 2}, {1, 3}},     // general walk, inner kept
      {{1, 7, 1}, {0, 2}},        // only size-1 dims reduced
  };
  for (const Layout& l : layouts) {
    for (const std::string op : {"Sum", "Max", "Min", "Prod"}) {
      INFO(op << " " << concreteStr(l.shape) << " axes " << l.axes.size());
      const double lo = op == "Prod" ? 0.999 : -1, hi = op == "Prod" ? 1.001 : 1;
      Tensor x = randomF32(l.shape, lo, hi, 11);
      Attrs a;
      if (!l.axes.empty()) a.emplace("axis", l.axes);
      Tensor got = runEager(op, {x}, a)[0];
      Tensor want = referenceReduce(x, l.axes, op);
      REQUIRE(got.shape() == want.shape());
      CHECK(maxRelativeError(got, want) <= (op == "Max" || op == "Min" ? 0 : 1e-4));
    }
  }
}

TEST_CASE("Max and Min gradients share dy among ties, as TensorFlow", "[engine][grad]") {
  Graph g;
  Output x = ops::constant(g, F32({1, 3, 3, 2, 5, 0}, {2, 3}));
  Output mx = g.op("Max", {x}, {{"axis", Axes{1}}});
  Output mn = g.op("Min", {x}, {});
  Output dmx = gradients(g, {mx}, {x})[0];
  Output dmn = gradients(g, {mn}, {x})[0];
  Session s(g);
  auto r = s.run({dmx, dmn}, {});
  CHECK(tensorsEqual(r[0], F32({0, 0.5f, 0.5f, 0, 1, 0}, {2, 3})));
  CHECK(tensorsEqual(r[1], F32({0, 0, 0, 0, 0, 1}, {2, 3})));
}

TEST_CASE("Prod gradient with zeros is the product of the others", "[engine][grad]") {
  Graph g;
  Output x = ops::constant(g, F64({2, 0, 3, 0, 0, 4}, {2, 3}));
  Output p = g.op("Prod", {x}, {{"axis", Axes{1}}, {"keep_dims", true}});
  Session s(g);
  auto r = s.run({gradients(g, {p}, {x})[0]}, {});
  CHECK(tensorsEqual(r[0], F64({0, 6, 0, 0, 0, 0}, {2, 3})));
}

TEST_CASE("reductions refuse bad axes and empty ArgMax axes with messages", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("Max", {F32({1, 2}, {2})}, {{"axis", Axes{3}}}),
                    Catch::Contains("Invalid reduction dimension 3 for input with 1 dimensions"));
  CHECK_THROWS_WITH(runEager("ArgMax", {F32({1, 2}, {2})}, {{"axis", int64_t{-2}}}),
                    Catch::Contains("Expected dimension in the range [-1, 1), but got -2"));
  CHECK_THROWS_WITH(runEager("ArgMin", {F32({}, {0})}, {}), Catch::Contains("Reduction axis 0 is empty"));
  CHECK_THROWS_WITH(runEager("Any", {F32({1}, {1})}, {}), Catch::Contains("bool"));
  CHECK(runEager("ArgMax", {F32({}, {0, 3})}, {{"axis", int64_t{1}}})[0].shape() == ConcreteShape{0});
}

TEST_CASE("integer reductions of known values and dims fold, for reshape targets", "[engine][shape]") {
  auto run = [](const std::string& op, TensorType in, Attrs attrs = {}) {
    const OpDef& def = OpRegistry::global().get(op);
    ShapeResult r = def.infer({std::move(in)}, def.withDefaults(std::move(attrs)));
    REQUIRE(r.ok());
    return r.outputs[0];
  };
  TensorType v(DType::Int32, parseShape("[3]"));
  v.value = std::make_shared<const Tensor>(I32({2, 3, 4}));
  TensorType p = run("Prod", v);
  REQUIRE(p.value);
  CHECK(tensorsEqual(*p.value, Tensor::scalar<int32_t>(24)));
  REQUIRE(p.asShape);
  CHECK(p.asShape->str() == "[24]");
  CHECK(run("Max", v).value->getInt(0) == 4);
  CHECK(run("Min", v).value->getInt(0) == 2);

  TensorType m(DType::Int64, parseShape("[2,3]"));
  m.value = std::make_shared<const Tensor>(I64({1, 2, 3, 4, 5, 6}, {2, 3}));
  TensorType s = run("Sum", m, {{"axis", Axes{0}}, {"keep_dims", true}});
  REQUIRE(s.value);
  CHECK(tensorsEqual(*s.value, I64({5, 7, 9}, {1, 3})));

  std::map<std::string, uint32_t> names;
  TensorType dims(DType::Int32, parseShape("[2]"));
  dims.asShape = parseShape("[28,28]", &names);
  TensorType flat = run("Prod", dims);
  REQUIRE(flat.asShape);
  CHECK(flat.asShape->str() == "[784]");
  REQUIRE(flat.value);
  CHECK(flat.value->getInt(0) == 784);
  TensorType one(DType::Int32, parseShape("[1]"));
  one.asShape = parseShape("[b]", &names);
  TensorType sym = run("Prod", one, {{"axis", Axes{0}}});
  REQUIRE(sym.asShape);
  CHECK((*sym.asShape)[0].sameAs((*one.asShape)[0]));
  TensorType partial(DType::Int32, parseShape("[2]"));
  partial.asShape = parseShape("[b,28]", &names);
  CHECK_FALSE(run("Prod", partial).asShape);
  TensorType f(DType::Float32, parseShape("[2]"));
  f.value = std::make_shared<const Tensor>(F32({1, 2}));
  CHECK_FALSE(run("Sum", f).value);
}
