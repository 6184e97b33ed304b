// CUDA-vs-CPU parity: every case of the engine's op case table (tests/engine/*OpsTests.cpp, which
// covers every registered op) run on the GPU and compared with the CPU kernel, plus broadcasting,
// edge shapes (scalars, empty tensors), special values, long reductions, GEMM shapes and the
// error messages of bad inputs. Needs a device; skipped with a warning without one.
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "../engine/OpTestUtil.h"
#include "CudaTestUtil.h"

using namespace tlens;
using namespace tlens::cudatest;

namespace {

/// Runs `op` on both devices; CHECKs that both fail with the same message or both succeed with
/// matching outputs. Returns false when the op has no GPU kernel.
bool checkParity(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs, double tol = -1,
                 const std::string& note = {}, bool expectError = false) {
  if (!hasGpuKernel(op)) return false;
  std::string what = op + "(";
  for (size_t i = 0; i < inputs.size(); ++i) what += (i ? ", " : "") + inputs[i].typeStr();
  what += ")";
  for (const auto& [k, v] : attrs) what += " " + k + "=" + attrToString(v);
  if (!note.empty()) what += "  // " + note;
  INFO(what);
  Resources r1, r2;
  std::vector<Tensor> cpu;
  std::string cpuError, gpuError;
  try {
    cpu = runCpu(op, inputs, attrs, r1, "parity");  // same node name: messages compare equal
  } catch (const EngineError& e) {
    cpuError = e.what();
  }
  GpuRun gpu;
  try {
    gpu = runGpu(op, inputs, attrs, r2, "parity");
  } catch (const EngineError& e) {
    gpuError = e.what();
  }
  // Compare the messages without the trailing node reference.
  auto strip = [](std::string s) {
    const size_t p = s.find("\n\t [[node");
    return p == std::string::npos ? s : s.substr(0, p);
  };
  // A dtype the GPU kernel does not implement (documented in engine/cuda/README.md) is a reported
  // gap, not a wrong result.
  if (cpuError.empty() && gpuError.find("has no GPU kernel for") != std::string::npos) {
    WARN("GPU dtype gap: " << what << ": " << strip(gpuError));
    return true;
  }
  CHECK(strip(gpuError) == strip(cpuError));
  // A case meant to succeed must succeed on the CPU (else the test itself is wrong), and the
  // error cases must fail.
  CHECK(cpuError.empty() != expectError);
  if (!cpuError.empty() || !gpuError.empty()) return true;
  REQUIRE(gpu.outputs.size() == cpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) {
    if (!cpu[i].valid()) continue;
    const double t = tol >= 0 ? std::max(tol, toleranceFor(cpu[i].dtype())) : toleranceFor(cpu[i].dtype());
    INFO("output " << i);
    CHECK(compare(cpu[i], gpu.outputs[i], t) == "");
  }
  return true;
}

Tensor rnd(DType dt, ConcreteShape s, double lo, double hi, uint64_t seed) {
  Tensor d = test::randomF64(std::move(s), lo, hi, seed);
  if (dt == DType::Int32 || dt == DType::Int64) {
    Tensor t(dt, d.shape());
    for (int64_t i = 0; i < d.numElements(); ++i) t.setDouble(i, std::floor(d.getDouble(i)));
    return t;
  }
  if (dt == DType::Bool) {
    Tensor t(dt, d.shape());
    for (int64_t i = 0; i < d.numElements(); ++i) t.data<bool>()[i] = d.getDouble(i) > 0;
    return t;
  }
  return d.cast(dt);
}

const std::vector<std::pair<ConcreteShape, ConcreteShape>> kBroadcastShapes = {
    {{2, 3}, {2, 3}},       {{2, 3}, {3}},         {{2, 3}, {}},        {{}, {4}},         {{}, {}},
    {{2, 1, 4}, {3, 1}},    {{5, 1}, {1, 6}},      {{0, 3}, {3}},       {{0}, {}},         {{2, 3, 1, 5}, {3, 4, 1}},
    {{1}, {7}},             {{2, 2, 2, 2, 2, 2, 2, 2, 2}, {2}},
};

}  // namespace

