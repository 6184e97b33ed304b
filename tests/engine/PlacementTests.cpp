// Placement and devices: TensorFlow's placement rules (engine/graph/Placement.h), virtual GPUs
// (engine/core/DeviceSet.h), and the copies the executor and the eager context insert where a
// tensor crosses devices (engine/runtime/Transfers.h).
#include "OpTestUtil.h"
#include "engine/core/DeviceSet.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/graph/Placement.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/Session.h"

using namespace tlens;
using namespace tlens::test;

namespace {
const OpDef& def(const char* type) { return OpRegistry::global().get(type); }
DeviceSet gpus(int n, size_t limit = 0) {
  DeviceSet d;
  d.setVirtualGpus(n, limit);
  return d;
}
}  // namespace

TEST_CASE("placement: without a GPU everything runs on the CPU, and a GPU request says why not", "[engine][placement]") {
  DeviceSet cpuOnly;
  Placement p = placeOp(def("MatMul"), "", &cpuOnly);
  CHECK(p.device == Device::cpu());
  CHECK(p.note.empty());
  CHECK_FALSE(p.softPlaced);

  p = placeOp(def("MatMul"), "/gpu:0", &cpuOnly);
  CHECK(p.device == Device::cpu());
  CHECK(p.softPlaced);
  CHECK_THAT(p.note, Catch::Contains("requested /gpu:0, which this program does not have"));
  CHECK_THAT(p.note, Catch::Contains("/cpu:0 (host CPU)"));

  // No device set at all behaves as only the CPU.
  CHECK(placeOp(def("MatMul"), "/device:GPU:0", nullptr).softPlaced);
}

TEST_CASE("placement: the default GPU, explicit devices, ops without a GPU kernel, colocation", "[engine][placement]") {
  DeviceSet two = gpus(2);
  CHECK(two.gpuCount() == 2);
  CHECK(placeOp(def("MatMul"), "", &two).device == Device::gpu(0));
  CHECK(placeOp(def("MatMul"), "/gpu:1", &two).device == Device::gpu(1));
  CHECK(placeOp(def("MatMul"), "/cpu:0", &two).device == Device::cpu());
  CHECK(placeOp(def("MatMul"), "/job:localhost/replica:0/task:0/device:GPU:1", &two).device == Device::gpu(1));

  // /gpu:2 does not exist: soft placement on the CPU.
  Placement p = placeOp(def("MatMul"), "/gpu:2", &two);
  CHECK(p.device == Device::cpu());
  CHECK(p.softPlaced);

  // An op without a GPU kernel: by default quietly on the CPU with a note, and when asked for
  // explicitly, soft-placed (a TF1 session without allow_soft_placement refuses it).
  p = placeOp(def("Print"), "", &two);
  CHECK(p.device == Device::cpu());
  CHECK_FALSE(p.softPlaced);
  CHECK_THAT(p.note, Catch::Contains("Print has no GPU kernel (prints on the host)"));
  p = placeOp(def("Print"), "/gpu:0", &two);
  CHECK(p.softPlaced);

  // CUDA devices may lack a kernel the registry defines: the predicate decides.
  DeviceSet partial = gpus(1);
  partial.setGpuKernelPredicate([](std::string_view t) { return t != "MatMul"; });
  p = placeOp(def("MatMul"), "", &partial);
  CHECK(p.device == Device::cpu());
  CHECK_THAT(p.note, Catch::Contains("MatMul has no CUDA kernel in this build"));
  CHECK(placeOp(def("Add"), "", &partial).device == Device::gpu(0));

  // An op that updates a variable runs where the variable is.
  Device varDevice = Device::gpu(1);
  CHECK(placeOp(def("Assign"), "/cpu:0", &two, &varDevice).device == Device::gpu(1));
}

TEST_CASE("placement: graph nodes take the tf.device scope and record why they moved", "[engine][placement]") {
  DeviceSet two = gpus(2);
  Graph g;
  g.setDevices(&two);
  Output a = ops::constant(g, F32({1, 2, 3, 4}, {2, 2}));
  g.pushDevice("/gpu:1");
  Output b = ops::matmul(g, a, a);
  g.pushDevice("/gpu:7");
  Output c = ops::add(g, b, b);
  g.popDevice();
  g.popDevice();
  Output v = ops::variable(g, F32({0, 0, 0, 0}, {2, 2}), "v");
  g.pushDevice("/cpu:0");
  Output up = ops::assign(g, v, c);
  g.popDevice();
  CHECK(a.node->device == Device::gpu(0));
  CHECK(b.node->device == Device::gpu(1));
  CHECK(b.node->requestedDevice == "/gpu:1");
  CHECK(c.node->device == Device::cpu());
  CHECK(c.node->softPlaced);
  CHECK_THAT(c.node->placementNote, Catch::Contains("requested /gpu:7"));
  CHECK(v.node->device == Device::gpu(0));
  CHECK(up.node->device == Device::gpu(0));  // colocated with its variable despite the scope
}

