// The executor: feeds and their validation, pruning, control dependencies, variables across
// runs, debug hooks, check-numerics.
#include <atomic>
#include <limits>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

TEST_CASE("nodes are named like TensorFlow under name scopes", "[engine][graph]") {
  Graph g;
  Output a = ops::constant(g, F32({1, 2}));
  g.pushNameScope("fc1");
  Output m1 = ops::add(g, a, a);
  Output m2 = ops::add(g, a, a);
  g.popNameScope();
  CHECK(g.pushNameScope("fc1") == "fc1_1");
  Output m3 = ops::add(g, a, a);
  g.popNameScope();
  CHECK(a.node->name == "Const");
  CHECK(m1.node->name == "fc1/Add");
  CHECK(m2.node->name == "fc1/Add_1");
  CHECK(m3.node->name == "fc1_1/Add");
  CHECK(g.findOutput("fc1/Add_1:0") == m2);
}

TEST_CASE("nodes record the source location and stack their creator supplies", "[engine][graph]") {
  Graph g;
  g.creation().location = {"mnist.py", 12, 5, 12, 30};
  g.creation().stack = {{"<module>", {"mnist.py", 40, 1, 40, 20}}, {"multilayer_perceptron", {"mnist.py", 12, 5, 12, 30}}};
  Output a = ops::constant(g, F32({1}));
  CHECK(a.node->location.str() == "mnist.py:12:5");
  CHECK(a.node->stack.size() == 2);
  CHECK(a.node->stack[1].function == "multilayer_perceptron");
}

TEST_CASE("a graph shape error raises TensorFlow's message at construction", "[engine][graph]") {
  Graph g;
  Output a = ops::placeholder(g, DType::Float32, parseShape("[?,3]"), "a");
  Output b = ops::placeholder(g, DType::Float32, parseShape("[4,5]"), "b");
  CHECK_THROWS_WITH(ops::matmul(g, a, b), Catch::Contains("Dimensions must be equal, but are 3 and 4"));
  Graph::NodeOptions o;
  o.tolerateShapeErrors = true;
  Node* n = g.addNode("MatMul", {a, b}, {}, o);
  CHECK_THAT(n->shapeError, Catch::Contains("MatMul"));
}

TEST_CASE("feeds are validated with TensorFlow's wording", "[engine][session]") {
  Graph g;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[?,19]"), "x");
  Output y = ops::reduceSum(g, x, {});
  Session s(g);
  CHECK_THROWS_WITH(s.run({y}, {{x, F32(std::vector<float>(19, 1.f))}}),
                    "Cannot feed value of shape (19,) for Tensor 'x:0', which has shape '(?, 19)'");
  CHECK_THROWS_WITH(s.run({y}), Catch::Contains("You must feed a value for placeholder tensor 'x' with dtype float and shape [?,19]"));
  auto r = s.run({y}, {{x, F64(std::vector<double>(38, 0.5), {2, 19})}});
  CHECK(r[0].dtype() == DType::Float32);  // a float64 feed is converted, as feed_dict does
  CHECK(r[0].getDouble(0) == Approx(19.0));
}

TEST_CASE("runs are pruned to what the fetches need", "[engine][session]") {
  Graph g;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[2]"), "x");
  Output c = ops::constant(g, F32({1, 2}));
  Output needsX = ops::add(g, x, c);
  Output onlyC = ops::mul(g, c, c);
  Session s(g);
  auto r = s.run({onlyC});  // x is not fed, and is not needed
  CHECK(r[0].getDouble(1) == 4);
  for (const Node* n : s.lastPlan()) CHECK(n != needsX.node);
  // Feeding an intermediate tensor cuts its producers off.
  auto r2 = s.run({ops::identity(g, needsX)}, {{needsX, F32({7, 7})}});
  CHECK(r2[0].getDouble(0) == 7);
}

TEST_CASE("variables keep their values across runs and need initialising", "[engine][session]") {
  Graph g;
  Output w = ops::variable(g, F32({1, 2}), "w");
  Output inc = g.op("Assign", {w, ops::add(g, w, ops::constant(g, F32({1, 1})))});
  Node* init = g.globalVariablesInitializer();
  Session s(g);
  CHECK_THROWS_WITH(s.run({w}), Catch::Contains("Attempting to use uninitialized value w"));
  s.runTargets({init});
  s.run({inc});
  s.run({inc});
  auto r = s.run({w});
  CHECK(r[0].getDouble(0) == 3);
  CHECK(r[0].getDouble(1) == 4);
  CHECK(w.node->initializer->name == "w/Assign");
  CHECK(init->name == "init");
}