TEST_CASE("every op case of the engine's table gives the CPU's result on the GPU", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  std::map<std::string, int> perOp;
  int cases = 0;
  for (const test::OpCase& c : test::allCases()) {
    const OpDef& def = OpRegistry::global().get(c.op);
    if (def.stateful) continue;  // random ops: checked statistically in CudaStateTests.cpp
    if (checkParity(c.op, c.inputs, c.attrs, c.tol, c.note)) {
      ++cases;
      ++perOp[c.op];
    }
  }
  WARN(cases << " op cases over " << perOp.size() << " ops ran on the GPU and matched the CPU");
  // Every GPU kernel of a stateless op that the table covers was exercised.
  for (const test::OpCase& c : test::allCases())
    if (hasGpuKernel(c.op) && !OpRegistry::global().get(c.op).stateful) CHECK(perOp.count(c.op) == 1);
}

TEST_CASE("broadcasting binary ops match the CPU on every layout, dtype and empty shape", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  const std::vector<std::string> numeric = {"Add", "Sub", "Mul", "Maximum", "Minimum", "SquaredDifference", "Less",
                                            "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual"};
  const std::vector<std::string> division = {"RealDiv", "FloorDiv", "FloorMod"};
  uint64_t seed = 1;
  for (const auto& [sa, sb] : kBroadcastShapes) {
    for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64}) {
      const Tensor a = rnd(dt, sa, -9, 9, seed++), b = rnd(dt, sb, -9, 9, seed++);
      for (const std::string& op : numeric) checkParity(op, {a, b}, {});
      for (const std::string& op : numeric) checkParity(op, {b, a}, {});
      // Divisors without zeros (integer division by zero is an error: checked below).
      const Tensor d = rnd(dt, sb, 1, 9, seed++);
      for (const std::string& op : division) checkParity(op, {a, d}, {});
      const Tensor base = rnd(dt, sa, isFloating(dt) ? 0.1 : -4, 4, seed++), ex = rnd(dt, sb, 0, 4, seed++);
      checkParity("Pow", {base, ex}, {});
    }
    const Tensor p = rnd(DType::Bool, sa, -1, 1, seed++), q = rnd(DType::Bool, sb, -1, 1, seed++);
    checkParity("LogicalAnd", {p, q}, {});
    checkParity("LogicalOr", {p, q}, {});
    checkParity("Equal", {p, q}, {});
    const Tensor x = rnd(DType::Float32, sa, -3, 3, seed++), y = rnd(DType::Float32, sb, -3, 3, seed++);
    checkParity("SelectV2", {p, x, rnd(DType::Float32, sa, -3, 3, seed++)}, {});
    checkParity("SelectV2", {rnd(DType::Bool, sb, -1, 1, seed++), x, y}, {});
    // ClipByValue's bounds are scalars or have the clipped tensor's shape.
    checkParity("ClipByValue", {x, rnd(DType::Float32, {}, -3, -1, seed++), rnd(DType::Float32, {}, 1, 3, seed++)}, {});
    checkParity("ClipByValue", {x, rnd(DType::Float32, sa, -3, -1, seed++), rnd(DType::Float32, sa, 1, 3, seed++)}, {});
  }
}

