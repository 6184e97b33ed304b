// Debugger::Impl: the state of the current stop and of the current graph run. Touched only on
// the program thread (the DAP thread reaches it through tasks while the program is stopped).
#pragma once

#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "dap/backend/Debugger.h"
#include "engine/core/Tensor.h"
#include "engine/graph/Graph.h"
#include "lang/interp/Value.h"

namespace tlens::lang {
class SourceFile;
}

namespace tlens::dap {

/// What a variable reference expands to.
struct VarNode {
  enum class Kind { NodeScope, RunScope, Locals, Globals, Python, Tensor, Histogram };
  explicit VarNode(Kind k = Kind::Python) : kind(k) {}
  Kind kind;
  interp::Value value;                 ///< Python
  std::shared_ptr<interp::Env> env;    ///< Locals / Globals
  int frameId = -1;
  tlens::Tensor tensor;                ///< Tensor: the whole tensor
  std::vector<int64_t> prefix;         ///< Tensor: fixed leading indices of this view
  int64_t lo = 0, hi = 0;              ///< Tensor: range along dimension prefix.size()
  std::string summary;                 ///< Histogram: the sparkline
};

struct Debugger::Impl {
  struct RunEntry {
    std::string name;  ///< "fc1/MatMul:0"
    std::string op;
    Device device;
    tlens::Tensor tensor;
    const Node* node = nullptr;  ///< null for eager ops
  };
  /// Bytes of tensors the run record may hold; past it the oldest tensors are let go (their
  /// entries stay, as "not kept").
  static constexpr size_t kRunBytes = size_t{512} << 20;
  size_t runBytes = 0;
  size_t firstKept = 0;
  void clearRun() {
    run.clear();
    runBytes = 0;
    firstKept = 0;
  }
  void record(RunEntry e) {
    runBytes += e.tensor.valid() ? e.tensor.bytes() : 0;
    run.push_back(std::move(e));
    while (runBytes > kRunBytes && firstKept < run.size()) {
      tlens::Tensor& old = run[firstKept++].tensor;
      runBytes -= old.valid() ? old.bytes() : 0;
      old = tlens::Tensor();
    }
  }
  /// Eager programs: keeps the last `keep` entries.
  void trimRun(size_t keep) {
    if (run.size() <= keep) return;
    run.erase(run.begin(), run.end() - static_cast<std::ptrdiff_t>(keep));
    runBytes = 0;
    for (const RunEntry& r : run) runBytes += r.tensor.valid() ? r.tensor.bytes() : 0;
    firstKept = 0;
  }
  // The graph run in progress (tfdbg's `lt`).
  std::vector<RunEntry> run;
  bool inRun = false;

  // The current stop.
  StopInfo stop;
  bool atNode = false;
  std::string nodeName, opType;
  Device device;
  SourceLocation location;
  std::vector<StackFrame> creation;
  std::vector<std::string> inputNames;
  std::vector<tlens::Tensor> inputs, outputs;
  std::optional<ExceptionDetails> exception;
  bool postMortem = false;
  std::vector<FrameInfo> traceback;  ///< post mortem: frames from the traceback
  std::vector<FrameInfo> frames;     ///< built on first stackTrace
  bool framesBuilt = false;
  std::vector<VarNode> refs;         ///< reference r is refs[r - 1]
  /// Parsed console expressions and conditions, by text. Kept for the interpreter's lifetime:
  /// the interpreter caches per syntax node and functions keep their file.
  mutable std::unordered_map<std::string, std::shared_ptr<const lang::SourceFile>> parsed;

  void clearStop() {
    atNode = false;
    nodeName.clear();
    opType.clear();
    creation.clear();
    inputNames.clear();
    inputs.clear();
    outputs.clear();
    exception.reset();
    frames.clear();
    framesBuilt = false;
    refs.clear();
  }
  int addRef(VarNode n) {
    refs.push_back(std::move(n));
    return static_cast<int>(refs.size());
  }
};

/// One line for a tensor: "float32[128, 256] /cpu:0 min=… max=… mean=… std=… nan=0 inf=0".
std::string tensorLine(const tlens::Tensor& t, const Device& d);

}  // namespace tlens::dap