TEST_CASE("control dependencies run before their dependents", "[engine][session]") {
  Graph g;
  Output v = ops::variable(g, F32({0}), "v");
  Node* init = g.globalVariablesInitializer();
  Output set = g.op("Assign", {v, ops::constant(g, F32({5}))});
  g.pushControlDependencies({set.node});
  Output read = ops::identity(g, v);
  g.popControlDependencies();
  Session s(g);
  s.runTargets({init});
  CHECK(s.run({read})[0].getDouble(0) == 5);
}

TEST_CASE("a fetched variable value is not changed by later updates (copy on write)", "[engine][session]") {
  Graph g;
  Output w = ops::variable(g, F32({1}), "w");
  Output set = g.op("Assign", {w, ops::constant(g, F32({9}))});
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  Tensor before = s.run({w})[0];
  s.run({set});
  CHECK(before.getDouble(0) == 1);
  CHECK(s.run({w})[0].getDouble(0) == 9);
}

TEST_CASE("graph gradients of a small network match finite differences", "[engine][autodiff]") {
  Graph g;
  Output x = ops::constant(g, randomF64({4, 3}));
  Output w = ops::variable(g, randomF64({3, 2}, -1, 1, 3), "w");
  Output b = ops::variable(g, F64({0.1, -0.2}), "b");
  Output y = g.op("Relu", {ops::add(g, ops::matmul(g, x, w), b)});
  Output loss = ops::reduceMean(g, ops::square(g, y), {});
  auto grads = gradients(g, {loss}, {w, b});
  REQUIRE(grads[0]);
  REQUIRE(grads[1]);
  CHECK(grads[0].node->name.rfind("gradients/", 0) == 0);
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  Tensor gw = s.run({grads[0]})[0];
  Tensor w0 = s.run({w})[0];
  const double eps = 1e-6;
  for (int64_t i = 0; i < w0.numElements(); ++i) {
    Tensor wp = w0.clone(), wm = w0.clone();
    wp.data<double>()[i] += eps;
    wm.data<double>()[i] -= eps;
    double lp = s.run({loss}, {{w, wp}})[0].getDouble(0);
    double lm = s.run({loss}, {{w, wm}})[0].getDouble(0);
    CHECK(gw.getDouble(i) == Approx((lp - lm) / (2 * eps)).margin(1e-6));
  }
}

TEST_CASE("a gradient to an unconnected input is null, as TF's None", "[engine][autodiff]") {
  Graph g;
  Output a = ops::placeholder(g, DType::Float32, parseShape("[2]"));
  Output b = ops::placeholder(g, DType::Float32, parseShape("[2]"));
  auto grads = gradients(g, {ops::reduceSum(g, a, {})}, {a, b});
  CHECK(grads[0]);
  CHECK_FALSE(grads[1]);
}

namespace {
struct RecordingHooks : DebugHooks {
  std::vector<std::string> before, after;
  std::string cancelAt;
  HookAction beforeNode(const NodeEvent& e) override {
    before.push_back(*e.name);
    return *e.name == cancelAt ? HookAction::Cancel : HookAction::Continue;
  }
  HookAction afterNode(const NodeEvent& e) override {
    after.push_back(*e.name + "=" + (*e.outputs)[0].str());
    return HookAction::Continue;
  }
};
}  // namespace

TEST_CASE("debug hooks see every node before and after it runs, and can cancel", "[engine][hooks]") {
  Graph g;
  Output a = ops::constant(g, F32({1, 2}), "a");
  Output b = ops::add(g, a, a);
  Output c = ops::mul(g, b, b);
  Session s(g);
  RecordingHooks h;
  RunOptions o;
  o.hooks = &h;
  s.run({c}, {}, {}, o);
  CHECK(h.before == std::vector<std::string>{"a", "Add", "Mul"});
  CHECK(h.after.back() == "Mul=[4. 16.]");
  h.cancelAt = "Mul";
  CHECK_THROWS_WITH(s.run({c}, {}, {}, o), Catch::Contains("cancelled"));
}

