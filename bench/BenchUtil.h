// Timing helpers: interleaved trials, medians, and one table format for every benchmark.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace tlens::bench {

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Seconds per call of f: the median over `trials` of (time of `iters` calls)/iters.
inline double timePerCall(const std::function<void()>& f, int iters, int trials = 7) {
  std::vector<double> t;
  f();  // warm up
  for (int k = 0; k < trials; ++k) {
    double s = now();
    for (int i = 0; i < iters; ++i) f();
    t.push_back((now() - s) / iters);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// Times `a` and `b` in alternating trials (so machine noise hits both alike); returns medians.
inline std::pair<double, double> timePair(const std::function<void()>& a, const std::function<void()>& b,
                                          int iters, int trials = 9) {
  std::vector<double> ta, tb;
  a();
  b();
  for (int k = 0; k < trials; ++k) {
    double s = now();
    for (int i = 0; i < iters; ++i) a();
    ta.push_back((now() - s) / iters);
    s = now();
    for (int i = 0; i < iters; ++i) b();
    tb.push_back((now() - s) / iters);
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}

/// "PASS"/"MISS" against a target, for the summary lines.
inline const char* verdict(bool ok) { return ok ? "PASS" : "MISS"; }

void matmulBench(bool quick);
/// Conv2D and its backprops against oneDNN's convolution primitives (ConvBench.cpp).
void convBench(bool quick);
void eagerBench(bool quick);
void mlpBench(bool quick);
void interpBench(bool quick);
void devicesBench(bool quick);
void dapBench(bool quick);
/// The language server's snapshot values: bytes per value and in all (ValuesBench.cpp).
void valuesBench(bool quick);
/// The Python bridge: a call across the boundary, a callback, a 10^6-element array each way.
void bridgeBench(bool quick);
/// The language server's edit path: a full analysis vs a continued one (EditBench.cpp).
void editBench(bool quick);
/// GPU benchmarks (GpuBench.cpp); prints why and returns when there is no CUDA device.
void gpuBench(bool quick);
/// Issue #16 item 9: eager ops in a Python loop vs EagerContext::execute (TfSpeedBench.cpp).
void pyopsBench(bool quick);
/// Issue #16 item 9: tf.function training steps vs TF1 Session steps, the CNN and LSTM steps.
void tfstepsBench(bool quick);

}  // namespace tlens::bench
