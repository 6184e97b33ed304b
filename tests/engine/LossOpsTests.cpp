// Softmax and losses: shape functions, the op case table, gradients through the second output
// (backprop) of the cross-entropy ops, and kernel errors.
#include "OpTestUtil.h"
#include "ShapeErrorCheck.h"

#include <cmath>
#include <limits>

#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {
const float kNaN = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("Softmax and LogSoftmax keep the shape and check rank and axis", "[engine][shape]") {
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    INFO(op);
    INFER_OK(op, "[b,10]", "[b,10]");
    INFER_OK(op, "[b,t,10]", "[b,t,10]", {"axis", int64_t{1}});
    INFER_OK(op, "?", "?");
    INFER_ERROR("Shape must be at least rank 1 but is rank 0", op, "[]");
    INFER_ERROR("Dimension (2) must be in the range [-2, 2) where 2 is the number of dimensions in the input", op,
                "[2,3]", {"axis", int64_t{2}});
    INFER_ERROR("Dimension (-3) must be in the range [-2, 2)", op, "[2,3]", {"axis", int64_t{-3}});
    INFER_ERROR("Value for attr 'T' of int32 is not in the list of allowed values", op, "int32:[2,3]");
  }
}

TEST_CASE("SoftmaxCrossEntropyWithLogits gives [batch] loss and [batch, classes] backprop", "[engine][shape]") {
  INFER_OK("SoftmaxCrossEntropyWithLogits", "[b,10];[b,10]", "[b];[b,10]");
  INFER_OK("SoftmaxCrossEntropyWithLogits", "[?,10];[b,?]", "[b];[b,10]");
  INFER_OK("SoftmaxCrossEntropyWithLogits", "[2,3];[1,3]", "[2];[2,3]");
  INFER_OK("SoftmaxCrossEntropyWithLogits", "[1,3];[4,3]", "[4];[4,3]");
  INFER_OK("SoftmaxCrossEntropyWithLogits", "?;[b,10]", "[b];[b,10]");
  INFER_OK("SoftmaxCrossEntropyWithLogits", "?;?", "[?];[?,?]");
  INFER_ERROR("logits and labels must be broadcastable: logits_size=[2,3] labels_size=[2,4]",
              "SoftmaxCrossEntropyWithLogits", "[2,3];[2,4]");
  INFER_ERROR("with input shapes: [2,3], [2,4]", "SoftmaxCrossEntropyWithLogits", "[2,3];[2,4]");
  INFER_ERROR("logits and labels must be broadcastable: logits_size=[b,3] labels_size=[b,4]",
              "SoftmaxCrossEntropyWithLogits", "[b,3];[b,4]");
  INFER_ERROR("logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional",
              "SoftmaxCrossEntropyWithLogits", "[2,3,4];[2,3,4]");
  INFER_ERROR("2-dimensional", "SoftmaxCrossEntropyWithLogits", "[3];[3]");
  INFER_ERROR("2-dimensional", "SoftmaxCrossEntropyWithLogits", "?;[2,3,4]");
  INFER_ERROR("does not match", "SoftmaxCrossEntropyWithLogits", "[2,3];float64:[2,3]");
}

TEST_CASE("SparseSoftmaxCrossEntropyWithLogits checks ranks, batch and label dtype", "[engine][shape]") {
  INFER_OK("SparseSoftmaxCrossEntropyWithLogits", "[b,10];int32:[b]", "[b];[b,10]");
  INFER_OK("SparseSoftmaxCrossEntropyWithLogits", "[?,10];int64:[b]", "[b];[b,10]");
  INFER_OK("SparseSoftmaxCrossEntropyWithLogits", "?;int64:?", "[?];[?,?]");
  INFER_ERROR("logits and labels must have the same first dimension, got logits shape [3,5] and labels shape [7]",
              "SparseSoftmaxCrossEntropyWithLogits", "[3,5];int32:[7]");
  INFER_ERROR("Shape must be rank 2 but is rank 3", "SparseSoftmaxCrossEntropyWithLogits", "[3,5,2];int32:[3]");
  INFER_ERROR("Shape must be rank 1 but is rank 2", "SparseSoftmaxCrossEntropyWithLogits", "[3,5];int32:[3,5]");
  INFER_ERROR("Value for attr 'T' of float32 is not in the list of allowed values: int32, int64",
              "SparseSoftmaxCrossEntropyWithLogits", "[3,5];[3]");
  INFER_ERROR("Must have at least one class, but got logits shape [3,0]", "SparseSoftmaxCrossEntropyWithLogits",
              "[3,0];int32:[3]");
}