TEST_CASE("devices: a graph run on virtual GPUs computes what the CPU computes, with each copy logged", "[engine][placement][session]") {
  auto build = [](Graph& g, Output& x, Output& loss, std::vector<Output>& grads) {
    x = ops::placeholder(g, DType::Float32, Shape::fromConcrete({4, 3}), "x");
    Output w = ops::constant(g, randomF32({3, 5}, -1, 1, 7), "w");
    g.pushDevice("/gpu:1");
    Output h = ops::matmul(g, x, w);
    g.popDevice();
    Output y = ops::square(g, h);  // default device
    g.pushDevice("/cpu:0");
    loss = ops::reduceSum(g, y, {0, 1});
    g.popDevice();
    grads = gradients(g, {loss}, {x});
  };
  Tensor xv = randomF32({4, 3}, -1, 1, 3);

  Graph cpu;
  Output x1, l1;
  std::vector<Output> g1;
  build(cpu, x1, l1, g1);
  Session s1(cpu);
  std::vector<Tensor> want = s1.run({l1, g1[0]}, {{x1, xv}});
  CHECK(s1.lastTransfers().count() == 0);

  DeviceSet two = gpus(2);
  Graph gpu;
  gpu.setDevices(&two);
  Output x2, l2;
  std::vector<Output> g2;
  build(gpu, x2, l2, g2);
  Session s2(gpu);
  std::vector<Tensor> got = s2.run({l2, g2[0]}, {{x2, xv}});
  REQUIRE(got.size() == 2);
  CHECK(tensorsEqual(got[0], want[0]));
  CHECK(tensorsEqual(got[1], want[1]));
  // Fetched values come back to the host.
  CHECK(got[0].device() == Device::cpu());
  CHECK(got[1].device() == Device::cpu());
  // The feed went to /gpu:1 (the MatMul) and the results between the devices.
  const Transfers& t = s2.lastTransfers();
  CHECK(t.count() >= 3);
  bool feedToGpu1 = false, gpuToCpu = false;
  for (const Transfer& x : t.log()) {
    if (x.tensor == "x:0" && x.from == Device::cpu() && x.to == Device::gpu(1)) feedToGpu1 = true;
    if (x.from.kind == Device::GPU && x.to == Device::cpu()) gpuToCpu = true;
  }
  CHECK(feedToGpu1);
  CHECK(gpuToCpu);
  // Each virtual GPU counted its own bytes.
  CHECK(virtualGpuAllocator(1)->peakBytes() > 0);
}

TEST_CASE("devices: one copy per tensor and device, shape-only readers copy nothing, host inputs stay home", "[engine][placement][session]") {
  DeviceSet one = gpus(1);
  Graph g;
  g.setDevices(&one);
  g.pushDevice("/cpu:0");
  Output a = ops::constant(g, randomF32({64, 64}), "a");
  g.popDevice();
  Output b = ops::add(g, a, a);      // gpu:0, reads `a` twice
  Output c = ops::mul(g, a, b);      // gpu:0, reads `a` again
  Output s = ops::shape(g, c);       // CPU (shape on the host), reads only c's shape
  Output r = ops::reshape(g, c, s);  // gpu:0; its shape input is read on the host
  Session sess(g);
  Tensor out = sess.run({r})[0];
  CHECK(out.shape() == ConcreteShape{64, 64});
  CHECK(s.node->device == Device::cpu());
  const Transfers& t = sess.lastTransfers();
  // a: /cpu:0 -> /gpu:0 once; the result back to the host once. Nothing for Shape or the
  // Reshape's shape argument.
  int aCopies = 0;
  for (const Transfer& x : t.log()) {
    if (x.tensor == "a:0") ++aCopies;
    CHECK(x.tensor.rfind("Shape", 0) != 0);
  }
  CHECK(aCopies == 1);
  REQUIRE(t.count() == 2);
  CHECK(t.log()[1].tensor == r.name());
  CHECK(t.log()[1].to == Device::cpu());
}

TEST_CASE("devices: a virtual GPU's memory limit fails with the node and the sizes", "[engine][placement][session]") {
  DeviceSet small = gpus(1, 1024);
  Graph g;
  g.setDevices(&small);
  Output x = ops::placeholder(g, DType::Float32, Shape::fromConcrete({64, 64}), "x");
  Output y = ops::matmul(g, x, x);
  Session s(g);
  try {
    s.run({y}, {{x, randomF32({64, 64})}});
    FAIL("expected ResourceExhausted");
  } catch (const EngineError& e) {
    CHECK(e.code() == ErrorCode::ResourceExhausted);
    CHECK_THAT(std::string(e.what()), Catch::Contains("16.0 KiB requested on /gpu:0"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("limit 1.0 KiB"));
  }
  virtualGpuAllocator(0)->setLimit(0);
}

TEST_CASE("devices: eager ops follow the device scope, variables stay where they live", "[engine][placement][eager]") {
  DeviceSet two = gpus(2);
  EagerContext ctx;
  ctx.setDevices(&two);
  EagerValue a = ctx.wrap(randomF32({8, 8}));
  EagerValue m = ctx.execute("MatMul", {a, a})[0];
  CHECK(m.tensor.device() == Device::gpu(0));
  CHECK(ctx.transfers().count() == 2);  // `a` lives on the host: eager ops copy each input they read

  ctx.pushDevice("/gpu:1");
  EagerValue s = ctx.execute("Add", {m, m})[0];
  ctx.popDevice();
  CHECK(s.tensor.device() == Device::gpu(1));

  ctx.pushDevice("/cpu:0");
  EagerValue back = ctx.execute("Neg", {s})[0];
  ctx.popDevice();
  CHECK(back.tensor.device() == Device::cpu());

  // Same values as the CPU.
  EagerContext plain;
  EagerValue m0 = plain.execute("MatMul", {a, a})[0];
  EagerValue s0 = plain.execute("Add", {m0, m0})[0];
  EagerValue b0 = plain.execute("Neg", {s0})[0];
  CHECK(tensorsEqual(back.tensor, b0.tensor));

  // A variable on /gpu:1 is updated there, whatever the scope says.
  ctx.resources().setVariable("v", randomF32({8, 8}).copyTo(two.allocator(Device::gpu(1))));
  ctx.pushDevice("/cpu:0");
  ctx.execute("AssignAdd", {EagerValue{}, s}, {}, {"v", ""});
  ctx.popDevice();
  CHECK(ctx.lastPlacement().device == Device::gpu(1));
  CHECK(ctx.resources().variable("v")->device() == Device::gpu(1));
}
