// CheckNumerics, Print and Assert on the CPU, and the process-wide print sink (PrintSink.h).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <tuple>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"
#include "engine/runtime/PrintSink.h"
#include "engine/runtime/ThreadPool.h"

namespace tlens {

// ---- print sink ----

namespace {
std::mutex& sinkMutex() {
  static std::mutex* m = new std::mutex();
  return *m;
}
PrintSink& sinkSlot() {
  static PrintSink* s = new PrintSink();
  return *s;
}
}  // namespace

PrintSink setPrintSink(PrintSink sink) {
  std::lock_guard<std::mutex> lock(sinkMutex());
  PrintSink old = std::move(sinkSlot());
  sinkSlot() = std::move(sink);
  return old;
}

void printToSink(const std::string& line) {
  std::lock_guard<std::mutex> lock(sinkMutex());
  if (sinkSlot()) sinkSlot()(line);
  else std::cerr << line << std::endl;
}

// ---- TensorFlow's SummarizeValue ----

namespace {

/// absl::CEscape, as TensorFlow prints a string element (without quotes in tf.Print).
std::string cEscape(const std::string& s) {
  std::string out;
  for (unsigned char ch : s) {
    switch (ch) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (ch < 32 || ch == 127) {  // UTF-8 bytes stay (Utf8SafeCEscape)
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out;
}

/// StrCat's spelling of a number: the shortest of %.6g / %.9g (float) or %.15g / %.17g (double)
/// that reads back exactly; integers as integers.
std::string formatElement(const Tensor& t, int64_t i) {
  char buf[64];
  switch (t.dtype()) {
    case DType::Float32:
    case DType::Float16: {
      const float v = t.dtype() == DType::Float32 ? t.data<float>()[i] : static_cast<float>(t.data<Eigen::half>()[i]);
      if (std::isnan(v)) return "nan";
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
      std::snprintf(buf, sizeof buf, "%.6g", static_cast<double>(v));
      if (std::strtof(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
      return buf;
    }
    case DType::Float64: {
      const double v = t.data<double>()[i];
      if (std::isnan(v)) return "nan";
      if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
      std::snprintf(buf, sizeof buf, "%.15g", v);
      if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
      return buf;
    }
    case DType::Bool: return t.data<bool>()[i] ? "1" : "0";
    case DType::String: return cEscape(t.strings()[i]);
    default: return std::to_string(t.getInt(i));
  }
}

void printOneDim(const Tensor& t, size_t dim, int64_t limit, int64_t& index, std::string& out) {
  if (index >= limit) return;
  const int64_t count = t.dim(static_cast<int>(dim));
  if (dim + 1 == t.shape().size()) {
    for (int64_t i = 0; i < count; ++i) {
      if (index >= limit) {
        if (dim != 0) out += "...";
        return;
      }
      if (i > 0) out += " ";
      out += formatElement(t, index++);
    }
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    bool open = false;
    if (index < limit) {
      out += "[";
      open = true;
    }
    printOneDim(t, dim + 1, limit, index, out);
    if (index < limit || open) out += "]";
  }
}

}  // namespace

std::string summarizeValue(const Tensor& t, int64_t maxEntries) {
  const int64_t n = t.numElements();
  const int64_t limit = maxEntries < 0 ? n : std::min(maxEntries, n);
  std::string out;
  if (t.rank() == 0) {
    for (int64_t i = 0; i < limit; ++i) out += (i ? " " : "") + formatElement(t, i);
  } else {
    int64_t index = 0;
    printOneDim(t, 0, limit, index, out);
  }
  if (n > limit) out += "...";
  return out;
}

namespace {

// ---- kernels ----

void checkNumericsKernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  bool nan = false, inf = false;
  dispatchFloat(x.dtype(), [&](auto z) {
    using T = decltype(z);
    const T* p = x.data<T>();
    const int64_t n = x.numElements();
    std::mutex mu;
    parallelFor(n, 65536, [&](int64_t b, int64_t e) {
      bool ln = false, li = false;
      for (int64_t i = b; i < e; ++i) {
        const double v = static_cast<double>(p[i]);
        ln |= std::isnan(v);
        li |= std::isinf(v);
      }
      if (ln || li) {
        std::lock_guard<std::mutex> lock(mu);
        nan |= ln;
        inf |= li;
      }
    });
  });
  if (nan || inf) {
    const std::string what = nan && inf ? "Inf and NaN" : nan ? "NaN" : "Inf";
    c.fail(c.getString("message") + " : Tensor had " + what + " values");
  }
  c.setOutput(0, x);
}

/// Runs of each Print node so far, for first_n (per Resources, i.e. per session or eager context).
std::mutex& countsMutex() {
  static std::mutex* m = new std::mutex();
  return *m;
}
std::map<std::pair<const void*, std::string>, int64_t>& printCounts() {
  static auto* m = new std::map<std::pair<const void*, std::string>, int64_t>();
  return *m;
}

void printKernel(KernelContext& c) {
  c.setOutput(0, c.input(0));
  const int64_t firstN = c.getInt("first_n", -1);
  if (firstN >= 0) {
    std::lock_guard<std::mutex> lock(countsMutex());
    int64_t& n = printCounts()[{&c.resources(), c.nodeName()}];
    if (n >= firstN) return;
    ++n;
  }
  std::string msg = c.getString("message");
  const int64_t summarize = c.getInt("summarize", 3);
  for (size_t i = 1; i < c.numInputs(); ++i) msg += "[" + summarizeValue(c.input(i), summarize) + "]";
  printToSink(msg);
}

void assertKernel(KernelContext& c) {
  const Tensor& cond = c.input(0);
  if (cond.data<bool>()[0]) return;
  std::string msg = "assertion failed: ";
  const int64_t summarize = c.getInt("summarize", 3);
  for (size_t i = 1; i < c.numInputs(); ++i) {
    msg += "[" + summarizeValue(c.input(i), summarize) + "]";
    if (i + 1 < c.numInputs()) msg += " ";
  }
  c.fail(msg);
}

// tf.cond: the data goes to output 1 when pred holds, else to output 0; the other stays dead.
void switchKernel(KernelContext& c) {
  const Tensor& pred = c.input(1);
  const bool taken = pred.data<bool>()[0];
  c.setOutput(taken ? 1 : 0, c.input(0));
}

// The first live input (the executor calls Merge once one input is live), and its index.
void mergeKernel(KernelContext& c) {
  for (size_t i = 0; i < c.numInputs(); ++i) {
    if (!c.input(i).valid()) continue;
    c.setOutput(0, c.input(i));
    c.allocateOutput(1).data<int32_t>()[0] = static_cast<int32_t>(i);
    return;
  }
}

// Loops run in the Session's executor (engine/runtime/SessionLoops.cpp); a LoopArg reached by a
// run is a body tensor fetched or used outside its loop.
void loopArgKernel(KernelContext& c) {
  c.fail("Tensor " + c.nodeName() + ":0 is a parameter of a tf.while_loop body and has no value outside its "
         "loop (a tensor made inside a loop cannot be used or fetched outside it)");
}
void loopKernel(KernelContext& c) {
  c.fail(c.nodeName() + ": a loop runs only in a graph session", ErrorCode::Unimplemented);
}

}  // namespace

void registerCpuControlKernels(KernelRegistry& r) {
  r.add("LoopArg", Device::CPU, loopArgKernel);
  r.add("While", Device::CPU, loopKernel);
  r.add("WhileGrad", Device::CPU, loopKernel);
  r.add("Switch", Device::CPU, switchKernel);
  r.add("Merge", Device::CPU, mergeKernel);
  r.add("CheckNumerics", Device::CPU, checkNumericsKernel);
  r.add("Print", Device::CPU, printKernel);
  r.add("Assert", Device::CPU, assertKernel);
}

}  // namespace tlens
