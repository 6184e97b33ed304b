// Gradients on the GPU: forward and gradient graphs (tf.gradients) built once and executed node by
// node on each device, every gradient compared with the CPU's. The graphs cover the gradient ops
// of the MLP (MatMul, BiasAdd, Relu, softmax cross entropy, Mean), of a small conv net (Conv2D with
// asymmetric SAME padding, pooling, Reshape) and of broadcasting math, reductions and data
// movement (SumToShape, ReductionIndicators, Transpose, Concat, Gather, Tile, Pad, StridedSlice).
#include "../engine/OpTestUtil.h"
#include "CudaTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"

using namespace tlens;
using namespace tlens::cudatest;

namespace {

using Ints = std::vector<int64_t>;

struct Model {
  Graph g;
  std::vector<std::pair<Output, Tensor>> feeds;
  std::vector<Output> params;
  Output loss;

  Output input(DType dt, ConcreteShape s, uint64_t seed, double lo = -1, double hi = 1) {
    Output p = ops::placeholder(g, dt, Shape::fromConcrete(s));
    feeds.emplace_back(p, test::randomF64(s, lo, hi, seed).cast(dt));
    return p;
  }
  Output param(DType dt, ConcreteShape s, uint64_t seed) {
    Output p = input(dt, std::move(s), seed, -0.5, 0.5);
    params.push_back(p);
    return p;
  }
  Output ints(std::vector<int32_t> v) { return ops::constant(g, Tensor::fromVector(v)); }
  Output scalar(DType dt, double v) { return ops::scalar(g, dt, v); }
};

/// Runs loss and d(loss)/d(params) on both devices and compares them.
void checkGradients(Model& m, double tol, const char* what) {
  INFO(what);
  std::vector<Output> fetches = {m.loss};
  for (const Output& d : gradients(m.g, {m.loss}, m.params)) {
    REQUIRE(d);
    fetches.push_back(d);
  }
  const std::vector<Tensor> cpu = runGraphOn(m.g, false, m.feeds, fetches);
  std::set<std::string> fellBack;
  const std::vector<Tensor> gpu = runGraphOn(m.g, true, m.feeds, fetches, &fellBack);
  std::string fb;
  for (const std::string& s : fellBack) fb += " " + s;
  INFO("ops that ran on the CPU for lack of a GPU kernel:" << fb);
  CHECK(fellBack.empty());
  REQUIRE(cpu.size() == gpu.size());
  for (size_t i = 0; i < cpu.size(); ++i) {
    INFO((i == 0 ? std::string("loss") : "gradient of parameter " + std::to_string(i - 1)));
    CHECK(compare(cpu[i], gpu[i], tol) == "");
  }
}

}  // namespace

TEST_CASE("MLP gradients (MatMul, BiasAdd, Relu, softmax cross entropy) match the CPU", "[cuda][gradients]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  for (DType dt : {DType::Float32, DType::Float64}) {
    Model m;
    Output x = m.input(dt, {16, 20}, 1);
    Tensor onehot = Tensor::filled(dt, {16, 5}, 0);
    for (int64_t r = 0; r < 16; ++r) onehot.setDouble(r * 5 + (r * 7) % 5, 1);
    Output y = ops::placeholder(m.g, dt, Shape::fromConcrete({16, 5}));
    m.feeds.emplace_back(y, onehot);
    Output w1 = m.param(dt, {20, 32}, 2), b1 = m.param(dt, {32}, 3);
    Output w2 = m.param(dt, {32, 5}, 4), b2 = m.param(dt, {5}, 5);
    Output h = m.g.op("Relu", {m.g.op("BiasAdd", {ops::matmul(m.g, x, w1), b1})});
    Output logits = m.g.op("BiasAdd", {ops::matmul(m.g, h, w2), b2});
    Output xent = m.g.op("SoftmaxCrossEntropyWithLogits", {logits, y});
    m.loss = ops::reduceMean(m.g, xent, {0});
    checkGradients(m, dt == DType::Float32 ? 2e-4 : 1e-9, dtypeName(dt).data());
  }
}

