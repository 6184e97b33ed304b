// Trace: a timeline of the scheduler's work for performance investigations. With the environment
// variable TLENS_LSP_TRACE=FILE, `tlens lsp` appends one line per event to FILE: the time in
// milliseconds (steady clock), the event (update, prepare, analyze-start, analyze-end, published,
// pause-start, pause-end, reap-start, reap-end) and a number (analyze-start: whether a paused
// analysis is continued; analyze-end: the top-level statements it did not run again; pause-end:
// whether a pause is ready), then the heap in use in MB when the allocator is jemalloc (its
// statistics; -1 otherwise). Off (one branch per event) without the variable.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

// jemalloc's control interface, present when tlens is linked with it (cmake/Allocator.cmake).
extern "C" int mallctl(const char*, void*, size_t*, void*, size_t) __attribute__((weak));

namespace tlens::lsp {

/// Bytes allocated and not freed, per jemalloc; -1 without it.
inline double heapInUseMb() {
  if (!mallctl) return -1;
  uint64_t epoch = 1;
  size_t len = sizeof epoch;
  mallctl("epoch", &epoch, &len, &epoch, len);
  size_t allocated = 0;
  len = sizeof allocated;
  if (mallctl("stats.allocated", &allocated, &len, nullptr, 0) != 0) return -1;
  return static_cast<double>(allocated) / 1e6;
}

inline void trace(const char* event, double value = -1) {
  static FILE* out = [] {
    const char* path = std::getenv("TLENS_LSP_TRACE");
    return path && *path ? std::fopen(path, "a") : nullptr;
  }();
  if (!out) return;
  static std::mutex mu;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
  double heap = heapInUseMb();
  std::lock_guard<std::mutex> l(mu);
  std::fprintf(out, "%.1f %s %g %.1f\n", ms, event, value, heap);
  std::fflush(out);
}

}  // namespace tlens::lsp
