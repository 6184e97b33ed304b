// The Python bridge (lang/pybridge): the cost of one call across the boundary, of a callback from
// CPython into the program, and of passing a 10^6-element array each way. Baselines: a call of a
// program function in the interpreter, and numpy's own copy of the same array in CPython.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "BenchUtil.h"
#include "lang/interp/Interpreter.h"
#include "lang/pybridge/PyBridge.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"

namespace tlens::bench {

namespace {

const char* kModule = R"(
import time
import numpy as np

def ident(x):
    return x

def size(a):
    return a.shape[0]

def ones(n):
    return np.ones(n, dtype=np.float32)

def call_back(f, n):
    t = time.perf_counter()
    for i in range(n):
        f(i)
    return (time.perf_counter() - t) / n

def numpy_copy(n, reps):
    a = np.ones(n, dtype=np.float32)
    t = time.perf_counter()
    for _ in range(reps):
        a.copy()
    return (time.perf_counter() - t) / reps
)";

const char* kProgram = R"(
import sys
import time
import numpy as np
import tlens_bench_bridge as m
N = int(sys.argv[1])
def g(x):
    return x
t = time.perf_counter()
for i in range(N):
    g(i)
base = (time.perf_counter() - t) / N
t = time.perf_counter()
for i in range(N):
    m.ident(i)
call = (time.perf_counter() - t) / N
back = m.call_back(g, N)
a = np.ones(1000000, dtype=np.float32)
R = 20
t = time.perf_counter()
for _ in range(R):
    m.size(a)
to_py = (time.perf_counter() - t) / R
t = time.perf_counter()
for _ in range(R):
    b = m.ones(1000000)
from_py = (time.perf_counter() - t) / R
ref = m.numpy_copy(1000000, R)
print(base, call, back, to_py, from_py, ref, b.shape[0])
)";

}  // namespace

void bridgeBench(bool quick) {
  std::printf("\n== Python bridge: calls and arrays across the boundary ==\n");
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "tlens_bridge_bench";
  fs::create_directories(dir);
  std::ofstream(dir / "tlens_bench_bridge.py") << kModule;
  setenv("PYTHONPATH", dir.c_str(), 1);
  const char* python = std::getenv("TLENS_PYTHON") ? std::getenv("TLENS_PYTHON")
                       : fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  std::string out;
  interp::InterpOptions o;
  o.argv = {quick ? "2000" : "20000"};
  o.out = [&](std::string_view s) { out += s; };
  o.err = [&](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
  interp::Interpreter in(o);
  tf::TfOptions to;
  to.execution = &tf::kernelExecution();
  auto rt = tf::installTensorFlow(in, to);
  pybridge::installPythonBridge(in, *rt, {python, (dir / "bench.py").string()});
  if (in.runSource((dir / "bench.py").string(), kProgram) != 0) {
    std::printf("the bridge benchmark could not run (python %s)\n", python);
    return;
  }
  double base, call, back, toPy, fromPy, ref;
  long n;
  if (std::sscanf(out.c_str(), "%lf %lf %lf %lf %lf %lf %ld", &base, &call, &back, &toPy, &fromPy, &ref, &n) != 7) {
    std::printf("unexpected output: %s\n", out.c_str());
    return;
  }
  std::printf("call of a program function in the interpreter (baseline)   %8.2f us\n", base * 1e6);
  std::printf("call of a CPython function from the program, int argument  %8.2f us  (%.1fx the baseline)\n", call * 1e6, call / base);
  std::printf("callback from CPython into a program function              %8.2f us  (%.1fx)\n", back * 1e6, back / base);
  std::printf("10^6 float32 tensorlens array -> CPython (no copy)         %8.2f us\n", toPy * 1e6);
  std::printf("10^6 float32 numpy array -> tensorlens (one copy)          %8.2f us  (numpy's own copy in CPython: %.2f us, %.1fx)\n",
              fromPy * 1e6, ref * 1e6, fromPy / ref);
}

}  // namespace tlens::bench
