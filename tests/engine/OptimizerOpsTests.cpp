// Optimizer update ops (ref ops: run in graphs against hand computations) and minimize().
#include <cmath>
#include <cstring>

#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Optimizers.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {

Output f32(Graph& g, double v) { return ops::scalar(g, DType::Float32, v); }

void checkClose(const Tensor& got, const std::vector<double>& want, double tol = 1e-5) {
  REQUIRE(got.numElements() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i << ": got " << got.getDouble(static_cast<int64_t>(i)) << " want " << want[i]);
    CHECK(got.getDouble(static_cast<int64_t>(i)) == Approx(want[i]).epsilon(tol).margin(tol));
  }
}

const std::vector<double> kW0{1.0, -2.0, 0.5};
const std::vector<double> kG{0.3, -0.1, 2.0};

}  // namespace

TEST_CASE("Apply* shape functions merge the variable, slots and gradient", "[engine][shape][optimizer]") {
  INFER_OK("ApplyGradientDescent", "[2,3];[];[2,3]", "[2,3]");
  INFER_OK("ApplyGradientDescent", "?;[];[b,3]", "[b,3]");  // at run time the ref input has no static type
  INFER_OK("ApplyMomentum", "[2,?];[?,3];[];[2,3];[]", "[2,3]");
  INFER_OK("ApplyAdam", "[4];[4];[4];[];[];[];[];[];[];[4]", "[4]");
  INFER_OK("ApplyRMSProp", "[4];[4];[4];[];[];[];[];[4]", "[4]");
  INFER_OK("ApplyAdagrad", "[4,?];[4,2];[];[?,2]", "[4,2]");
  INFER_OK("ApplyAdadelta", "[4];[4];[4];[];[];[];[4]", "[4]");
  INFER_ERROR("Shape must be rank 0 but is rank 1 (input 'lr')", "ApplyAdagrad", "[2];[2];[2];[2]");
  INFER_ERROR("Shape must be rank 0 but is rank 1 (input 'alpha')", "ApplyGradientDescent", "[2];[1];[2]");
  INFER_ERROR("Dimension 1 in both shapes must be equal, but are 3 and 4", "ApplyAdam",
              "[2,3];[2,3];[2,3];[];[];[];[];[];[];[2,4]");
  INFER_ERROR("Shapes must be equal rank, but are 1 and 2", "ApplyMomentum", "[3];[3,1];[];[3];[]");
  INFER_ERROR("has type float64 that does not match type float32", "ApplyRMSProp",
              "[4];[4];[4];[];[];[];float64:[];[4]");
  INFER_ERROR("is not in the list of allowed values", "ApplyGradientDescent", "int32:[2];int32:[];int32:[2]");
}

TEST_CASE("ApplyGradientDescent and ApplyMomentum match a hand computation", "[engine][optimizer]") {
  Graph g;
  Output w = ops::variable(g, Tensor::fromVector(std::vector<float>{1, -2, 0.5f}), "w");
  Output a = ops::variable(g, F32({0, 0, 0}), "a");
  Output w2 = ops::variable(g, Tensor::fromVector(std::vector<float>{1, -2, 0.5f}), "w2");
  Output a2 = ops::variable(g, F32({0, 0, 0}), "a2");
  Output grad = ops::constant(g, F32({0.3f, -0.1f, 2.0f}));
  Output gd = g.op("ApplyGradientDescent", {w, f32(g, 0.1), grad});
  Output mom = g.op("ApplyMomentum", {w, a, f32(g, 0.1), grad, f32(g, 0.9)});
  Output nest = g.op("ApplyMomentum", {w2, a2, f32(g, 0.1), grad, f32(g, 0.9)}, {{"use_nesterov", true}});
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  std::vector<double> ref = kW0;
  for (int step = 0; step < 2; ++step) {
    Tensor r = s.run({gd})[0];
    for (size_t i = 0; i < 3; ++i) ref[i] -= 0.1 * kG[i];
    checkClose(r, ref);
  }
  std::vector<double> acc(3, 0.0), ref2 = kW0, acc2(3, 0.0);
  for (int step = 0; step < 3; ++step) {
    auto r = s.run({mom, nest});
    for (size_t i = 0; i < 3; ++i) {
      acc[i] = acc[i] * 0.9 + kG[i];
      ref[i] -= 0.1 * acc[i];
      acc2[i] = acc2[i] * 0.9 + kG[i];
      ref2[i] -= kG[i] * 0.1 + acc2[i] * 0.9 * 0.1;
    }
    checkClose(r[0], ref);
    checkClose(r[1], ref2);
  }
  checkClose(s.run({a})[0], acc);
}