TEST_CASE("a hook can pause the running thread and resume it", "[engine][hooks]") {
  struct Pausing : DebugHooks {
    std::mutex mu;
    std::condition_variable cv;
    bool paused = false, resume = false;
    HookAction beforeNode(const NodeEvent& e) override {
      if (*e.name != "Mul") return HookAction::Continue;
      std::unique_lock<std::mutex> l(mu);
      paused = true;
      cv.notify_all();
      cv.wait(l, [&] { return resume; });
      return HookAction::Continue;
    }
  } h;
  Graph g;
  Output a = ops::constant(g, F32({3}));
  Output c = ops::mul(g, ops::add(g, a, a), a);
  Session s(g);
  RunOptions o;
  o.hooks = &h;
  std::atomic<bool> done{false};
  Tensor result;
  std::thread t([&] {
    result = s.run({c}, {}, {}, o)[0];
    done = true;
  });
  {
    std::unique_lock<std::mutex> l(h.mu);
    h.cv.wait(l, [&] { return h.paused; });
  }
  CHECK_FALSE(done.load());
  {
    std::lock_guard<std::mutex> l(h.mu);
    h.resume = true;
  }
  h.cv.notify_all();
  t.join();
  CHECK(done.load());
  CHECK(result.getDouble(0) == 18);
}

TEST_CASE("check-numerics reports the first node that produced NaN or Inf", "[engine][numerics]") {
  Graph g;
  g.creation().location = {"tfdbg.py", 7, 1, 7, 20};
  Output zero = ops::constant(g, F32({0, 1, 2}), "probs");
  Output one = ops::constant(g, F32({1, 1, 1}), "ones");
  Output inf = ops::div(g, one, zero);  // 1/0 = inf
  Output downstream = ops::mul(g, inf, zero);  // inf*0 = NaN, must not be reported first
  Session s(g);
  RunOptions o;
  o.checkNumerics = true;
  try {
    s.run({downstream}, {}, {}, o);
    FAIL("no error");
  } catch (const NumericsError& e) {
    CHECK(e.report().node == "RealDiv");
    CHECK(e.report().counts.posInf == 1);
    CHECK(e.report().location.line == 7);
    CHECK(e.report().inputSummaries.size() == 2);
    CHECK(e.report().inputSummaries[1].zero == 1);
    CHECK_THAT(std::string(e.what()), Catch::Contains("RealDiv (RealDiv) on /cpu:0 produced 1 +Inf"));
  }
  // Without check-numerics the run completes.
  CHECK_NOTHROW(s.run({downstream}));
}

TEST_CASE("check-numerics catches a NaN written by an optimizer update (tested inside the kernel)", "[engine][numerics]") {
  Graph g;
  Output w = ops::variable(g, F32(std::vector<float>(100000, 1.f)), "w");
  std::vector<float> grad(100000, 0.5f);
  grad[77777] = std::numeric_limits<float>::quiet_NaN();
  // Fed, so no node produced the NaN before the update does.
  Output gradIn = ops::placeholder(g, DType::Float32, parseShape("[100000]"), "grad");
  Output update = g.op("ApplyGradientDescent", {w, ops::scalar(g, DType::Float32, 0.1), gradIn});
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  RunOptions o;
  o.checkNumerics = true;
  try {
    s.run({update}, {{gradIn, F32(grad)}}, {}, o);
    FAIL("expected a NumericsError");
  } catch (const NumericsError& e) {
    CHECK(e.report().opType == "ApplyGradientDescent");
    CHECK(e.report().counts.nan == 1);
  }
  // A finite update passes, and the weights moved.
  Graph g2;
  Output w2 = ops::variable(g2, F32({1, 2}), "w");
  Output up2 = g2.op("ApplyGradientDescent", {w2, ops::scalar(g2, DType::Float32, 0.5), ops::constant(g2, F32({2, 2}))});
  Session s2(g2);
  s2.runTargets({g2.globalVariablesInitializer()});
  CHECK(s2.run({up2}, {}, {}, o)[0].getDouble(0) == Approx(0));
}
