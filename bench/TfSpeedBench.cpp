// Issue #16 item 9, the training speed of real programs under `tlens run`:
// - `pyops`: the interpreter's cost per eager op in a Python loop (bench/tfspeed/ops_eager.py,
//   three shapes) against the same ops dispatched from C++ through EagerContext::execute;
//   target <= 2x.
// - `tfsteps`: a training step as tf.function + GradientTape against the same step as a TF1
//   Session.run (an MLP and the tutorials' raw-conv2d CNN); target <= 1x. Also the eager CNN step
//   and the static 28-step LSTM step, in ms.
// Python costs are slopes between two iteration counts of one program (import, graph building
// and tracing are not counted), in process CPU time with one intra-op thread, so other
// processes on the machine do not change them; the C++ baselines are timed the same way. The
// allocator keeps freed pages, as under `tlens run`.
#include <time.h>

#include <thread>

#include <fstream>
#include <sstream>
#include <string>

#include "BenchUtil.h"
#include "engine/core/Tensor.h"
#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/ThreadPool.h"
#include "lang/interp/Interpreter.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"

#ifndef TLENS_SOURCE_DIR
#define TLENS_SOURCE_DIR "."
#endif

// tools/tlens/MallocConf.cpp (with jemalloc): the allocator settings `tlens run` uses (freed
// pages kept for the next step), so the programs run here as they run there.
extern "C" void tlens_jemalloc_keep_freed_pages(long ms) __attribute__((weak));