TEST_CASE("ApplyAdam and ApplyRMSProp match a hand computation", "[engine][optimizer]") {
  for (DType dt : {DType::Float32, DType::Float64}) {
    INFO(dtypeName(dt));
    Graph g;
    auto vec = [&](std::vector<double> v) { return Tensor::fromVector(v).cast(dt); };
    auto sc = [&](double v) { return ops::scalar(g, dt, v); };
    Output w = ops::variable(g, vec(kW0), "w");
    Output m = ops::variable(g, vec({0, 0, 0}), "m");
    Output v = ops::variable(g, vec({0, 0, 0}), "v");
    Output w2 = ops::variable(g, vec(kW0), "w2");
    Output ms = ops::variable(g, vec({1, 1, 1}), "ms");
    Output mo = ops::variable(g, vec({0, 0, 0}), "mo");
    Output b1p = ops::placeholder(g, dt, Shape::scalar(), "b1p");
    Output b2p = ops::placeholder(g, dt, Shape::scalar(), "b2p");
    Output grad = ops::constant(g, vec(kG));
    Output adam = g.op("ApplyAdam", {w, m, v, b1p, b2p, sc(0.01), sc(0.9), sc(0.999), sc(1e-8), grad});
    Output rms = g.op("ApplyRMSProp", {w2, ms, mo, sc(0.01), sc(0.9), sc(0.5), sc(1e-10), grad});
    Session s(g);
    s.runTargets({g.globalVariablesInitializer()});
    std::vector<double> rw = kW0, rm(3, 0.0), rv(3, 0.0), rw2 = kW0, rms_(3, 1.0), rmo(3, 0.0);
    double p1 = 0.9, p2 = 0.999;
    for (int step = 0; step < 3; ++step) {
      auto r = s.run({adam, rms}, {{b1p, Tensor::filled(dt, {}, p1)}, {b2p, Tensor::filled(dt, {}, p2)}});
      const double alpha = 0.01 * std::sqrt(1 - p2) / (1 - p1);
      for (size_t i = 0; i < 3; ++i) {
        rm[i] += (kG[i] - rm[i]) * (1 - 0.9);
        rv[i] += (kG[i] * kG[i] - rv[i]) * (1 - 0.999);
        rw[i] -= alpha * rm[i] / (std::sqrt(rv[i]) + 1e-8);
        rms_[i] += (kG[i] * kG[i] - rms_[i]) * (1 - 0.9);
        rmo[i] = rmo[i] * 0.5 + 0.01 * kG[i] / std::sqrt(rms_[i] + 1e-10);
        rw2[i] -= rmo[i];
      }
      p1 *= 0.9;
      p2 *= 0.999;
      checkClose(r[0], rw);
      checkClose(r[1], rw2);
    }
    auto slots = s.run({m, v, ms, mo});
    checkClose(slots[0], rm);
    checkClose(slots[1], rv);
    checkClose(slots[2], rms_);
    checkClose(slots[3], rmo);
  }
}

TEST_CASE("ApplyAdagrad and ApplyAdadelta match a hand computation", "[engine][optimizer]") {
  for (DType dt : {DType::Float32, DType::Float64}) {
    INFO(dtypeName(dt));
    Graph g;
    auto vec = [&](std::vector<double> v) { return Tensor::fromVector(v).cast(dt); };
    auto sc = [&](double v) { return ops::scalar(g, dt, v); };
    Output w = ops::variable(g, vec(kW0), "w");
    Output acc = ops::variable(g, vec({0.1, 0.1, 0.1}), "acc");
    Output w2 = ops::variable(g, vec(kW0), "w2");
    Output a2 = ops::variable(g, vec({0, 0, 0}), "a2");
    Output u2 = ops::variable(g, vec({0, 0, 0}), "u2");
    Output grad = ops::constant(g, vec(kG));
    Output ada = g.op("ApplyAdagrad", {w, acc, sc(0.1), grad});
    Output delta = g.op("ApplyAdadelta", {w2, a2, u2, sc(1.0), sc(0.95), sc(1e-6), grad});
    Session s(g);
    s.runTargets({g.globalVariablesInitializer()});
    std::vector<double> rw = kW0, racc(3, 0.1), rw2 = kW0, ra(3, 0.0), ru(3, 0.0);
    for (int step = 0; step < 3; ++step) {
      auto r = s.run({ada, delta});
      for (size_t i = 0; i < 3; ++i) {
        racc[i] += kG[i] * kG[i];
        rw[i] -= 0.1 * kG[i] / std::sqrt(racc[i]);
        ra[i] = 0.95 * ra[i] + 0.05 * kG[i] * kG[i];
        const double up = std::sqrt(ru[i] + 1e-6) / std::sqrt(ra[i] + 1e-6) * kG[i];
        ru[i] = 0.95 * ru[i] + 0.05 * up * up;
        rw2[i] -= up;
      }
      checkClose(r[0], rw);
      checkClose(r[1], rw2);
    }
    auto slots = s.run({acc, a2, u2});
    checkClose(slots[0], racc);
    checkClose(slots[1], ra);
    checkClose(slots[2], ru);
  }
}