TEST_CASE("unary ops match the CPU on scalars, empty tensors and special values", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  const std::vector<std::string> flt = {"Exp", "Log", "Log1p", "Sqrt", "Rsqrt", "Sin", "Cos", "Tanh", "Sigmoid",
                                        "Elu", "Selu", "Softplus", "LeakyRelu", "Floor", "Ceil", "Round", "IsNan",
                                        "IsInf", "IsFinite", "Reciprocal"};
  const std::vector<std::string> num = {"Neg", "Abs", "Sign", "Square", "Relu", "Relu6"};
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (DType dt : {DType::Float32, DType::Float64}) {
    // IEEE special cases and rounding ties; no inputs where the CPU's vectorised approximations
    // (Eigen's clamped exp, rsqrt of -0) are known to differ from correctly rounded results.
    Tensor special =
        Tensor::fromVector<double>({nan, inf, -inf, 0.0, 0.5, 1.5, 2.5, -2.5, 1e-30, -20, 20, 6.0, -6.0}).cast(dt);
    for (const ConcreteShape& s : std::vector<ConcreteShape>{{}, {0}, {3, 0, 2}, {1000}, {7, 3}}) {
      const Tensor x = rnd(dt, s, -5, 5, 11);
      for (const std::string& op : flt) checkParity(op, {x}, {});
      for (const std::string& op : num) checkParity(op, {x}, {});
    }
    for (const std::string& op : flt)
      checkParity(op, {special}, {});
    for (const std::string& op : num) checkParity(op, {special}, {});
    for (DType to : {DType::Float32, DType::Float64, DType::Float16, DType::Int32, DType::Int64, DType::Bool})
      checkParity("Cast", {rnd(dt, {5, 7}, -100, 100, 3)}, {{"DstT", to}});
  }
  for (DType dt : {DType::Int32, DType::Int64}) {
    const Tensor x = rnd(dt, {6, 5}, -50, 50, 5);
    for (const std::string& op : num) checkParity(op, {x}, {});
    Tensor extremes(dt, {3});
    extremes.setDouble(0, dt == DType::Int32 ? -2147483648.0 : -9.2e18);
    extremes.setDouble(1, -1);
    extremes.setDouble(2, 7);
    for (const char* op : {"Neg", "Abs", "Square"}) checkParity(op, {extremes}, {});
  }
  checkParity("LogicalNot", {rnd(DType::Bool, {9}, -1, 1, 2)}, {});
}

TEST_CASE("reductions match the CPU over every axis set, long rows and columns", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  const std::vector<std::vector<int64_t>> axesSets = {{}, {0}, {1}, {2}, {0, 2}, {1, 2}, {-1}, {0, 1, 2}};
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64}) {
    const Tensor x = rnd(dt, {3, 4, 5}, -3, 3, 17);
    for (const char* op : {"Sum", "Mean", "Prod", "Max", "Min"}) {
      checkParity(op, {x}, {});  // all axes (attribute absent)
      for (const auto& axes : axesSets)
        for (bool keep : {false, true}) checkParity(op, {x}, {{"axis", axes}, {"keep_dims", keep}});
    }
    for (const char* op : {"ArgMax", "ArgMin"})
      for (int64_t axis : {0, 1, 2, -1}) checkParity(op, {x}, {{"axis", axis}});
  }
  // Long groups (the multi-block path), long columns, many short rows, empty reductions.
  for (const ConcreteShape& s : std::vector<ConcreteShape>{{3, 100000}, {50000, 3}, {100000, 2, 7}, {4, 0}, {0, 5}}) {
    const Tensor x = rnd(DType::Float32, s, -1, 1, 23);
    const Tensor xd = rnd(DType::Float64, s, -1, 1, 23);
    for (const char* op : {"Sum", "Mean", "Max", "Min"}) {
      // float32 sums of 1e5 elements: summation order differs from Eigen's.
      checkParity(op, {x}, {}, 1e-3);
      checkParity(op, {xd}, {});
      for (int64_t a : {0, 1}) checkParity(op, {xd}, {{"axis", std::vector<int64_t>{a}}});
    }
    checkParity("L2Loss", {xd}, {});
  }
  const Tensor b = rnd(DType::Bool, {6, 7, 8}, -1, 1, 29);
  for (const char* op : {"Any", "All"})
    for (const auto& axes : axesSets) checkParity(op, {b}, {{"axis", axes}});
  // NaN propagates through Max/Min/ArgMax; ties take the first index.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor t = test::F64({1, 3, 3, nan, 2, 2, 5, nan}, {2, 4});
  for (const char* op : {"Max", "Min"}) checkParity(op, {t}, {{"axis", std::vector<int64_t>{1}}});
  for (const char* op : {"ArgMax", "ArgMin"}) checkParity(op, {t}, {{"axis", int64_t{1}}});
  checkParity("ArgMax", {test::F64({2, 7, 7, 1}, {4})}, {{"axis", int64_t{0}}});
}