TEST_CASE("SigmoidCrossEntropyWithLogits and L2Loss shapes", "[engine][shape]") {
  INFER_OK("SigmoidCrossEntropyWithLogits", "[b,3];[b,3]", "[b,3]");
  INFER_OK("SigmoidCrossEntropyWithLogits", "[?,3];[b,?]", "[b,3]");
  INFER_OK("SigmoidCrossEntropyWithLogits", "?;[b,3]", "[b,3]");
  INFER_ERROR("logits and labels must have the same shape ((2, 4) vs (2, 3))", "SigmoidCrossEntropyWithLogits",
              "[2,3];[2,4]");
  INFER_ERROR("does not match", "SigmoidCrossEntropyWithLogits", "float64:[2];[2]");
  INFER_OK("SigmoidCrossEntropyWithLogitsGrad", "[b,3];[b,3];[b,3]", "[b,3]");
  INFER_ERROR("logits and labels must have the same shape", "SigmoidCrossEntropyWithLogitsGrad", "[3];[3];[4]");
  INFER_OK("L2Loss", "[b,3]", "[]");
  INFER_OK("L2Loss", "?", "[]");
  INFER_ERROR("not in the list of allowed values", "L2Loss", "int32:[3]");
}

static CaseRegistrar lossCases({
    {"Softmax", {F32({1, 2, 3, 1, 1, -1}, {2, 3})}, {},
     {F32({0.09003057f, 0.24472847f, 0.66524096f, 0.46831053f, 0.46831053f, 0.06337894f}, {2, 3})}},
    {"Softmax", {F32({1, 2, 3, 5}, {2, 2})}, {{"axis", int64_t{0}}},
     {F32({0.11920292f, 0.04742587f, 0.88079708f, 0.95257413f}, {2, 2})}, 1e-6, true, {}, 1e-4, "axis 0"},
    {"Softmax", {randomF32({2, 3, 4})}, {{"axis", int64_t{1}}}, {}, 1e-5, true, {}, 1e-4, "middle axis"},
    {"Softmax", {F32({0, -200, 1000, 1000}, {2, 2})}, {}, {F32({1, 0, 0.5f, 0.5f}, {2, 2})}, 0, true, {}, 1e-4,
     "exact zeros for very negative logits; no overflow for large ones"},
    {"Softmax", {F32({1, kNaN, 0, 0}, {2, 2})}, {}, {F32({kNaN, kNaN, 0.5f, 0.5f}, {2, 2})}, 1e-6, false, {}, 1e-4,
     "NaN stays in its row"},
    {"Softmax", {randomF64({3, 5})}, {}, {}},
    {"Softmax", {F32({1, 2, 3}, {1, 3}).cast(DType::Float16)}, {},
     {F32({0.09003057f, 0.24472847f, 0.66524096f}, {1, 3}).cast(DType::Float16)}, 1e-3, true, {}, 1e-4, "float16"},
    {"LogSoftmax", {F32({1, 2, 3}, {3}).cast(DType::Float16)}, {},
     {F32({-2.40760596f, -1.40760596f, -0.40760596f}, {3}).cast(DType::Float16)}, 2e-3, true, {}, 1e-4, "float16, rank 1"},
    {"LogSoftmax", {F32({1, 2, 3, 1, 1, -1}, {2, 3})}, {},
     {F32({-2.40760596f, -1.40760596f, -0.40760596f, -0.75862368f, -0.75862368f, -2.75862368f}, {2, 3})}},
    {"LogSoftmax", {randomF32({4, 3, 2})}, {{"axis", int64_t{0}}}, {}, 1e-5, true, {}, 1e-4, "axis 0"},
    {"LogSoftmax", {F32({0, -1000}, {1, 2})}, {}, {F32({0, -1000}, {1, 2})}, 1e-6, true, {}, 1e-4,
     "finite where softmax underflows"},
    {"SoftmaxCrossEntropyWithLogits", {F32({1, 2, 3, 0.5f, -1, 2}, {2, 3}), F32({0, 0, 1, 0.2f, 0.3f, 0.5f}, {2, 3})}, {},
     {F32({0.40760596f, 1.44131130f}, {2}),
      F32({0.09003057f, 0.24472847f, -0.33475904f, -0.02470961f, -0.26088743f, 0.28559703f}, {2, 3})}},
    {"SoftmaxCrossEntropyWithLogits", {randomF64({4, 5}), F64({0.1, 0.2, 0.3, 0.4, 0, 1, 0, 0, 0, 0, 0.5, 0.5, 0, 0, 0,
                                                               0.2, 0.2, 0.2, 0.2, 0.2}, {4, 5})},
     {}, {}, 1e-6, true, {}, 1e-4, "float64, rows of probabilities"},
    {"SoftmaxCrossEntropyWithLogits", {randomF32({3, 4}), F32({0.25f, 0.25f, 0.5f, 0}, {1, 4})}, {}, {}, 1e-5, true, {},
     1e-4, "labels broadcast over the batch"},
    {"SoftmaxCrossEntropyWithLogits", {randomF32({1, 4}), F32({0.25f, 0.25f, 0.5f, 0, 0, 1, 0, 0, 0.1f, 0.2f, 0.3f, 0.4f}, {3, 4})},
     {}, {}, 1e-5, true, {}, 1e-4, "features broadcast over the batch"},
    {"SoftmaxCrossEntropyWithLogits", {F32({1, 2, 3}, {1, 3}).cast(DType::Float16), F32({0, 0, 1}, {1, 3}).cast(DType::Float16)},
     {}, {F32({0.40760596f}, {1}).cast(DType::Float16), F32({0.09003057f, 0.24472847f, -0.33475904f}, {1, 3}).cast(DType::Float16)},
     1e-3, true, {}, 1e-4, "float16"},
    {"SoftmaxCrossEntropyWithLogits", {F32({1000, 0, -1000, 5}, {2, 2}), F32({0, 1, 1, 0}, {2, 2})}, {},
     {F32({1000, 1005}, {2}), F32({1, -1, -1, 1}, {2, 2})}, 1e-6, false, {}, 1e-4, "extreme logits stay finite"},
    {"SparseSoftmaxCrossEntropyWithLogits", {F32({1, 2, 3, 0.5f, -1, 2}, {2, 3}), I32({2, 0}, {2})}, {},
     {F32({0.40760596f, 1.74131130f}, {2}),
      F32({0.09003057f, 0.24472847f, -0.33475904f, -0.82470961f, 0.03911257f, 0.78559703f}, {2, 3})}},
    {"SparseSoftmaxCrossEntropyWithLogits", {randomF64({4, 6}), I64({5, 0, 3, 3}, {4})}, {}, {}, 1e-6, true, {}, 1e-4,
     "int64 labels"},
    {"SparseSoftmaxCrossEntropyWithLogits", {F32({}, {0, 4}), I32({}, {0})}, {}, {F32({}, {0}), F32({}, {0, 4})}, 0,
     true, {}, 1e-4, "empty batch"},
    {"SigmoidCrossEntropyWithLogits", {F32({0, 1, 0.5f, 1}, {4}), F32({-1, 2, 0.5f, -3}, {4})}, {},
     {F32({0.31326169f, 0.12692801f, 0.72407698f, 3.04858735f}, {4})}},
    {"SigmoidCrossEntropyWithLogits", {F32({1, 0, 1, 0}, {2, 2}), F32({100, 100, -100, -100}, {2, 2})}, {},
     {F32({0, 100, 100, 0}, {2, 2})}, 1e-6, true, {}, 1e-4, "no overflow for large |logits|"},
    {"SigmoidCrossEntropyWithLogits", {randomF64({3, 4}, 0, 1, 3), randomF64({3, 4}, -3, 3, 4)}, {}, {}},
    {"SigmoidCrossEntropyWithLogitsGrad", {F32({0, 1, 0.5f}, {3}), F32({-1, 2, 0.5f}, {3}), F32({1, 2, -1}, {3})}, {},
     {F32({0.26894142f, -0.23840584f, -0.12245933f}, {3})}},
    {"SigmoidCrossEntropyWithLogitsGrad", {randomF64({2, 3}, 0, 1, 3), randomF64({2, 3}, -3, 3, 4), randomF64({2, 3}, -1, 1, 5)},
     {}, {}, 1e-6, true, {}, 1e-4, "second-order gradients"},
    {"L2Loss", {F32({1, 2, 3, 4}, {2, 2})}, {}, {F32({15}, {})}},
    {"L2Loss", {F32({}, {0})}, {}, {F32({0}, {})}},
    {"SigmoidCrossEntropyWithLogits", {F32({0, 1}).cast(DType::Float16), F32({-1, 2}).cast(DType::Float16)}, {},
     {F32({0.31326169f, 0.12692801f}).cast(DType::Float16)}, 1e-3, true, {}, 1e-4, "float16"},
    {"L2Loss", {randomF64({3, 4})}, {}, {}},
});