namespace tlens::bench {

namespace {

void useRunAllocatorSettings() {
  if (tlens_jemalloc_keep_freed_pages) tlens_jemalloc_keep_freed_pages(-1);
}

double cpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string programText(const std::string& name) {
  std::ifstream f(std::string(TLENS_SOURCE_DIR) + "/bench/tfspeed/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// CPU seconds of one run of bench/tfspeed/<name> with `args`; -1 when it failed.
double runOnce(const std::string& name, const std::string& text, std::vector<std::string> args) {
  interp::InterpOptions o;
  o.argv = std::move(args);
  std::string err;
  o.out = [](std::string_view) {};
  o.err = [&err](std::string_view s) { err += s; };
  interp::Interpreter in(o);
  tf::TfOptions to;
  to.style = tf::detectApiStyle(text);
  to.execution = &tf::kernelExecution();
  tf::installTensorFlow(in, to);
  double s = cpuNow();
  int rc = in.runSource(name, text);
  double t = cpuNow() - s;
  if (rc != 0) {
    std::printf("%s failed (exit %d): %s\n", name.c_str(), rc, err.substr(0, 400).c_str());
    return -1;
  }
  return t;
}

/// Seconds per iteration of a program: the median over `trials` of the slope between `lo` and
/// `hi` iterations.
double slope(const std::string& name, std::vector<std::string> extra, int lo, int hi, int trials) {
  std::string text = programText(name);
  if (text.empty()) {
    std::printf("bench/tfspeed/%s not found (run from anywhere: the path is compiled in)\n", name.c_str());
    return -1;
  }
  auto args = [&](int n) {
    std::vector<std::string> a{std::to_string(n)};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  std::vector<double> s;
  for (int k = 0; k < trials; ++k) {
    double a = runOnce(name, text, args(lo)), b = runOnce(name, text, args(hi));
    if (a < 0 || b < 0) return -1;
    s.push_back((b - a) / (hi - lo));
  }
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

/// CPU seconds per call of f, median of `trials` runs of `iters` calls.
double cpuPerCall(const std::function<void()>& f, int iters, int trials) {
  std::vector<double> t;
  f();
  for (int k = 0; k < trials; ++k) {
    double s = cpuNow();
    for (int i = 0; i < iters; ++i) f();
    t.push_back((cpuNow() - s) / iters);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

void pyopsBench(bool quick) {
  useRunAllocatorSettings();
  setIntraOpThreads(1);
  std::printf("\n== eager ops in a Python loop vs the same ops through EagerContext::execute (CPU time, 1 thread) ==\n");
  EagerContext ctx;
  const OpRegistry& reg = OpRegistry::global();
  const OpDef &add = reg.get("Add"), &mul = reg.get("Mul"), &matmul = reg.get("MatMul"), &relu = reg.get("Relu");
  EagerValue a = ctx.wrap(Tensor::scalar(1.0f)), b = ctx.wrap(Tensor::scalar(2.0f)), c = ctx.wrap(Tensor::scalar(3.0f));
  Tensor x2(DType::Float32, ConcreteShape{2, 2}), w2(DType::Float32, ConcreteShape{2, 2});
  for (int i = 0; i < 4; ++i) {
    x2.data<float>()[i] = static_cast<float>(i + 1);
    w2.data<float>()[i] = 0.5f - 0.25f * static_cast<float>(i);
  }
  EagerValue x = ctx.wrap(x2), w = ctx.wrap(w2);
  Attrs none, mm{{"transpose_a", false}, {"transpose_b", false}};
  const int iters = quick ? 20000 : 100000, trials = quick ? 3 : 7;
  struct Case {
    const char* kind;
    const char* python;
    int ops;
    std::function<void()> cpp;
  };
  std::vector<Case> cases = {
      {"tfadd", "r = tf.add(a, b)", 1, [&] { ctx.execute(add, {a, b}, none); }},
      {"operator", "r = a * b + c", 2, [&] { ctx.execute(add, {ctx.execute(mul, {a, b}, none)[0], c}, none); }},
      {"matmul", "r = tf.nn.relu(tf.matmul(x, w))", 2,
       [&] { ctx.execute(relu, {ctx.execute(matmul, {x, w}, mm)[0]}, none); }},
  };
  const int lo = quick ? 2000 : 5000, hi = quick ? 12000 : 45000;
  for (const Case& k : cases) {
    double tCpp = cpuPerCall(k.cpp, iters, trials);
    double tPy = slope("ops_eager.py", {k.kind}, lo, hi, quick ? 3 : 5);
    if (tPy < 0) continue;
    double ratio = tPy / tCpp;
    std::printf("%-34s Python %6.3f us/iteration (%.3f us/op)   C++ %6.3f us   ratio %5.2fx   target <= 2x  %s\n",
                k.python, tPy * 1e6, tPy * 1e6 / k.ops, tCpp * 1e6, ratio, verdict(ratio <= 2.0));
  }
  setIntraOpThreads(static_cast<int>(std::thread::hardware_concurrency()));
}

void tfstepsBench(bool quick) {
  useRunAllocatorSettings();
  setIntraOpThreads(1);
  std::printf("\n== training steps: tf.function + GradientTape vs a TF1 Session.run (CPU time, 1 thread) ==\n");
  const int trials = quick ? 3 : 5;
  struct Shape {
    const char* what;
    const char* session;
    const char* function;
    int lo, hi;
  };
  std::vector<Shape> shapes = {
      {"MLP 784-256-10, batch 128, SGD", "mlp_session.py", "mlp_function.py", 5, quick ? 25 : 45},
      {"raw conv2d CNN, batch 32, Adam", "cnn_session.py", "cnn_function.py", 2, quick ? 5 : 8},
  };
  for (const Shape& s : shapes) {
    double tSession = slope(s.session, {}, s.lo, s.hi, trials);
    double tFunction = slope(s.function, {}, s.lo, s.hi, trials);
    double tEager = slope(s.function, {"eager"}, s.lo, s.hi, trials);
    if (tSession < 0 || tFunction < 0 || tEager < 0) continue;
    double ratio = tFunction / tSession;
    std::printf("%-32s Session %7.2f ms   tf.function %7.2f ms   ratio %5.2fx   target <= 1x  %s   (eager %7.2f ms, %.2fx)\n",
                s.what, tSession * 1e3, tFunction * 1e3, ratio, verdict(ratio <= 1.0), tEager * 1e3,
                tEager / tSession);
  }
  double tLstm = slope("lstm_session.py", {}, 2, quick ? 5 : 8, trials);
  if (tLstm >= 0)
    std::printf("static LSTM, 28 steps, BasicLSTMCell(128), batch 128, Adam: %.2f ms/step (Session.run)\n", tLstm * 1e3);
  setIntraOpThreads(static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace tlens::bench
