// tlens train-mlp: trains the MLP workload through the graph executor. With --check-numerics
// every node's output is scanned for NaN/Inf and the first producer is reported, tfdbg style.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/runtime/DebugHooks.h"
#include "engine/runtime/ThreadPool.h"
#include "tools/tlens/Allocator.h"
#include "tools/tlens/Commands.h"
#include "tools/tlens/ParseNumber.h"
#include "tools/workloads/Mlp.h"

namespace tlens::cli {

int trainCommand(const Args& args) {
  useComputeAllocatorSettings();
  workloads::MlpConfig c;
  int steps = 200;
  RunOptions opts;
  bool placement = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= args.size()) throw std::invalid_argument(a + " needs a value");
      return args[++i];
    };
    if (a == "--steps") steps = static_cast<int>(parseIntArg("--steps", next(), 0, 100000000));
    else if (a == "--batch") c.batch = static_cast<int>(parseIntArg("--batch", next(), 1, 1 << 20));
    else if (a == "--lr") c.learningRate = std::stof(next());
    else if (a == "--threads") setIntraOpThreads(static_cast<int>(parseIntArg("--threads", next(), 0, 1024)));
    else if (a == "--check-numerics") opts.checkNumerics = true;
    else if (a == "--device-placement") placement = true;
    else throw std::invalid_argument("unknown option " + a);
  }
  if (steps < 0 || c.batch <= 0) throw std::invalid_argument("--steps and --batch must be positive");
  workloads::GraphMlp mlp(c);
  std::printf("MLP 784-256-256-10, batch %d, Adam lr=%g, %zu graph nodes%s\n", c.batch,
              static_cast<double>(c.learningRate), mlp.graph().size(),
              opts.checkNumerics ? ", check-numerics on" : "");
  if (placement)
    for (const Node& n : mlp.graph().nodes())
      std::printf("%s: (%s): %s\n", n.name.c_str(), n.type().c_str(), n.device.fullName().c_str());
  float first = 0, last = 0;
  for (int s = 0; s < steps; ++s) {
    last = mlp.step(workloads::makeBatch(c, static_cast<uint64_t>(s)), opts);
    if (s == 0) first = last;
    if (s % 50 == 0 || s == steps - 1) std::printf("step %4d  loss %.4f\n", s, static_cast<double>(last));
  }
  std::printf("loss %.4f -> %.4f over %d steps\n", static_cast<double>(first), static_cast<double>(last), steps);
  return 0;
}

}  // namespace tlens::cli