namespace {

/// Max relative error between the graph gradient of sum(w0 * out0 + w1 * out1) (weights per
/// output; a zero scale drops that output) and central differences, w.r.t. input `wrt`.
double twoOutputGradError(const std::string& op, std::vector<Tensor> inputs, int wrt, double scale0, double scale1) {
  for (Tensor& t : inputs)
    if (isFloating(t.dtype())) t = t.cast(DType::Float64);
  std::vector<Tensor> y0 = runEager(op, inputs);
  Tensor w0 = randomF64(y0[0].shape(), 0.5, 1.5, 7), w1 = randomF64(y0[1].shape(), -1.5, 1.5, 8);
  auto loss = [&](const std::vector<Tensor>& in) {
    std::vector<Tensor> y = runEager(op, in);
    double s = 0;
    for (int64_t i = 0; i < y[0].numElements(); ++i) s += scale0 * w0.getDouble(i) * y[0].getDouble(i);
    for (int64_t i = 0; i < y[1].numElements(); ++i) s += scale1 * w1.getDouble(i) * y[1].getDouble(i);
    return s;
  };
  Graph g;
  std::vector<Output> ph;
  Feeds feeds;
  for (const Tensor& t : inputs) {
    ph.push_back(ops::placeholder(g, t.dtype(), Shape::fromConcrete(t.shape())));
    feeds.emplace_back(ph.back(), t);
  }
  Node* n = g.addNode(op, ph);
  std::vector<Output> terms;
  if (scale0 != 0)
    terms.push_back(ops::reduceSum(g, ops::mul(g, n->out(0), ops::constant(g, w0)), {}));
  if (scale1 != 0)
    terms.push_back(ops::reduceSum(g, ops::mul(g, n->out(1), ops::constant(g, w1)), {}));
  Output total = terms.size() == 1 ? terms[0] : ops::add(g, terms[0], terms[1]);
  Output grad = gradients(g, {total}, {ph[static_cast<size_t>(wrt)]})[0];
  REQUIRE(grad);
  Session s(g);
  Tensor ana = s.run({grad}, feeds)[0];
  double worst = 0;
  const double eps = 1e-6;
  Tensor& x = inputs[static_cast<size_t>(wrt)];
  const Tensor base = x.clone();
  for (int64_t i = 0; i < x.numElements(); ++i) {
    std::vector<Tensor> p = inputs, m = inputs;
    Tensor xp = base.clone(), xm = base.clone();
    xp.data<double>()[i] += eps;
    xm.data<double>()[i] -= eps;
    p[static_cast<size_t>(wrt)] = xp;
    m[static_cast<size_t>(wrt)] = xm;
    const double num = (loss(p) - loss(m)) / (2 * eps);
    worst = std::max(worst, std::fabs(num - ana.getDouble(i)) / std::max(1.0, std::fabs(num)));
  }
  return worst;
}

}  // namespace