TEST_CASE("Apply* kernels check the variables they update", "[engine][optimizer]") {
  Graph g;
  Output w = ops::variable(g, F32({1, 2}), "w");
  Output p = ops::placeholder(g, DType::Float32, Shape::unknownRank(), "p");
  Output gd = g.op("ApplyGradientDescent", {w, f32(g, 0.1), p});
  // A slot of unknown static shape, so the mismatch reaches the kernel.
  Graph::NodeOptions o;
  o.name = "m";
  Node* m = g.addNode("VariableV2", {}, {{"dtype", DType::Float32}, {"shape", Shape::unknownRank()}}, o);
  Output initM = g.op("Assign", {m->out(), ops::constant(g, F32({0, 0, 0}))});
  Output mom = g.op("ApplyMomentum", {w, m->out(), f32(g, 0.1), p, f32(g, 0.9)}, {}, "bad_slot");
  Session s(g);
  CHECK_THROWS_WITH(s.run({gd}, {{p, F32({1, 1})}}), Catch::Contains("Attempting to use uninitialized value w"));
  s.runTargets({g.globalVariablesInitializer(), initM.node});
  CHECK_THROWS_WITH(s.run({gd}, {{p, F32({1, 1, 1})}}), Catch::Contains("var and grad do not have the same shape[2] [3]"));
  CHECK_THROWS_WITH(s.run({mom}, {{p, F32({1, 1})}}), Catch::Contains("var and accum do not have the same shape[3] [2]"));
}

// ---- minimize ----

namespace {

/// y = x . [2, -3] + 0.5 on fixed inputs; returns (graph pieces) and the loss.
struct Regression {
  Graph g;
  Output w, b, loss;
  Regression() {
    std::vector<float> xs, ys;
    for (int i = 0; i < 16; ++i) {
      const float a = static_cast<float>(i % 4) / 2 - 0.75f, c = static_cast<float>(i / 4) / 2 - 0.75f;
      xs.push_back(a);
      xs.push_back(c);
      ys.push_back(2 * a - 3 * c + 0.5f);
    }
    Output x = ops::constant(g, F32(xs, {16, 2}), "x");
    Output y = ops::constant(g, F32(ys, {16, 1}), "y");
    w = ops::variable(g, F32({0, 0}, {2, 1}), "w");
    b = ops::variable(g, F32({0}, {1}), "b");
    Output pred = ops::add(g, ops::matmul(g, x, w), b);
    loss = ops::reduceMean(g, ops::square(g, ops::sub(g, pred, y)), {});
  }
};

double train(const OptimizerSpec& spec, int steps) {
  Regression r;
  Node* step = minimize(r.g, r.loss, spec);
  Session s(r.g);
  s.runTargets({r.g.globalVariablesInitializer()});
  for (int i = 0; i < steps; ++i) s.runTargets({step});
  return s.run({r.loss})[0].getDouble(0);
}

}  // namespace

TEST_CASE("minimize converges on a small regression with each optimizer", "[engine][optimizer]") {
  CHECK(train(OptimizerSpec::GradientDescent(0.3), 200) < 1e-4);
  CHECK(train(OptimizerSpec::Momentum(0.05, 0.9), 200) < 1e-4);
  CHECK(train(OptimizerSpec::Momentum(0.05, 0.9, true), 200) < 1e-4);
  CHECK(train(OptimizerSpec::Adam(0.1), 300) < 1e-3);
  CHECK(train(OptimizerSpec::RMSProp(0.01), 400) < 1e-3);
  CHECK(train(OptimizerSpec::RMSProp(0.005, 0.9, 0.5), 400) < 1e-3);
}

