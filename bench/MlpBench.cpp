// The MLP training step (784-256-256-10, batch 128, Adam) through the graph executor against the
// same step written by hand in Eigen; then the overhead of check-numerics and of idle debug hooks
// on the engine's step. Targets: engine <= 1.3x Eigen; check-numerics <= 3%; idle hooks <= 1%.
#include <Eigen/Core>

#include <cmath>

#include "BenchUtil.h"
#include "engine/runtime/ThreadPool.h"
#include "tools/workloads/Mlp.h"

namespace tlens::bench {

namespace {
/// Hooks that are installed but never stop: what a debugger with no breakpoints costs.
struct IdleHooks : DebugHooks {
  int64_t seen = 0;
  HookAction beforeNode(const NodeEvent&) override { ++seen; return HookAction::Continue; }
  HookAction afterNode(const NodeEvent&) override { return HookAction::Continue; }
};
}  // namespace

void mlpBench(bool quick) {
  using namespace workloads;
  for (int threads : {1, 2}) {
    setIntraOpThreads(threads);
    Eigen::setNbThreads(threads);
    MlpConfig c;
    std::printf("\n== MLP training step 784-256-256-10, batch %d, Adam, %d thread(s) ==\n", c.batch, threads);
    GraphMlp graph(c);
    EigenMlp eigen(c);
    std::vector<MlpBatch> batches;
    for (int i = 0; i < 8; ++i) batches.push_back(makeBatch(c, static_cast<uint64_t>(i)));
    // Same weights, same data: the two implementations must agree before we time them.
    double maxDiff = 0;
    for (int i = 0; i < 5; ++i) {
      float a = graph.step(batches[static_cast<size_t>(i)]), b = eigen.step(batches[static_cast<size_t>(i)]);
      maxDiff = std::max(maxDiff, static_cast<double>(std::fabs(a - b) / std::max(1.f, std::fabs(b))));
    }
    std::printf("losses agree with the hand-written step to %.2g (relative)\n", maxDiff);
    int k = 0;
    const int iters = quick ? 5 : 40;
    const int trials = quick ? 5 : 21;  // the overhead targets are a few percent: take many samples
    auto [tEigen, tGraph] = timePair([&] { eigen.step(batches[static_cast<size_t>(k++ % 8)]); },
                                     [&] { graph.step(batches[static_cast<size_t>(k++ % 8)]); }, iters,
                                     trials);
    std::printf("eigen  %8.3f ms/step\nengine %8.3f ms/step   ratio %.3fx   target <= 1.3x  %s\n",
                tEigen * 1e3, tGraph * 1e3, tGraph / tEigen, verdict(tGraph / tEigen <= 1.3));

    RunOptions check;
    check.checkNumerics = true;
    auto [tPlain, tCheck] = timePair([&] { graph.step(batches[static_cast<size_t>(k++ % 8)]); },
                                     [&] { graph.step(batches[static_cast<size_t>(k++ % 8)], check); },
                                     iters, trials);
    double over = (tCheck / tPlain - 1) * 100;
    std::printf("check-numerics  %8.3f ms/step  overhead %+.2f%%   target <= 3%%  %s\n", tCheck * 1e3, over,
                verdict(over <= 3));
    IdleHooks idle;
    RunOptions hooked;
    hooked.hooks = &idle;
    auto [tPlain2, tHooks] = timePair([&] { graph.step(batches[static_cast<size_t>(k++ % 8)]); },
                                      [&] { graph.step(batches[static_cast<size_t>(k++ % 8)], hooked); },
                                      iters, trials);
    over = (tHooks / tPlain2 - 1) * 100;
    std::printf("idle debug hooks %7.3f ms/step  overhead %+.2f%%   target <= 1%%  %s  (%lld node events)\n",
                tHooks * 1e3, over, verdict(over <= 1), static_cast<long long>(idle.seen));
  }
  setIntraOpThreads(2);
}

}  // namespace tlens::bench