TEST_CASE("cross-entropy gradients flow through the backprop output too", "[engine][grad]") {
  const Tensor f = randomF64({3, 4}, -2, 2, 21);
  const Tensor l = F64({0.1, 0.2, 0.3, 0.4, 0, 1, 0, 0, 0.25, 0.25, 0.25, 0.25}, {3, 4});
  const Tensor lb = F64({0.1, 0.2, 0.3, 0.4}, {1, 4});
  const Tensor sl = I32({3, 0, 2}, {3});
  for (auto [s0, s1] : std::vector<std::pair<double, double>>{{0, 1}, {1, 1}}) {
    INFO("scales " << s0 << " " << s1);
    CHECK(twoOutputGradError("SoftmaxCrossEntropyWithLogits", {f, l}, 0, s0, s1) < 1e-6);
    CHECK(twoOutputGradError("SoftmaxCrossEntropyWithLogits", {f, l}, 1, s0, s1) < 1e-6);
    CHECK(twoOutputGradError("SoftmaxCrossEntropyWithLogits", {f, lb}, 0, s0, s1) < 1e-6);
    CHECK(twoOutputGradError("SoftmaxCrossEntropyWithLogits", {f, lb}, 1, s0, s1) < 1e-6);
    CHECK(twoOutputGradError("SparseSoftmaxCrossEntropyWithLogits", {f, sl}, 0, s0, s1) < 1e-6);
  }
}