TEST_CASE("minimize names slots and updates like TensorFlow", "[engine][optimizer]") {
  Regression r;
  Node* step = minimize(r.g, r.loss, OptimizerSpec::Adam());
  CHECK(step->name == "Adam");
  CHECK(step->type() == "NoOp");
  for (const char* n : {"w/Adam", "w/Adam_1", "b/Adam", "b/Adam_1", "beta1_power", "beta2_power",
                        "Adam/update_w/ApplyAdam", "Adam/update_b/ApplyAdam", "Adam/learning_rate"}) {
    INFO(n);
    CHECK(r.g.find(n) != nullptr);
  }
  CHECK(r.g.trainableVariables().size() == 2);  // slots are not trainable
  CHECK(r.g.variables().size() == 8);
  Node* step2 = minimize(r.g, r.loss, OptimizerSpec::Momentum(0.1, 0.9));
  CHECK(step2->name == "Momentum");
  CHECK(r.g.find("w/Momentum") != nullptr);
  Node* step3 = minimize(r.g, r.loss, OptimizerSpec::RMSProp(0.1));
  CHECK(r.g.find("w/RMSProp") != nullptr);
  CHECK(r.g.find("w/RMSProp_1") != nullptr);
  Node* step4 = minimize(r.g, r.loss, OptimizerSpec::GradientDescent(0.1), {r.w.node});
  CHECK(step4->name == "GradientDescent");
  CHECK(r.g.find("GradientDescent/update_w/ApplyGradientDescent") != nullptr);
  CHECK(r.g.find("GradientDescent/update_b/ApplyGradientDescent") == nullptr);
  Node* again = minimize(r.g, r.loss, OptimizerSpec::Adam());
  CHECK(again->name == "Adam_1");
  // RMSProp's ms slot starts at one, as in TF1.
  Session s(r.g);
  s.runTargets({r.g.globalVariablesInitializer()});
  CHECK(s.run({r.g.find("w/RMSProp")->out()})[0].getDouble(0) == 1.0);
  (void)step3;
}

TEST_CASE("minimize's first Adam steps match a hand computation", "[engine][optimizer]") {
  // loss = sum((w - t)^2): grad = 2 (w - t).
  Graph g;
  Output w = ops::variable(g, F32({1, -1}), "w");
  Output t = ops::constant(g, F32({0.5f, 2}));
  Output loss = ops::reduceSum(g, ops::square(g, ops::sub(g, w, t)), {});
  Node* step = minimize(g, loss, OptimizerSpec::Adam(0.1, 0.8, 0.99, 1e-7));
  Session s(g);
  s.runTargets({g.globalVariablesInitializer()});
  std::vector<double> rw{1, -1}, rm{0, 0}, rv{0, 0}, tv{0.5, 2};
  double p1 = 0.8, p2 = 0.99;
  for (int k = 0; k < 3; ++k) {
    s.runTargets({step});
    const double alpha = 0.1 * std::sqrt(1 - p2) / (1 - p1);
    for (size_t i = 0; i < 2; ++i) {
      const double gr = 2 * (rw[i] - tv[i]);
      rm[i] += (gr - rm[i]) * (1 - 0.8);
      rv[i] += (gr * gr - rv[i]) * (1 - 0.99);
      rw[i] -= alpha * rm[i] / (std::sqrt(rv[i]) + 1e-7);
    }
    p1 *= 0.8;
    p2 *= 0.99;
    auto r = s.run({w, g.find("beta1_power")->out(), g.find("beta2_power")->out(), g.find("w/Adam")->out()});
    checkClose(r[0], rw);
    CHECK(r[1].getDouble(0) == Approx(p1));
    CHECK(r[2].getDouble(0) == Approx(p2));
    checkClose(r[3], rm);
  }
}

TEST_CASE("minimize refuses a loss no variable affects", "[engine][optimizer]") {
  Graph g;
  Output w = ops::variable(g, F32({1}), "w");
  Output loss = ops::reduceSum(g, ops::constant(g, F32({1, 2})), {});
  CHECK_THROWS_WITH(minimize(g, loss, OptimizerSpec::GradientDescent(0.1)),
                    Catch::Contains("No gradients provided for any variable"));
  (void)w;
}