TEST_CASE("MatMul and BatchMatMul on cuBLAS match the CPU for every transpose and odd size", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32}) {
    for (auto [m, k, n] : std::vector<std::array<int64_t, 3>>{{1, 1, 1}, {3, 4, 5}, {257, 129, 65}, {0, 3, 4}, {3, 0, 4}}) {
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          const Tensor a = rnd(dt, ta ? ConcreteShape{k, m} : ConcreteShape{m, k}, -2, 2, 31);
          const Tensor b = rnd(dt, tb ? ConcreteShape{n, k} : ConcreteShape{k, n}, -2, 2, 37);
          checkParity("MatMul", {a, b}, {{"transpose_a", ta}, {"transpose_b", tb}}, k > 100 ? 1e-3 : -1);
        }
    }
    // Same batch (strided), broadcast operand (stride 0), and a broadcast the strided call cannot
    // express (one GEMM per matrix).
    checkParity("BatchMatMulV2", {rnd(dt, {3, 4, 5}, -2, 2, 41), rnd(dt, {3, 5, 2}, -2, 2, 43)}, {});
    checkParity("BatchMatMulV2", {rnd(dt, {3, 4, 5}, -2, 2, 41), rnd(dt, {5, 2}, -2, 2, 43)}, {});
    checkParity("BatchMatMulV2", {rnd(dt, {2, 1, 3, 4}, -2, 2, 47), rnd(dt, {1, 5, 4, 2}, -2, 2, 53)},
                {{"adj_x", false}, {"adj_y", false}});
    checkParity("BatchMatMulV2", {rnd(dt, {2, 4, 3}, -2, 2, 59), rnd(dt, {2, 2, 4}, -2, 2, 61)},
                {{"adj_x", true}, {"adj_y", true}});
  }
  checkParity("MatMul", {rnd(DType::Float16, {8, 16}, -1, 1, 3), rnd(DType::Float16, {16, 4}, -1, 1, 5)}, {});
}

TEST_CASE("convolutions and pooling on odd sizes match the CPU (asymmetric SAME padding)", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  using Ints = std::vector<int64_t>;
  for (DType dt : {DType::Float32, DType::Float64}) {
    for (const std::string pad : {"SAME", "VALID"}) {
      for (const Ints& strides : {Ints{1, 1, 1, 1}, Ints{1, 2, 2, 1}, Ints{1, 3, 2, 1}}) {
        const Tensor x = rnd(dt, {2, 7, 6, 3}, -1, 1, 71), f = rnd(dt, {3, 2, 3, 4}, -1, 1, 73);
        const Attrs at = {{"strides", strides}, {"padding", pad}};
        checkParity("Conv2D", {x, f}, at);
        Resources r;
        const Tensor y = runCpu("Conv2D", {x, f}, at, r)[0];
        const Tensor dy = rnd(dt, y.shape(), -1, 1, 79);
        checkParity("Conv2DBackpropInput", {Tensor::fromVector<int32_t>({2, 7, 6, 3}), f, dy}, at);
        checkParity("Conv2DBackpropFilter", {x, Tensor::fromVector<int32_t>({3, 2, 3, 4}), dy}, at);
        const Attrs pool = {{"ksize", Ints{1, 3, 2, 1}}, {"strides", strides}, {"padding", pad}};
        checkParity("MaxPool", {x}, pool);
        checkParity("AvgPool", {x}, pool);
        const Tensor py = runCpu("MaxPool", {x}, pool, r)[0];
        const Tensor pdy = rnd(dt, py.shape(), -1, 1, 83);
        checkParity("MaxPoolGrad", {x, py, pdy}, pool);
        checkParity("AvgPoolGrad", {Tensor::fromVector<int32_t>({2, 7, 6, 3}), pdy}, pool);
        checkParity("MaxPoolGradGrad", {x, py, rnd(dt, x.shape(), -1, 1, 89)}, pool);
      }
    }
    const Attrs dil = {{"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")}, {"dilations", Ints{1, 2, 2, 1}}};
    checkParity("Conv2D", {rnd(dt, {1, 9, 8, 2}, -1, 1, 97), rnd(dt, {3, 3, 2, 5}, -1, 1, 101)}, dil);
  }
}

