// tlens_bench [--quick] [matmul|conv|eager|mlp|interp|devices|dap|values|edit|gpu|bridge|pyops|tfsteps]...: prints each benchmark's numbers and its ratio to a
// baseline measured in the same run, with the target from the issue and PASS/MISS.
// `tlens_bench --tf-file LINES` prints the TF-style file the analysis benchmarks use and exits.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "BenchUtil.h"
#include "TfStyleFile.h"

int main(int argc, char** argv) {
  if (argc == 3 && !std::strcmp(argv[1], "--tf-file")) {
    std::fputs(tlens::bench::tfStyleFile(std::atoi(argv[2])).c_str(), stdout);
    return 0;
  }
  // The baselines use Eigen's OpenMP GEMM. libgomp reads its settings when it loads, so set them
  // and restart once: spinning OpenMP workers would otherwise fight the engine's pool for cores.
  if (!std::getenv("OMP_WAIT_POLICY")) {
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    execv("/proc/self/exe", argv);
  }
  bool quick = false;
  std::vector<std::string> which;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else which.emplace_back(argv[i]);
  }
  auto want = [&](const char* n) { return which.empty() || std::find(which.begin(), which.end(), n) != which.end(); };
  if (want("matmul")) tlens::bench::matmulBench(quick);
  if (want("conv")) tlens::bench::convBench(quick);
  if (want("eager")) tlens::bench::eagerBench(quick);
  if (want("mlp")) tlens::bench::mlpBench(quick);
  if (want("interp")) tlens::bench::interpBench(quick);
  if (want("devices")) tlens::bench::devicesBench(quick);
  if (want("dap")) tlens::bench::dapBench(quick);
  if (want("values")) tlens::bench::valuesBench(quick);
  if (want("edit")) tlens::bench::editBench(quick);
  if (want("gpu")) tlens::bench::gpuBench(quick);
  if (want("bridge")) tlens::bench::bridgeBench(quick);
  if (want("pyops")) tlens::bench::pyopsBench(quick);
  if (want("tfsteps")) tlens::bench::tfstepsBench(quick);
  return 0;
}