// Keras' Adam rule fused (_KerasAdamMoments, Sqrt, _KerasAdamStep) against the same rule as the
// separate ops keras.optimizers.Adam ran before: every element bit-identical, in float32, float64
// and float16, over sizes that cover whole and partial parallel chunks.
TEST_CASE("the fused Keras Adam ops round exactly as the rule's separate ops", "[engine][optimizer]") {
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16}) {
    for (int64_t n : {int64_t{7}, int64_t{100003}}) {
      INFO(dtypeName(dt) << " n=" << n);
      EagerContext ctx;
      auto vec = [&](uint32_t seed, double scale) {
        std::vector<double> v(static_cast<size_t>(n));
        uint32_t x = seed;
        for (double& e : v) {
          x = x * 1664525u + 1013904223u;
          e = scale * (static_cast<double>(x >> 8) / static_cast<double>(1u << 24) - 0.5);
        }
        return ctx.wrap(Tensor::fromVector(v).cast(dt));
      };
      auto sc = [&](double v) { return ctx.wrap(Tensor::scalar(v).cast(dt)); };
      EagerValue w0 = vec(1, 2.0), m0 = vec(2, 0.2), v0 = vec(3, 0.1), g = vec(4, 1.0);
      v0 = ctx.execute("Abs", {v0})[0];  // a second moment is never negative
      const double beta1 = 0.9, beta2 = 0.999, eps = 1e-7;
      EagerValue c1 = sc(1.0 - beta1), c2 = sc(1.0 - beta2), e = sc(eps), alpha = sc(0.001 * std::sqrt(1 - 0.999) / (1 - 0.9));

      // The rule as separate ops (keras.optimizers.Adam._update).
      EagerValue mNew = ctx.execute("Add", {m0, ctx.execute("Mul", {ctx.execute("Sub", {g, m0})[0], c1})[0]})[0];
      EagerValue sq = ctx.execute("Square", {g})[0];
      EagerValue sNew = ctx.execute("Add", {v0, ctx.execute("Mul", {ctx.execute("Sub", {sq, v0})[0], c2})[0]})[0];
      EagerValue delta = ctx.execute("RealDiv", {ctx.execute("Mul", {mNew, alpha})[0],
                                                 ctx.execute("Add", {ctx.execute("Sqrt", {sNew})[0], e})[0]})[0];
      EagerValue wNew = ctx.execute("Sub", {w0, delta})[0];

      // Fused, in place on variables.
      ctx.resources().setVariable("w", w0.tensor.clone());
      ctx.resources().setVariable("m", m0.tensor.clone());
      ctx.resources().setVariable("v", v0.tensor.clone());
      auto var = [&](const char* name) { return ctx.wrap(*ctx.resources().variable(name)); };
      ctx.execute("_KerasAdamMoments", {var("m"), var("v"), c1, c2, g}, {}, {"m", "v", "", "", ""});
      EagerValue sqrtV = ctx.execute("Sqrt", {var("v")})[0];
      ctx.execute("_KerasAdamStep", {var("w"), alpha, e, var("m"), sqrtV}, {}, {"w", "", "", "", ""});

      auto same = [&](const Tensor& got, const Tensor& want) {
        REQUIRE(got.numElements() == want.numElements());
        int64_t differ = 0;
        for (int64_t i = 0; i < got.numElements(); ++i)
          if (std::memcmp(static_cast<const char*>(got.raw()) + i * dtypeSize(dt),
                          static_cast<const char*>(want.raw()) + i * dtypeSize(dt), dtypeSize(dt)) != 0)
            ++differ;
        CHECK(differ == 0);
      };
      same(*ctx.resources().variable("m"), mNew.tensor);
      same(*ctx.resources().variable("v"), sNew.tensor);
      same(*ctx.resources().variable("w"), wNew.tensor);
    }
  }
}

