// Variables, optimizer updates and random ops on the GPU: in-place updates of device variables
// compared with the CPU over several steps, and the statistics and seeding of the Philox streams
// (which differ from the CPU's, as TensorFlow's do between devices).
#include <cmath>

#include "../engine/OpTestUtil.h"
#include "CudaTestUtil.h"

using namespace tlens;
using namespace tlens::cudatest;

namespace {

struct Slots {
  std::vector<std::string> names;  ///< ref input i -> variable name ("" for value inputs)
  std::vector<Tensor> init;        ///< initial values of the ref inputs
};

/// Runs `op` `steps` times on both devices with the same scalars and fresh gradients, then
/// compares every variable it updates.
void checkOptimizer(const std::string& op, const Slots& s, const std::vector<Tensor>& scalars, DType dt,
                    const Attrs& attrs = {}) {
  INFO(op << " " << dtypeName(dt));
  Resources cpuRes, gpuRes;
  for (size_t i = 0; i < s.init.size(); ++i) {
    cpuRes.setVariable(s.names[i], s.init[i].cast(dt));
    gpuRes.setVariable(s.names[i], toDevice(s.init[i].cast(dt)));
  }
  const ConcreteShape shape = s.init[0].shape();
  for (int step = 0; step < 3; ++step) {
    std::vector<Tensor> inputs(s.init.size());  // ref inputs carry no value
    for (const Tensor& t : scalars) inputs.push_back(t.cast(dt));
    inputs.push_back(test::randomF64(shape, -1, 1, 100 + static_cast<uint64_t>(step)).cast(dt));
    std::vector<std::string> names = s.names;
    names.resize(inputs.size());
    runCpu(op, inputs, attrs, cpuRes, "opt", &names);
    runGpu(op, inputs, attrs, gpuRes, "opt", &names);
  }
  for (const std::string& n : s.names) {
    INFO("variable " << n);
    REQUIRE(gpuRes.variable(n));
    CHECK_FALSE(gpuRes.variable(n)->hostAccessible());  // stayed on the device
    CHECK(compare(*cpuRes.variable(n), *gpuRes.variable(n), toleranceFor(dt)) == "");
  }
}

}  // namespace

TEST_CASE("optimizer updates on device variables match the CPU", "[cuda][state]") {
  REQUIRE_CUDA_DEVICE();
  const ConcreteShape s{37, 11};
  auto init = [&](uint64_t seed, double lo, double hi) { return test::randomF64(s, lo, hi, seed); };
  for (DType dt : {DType::Float32, DType::Float64}) {
    checkOptimizer("ApplyGradientDescent", {{"w"}, {init(1, -1, 1)}}, {Tensor::scalar<double>(0.1)}, dt);
    for (bool nesterov : {false, true}) {
      checkOptimizer("ApplyAdam", {{"w", "m", "v"}, {init(4, -1, 1), init(5, -0.1, 0.1), init(6, 0, 0.1)}},
                     {Tensor::scalar<double>(0.9), Tensor::scalar<double>(0.999), Tensor::scalar<double>(1e-3),
                      Tensor::scalar<double>(0.9), Tensor::scalar<double>(0.999), Tensor::scalar<double>(1e-8)},
                     dt, {{"use_nesterov", nesterov}});
    }
    checkOptimizer("ApplyRMSProp", {{"w", "ms", "mom"}, {init(7, -1, 1), init(8, 0, 0.1), init(9, -0.1, 0.1)}},
                   {Tensor::scalar<double>(1e-3), Tensor::scalar<double>(0.9), Tensor::scalar<double>(0.5),
                    Tensor::scalar<double>(1e-7)},
                   dt);
  }
}

TEST_CASE("ApplyMomentum (scalar inputs around the gradient) matches the CPU", "[cuda][state]") {
  // ApplyMomentum is (var, accum, lr, grad, momentum): the gradient is not last.
  REQUIRE_CUDA_DEVICE();
  for (DType dt : {DType::Float32, DType::Float64})
    for (bool nesterov : {false, true}) {
      INFO(dtypeName(dt) << " nesterov=" << nesterov);
      Resources cpuRes, gpuRes;
      const Tensor w = test::randomF64({37, 11}, -1, 1, 1).cast(dt), acc = test::randomF64({37, 11}, 0, 1, 2).cast(dt);
      cpuRes.setVariable("w", w);
      cpuRes.setVariable("acc", acc);
      gpuRes.setVariable("w", toDevice(w));
      gpuRes.setVariable("acc", toDevice(acc));
      const std::vector<std::string> names = {"w", "acc", "", "", ""};
      for (int step = 0; step < 3; ++step) {
        const std::vector<Tensor> inputs = {Tensor(), Tensor(), Tensor::scalar<double>(0.1).cast(dt),
                                            test::randomF64({37, 11}, -1, 1, 3 + static_cast<uint64_t>(step)).cast(dt),
                                            Tensor::scalar<double>(0.9).cast(dt)};
        runCpu("ApplyMomentum", inputs, {{"use_nesterov", nesterov}}, cpuRes, "m", &names);
        runGpu("ApplyMomentum", inputs, {{"use_nesterov", nesterov}}, gpuRes, "m", &names);
      }
      CHECK(compare(*cpuRes.variable("w"), *gpuRes.variable("w"), toleranceFor(dt)) == "");
      CHECK(compare(*cpuRes.variable("acc"), *gpuRes.variable("acc"), toleranceFor(dt)) == "");
    }
}

