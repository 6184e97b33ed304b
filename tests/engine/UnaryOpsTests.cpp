// Unary math and activations: shape functions, the op case table (reference values, NaN/inf
// edge cases, gradients incl. the dedicated gradient ops' second derivatives) and errors.
#include <cmath>
#include <limits>

#include "OpTestUtil.h"

using namespace tlens;
using namespace tlens::test;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
}  // namespace

TEST_CASE("unary ops keep shape, symbols and unknown rank", "[engine][shape]") {
  INFER_OK("Exp", "[b,3]", "[b,3]");
  INFER_OK("Log", "?", "?");
  INFER_OK("Sigmoid", "[?,10]", "[?,10]");
  INFER_OK("Abs", "int32:[2]", "[2]");
  INFER_OK("IsNan", "[b,?]", "[b,?]");
  INFER_OK("LeakyRelu", "[2,3]", "[2,3]", {"alpha", 0.1});
  INFER_OK("Relu6", "int32:[4]", "[4]");
  INFER_OK("Round", "int64:[]", "[]");
}

TEST_CASE("unary ops check dtypes with TensorFlow's wording", "[engine][shape]") {
  INFER_ERROR("Value for attr 'T' of int32 is not in the list of allowed values", "Exp", "int32:[2]");
  INFER_ERROR("Value for attr 'T' of int32 is not in the list of allowed values", "Log", "int32:[2]");
  INFER_ERROR("(op: 'Sqrt')", "Sqrt", "int64:[2]");
  INFER_ERROR("Value for attr 'T' of bool", "Neg", "bool:[2]");
  INFER_ERROR("Value for attr 'T' of bool", "Relu", "bool:[2]");
  INFER_ERROR("Value for attr 'T' of uint8", "Abs", "uint8:[2]");
  INFER_ERROR("Value for attr 'T' of int32", "IsNan", "int32:[2]");
  INFER_ERROR("Value for attr 'T' of int32", "Floor", "int32:[2]");
  INFER_ERROR("Value for attr 'T' of int32", "Softplus", "int32:[2]");
}

TEST_CASE("gradient ops merge their two shapes and name the conflict", "[engine][shape]") {
  INFER_OK("SigmoidGrad", "[b,?];[?,3]", "[b,3]");
  INFER_OK("ReluGrad", "?;[2,3]", "[2,3]");
  INFER_OK("TanhGrad", "[2,3];?", "[2,3]");
  INFER_ERROR("Dimension 1 in both shapes must be equal, but are 3 and 4", "TanhGrad", "[2,3];[2,4]");
  INFER_ERROR("Shapes must be equal rank, but are 2 and 1", "ReluGrad", "[2,3];[3]");
  INFER_ERROR("does not match type float32", "EluGrad", "float32:[2];float64:[2]");
  INFER_ERROR("Value for attr 'T' of int32", "SqrtGrad", "int32:[2];int32:[2]");
  INFER_OK("Relu6Grad", "int32:[2];int32:[2]", "[2]");
}

TEST_CASE("log follows IEEE: log(0) = -inf, log(-1) = nan, exp overflows to inf", "[engine][ops]") {
  Tensor y = runEager("Log", {F32({0, -1, 1, kInf})})[0];
  CHECK(y.data<float>()[0] == -kInf);
  CHECK(std::isnan(y.data<float>()[1]));
  CHECK(y.data<float>()[2] == 0);
  CHECK(y.data<float>()[3] == kInf);
  Tensor e = runEager("Exp", {F32({100, -200, kNaN})})[0];
  CHECK(e.data<float>()[0] == kInf);
  CHECK(e.data<float>()[1] == 0);
  CHECK(std::isnan(e.data<float>()[2]));
}

TEST_CASE("integer reciprocal of zero is an error, not a crash", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("Reciprocal", {I32({1, 0})}), Catch::Contains("Integer division by zero"));
  CHECK(tensorsEqual(runEager("Reciprocal", {I32({1, -1, 2})})[0], I32({1, -1, 0})));
}

TEST_CASE("large unary tensors run in parallel chunks and agree with the scalar functions", "[engine][ops]") {
  const int64_t n = 100003;  // odd size: exercises the packet tails of every chunk
  Tensor x = randomF32({n}, -20, 20, 3);
  Tensor ex = runEager("Exp", {x})[0], th = runEager("Tanh", {x})[0], sg = runEager("Sigmoid", {x})[0];
  Tensor sp = runEager("Softplus", {x})[0], el = runEager("Elu", {x})[0];
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = x.data<float>()[i];
    auto rel = [](double got, double want) { return std::fabs(got - want) / std::max(1.0, std::fabs(want)); };
    worst = std::max({worst, rel(ex.data<float>()[i], std::exp(v)),
                      rel(th.data<float>()[i], std::tanh(v)), rel(sg.data<float>()[i], 1 / (1 + std::exp(-v))),
                      rel(sp.data<float>()[i], std::log1p(std::exp(v))),
                      rel(el.data<float>()[i], v < 0 ? std::expm1(v) : v)});
  }
  CHECK(worst < 1e-5);
}