TEST_CASE("softmax, cross entropies and data movement match the CPU on edge shapes", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  for (DType dt : {DType::Float32, DType::Float64}) {
    for (const ConcreteShape& s : std::vector<ConcreteShape>{{4, 10}, {3, 2000}, {2, 3, 4}, {1, 1}, {0, 5}}) {
      const Tensor x = rnd(dt, s, -20, 20, 103);
      for (const char* op : {"Softmax", "LogSoftmax"}) {
        checkParity(op, {x}, {});
        if (s.size() == 3) checkParity(op, {x}, {{"axis", int64_t{1}}});
      }
    }
    const Tensor logits = rnd(dt, {64, 10}, -5, 5, 107);
    Tensor labels = Tensor::filled(dt, {64, 10}, 0);
    Tensor sparse(DType::Int64, {64});
    for (int64_t r = 0; r < 64; ++r) {
      labels.setDouble(r * 10 + r % 10, 1);
      sparse.data<int64_t>()[r] = r % 10;
    }
    checkParity("SoftmaxCrossEntropyWithLogits", {logits, labels}, {});
    checkParity("SoftmaxCrossEntropyWithLogits", {logits, rnd(dt, {1, 10}, 0, 1, 109)}, {}, -1, "broadcast labels");
    checkParity("SparseSoftmaxCrossEntropyWithLogits", {logits, sparse}, {});
    checkParity("SparseSoftmaxCrossEntropyWithLogits", {logits, sparse.cast(DType::Int32)}, {});
    checkParity("SigmoidCrossEntropyWithLogits", {rnd(dt, {5, 6}, 0, 1, 113), rnd(dt, {5, 6}, -9, 9, 127)}, {});
  }
  const Tensor x = rnd(DType::Float32, {2, 3, 4, 5}, -1, 1, 131);
  using Ints = std::vector<int64_t>;
  checkParity("Transpose", {x, Tensor::fromVector<int32_t>({3, 1, 0, 2})}, {});
  checkParity("Transpose", {x, Tensor::fromVector<int64_t>({0, 1, 3, 2})}, {});
  checkParity("Transpose", {rnd(DType::Float16, {3, 0, 2}, -1, 1, 1), Tensor::fromVector<int32_t>({2, 0, 1})}, {});
  checkParity("Tile", {x, Tensor::fromVector<int32_t>({1, 2, 1, 3})}, {});
  checkParity("Pad", {x, Tensor::fromVector<int32_t>({0, 1, 2, 0, 1, 1, 0, 3}, {4, 2})}, {});
  checkParity("Slice", {x, Tensor::fromVector<int32_t>({1, 0, 1, 2}), Tensor::fromVector<int32_t>({1, 3, 2, -1})}, {});
  checkParity("ConcatV2", {x, rnd(DType::Float32, {2, 1, 4, 5}, -1, 1, 137), Tensor::scalar<int32_t>(1)}, {});
  checkParity("Pack", {x, x, x}, {{"axis", int64_t{2}}});
  checkParity("Unpack", {x}, {{"axis", int64_t{1}}, {"num", int64_t{3}}});
  checkParity("GatherV2", {x, Tensor::fromVector<int32_t>({2, 0, 2, 1}), Tensor::scalar<int32_t>(1)}, {});
  checkParity("GatherV2", {x, Tensor::fromVector<int64_t>({3, 3}, {1, 2}), Tensor::scalar<int64_t>(-1)}, {});
  checkParity("OneHot", {Tensor::fromVector<int32_t>({0, 2, -1, 5}), Tensor::scalar<int32_t>(4), Tensor::scalar<float>(5),
                         Tensor::scalar<float>(-1)},
              {});
  checkParity("BroadcastTo", {rnd(DType::Float64, {3, 1}, -1, 1, 139), Tensor::fromVector<int32_t>({2, 3, 4})}, {});
  checkParity("Fill", {Tensor::fromVector<int32_t>({2, 0, 3}), Tensor::scalar<double>(2.5)}, {});
  checkParity("Fill", {Tensor::fromVector<int32_t>({3, 2}), Tensor::scalar<bool>(true)}, {});
  checkParity("ZerosLike", {x}, {});
  checkParity("OnesLike", {rnd(DType::Int64, {4}, 0, 9, 1)}, {});
  checkParity("BiasAdd", {x, rnd(DType::Float32, {5}, -1, 1, 149)}, {});
  checkParity("BiasAdd", {x, rnd(DType::Float32, {3}, -1, 1, 151)}, {{"data_format", std::string("NCHW")}});
  checkParity("BiasAddGrad", {x}, {});
  checkParity("BiasAddGrad", {x}, {{"data_format", std::string("NCHW")}});
  checkParity("AddN", {x, x, rnd(DType::Float32, {2, 3, 4, 5}, -1, 1, 157)}, {});
  checkParity("Select", {rnd(DType::Bool, {2}, -1, 1, 163), x, rnd(DType::Float32, {2, 3, 4, 5}, -1, 1, 167)}, {});
  checkParity("Select", {Tensor::scalar<bool>(false), x, x}, {});
  (void)Ints{};
}

