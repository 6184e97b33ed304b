// What placement and devices cost. (1) Eager dispatch of a scalar Add with no device set, with a
// CPU-only set and with a virtual GPU: a program without GPUs must not pay for placement
// (target <= 2% over no set). (2) The MLP training step placed on one virtual GPU against the
// same step on the CPU: the same kernels, so the difference is placement plus the copies a GPU
// would need (feeds in, fetches out), reported per step.
#include <cmath>

#include "BenchUtil.h"
#include "engine/core/DeviceSet.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Eager.h"
#include "tools/workloads/Mlp.h"

namespace tlens::bench {

void devicesBench(bool quick) {
  std::printf("\n== Devices: eager dispatch of a scalar Add, by device set ==\n");
  const OpDef& add = OpRegistry::global().get("Add");
  DeviceSet cpuOnly;
  DeviceSet oneGpu;
  oneGpu.setVirtualGpus(1);
  EagerContext none, cpu, gpu;
  cpu.setDevices(&cpuOnly);
  gpu.setDevices(&oneGpu);
  EagerValue x = none.wrap(Tensor::scalar(1.0f)), y = none.wrap(Tensor::scalar(2.0f));
  EagerValue gx = gpu.execute("Identity", {x})[0], gy = gpu.execute("Identity", {y})[0];
  const int iters = quick ? 20000 : 100000, trials = quick ? 5 : 11;
  auto [tNone, tCpu] = timePair([&] { none.execute(add, {x, y}); }, [&] { cpu.execute(add, {x, y}); }, iters, trials);
  double over = (tCpu / tNone - 1) * 100;
  std::printf("no device set %.3f us/op   CPU-only set %.3f us/op   overhead %+.2f%%   target <= 2%%  %s\n",
              tNone * 1e6, tCpu * 1e6, over, verdict(over <= 2));
  const size_t copiesBefore = gpu.transfers().count();
  auto [tNone2, tGpu] = timePair([&] { none.execute(add, {x, y}); }, [&] { gpu.execute(add, {gx, gy}); }, iters, trials);
  std::printf("virtual GPU, inputs already there: %.3f us/op (%+.1f%% over the CPU; copies while timing: %zu)\n",
              tGpu * 1e6, (tGpu / tNone2 - 1) * 100, gpu.transfers().count() - copiesBefore);

  using namespace workloads;
  MlpConfig c;
  std::printf("\n== Devices: MLP training step 784-256-256-10, batch %d, on the CPU and on one virtual GPU ==\n", c.batch);
  GraphMlp onCpu(c);
  MlpConfig cg = c;
  cg.devices = &oneGpu;
  GraphMlp onGpu(cg);
  std::vector<MlpBatch> batches;
  for (uint64_t i = 0; i < 8; ++i) batches.push_back(makeBatch(c, i));
  double maxDiff = 0;
  for (int i = 0; i < 3; ++i) {
    float a = onCpu.step(batches[static_cast<size_t>(i)]), b = onGpu.step(batches[static_cast<size_t>(i)]);
    maxDiff = std::max(maxDiff, std::fabs(static_cast<double>(a) - b));
  }
  std::printf("losses: CPU and virtual GPU differ by %.3g (the kernels are the same: 0 expected)\n", maxDiff);
  const Transfers& t = onGpu.session().lastTransfers();
  std::printf("copies per step: %zu (%s):", t.count(), formatBytes(t.bytes()).c_str());
  for (const Transfer& x : t.log()) std::printf(" %s %s->%s;", x.tensor.c_str(), x.from.str().c_str(), x.to.str().c_str());
  std::printf("\n");
  int k = 0;
  auto [tC, tG] = timePair([&] { onCpu.step(batches[static_cast<size_t>(k++ % 8)]); },
                           [&] { onGpu.step(batches[static_cast<size_t>(k++ % 8)]); }, quick ? 5 : 30,
                           quick ? 5 : 15);
  std::printf("CPU %8.3f ms/step   virtual GPU %8.3f ms/step   placement + copies %+.2f%%\n", tC * 1e3, tG * 1e3,
              (tG / tC - 1) * 100);
}

}  // namespace tlens::bench