TEST_CASE("NaN propagates through every activation", "[engine][ops]") {
  for (const char* op : {"Relu", "Relu6", "Elu", "Selu", "Softplus", "LeakyRelu", "Sigmoid", "Tanh", "Exp",
                         "Abs", "Sign", "Floor", "Round", "Square", "Sqrt"}) {
    INFO(op);
    Tensor y = runEager(op, {F32({kNaN, 1, kNaN, -1}, {2, 2})})[0];
    CHECK(std::isnan(y.data<float>()[0]));
    CHECK(std::isnan(y.data<float>()[2]));
  }
}

static CaseRegistrar unaryCases({
    // sign and magnitude
    {"Neg", {F32({1, -2})}, {}, {F32({-1, 2})}},
    {"Neg", {I32({3, -4, std::numeric_limits<int32_t>::min()})}, {}, {I32({-3, 4, std::numeric_limits<int32_t>::min()})}, 0, true, {}, 1e-4, "INT_MIN wraps"},
    {"Abs", {F32({-1.5f, 2, 0.25f}, {3})}, {}, {F32({1.5f, 2, 0.25f})}},
    {"Abs", {F64({-3, 4}, {1, 2})}, {}, {F64({3, 4}, {1, 2})}},
    {"Abs", {I64({-3, 4}, {2})}, {}, {I64({3, 4}, {2})}},
    {"Sign", {F32({-2, 0.5f, 3.5f})}, {}, {F32({-1, 1, 1})}},
    {"Sign", {F64({0, -0.0}, {2})}, {}, {F64({0, 0}, {2})}, 0, false, {}, 1e-4, "zero maps to zero"},
    {"Sign", {F32({kNaN, -kInf})}, {}, {F32({kNaN, -1})}, 0, false, {}, 1e-4, "NaN stays NaN"},
    {"Sign", {I32({-5, 0, 7})}, {}, {I32({-1, 0, 1})}},
    {"Square", {F32({3, -2})}, {}, {F32({9, 4})}},
    {"Square", {I32({3, -4})}, {}, {I32({9, 16})}},
    {"Reciprocal", {F32({2, -4, 0.5f})}, {}, {F32({0.5f, -0.25f, 2})}},
    {"Reciprocal", {F32({0, -0.0f})}, {}, {F32({kInf, -kInf})}, 0, false, {}, 1e-4, "1/0 = inf"},
    {"Reciprocal", {I32({1, -1, 2})}, {}, {I32({1, -1, 0})}},
    // exponentials, logarithms, roots
    {"Exp", {F32({0, 1, -1})}, {}, {F32({1, 2.718281828f, 0.3678794412f})}},
    {"Exp", {F64({0.5, -2}, {2, 1})}, {}, {F64({1.6487212707001282, 0.1353352832366127}, {2, 1})}},
    {"Exp", {F32({100, -kInf})}, {}, {F32({kInf, 0})}, 0, false, {}, 1e-4, "overflow to inf"},
    {"Log", {F32({1, 2.718281828f, 0.5f})}, {}, {F32({0, 1, -0.6931471806f})}},
    {"Log", {F32({0, -1, kInf})}, {}, {F32({-kInf, kNaN, kInf})}, 0, false, {}, 1e-4, "log(0) = -inf, log(-1) = nan (tfdbg tutorial)"},
    {"Log", {F64({4}, {})}, {}, {F64({1.3862943611198906}, {})}},
    {"Log1p", {F32({0, 1, -0.5f})}, {}, {F32({0, 0.6931471806f, -0.6931471806f})}},
    {"Log1p", {F32({-1, -2})}, {}, {F32({-kInf, kNaN})}, 0, false, {}, 1e-4, "log1p(-1) = -inf"},
    {"Sqrt", {F32({4, 2, 0.25f})}, {}, {F32({2, 1.414213562f, 0.5f})}},
    {"Sqrt", {F32({-1, 0})}, {}, {F32({kNaN, 0})}, 0, false, {}, 1e-4, "sqrt(-1) = nan"},
    {"Sqrt", {F64({9}, {1})}, {}, {F64({3}, {1})}},
    {"Rsqrt", {F32({4, 0.25f})}, {}, {F32({0.5f, 2})}},
    {"Rsqrt", {F64({16, 0.01}, {2})}, {}, {F64({0.25, 10}, {2})}},
    // trigonometric and hyperbolic
    {"Sin", {F32({0, 1, -2})}, {}, {F32({0, 0.8414709848f, -0.9092974268f})}},
    {"Sin", {F64({0.5}, {})}, {}, {F64({0.479425538604203}, {})}},
    {"Cos", {F32({0, 1, -2})}, {}, {F32({1, 0.5403023059f, -0.4161468365f})}},
    {"Cos", {F64({0.5}, {})}, {}, {F64({0.8775825618903728}, {})}},
    {"Tanh", {F32({0, 0.5f, -2, 20})}, {}, {F32({0, 0.4621171573f, -0.9640275801f, 1})}},
    {"Tanh", {F64({0.5, -2}, {2})}, {}, {F64({0.46211715726000974, -0.9640275800758169}, {2})}},
    {"Sigmoid", {F32({0, 2, -3})}, {}, {F32({0.5f, 0.8807970780f, 0.04742587318f})}},
    {"Sigmoid", {F32({-100, 100})}, {}, {F32({0, 1})}, 1e-6, true, {}, 1e-4, "saturates without NaN"},
    {"Sigmoid", {F64({2}, {1, 1})}, {}, {F64({0.8807970779778823}, {1, 1})}},
    // rounding (TensorFlow gives no gradient: checked as zero away from the jumps)
    {"Floor", {F32({1.5f, -1.5f, 2.3f, -0.2f})}, {}, {F32({1, -2, 2, -1})}},
    {"Floor", {F64({2, -0.0}, {2})}, {}, {F64({2, -0.0}, {2})}, 0, false},
    {"Ceil", {F32({1.5f, -1.5f, 2.3f, -0.2f})}, {}, {F32({2, -1, 3, 0})}},
    {"Ceil", {F64({2}, {})}, {}, {F64({2}, {})}, 0, false},
    {"Round", {F32({0.5f, 1.5f, 2.5f, -2.5f, -0.4f, 2.6f})}, {}, {F32({0, 2, 2, -2, 0, 3})}, 0, false, {}, 1e-4, "halves to even"},
    {"Round", {F64({1.2, -3.7}, {2})}, {}, {F64({1, -4}, {2})}},
    {"Round", {I32({3, -4})}, {}, {I32({3, -4})}},
    // classification
    {"IsNan", {F32({kNaN, 1, kInf})}, {}, {B({true, false, false}, {3})}},
    {"IsNan", {F64({0, std::nan("")}, {2, 1})}, {}, {B({false, true}, {2, 1})}},
    {"IsInf", {F32({kNaN, kInf, -kInf, 1})}, {}, {B({false, true, true, false}, {4})}},
    {"IsFinite", {F32({kNaN, kInf, -kInf, 1})}, {}, {B({false, false, false, true}, {4})}},
    {"IsFinite", {F64({1e308}, {})}, {}, {B({true}, {})}},
    // activations
    {"Relu", {F32({-1, 0.5f, 2, -3}, {2, 2})}, {}, {F32({0, 0.5f, 2, 0}, {2, 2})}},
    {"Relu", {I32({-1, 4})}, {}, {I32({0, 4})}},
    {"Relu", {F32({kNaN, -kInf})}, {}, {F32({kNaN, 0})}, 0, false, {}, 1e-4, "NaN stays NaN"},
    {"Relu6", {F32({-1, 3, 7, 5.5f})}, {}, {F32({0, 3, 6, 5.5f})}},
    {"Relu6", {I32({-1, 3, 7})}, {}, {I32({0, 3, 6})}},
    {"Relu6", {F32({kNaN, kInf})}, {}, {F32({kNaN, 6})}, 0, false},
    {"Elu", {F32({-1, 0.5f, -2, 3})}, {}, {F32({-0.6321205588f, 0.5f, -0.8646647168f, 3})}},
    {"Elu", {F64({-1}, {})}, {}, {F64({-0.6321205588285577}, {})}},
    {"Selu", {F32({-1, 0.5f, 2})}, {}, {F32({-1.111330738f, 0.5253504937f, 2.101401975f})}},
    {"Selu", {F64({-1, 2}, {2})}, {}, {F64({-1.1113307378125625, 2.101401974710961}, {2})}},
    {"Softplus", {F32({0, 1, -1, 20, -20})}, {}, {F32({0.6931471806f, 1.313261688f, 0.3132616875f, 20, 2.061153622e-9f})}},
    {"Softplus", {F64({50, -50, 0.5}, {3})}, {}, {F64({50, 1.9287498479639178e-22, 0.9740769841801067}, {3})}, 1e-12, true, {}, 1e-4, "no overflow"},
    {"Softplus", {F32({100, -kInf})}, {}, {F32({100, 0})}, 0, false},
    {"LeakyRelu", {F32({-1, 2, -0.5f})}, {}, {F32({-0.2f, 2, -0.1f})}},
    {"LeakyRelu", {F32({-1, 2})}, {{"alpha", 0.01}}, {F32({-0.01f, 2})}},
    {"LeakyRelu", {F64({-3, 3}, {2, 1})}, {{"alpha", 0.5}}, {F64({-1.5, 3}, {2, 1})}},
    // gradient ops
    {"ReluGrad", {F32({1, 2, 3}), F32({-1, 0.5f, 2})}, {}, {F32({0, 2, 3})}},
    {"ReluGrad", {I32({1, 2}), I32({-1, 3})}, {}, {I32({0, 2})}},
    {"Relu6Grad", {F32({1, 2, 3, 4}), F32({-1, 3, 7, 0.5f})}, {}, {F32({0, 2, 0, 4})}},
    {"Relu6Grad", {I32({1, 2}), I32({3, 6})}, {}, {I32({1, 0})}},
    {"EluGrad", {F32({1, 2, 3}), F32({-0.5f, 0.3f, -0.9f})}, {}, {F32({0.5f, 2, 0.3f})}},
    {"SeluGrad", {F32({1, 2}), F32({-0.5f, 0.3f})}, {}, {F32({1.258099341f, 2.101401975f})}},
    {"SoftplusGrad", {F32({1, 2}), F32({0, 1})}, {}, {F32({0.5f, 1.462117157f})}},
    {"SoftplusGrad", {F64({1, 1}), F64({-800, 800})}, {}, {F64({0, 1})}, 1e-12, false, {}, 1e-4, "saturates"},
    {"LeakyReluGrad", {F32({1, 2}), F32({-1, 3})}, {}, {F32({0.2f, 2})}},
    {"LeakyReluGrad", {F32({1, 2}), F32({-1, 3})}, {{"alpha", 0.3}}, {F32({0.3f, 2})}},
    {"SigmoidGrad", {F32({0.5f, 0.2f}), F32({1, 2})}, {}, {F32({0.25f, 0.32f})}},
    {"TanhGrad", {F32({0.5f, -0.2f}), F32({1, 2})}, {}, {F32({0.75f, 1.92f})}},
    {"SqrtGrad", {F32({2, 0.5f}), F32({1, 3})}, {}, {F32({0.25f, 3})}},
    {"RsqrtGrad", {F32({2, 0.5f}), F32({1, 3})}, {}, {F32({-4, -0.1875f})}},
    {"ReciprocalGrad", {F32({2, -0.5f}), F32({1, 3})}, {}, {F32({-4, -0.75f})}},
    {"ReciprocalGrad", {F64({3}, {1, 1}), F64({2}, {1, 1})}, {}, {F64({-18}, {1, 1})}},
});