TEST_CASE("softmax of very negative logits is exactly zero in float32", "[engine][ops]") {
  Tensor y = runEager("Softmax", {F32({0, -120, -200, 3}, {1, 4})})[0];
  CHECK(y.data<float>()[2] == 0.0f);
  CHECK(y.data<float>()[1] == 0.0f);
  Tensor big = randomF32({300, 1000}, -5, 5, 9);
  Tensor s = runEager("Softmax", {big})[0];
  Tensor sum = runEager("Sum", {s}, {{"axis", std::vector<int64_t>{1}}})[0];
  for (int64_t i = 0; i < sum.numElements(); ++i) CHECK(std::fabs(sum.getDouble(i) - 1) < 1e-5);
  Tensor t = runEager("Softmax", {big}, {{"axis", int64_t{0}}})[0];
  Tensor tsum = runEager("Sum", {t}, {{"axis", std::vector<int64_t>{0}}})[0];
  for (int64_t i = 0; i < tsum.numElements(); ++i) CHECK(std::fabs(tsum.getDouble(i) - 1) < 1e-5);
}

TEST_CASE("float16 softmax and losses are computed in float32", "[engine][ops]") {
  Tensor x = F32({1, 2, 3, 1, 1, -1}, {2, 3});
  Tensor y16 = runEager("Softmax", {x.cast(DType::Float16)})[0];
  CHECK(y16.dtype() == DType::Float16);
  CHECK(maxRelativeError(y16.cast(DType::Float32), runEager("Softmax", {x})[0]) < 1e-3);
  auto xe = runEager("SparseSoftmaxCrossEntropyWithLogits", {x.cast(DType::Float16), I32({0, 1})});
  CHECK(xe[0].dtype() == DType::Float16);
  CHECK(xe[1].dtype() == DType::Float16);
  CHECK(runEager("L2Loss", {x.cast(DType::Float16)})[0].getDouble(0) == 8.5);
}

TEST_CASE("sparse cross entropy rejects out-of-range labels with TensorFlow's message", "[engine][ops]") {
  CHECK_THROWS_WITH(runEager("SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 10}), I32({1, 10})}),
                    Catch::Contains("Received a label value of 10 which is outside the valid range of [0, 10).  "
                                    "Label values: 1 10"));
  CHECK_THROWS_WITH(runEager("SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 3}), I64({-1, 0}, {2})}),
                    Catch::Contains("Received a label value of -1 which is outside the valid range of [0, 3)"));
  CHECK_THROWS_WITH(runGraph("SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 3}), I32({0, 3})}),
                    Catch::Contains("outside the valid range"));
  CHECK_THROWS_WITH(runEager("SoftmaxCrossEntropyWithLogits", {randomF32({2, 3}), randomF32({2, 4})}),
                    Catch::Contains("logits and labels must be broadcastable"));
  CHECK_THROWS_WITH(runEager("Softmax", {F32({1}, {})}), Catch::Contains("at least rank 1"));
}

TEST_CASE("bad shapes for softmax and the losses fail in the shape function, with its message, eager and in graphs",
          "[engine][ops]") {
  // The kernels check only what depends on values (label ranges): the message a user sees is
  // the shape function's, on both paths.
  struct Case {
    std::string op;
    std::vector<Tensor> inputs;
    Attrs attrs;
  };
  const std::vector<Case> cases = {
      {"Softmax", {F32({1}, {})}, {}},
      {"LogSoftmax", {randomF32({2, 3})}, {{"axis", int64_t{2}}}},
      {"SoftmaxCrossEntropyWithLogits", {randomF32({2, 3}), randomF32({2, 4})}, {}},
      {"SoftmaxCrossEntropyWithLogits", {randomF32({2, 2, 3}), randomF32({2, 2, 3})}, {}},
      {"SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 3, 1}), I32({0, 1}, {2})}, {}},
      {"SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 3}), I32({0, 1, 2}, {3})}, {}},
      {"SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 0}), I32({0, 0}, {2})}, {}},
      {"SparseSoftmaxCrossEntropyWithLogits", {randomF32({2, 3}), F32({0, 1}, {2})}, {}},
      {"SigmoidCrossEntropyWithLogits", {randomF32({2, 3}), randomF32({3, 2})}, {}},
      {"SigmoidCrossEntropyWithLogitsGrad", {randomF32({2, 3}), randomF32({2, 3}), randomF32({2, 4})}, {}},
  };
  for (const Case& k : cases) checkShapeErrorIsWhatRunsReport(k.op, k.inputs, k.attrs);
}
