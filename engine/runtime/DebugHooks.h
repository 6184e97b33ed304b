// Debug hooks: how a debugger watches the engine without the engine knowing about it. The
// executor (graph runs) and the eager context call a hook before and after every node or eager
// op; a hook may block the calling thread (a breakpoint), return to resume, or ask to cancel the
// run. With no hooks installed the executor pays one null-pointer test per node.
#pragma once

#include <string>
#include <vector>

#include "engine/core/Tensor.h"
#include "engine/graph/Graph.h"
#include "engine/runtime/Numerics.h"

namespace tlens {

class Resources;

/// One node (graph mode) or one eager op about to run or just run.
struct NodeEvent {
  const Node* node = nullptr;  ///< null for eager ops
  const OpDef* op = nullptr;
  const std::string* name = nullptr;  ///< node name, or the eager op's generated name
  Device device;
  const std::vector<Tensor>* inputs = nullptr;
  const std::vector<Tensor>* outputs = nullptr;  ///< after the kernel only
  int64_t step = 0;  ///< position of this node in the run's execution order (eager: op counter)
  const SourceLocation* location = nullptr;
  const std::vector<StackFrame>* stack = nullptr;
  /// Ops with ref inputs (Assign, optimizer updates): per input, the variable it writes (empty
  /// for other inputs), and where variables live; a debugger reads the variable around the op.
  const std::vector<std::string>* varNames = nullptr;
  Resources* resources = nullptr;
};

/// What check-numerics found: the first node whose output holds NaN or Inf.
struct NumericsReport {
  std::string node;
  std::string opType;
  int outputIndex = 0;
  Device device;
  NonFiniteCounts counts;
  int64_t elements = 0;
  SourceLocation location;
  std::vector<StackFrame> stack;
  std::vector<std::string> inputNames;       ///< producers' names ("softmax/Softmax:0")
  std::vector<TensorSummary> inputSummaries;
  std::vector<std::string> inputTypes;       ///< "float32[100, 10]"
  /// A multi-line explanation: what was produced, where, and what the inputs held.
  std::string message() const;
};

/// Raised when check-numerics finds a NaN/Inf producer and no hook resumed past it.
class NumericsError : public EngineError {
 public:
  explicit NumericsError(NumericsReport r)
      : EngineError(ErrorCode::InvalidArgument, r.message()), report_(std::move(r)) {}
  const NumericsReport& report() const { return report_; }

 private:
  NumericsReport report_;
};

enum class HookAction { Continue, Cancel };

class DebugHooks {
 public:
  virtual ~DebugHooks() = default;
  virtual void runStarted(const std::vector<const Node*>& /*plan*/) {}
  virtual void runFinished(bool /*ok*/) {}
  virtual HookAction beforeNode(const NodeEvent&) { return HookAction::Continue; }
  virtual HookAction afterNode(const NodeEvent&) { return HookAction::Continue; }
  /// Called (check-numerics mode) before NumericsError is raised; returning Continue resumes the
  /// run as if nothing was found.
  virtual HookAction nonFinite(const NodeEvent&, const NumericsReport&) { return HookAction::Cancel; }
};

/// Fills a report for output `index` of the event's node.
NumericsReport makeNumericsReport(const NodeEvent& e, int index, const NonFiniteCounts& c,
                                  const std::vector<std::string>& inputNames);

}  // namespace tlens