TEST_CASE("float16 kernels agree with float32 to half precision", "[engine][ops]") {
  Tensor x = F32({-3, -0.5f, 0.25f, 1.5f, 2.5f, 4});
  Tensor pos = F32({0.5f, 1, 2, 3, 4, 8});
  for (const char* op : {"Exp", "Log", "Sqrt", "Rsqrt", "Tanh", "Sigmoid", "Sin", "Cos", "Elu", "Selu", "Softplus",
                         "LeakyRelu", "Relu", "Relu6", "Abs", "Sign", "Neg", "Square", "Floor", "Ceil", "Round",
                         "Reciprocal", "Log1p"}) {
    INFO(op);
    const std::string name = op;
    const Tensor& in = name == "Log" || name == "Log1p" || name == "Sqrt" || name == "Rsqrt" ? pos : x;
    Tensor want = runEager(op, {in})[0];
    Tensor got = runEager(op, {in.cast(DType::Float16)})[0];
    REQUIRE(got.dtype() == DType::Float16);
    CHECK(maxRelativeError(got.cast(DType::Float32), want) < 4e-3);
  }
  for (const char* op : {"IsNan", "IsInf", "IsFinite"})
    CHECK(tensorsEqual(runEager(op, {x.cast(DType::Float16)})[0], runEager(op, {x})[0]));
}

TEST_CASE("sqrt follows IEEE on the vectorised path: +inf, -inf, 0, -1", "[engine][kernel]") {
  // 64 elements take Eigen's packet path, whose float sqrt once gave NaN for +inf.
  const double inf = std::numeric_limits<double>::infinity();
  for (DType dt : {DType::Float32, DType::Float64}) {
    INFO(dtypeName(dt));
    for (double v : {inf, -inf, 0.0, -1.0, 4.0}) {
      INFO(v);
      const Tensor out = runEager("Sqrt", {Tensor::filled(dt, {64}, v)})[0];
      for (int64_t i = 0; i < 64; ++i) {
        const double r = out.getDouble(i);
        if (v == inf) CHECK(r == inf);
        else if (v < 0) CHECK(std::isnan(r));
        else CHECK(r == std::sqrt(v));
      }
    }
  }
}