// Keras' plain RMSprop rule fused (_KerasRMSpropAverage, Add, Sqrt, _KerasRMSpropStep), and plain
// SGD (_KerasSGDStep), against the rules as separate ops (keras.optimizers.*._update), bit for bit.
TEST_CASE("the fused Keras RMSprop and SGD ops round exactly as the rules' separate ops", "[engine][optimizer]") {
  for (DType dt : {DType::Float32, DType::Float64, DType::Float16}) {
    for (int64_t n : {int64_t{5}, int64_t{70001}}) {
      INFO(dtypeName(dt) << " n=" << n);
      EagerContext ctx;
      auto vec = [&](uint32_t seed, double scale) {
        std::vector<double> v(static_cast<size_t>(n));
        uint32_t x = seed;
        for (double& e : v) {
          x = x * 22695477u + 1u;
          e = scale * (static_cast<double>(x >> 8) / static_cast<double>(1u << 24) - 0.5);
        }
        return ctx.wrap(Tensor::fromVector(v).cast(dt));
      };
      auto sc = [&](double v) { return ctx.wrap(Tensor::scalar(v).cast(dt)); };
      EagerValue w0 = vec(5, 2.0), a0 = ctx.execute("Abs", {vec(6, 0.3)})[0], g = vec(7, 1.0);
      EagerValue rho = sc(0.9), c1 = sc(1.0 - 0.9), eps = sc(1e-7), lr = sc(0.001);

      EagerValue aNew = ctx.execute("Add", {ctx.execute("Mul", {a0, rho})[0],
                                            ctx.execute("Mul", {ctx.execute("Square", {g})[0], c1})[0]})[0];
      EagerValue inc = ctx.execute("RealDiv", {ctx.execute("Mul", {g, lr})[0],
                                               ctx.execute("Sqrt", {ctx.execute("Add", {aNew, eps})[0]})[0]})[0];
      EagerValue wNew = ctx.execute("Sub", {w0, inc})[0];

      ctx.resources().setVariable("w", w0.tensor.clone());
      ctx.resources().setVariable("a", a0.tensor.clone());
      ctx.resources().setVariable("s", w0.tensor.clone());
      auto var = [&](const char* name) { return ctx.wrap(*ctx.resources().variable(name)); };
      ctx.execute("_KerasRMSpropAverage", {var("a"), rho, c1, g}, {}, {"a", "", "", ""});
      EagerValue sq = ctx.execute("Sqrt", {ctx.execute("Add", {var("a"), eps})[0]})[0];
      ctx.execute("_KerasRMSpropStep", {var("w"), lr, g, sq}, {}, {"w", "", "", ""});
      CHECK(std::memcmp(ctx.resources().variable("a")->raw(), aNew.tensor.raw(), aNew.tensor.bytes()) == 0);
      CHECK(std::memcmp(ctx.resources().variable("w")->raw(), wNew.tensor.raw(), wNew.tensor.bytes()) == 0);
      // Keras' plain SGD: var.assign_sub(grad * lr).
      EagerValue sNew = ctx.execute("Sub", {w0, ctx.execute("Mul", {g, lr})[0]})[0];
      ctx.execute("_KerasSGDStep", {var("s"), lr, g}, {}, {"s", "", ""});
      CHECK(std::memcmp(ctx.resources().variable("s")->raw(), sNew.tensor.raw(), sNew.tensor.bytes()) == 0);
    }
  }
}

TEST_CASE("the fused Keras Adam ops reject mismatched shapes and dtypes", "[engine][optimizer]") {
  INFER_OK("_KerasAdamMoments", "[4];[4];[];[];[4]", "[4]");
  INFER_OK("_KerasAdamStep", "[2,3];[];[];[2,3];[2,3]", "[2,3]");
  INFER_ERROR("Dimension 0 in both shapes must be equal", "_KerasAdamMoments", "[4];[4];[];[];[5]");
  INFER_ERROR("Shape must be rank 0 but is rank 1 (input 'alpha')", "_KerasAdamStep", "[4];[4];[];[4];[4]");
  INFER_ERROR("is not in the list of allowed values", "_KerasAdamMoments", "int32:[2];int32:[2];int32:[];int32:[];int32:[2]");
  INFER_OK("_KerasRMSpropAverage", "[4];[];[];[4]", "[4]");
  INFER_OK("_KerasRMSpropStep", "[4];[];[4];[4]", "[4]");
  INFER_ERROR("Shape must be rank 0 but is rank 1 (input 'lr')", "_KerasRMSpropStep", "[4];[4];[4];[4]");
  INFER_OK("_KerasSGDStep", "[2,?];[];[?,3]", "[2,3]");
}