TEST_CASE("conv net gradients (Conv2D with asymmetric SAME padding, pooling) match the CPU", "[cuda][gradients]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  for (DType dt : {DType::Float32, DType::Float64}) {
    Model m;
    Output x = m.param(dt, {2, 9, 9, 3}, 11);
    Output f = m.param(dt, {3, 3, 3, 4}, 12);
    Output w = m.param(dt, {16, 3}, 13);
    Output c = m.g.op("Conv2D", {x, f}, {{"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")}});
    Output t = m.g.op("Tanh", {c});
    Output p = m.g.op("MaxPool", {t}, {{"ksize", Ints{1, 2, 2, 1}}, {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")}});
    Output a = m.g.op("AvgPool", {p}, {{"ksize", Ints{1, 2, 2, 1}}, {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")}});
    Output flat = ops::reshape(m.g, a, m.ints({2, 16}));
    Output out = ops::matmul(m.g, flat, w);
    m.loss = ops::reduceSum(m.g, ops::square(m.g, out), {});
    checkGradients(m, dt == DType::Float32 ? 5e-4 : 1e-9, dtypeName(dt).data());
  }
}

TEST_CASE("broadcasting math, reductions and data movement gradients match the CPU", "[cuda][gradients]") {
  REQUIRE_CUDA_DEVICE_OR_DRY_RUN();
  for (DType dt : {DType::Float32, DType::Float64}) {
    Model m;
    Output a = m.param(dt, {3, 1, 4}, 21), b = m.param(dt, {5, 1}, 22), c = m.param(dt, {4}, 23);
    Output y = ops::add(m.g, ops::mul(m.g, a, b), c);  // [3, 5, 4]
    Output z = ops::div(m.g, y, ops::add(m.g, ops::square(m.g, c), m.scalar(dt, 1)));
    Output mx = m.g.op("Maximum", {z, ops::mul(m.g, a, m.scalar(dt, 0.5))});
    Output s = m.g.op("Sigmoid", {mx});
    Output sm = m.g.op("Softmax", {s});
    Output tr = m.g.op("Transpose", {sm, m.ints({2, 0, 1})});        // [4, 3, 5]
    Output cc = m.g.op("ConcatV2", {tr, m.g.op("Exp", {tr}), ops::constant(m.g, Tensor::scalar<int32_t>(1))});  // [4, 6, 5]
    Output gat = m.g.op("GatherV2", {cc, m.ints({5, 0, 2, 2}), ops::constant(m.g, Tensor::scalar<int32_t>(1))});
    Output til = m.g.op("Tile", {gat, m.ints({1, 2, 1})});
    Output pad = m.g.op("Pad", {til, ops::constant(m.g, Tensor::fromVector<int32_t>({1, 0, 0, 2, 1, 1}, {3, 2}))});
    Output sl = m.g.op("StridedSlice", {pad, m.ints({0, 1, 0}), m.ints({4, 9, 7}), m.ints({1, 2, 1})},
                       {{"begin_mask", int64_t{0}}, {"end_mask", int64_t{0}}});
    Output mxr = m.g.op("Max", {sl}, {{"axis", Ints{2}}});
    Output pw = m.g.op("Pow", {ops::add(m.g, m.g.op("Abs", {mxr}), m.scalar(dt, 0.5)), m.scalar(dt, 1.5)});
    Output lg = m.g.op("Log", {ops::add(m.g, pw, m.scalar(dt, 1))});
    Output pr = m.g.op("Prod", {m.g.op("Tanh", {sl})}, {{"axis", Ints{1}}});
    m.loss = ops::add(m.g, ops::reduceMean(m.g, lg, {}), ops::reduceSum(m.g, pr, {}));
    checkGradients(m, dt == DType::Float32 ? 1e-3 : 1e-9, dtypeName(dt).data());
  }
}
