// MatMul through the engine (a graph run) against a direct Eigen product of the same size, and
// against oneDNN's sgemm (what TensorFlow's CPU kernels use on x86) with its own OpenMP threads,
// with 1 and 2 threads. Targets: engine >= 0.95x Eigen and >= 0.95x oneDNN.
#include <Eigen/Core>
#include <omp.h>

#include <memory>

#if __has_include(<oneapi/dnnl/dnnl.h>) && defined(TLENS_BENCH_DNNL)
#include <oneapi/dnnl/dnnl.h>
#define TLENS_BENCH_HAVE_DNNL 1
#endif

#include "BenchUtil.h"
#include "engine/graph/Builder.h"
#include "engine/kernels/cpu/Gemm.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/Session.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens::bench {

namespace {
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr double kPeakPerCore = 234.0;  // GFLOP/s FP32 measured on this machine kind

/// Random n x n operands, as Eigen matrices and fed to a one-MatMul graph.
struct Case {
  explicit Case(int n) : n(n), A(RowMat::Random(n, n)), B(RowMat::Random(n, n)), C(n, n) {
    Tensor a(DType::Float32, {n, n}), b(DType::Float32, {n, n});
    std::copy(A.data(), A.data() + n * n, a.data<float>());
    std::copy(B.data(), B.data() + n * n, b.data<float>());
    Output pa = ops::placeholder(g, DType::Float32, Shape::fromConcrete({n, n}));
    Output pb = ops::placeholder(g, DType::Float32, Shape::fromConcrete({n, n}));
    mm = ops::matmul(g, pa, pb);
    session = std::make_unique<Session>(g);
    feeds = Feeds{{pa, a}, {pb, b}};
  }
  void run() { session->run({mm}, feeds); }
  int iters() const { return n <= 256 ? 50 : n <= 512 ? 10 : n <= 1024 ? 3 : 1; }
  int n;
  RowMat A, B, C;
  Graph g;
  Output mm;
  std::unique_ptr<Session> session;
  Feeds feeds;
};
}  // namespace

void matmulBench(bool quick) {
  std::printf("\n== MatMul: engine (graph run) vs direct Eigen product, float32 ==\n");
  std::printf("%-6s %-7s %12s %12s %8s %10s  %s\n", "n", "threads", "eigen GF/s", "engine GF/s",
              "ratio", "of peak", "target >=0.95x");
  for (int threads : {1, 2}) {
    setIntraOpThreads(threads);
    Eigen::setNbThreads(threads);
    for (int n : {256, 512, 1024, 2048}) {
      if (quick && n > 1024) continue;
      Case c(n);
      RowMat &A = c.A, &B = c.B, &C = c.C;
      const int iters = c.iters();
      auto [te, tg] = timePair([&] { C.noalias() = A * B; }, [&] { c.run(); }, iters,
                               quick ? 5 : 9);
      const double flops = 2.0 * n * n * n;
      const double ge = flops / te / 1e9, gg = flops / tg / 1e9;
      const double ratio = te / tg;
      std::printf("%-6d %-7d %12.1f %12.1f %7.3fx %9.1f%%  %s\n", n, threads, ge, gg, ratio,
                  100 * gg / (kPeakPerCore * threads), verdict(ratio >= 0.95));
    }
  }
  setIntraOpThreads(2);
#ifdef TLENS_BENCH_HAVE_DNNL
  std::printf("\n== MatMul: engine (graph run, float32 products on %s) vs oneDNN's sgemm on its own OpenMP threads ==\n",
              gemm::backendName().c_str());
  std::printf("%-6s %-7s %12s %12s %8s  %s\n", "n", "threads", "oneDNN GF/s", "engine GF/s", "ratio", "target >=0.95x");
  for (int threads : {1, 2}) {
    setIntraOpThreads(threads);
    for (int n : {256, 512, 1024, 2048}) {
      if (quick && n > 1024) continue;
      Case c(n);
      RowMat &A = c.A, &B = c.B, &C = c.C;
      const int iters = c.iters();
      auto [td, tg] = timePair(
          [&] {
            omp_set_num_threads(threads);
            dnnl_sgemm('N', 'N', n, n, n, 1.f, A.data(), n, B.data(), n, 0.f, C.data(), n);
          },
          [&] { c.run(); }, iters, quick ? 5 : 9);
      const double flops = 2.0 * n * n * n;
      std::printf("%-6d %-7d %12.1f %12.1f %7.3fx  %s\n", n, threads, flops / td / 1e9, flops / tg / 1e9, td / tg,
                  verdict(td / tg >= 0.95));
    }
  }
  setIntraOpThreads(2);
#else
  std::printf("\n(oneDNN not found at build time: no comparison with oneDNN's sgemm; install libdnnl-dev)\n");
#endif
}

void eagerBench(bool quick) {
  std::printf("\n== Eager dispatch: scalar Add end to end through EagerContext::execute ==\n");
  EagerContext ctx;
  const OpDef& add = OpRegistry::global().get("Add");
  EagerValue x = ctx.wrap(Tensor::scalar(1.0f)), y = ctx.wrap(Tensor::scalar(2.0f));
  volatile float sink = 0;
  auto [tBase, tOp] = timePair([&] { sink = sink + 1.0f; },
                               [&] { sink = ctx.execute(add, {x, y})[0].tensor.data<float>()[0]; },
                               quick ? 20000 : 100000, quick ? 5 : 9);
  std::printf("per op: %.3f us (loop overhead %.3f us)   target <= 2 us  %s\n", tOp * 1e6,
              tBase * 1e6, verdict(tOp * 1e6 <= 2.0));
  auto tByName = timePerCall([&] { ctx.execute("Add", {x, y}); }, quick ? 20000 : 100000, quick ? 5 : 7);
  std::printf("per op looked up by name: %.3f us\n", tByName * 1e6);
}

}  // namespace tlens::bench
