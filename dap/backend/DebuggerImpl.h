// Debugger::Impl: the state of the current stop and of the current graph run. Touched only on
// the program thread (the DAP thread reaches it through tasks while the program is stopped).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <string>
#include <vector>

#include "dap/backend/Debugger.h"
#include "engine/core/Tensor.h"
#include "engine/graph/Graph.h"
#include "engine/runtime/Resources.h"
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
  /// The names bound in the user frames that built some nodes, copied when the statement that
  /// built them ended: per frame, outermost first, its locals (null for a module frame) and
  /// globals.
  struct FrameNames {
    std::shared_ptr<interp::Env> locals, globals;
  };
  struct Bindings {
    std::vector<FrameNames> frames;
  };
  /// Nodes [lo, hi) of graph `graph` were built with bindings[index].
  struct BuiltRange {
    const Graph* graph = nullptr;
    int lo = 0, hi = 0;
    size_t index = 0;
  };
  std::vector<Bindings> bindings;
  std::vector<BuiltRange> built;
  /// At most this many statements keep their names (a program that builds graphs in a long loop
  /// keeps the first ones).
  static constexpr size_t kMaxBindings = 4096;
  /// The statement running now: the graphs' sizes and the user frames' (locals, globals) when it
  /// started.
  bool pendingOpen = false;
  std::vector<size_t> pendingSizes;
  std::vector<std::pair<std::shared_ptr<interp::Env>, std::shared_ptr<interp::Env>>> pendingEnvs;
  /// The bindings `node` was built with, or null.
  const Bindings* bindingsFor(const Node* node) const {
    if (!node) return nullptr;
    for (auto it = built.rbegin(); it != built.rend(); ++it)
      if (node->id >= it->lo && node->id < it->hi && static_cast<size_t>(node->id) < it->graph->size() &&
          &it->graph->nodes()[static_cast<size_t>(node->id)] == node)
        return &bindings[it->index];
    return nullptr;
  }
  /// Caps on one evaluation (console, hover, watch, condition): wall time and memory. Past either
  /// the evaluation stops with `evalStopped` as its error and the session goes on.
  static constexpr int kEvalTimeMs = 5000;
  static constexpr size_t kEvalBytes = size_t{1} << 30;
  mutable std::chrono::steady_clock::time_point evalDeadline{};
  mutable size_t evalHeapStart = 0;
  mutable int evalDepth = 0;
  mutable unsigned evalTicks = 0;
  mutable std::string evalStopped;
  /// Whether the evaluation in progress is past a cap (checked before each statement and op).
  bool evalOverCap() const;
  /// Placeholders fed in this run, by tensor name, as their consumers saw them.
  std::unordered_map<std::string, tlens::Tensor> feeds;
  /// The variables of the session that ran last (graph variables' current values).
  Resources* resources = nullptr;
  struct RunEntry {
    std::string name;  ///< "fc1/MatMul:0"
    std::string op;
    Device device;
    tlens::Tensor tensor;
    const Node* node = nullptr;  ///< null for eager ops
  };
  /// One node (or eager op) of the run record, for stepping back: its outputs are
  /// run[firstEntry, firstEntry + numOutputs).
  struct NodeStep {
    std::string name, op;
    Device device;
    const Node* node = nullptr;         ///< graph nodes: location, stack and inputs come from it
    SourceLocation location;            ///< eager ops
    std::vector<StackFrame> stack;      ///< eager ops: not recorded (empty)
    std::vector<const void*> inputBuffers;  ///< eager ops: which recorded outputs were inputs
    size_t firstEntry = 0, numOutputs = 0;
  };
  /// Bytes of tensors the run record may hold (launch option runRecordMB, default 512 MiB; at
  /// most 64 MiB for eager ops); past it the oldest tensors are let go (their entries stay, as "not kept") and stepping back stops
  /// at the oldest node whose outputs are kept.
  size_t runCap = size_t{512} << 20;
  size_t runBytes = 0;
  size_t firstKept = 0;
  size_t droppedSteps = 0;  ///< eager record: steps trimmed off the front
  void clearRun() {
    feeds.clear();
    run.clear();
    steps.clear();
    runBytes = 0;
    firstKept = 0;
    droppedSteps = 0;
  }
  /// Eager ops (outside a graph run) keep less: their big temporaries (numpy data preparation)
  /// would otherwise stay alive and make every later allocation fresh memory.
  static constexpr size_t kEagerCap = size_t{64} << 20;
  size_t cap() const { return inRun ? runCap : std::min(runCap, kEagerCap); }
  void record(RunEntry e) {
    runBytes += e.tensor.valid() ? e.tensor.bytes() : 0;
    run.push_back(std::move(e));
    const size_t limit = cap();
    while (runBytes > limit && firstKept < run.size()) {
      tlens::Tensor& old = run[firstKept++].tensor;
      runBytes -= old.valid() ? old.bytes() : 0;
      old = tlens::Tensor();
    }
  }
  /// Eager programs: keeps the last `keep` entries (and the steps whose outputs they are).
  void trimRun(size_t keep) {
    if (run.size() <= keep) return;
    const size_t drop = run.size() - keep;
    run.erase(run.begin(), run.begin() + static_cast<std::ptrdiff_t>(drop));
    size_t k = 0;
    while (k < steps.size() && steps[k].firstEntry < drop) ++k;
    steps.erase(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(k));
    droppedSteps += k;
    for (NodeStep& st : steps) st.firstEntry -= drop;
    runBytes = 0;
    for (const RunEntry& r : run) runBytes += r.tensor.valid() ? r.tensor.bytes() : 0;
    firstKept = 0;
  }
  // The graph run in progress (tfdbg's `lt`), or the recent eager ops.
  std::vector<RunEntry> run;
  std::vector<NodeStep> steps;
  bool inRun = false;
  /// Run entries the current view sees: all of them live, those up to the shown node when
  /// stepped back.
  size_t runLimit = SIZE_MAX;
  size_t visible() const { return std::min(runLimit, run.size()); }
  // For the graph view: what ran in the current/last graph run, and which nodes held NaN/Inf.
  std::vector<const Node*> ranNodes;
  std::unordered_map<const Node*, std::string> numerics;

  // The current stop.
  StopInfo stop;
  bool atNode = false;
  const Node* node = nullptr;  ///< the graph node shown (null for eager ops and statements)
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

  /// The node fields of a stop, saved while stepping back so the live stop can be shown again.
  struct NodeView {
    StopInfo stop;
    bool atNode = false;
    const Node* node = nullptr;
    std::string nodeName, opType;
    Device device;
    SourceLocation location;
    std::vector<StackFrame> creation;
    std::vector<std::string> inputNames;
    std::vector<tlens::Tensor> inputs, outputs;
  };
  /// Stepping back: the step shown (nullopt: the live stop), the live stop's view and the index
  /// the live stop has among the steps (steps.size() when it is not one of them).
  std::optional<size_t> replayStep;
  NodeView live;
  size_t liveIndex = 0;
  bool liveRecorded = false;  ///< the live stop is steps.back() (a stop after a node ran)

  NodeView saveView() const {
    return NodeView{stop, atNode, node, nodeName, opType, device, location, creation, inputNames, inputs, outputs};
  }
  void loadView(NodeView v) {
    stop = std::move(v.stop);
    atNode = v.atNode;
    node = v.node;
    nodeName = std::move(v.nodeName);
    opType = std::move(v.opType);
    device = v.device;
    location = std::move(v.location);
    creation = std::move(v.creation);
    inputNames = std::move(v.inputNames);
    inputs = std::move(v.inputs);
    outputs = std::move(v.outputs);
    frames.clear();
    framesBuilt = false;
    refs.clear();
  }

  /// Stepping back through Python lines (LineHistory.cpp): one entry per statement of the user's
  /// files that started, newest last, the oldest let go past kMaxLines. `names` are the innermost
  /// frame's names as that statement started, with their values when immutable scalars (null for
  /// other objects: never kept alive by the history); none when the frame had more than kMaxNames.
  struct PyLine {
    const lang::SourceFile* file = nullptr;  ///< kept by the interpreter for its lifetime
    int line = 0;
    int depth = 1;
    std::string function;
    bool namesKept = false;
    std::vector<std::pair<std::string, interp::Value>> names;
  };
  static constexpr size_t kMaxLines = 10000;
  static constexpr size_t kMaxNames = 256;
  /// The history's entries, oldest first, in a ring whose slots (and their vectors' storage) are
  /// reused: recording a statement allocates nothing once the ring is full.
  class LineRing {
   public:
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    const PyLine& operator[](size_t i) const { return slots_[(head_ + i) % slots_.size()]; }
    /// The slot for a new newest entry (the oldest one's when full; `dropped` counts those).
    PyLine& next(size_t& dropped) {
      if (slots_.size() < kMaxLines) {
        slots_.emplace_back();
        ++count_;
        return slots_.back();
      }
      PyLine& slot = slots_[head_];
      head_ = (head_ + 1) % slots_.size();
      ++dropped;
      return slot;
    }

   private:
    std::vector<PyLine> slots_;
    size_t head_ = 0, count_ = 0;
  };
  LineRing lines;
  size_t droppedLines = 0;
  /// The line shown while stepped back through Python lines (an index into `lines`); nullopt
  /// at the live stop.
  std::optional<size_t> replayLine;

  void clearStop() {
    atNode = false;
    node = nullptr;
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
    replayStep.reset();
    replayLine.reset();
    live = NodeView{};
    liveRecorded = false;
    runLimit = SIZE_MAX;
  }
  int addRef(VarNode n) {
    refs.push_back(std::move(n));
    return static_cast<int>(refs.size());
  }
};

/// "fc1/MatMul (MatMul) on /cpu:0"
std::string describeNode(const std::string& name, const std::string& op, const Device& d);

/// One line for a tensor: "float32[128, 256] /cpu:0 min=… max=… mean=… std=… nan=0 inf=0".
std::string tensorLine(const tlens::Tensor& t, const Device& d);

}  // namespace tlens::dap