TEST_CASE("FusedBatchNormV3 and its gradient match the CPU in training and inference", "[cuda][parity]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  const Tensor none(DType::Float32, {0});
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16}) {
    const DType u = dt == DType::Float64 ? DType::Float64 : DType::Float32;  // scale/offset/statistics type
    for (const std::string fmt : {"NHWC", "NCHW"}) {
      const Tensor x = rnd(dt, {4, 5, 6, 3}, -2, 3, 211);
      const int64_t ch = fmt == "NHWC" ? 3 : 5;
      const Tensor scale = rnd(u, {ch}, 0.5, 1.5, 223), offset = rnd(u, {ch}, -1, 1, 227);
      const Tensor mean = rnd(u, {ch}, -0.5, 0.5, 229), var = rnd(u, {ch}, 0.5, 2, 233);
      const Tensor empty = none.cast(u);
      const double tol = dt == DType::Float16 ? 1e-2 : -1;
      for (double factor : {1.0, 0.3}) {
        const Attrs train = {{"epsilon", 1e-3}, {"data_format", fmt}, {"is_training", true},
                             {"exponential_avg_factor", factor}};
        checkParity("FusedBatchNormV3", {x, scale, offset, factor == 1.0 ? empty : mean, factor == 1.0 ? empty : var},
                    train, tol);
      }
      const Attrs infer = {{"epsilon", 1e-3}, {"data_format", fmt}, {"is_training", false}};
      checkParity("FusedBatchNormV3", {x, scale, offset, mean, var}, infer, tol);
      const Tensor dy = rnd(dt, {4, 5, 6, 3}, -1, 1, 239);
      const Attrs gtrain = {{"epsilon", 1e-3}, {"data_format", fmt}, {"is_training", true}};
      checkParity("FusedBatchNormGradV3", {dy, x, scale, mean, var, empty}, gtrain, tol);
      const Attrs ginfer = {{"epsilon", 1e-3}, {"data_format", fmt}, {"is_training", false}};
      checkParity("FusedBatchNormGradV3", {dy, x, scale, mean, var, empty}, ginfer, tol);
    }
  }
}

TEST_CASE("bad inputs fail on the GPU with the CPU's messages", "[cuda][parity][errors]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  for (const char* op : {"RealDiv", "FloorDiv", "FloorMod"})
    checkParity(op, {Tensor::fromVector<int32_t>({4, 5, 6}), Tensor::fromVector<int32_t>({1, 0, 2})}, {}, -1,
                "integer division by zero", true);
  checkParity("Pow", {Tensor::fromVector<int64_t>({2, 3}), Tensor::fromVector<int64_t>({1, -1})}, {}, -1,
              "negative integer power", true);
  checkParity("Reciprocal", {Tensor::fromVector<int32_t>({2, 0})}, {}, -1, "integer reciprocal of zero", true);
  checkParity("SparseSoftmaxCrossEntropyWithLogits",
              {test::randomF32({3, 4}, -1, 1, 7), Tensor::fromVector<int32_t>({0, 4, 1})}, {}, -1, "label out of range", true);
  checkParity("GatherV2", {test::randomF32({3, 4}), Tensor::fromVector<int32_t>({0, 3}), Tensor::scalar<int32_t>(0)}, {},
              -1, "index out of range", true);
  checkParity("MatMul", {test::randomF32({2, 3}), test::randomF32({2, 3})}, {}, -1, "inner dims differ", true);
  checkParity("Transpose", {test::randomF32({2, 3}), Tensor::fromVector<int32_t>({0, 0})}, {}, -1, "bad permutation", true);
}
