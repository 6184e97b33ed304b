// Trace: a timeline of the scheduler's work for performance investigations. With the environment
// variable TLENS_LSP_TRACE=FILE, `tlens lsp` appends one line per event to FILE: the time in
// milliseconds (steady clock), the event (update, prepare, analyze-start, analyze-end, published,
// values: the values after the diagnostics rendered or dropped, pause-start, pause-end,
// reap-start, reap-end) and a number (analyze-start: whether a paused
// analysis is continued; analyze-end: the top-level statements it did not run again; pause-end:
// whether a pause is ready; reap-*: 1 when the worker frees while it waits for a pause), then the
// heap in use in MB (engine/core/HeapUsage.h). Off (one branch per event) without the variable.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "engine/core/HeapUsage.h"

namespace tlens::lsp {

inline void trace(const char* event, double value = -1) {
  static FILE* out = [] {
    const char* path = std::getenv("TLENS_LSP_TRACE");
    return path && *path ? std::fopen(path, "a") : nullptr;
  }();
  if (!out) return;
  static std::mutex mu;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
  double heap = static_cast<double>(heapBytesInUse()) / 1e6;
  std::lock_guard<std::mutex> l(mu);
  std::fprintf(out, "%.1f %s %g %.1f\n", ms, event, value, heap);
  std::fflush(out);
}

}  // namespace tlens::lsp