TEST_CASE("Assign, AssignAdd, AssignSub and VariableV2 keep variables on the device", "[cuda][state]") {
  REQUIRE_CUDA_DEVICE();
  Resources res;
  const std::vector<std::string> names = {"v", ""};
  const Tensor a = test::randomF32({4, 3}, -1, 1, 1), b = test::randomF32({4, 3}, -1, 1, 2);
  runGpu("Assign", {Tensor(), a}, {}, res, "assign", &names);
  REQUIRE(res.variable("v"));
  CHECK_FALSE(res.variable("v")->hostAccessible());
  const void* buffer = res.variable("v")->raw();
  runGpu("AssignAdd", {Tensor(), b}, {}, res, "add", &names);
  runGpu("AssignSub", {Tensor(), a}, {}, res, "sub", &names);
  CHECK(compare(b, *res.variable("v"), 1e-6) == "");
  runGpu("Assign", {Tensor(), a}, {}, res, "assign", &names);
  CHECK(res.variable("v")->raw() == buffer);  // in place: no new buffer
  Resources vres;
  vres.setVariable("var1", b);  // initialised on the host: VariableV2 on the GPU moves it over
  GpuRun r = runGpu("VariableV2", {}, {{"shape", Shape::fromConcrete({4, 3})}, {"dtype", DType::Float32}}, vres, "var1");
  CHECK_FALSE(r.outputs[0].hostAccessible());
  CHECK(compare(b, r.outputs[0], 0) == "");
}

TEST_CASE("random ops draw seeded Philox streams with the right distributions", "[cuda][state][random]") {
  REQUIRE_CUDA_DEVICE();
  const Tensor shape = Tensor::fromVector<int32_t>({200, 500});
  for (DType dt : {DType::Float32, DType::Float64}) {
    const Attrs at = {{"dtype", dt}, {"seed", int64_t{7}}, {"seed2", int64_t{3}}};
    auto stats = [](const Tensor& t, double* mean, double* sd, double* lo, double* hi) {
      double s = 0, q = 0;
      *lo = 1e300;
      *hi = -1e300;
      for (int64_t i = 0; i < t.numElements(); ++i) {
        const double v = t.getDouble(i);
        s += v;
        q += v * v;
        *lo = std::min(*lo, v);
        *hi = std::max(*hi, v);
      }
      *mean = s / static_cast<double>(t.numElements());
      *sd = std::sqrt(q / static_cast<double>(t.numElements()) - *mean * *mean);
    };
    double mean, sd, lo, hi;
    Resources r1, r2;
    const Tensor u1 = runGpu("RandomUniform", {shape}, at, r1, "rnd").outputs[0].toHost();
    const Tensor u2 = runGpu("RandomUniform", {shape}, at, r2, "rnd").outputs[0].toHost();
    const Tensor u3 = runGpu("RandomUniform", {shape}, at, r1, "rnd").outputs[0].toHost();
    CHECK(u1.dtype() == dt);
    CHECK(u1.shape() == ConcreteShape{200, 500});
    CHECK(tensorsEqual(u1, u2));         // same seeds, fresh state: same stream
    CHECK_FALSE(tensorsEqual(u1, u3));   // the generator advances across runs
    stats(u1, &mean, &sd, &lo, &hi);
    CHECK(std::fabs(mean - 0.5) < 0.01);
    CHECK(std::fabs(sd - std::sqrt(1.0 / 12)) < 0.01);
    CHECK(lo >= 0);
    CHECK(hi < 1);
    Resources r3;
    stats(runGpu("RandomStandardNormal", {shape}, at, r3, "n").outputs[0].toHost(), &mean, &sd, &lo, &hi);
    CHECK(std::fabs(mean) < 0.01);
    CHECK(std::fabs(sd - 1) < 0.01);
    stats(runGpu("TruncatedNormal", {shape}, at, r3, "t").outputs[0].toHost(), &mean, &sd, &lo, &hi);
    CHECK(std::fabs(mean) < 0.01);
    CHECK(std::fabs(sd - 0.8796) < 0.01);  // std of a standard normal truncated to [-2, 2]
    CHECK(lo >= -2);
    CHECK(hi <= 2);
  }
}
