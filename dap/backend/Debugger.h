// Debugger: runs one program under the interpreter and stops it where the editor asked. No JSON
// and no DAP types: the session layer (dap/session) translates.
//
// Threads. Two threads touch a Debugger:
//   - the *DAP thread* (the session's request loop) calls everything public below;
//   - the *program thread* (started by start()) runs the interpreter. The interpreter calls back
//     into the Debugger as a StatementObserver (before each Python statement) and as engine
//     DebugHooks (around each graph node of Session.run / each eager op, nonFinite).
// When the program stops, the program thread blocks in stopHere(), serving *tasks* that the DAP
// thread posts (stack trace, variables, evaluate): the interpreter is single-threaded, so every
// look at Python values happens on the program thread while it is stopped. A resume request
// ends the wait. Variable references belong to one stop and are dropped on resume.
//
// Which stops happen when:
//   - a line breakpoint stops before the Python statement that starts on its line runs, and
//     after every graph node created by that statement runs (Session.run, tf.function replay);
//   - a function breakpoint stops after every node whose name, name regex or op type matches;
//   - the `nan_inf` filter stops at the first node whose output holds NaN/Inf (check-numerics),
//     before anything downstream runs; continuing raises the error as without a debugger;
//   - `uncaught`, `assert`, `shape_error` stop post mortem, after the exception unwound the
//     Python stack (the interpreter has no raise hook): frames come from its traceback;
//   - next / stepIn / stepOut step by Python line; inside a graph run next and stepIn go to the
//     next node in execution order, stepOut finishes the run;
//   - pause stops at the next Python statement or the next node, whichever comes first;
//   - a data breakpoint stops after a node or eager op writes the watched tf.Variable;
//   - stepBack / reverseContinue only change what the stop shows (StepBack.cpp): the program
//     thread stays where it stopped, and resuming replays forward through the record first.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "dap/backend/Breakpoints.h"
#include "engine/core/Tensor.h"
#include "engine/runtime/DebugHooks.h"
#include "engine/runtime/Devices.h"
#include "lang/interp/Observers.h"
#include "lang/interp/Traceback.h"

namespace tlens::interp {
class Interpreter;
struct Frame;
}  // namespace tlens::interp
namespace tlens::tf {
class TfRuntime;
}
namespace tlens::lang {
class SourceFile;
}

namespace tlens::dap {

struct LaunchConfig {
  std::string program;
  std::vector<std::string> args;
  std::string cwd;
  /// Variables to set; nullopt removes one (the launch argument's null).
  std::map<std::string, std::optional<std::string>> env;
  bool stopOnEntry = false;
  std::string mode = "auto";  ///< auto | eager | graph
  std::string python = "python3";  ///< the Python of modules tensorlens does not model (lang/pybridge)
  bool checkNumerics = true;  ///< run with check-numerics (needed by the nan_inf filter)
  DeviceRequest devices;      ///< the machine's GPUs, none, or virtual ones
  /// Bytes of node outputs the run record keeps for the Run scope and stepping back.
  size_t runRecordBytes = size_t{512} << 20;
};

enum class StopReason { Entry, Breakpoint, FunctionBreakpoint, DataBreakpoint, Step, Pause, Exception };

struct StopInfo {
  StopReason reason = StopReason::Step;
  /// Shown by the editor: "fc1/MatMul (MatMul) on /cpu:0", "breakpoint", "NaN/Inf".
  std::string description;
  std::string text;  ///< short exception text for reason Exception
  std::vector<int> hitBreakpointIds;
};

/// What a data breakpoint can watch: a tf.Variable (graph or eager).
struct DataBreakpointTarget {
  std::string dataId;       ///< empty when the variable cannot be watched
  std::string description;  ///< "tf.Variable w (float32[3, 2])", or why not
};

struct DataBreakpointSpec {
  std::string dataId;
  std::string accessType;  ///< "write" (or empty); "read" and "readWrite" are refused
  /// `not finite`: stop only when the new value holds NaN/Inf; otherwise a Python condition.
  std::string condition, hitCondition;
};

/// What the program has built so far, for the graph view (`tensorlens/graph`).
struct GraphState {
  std::vector<const Graph*> graphs;
  std::vector<const Node*> ran;                           ///< computed in the current/last run
  std::vector<std::pair<const Node*, std::string>> numerics;  ///< "nan" | "inf"
  const Node* stopped = nullptr;
};

struct ExceptionDetails {
  std::string id;           ///< filter id: nan_inf, uncaught, assert, shape_error
  std::string description;  ///< NumericsReport::message() for nan_inf; the Python summary otherwise
  std::string typeName;     ///< "tf.errors.InvalidArgumentError", "AssertionError"
  std::string stackTrace;
};

struct FrameInfo {
  enum class Kind { Node, Creation, Python, Traceback, History };  ///< History: a Python line stepped back to
  int id = 0;
  Kind kind = Kind::Python;
  std::string name;
  std::string path;  ///< empty when unknown
  int line = 0, column = 0, endLine = 0, endColumn = 0;  ///< 1-based, end exclusive
  interp::Frame* pyFrame = nullptr;  ///< Python frames: the interpreter's frame
  /// Node and construction frames: which frame of the node's creation stack (outermost 0) this
  /// is, for the names bound there when the node was built; -1 otherwise.
  int creationIndex = -1;
};

struct ScopeInfo {
  std::string name;  ///< Node, Run, Locals, Globals
  int ref = 0;
  int64_t named = 0;
  bool expensive = false;
};

struct VarInfo {
  std::string name, value, type;
  int ref = 0;  ///< > 0 when it has children
  int64_t indexed = 0, named = 0;
  std::string evaluateName;
};

struct EvalResult {
  std::string value, type;
  int ref = 0;
  int64_t indexed = 0, named = 0;
};

/// Errors the session answers with an error response ("not stopped", "no such frame").
struct DebuggerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class DebuggerEvents {
 public:
  virtual ~DebuggerEvents() = default;
  /// Program thread. The stop is visible to requests before this is called.
  virtual void stopped(const StopInfo& s) = 0;
  virtual void continued() {}
  virtual void output(const std::string& category, const std::string& text) = 0;
  /// Program thread, once, when the program is done (after a post-mortem stop, if any).
  virtual void exited(int code) = 0;
};

enum class Step { Continue, Next, In, Out };

class Debugger : public interp::StatementObserver, public DebugHooks {
 public:
  explicit Debugger(DebuggerEvents& events);
  ~Debugger() override;

  // --- DAP thread ---------------------------------------------------------------------------
  /// Reads and parses the program; throws DebuggerError when it cannot be read.
  void launch(LaunchConfig config);
  /// Starts the program thread (configurationDone).
  void start();
  bool started() const { return thread_.joinable(); }
  /// Stops the program (if running) and joins its thread. Safe to call twice.
  void terminate();

  std::vector<BreakpointResult> setLineBreakpoints(const std::string& path,
                                                   const std::vector<LineBreakpointSpec>& specs);
  std::vector<BreakpointResult> setFunctionBreakpoints(const std::vector<FunctionBreakpointSpec>& specs);
  void setExceptionFilters(const std::set<std::string>& filters);
  std::set<std::string> exceptionFilters() const;
  /// Lines in [line, endLine] where a breakpoint would stop.
  std::vector<int> breakpointLocations(const std::string& path, int line, int endLine);

  /// Resumes the program. When stopped at a node reached by stepping back, next/stepIn first
  /// move forward through the run record and continue stops at a breakpoint there; the stop
  /// to announce is returned instead of resuming (nullopt: the program runs).
  std::optional<StopInfo> resume(Step how);
  /// Stepping back through the run record: the previous node (stepBack) or the previous node
  /// that matches a breakpoint, else the oldest kept one (reverseContinue). No kernel runs; the
  /// stop to announce is returned.
  StopInfo stepBack();
  StopInfo reverseContinue();
  void pause();
  bool isStopped() const;

  std::vector<FrameInfo> stackTrace();
  std::vector<ScopeInfo> scopes(int frameId);
  /// Children of `ref`; for indexed children, [start, start+count) (count 0: a page chosen here).
  /// `filter`: "indexed", "named" or empty for both.
  /// `hex`: integers in hex (the client's valueFormattingOptions).
  std::vector<VarInfo> variables(int ref, int64_t start = 0, int64_t count = 0, const std::string& filter = {},
                                 bool hex = false);
  /// Sets child `name` of `ref` to the value of `expression`: a local or global (any Python
  /// value), or a tensor element (a number). Returns the child as shown now.
  VarInfo setVariable(int ref, const std::string& name, const std::string& expression);
  /// Evaluates an expression (or runs a statement) in `frameId`'s scope (-1: the top frame).
  EvalResult evaluate(const std::string& expression, int frameId, bool hex = false);
  std::optional<ExceptionDetails> exceptionInfo();
  /// Data breakpoints: what child `name` of `ref` is (ref 0: `name` is an expression in
  /// `frameId`), and the set of watched variables (replacing the previous set).
  DataBreakpointTarget dataBreakpointInfo(int ref, const std::string& name, int frameId);
  std::vector<BreakpointResult> setDataBreakpoints(const std::vector<DataBreakpointSpec>& specs);
  /// Calls `fn` on the program thread with the graphs built so far (stopped only).
  void withGraphs(const std::function<void(const GraphState&)>& fn);
  /// Interrupts the request being served while stopped (a long evaluate): its Python code stops
  /// at the next statement, its tensor ops at the next op. Any thread.
  void cancelRequest() { cancelRequest_ = true; }
  /// A new request starts: an earlier cancel no longer applies.
  void clearCancel() { cancelRequest_ = false; }
  /// Stops the program, frees it and launches it again (restart); `config` replaces the launch
  /// arguments when given. Breakpoints and filters stay. No exited event is sent for the old run.
  void relaunch(std::optional<LaunchConfig> config);
  /// Console completions: names (and attributes after `obj.`) visible in `frameId` that start
  /// with the word ending at byte `column` (1-based) of `text`.
  std::vector<std::string> completions(const std::string& text, int column, int frameId);
  /// tfdbg's console commands (`lt`, `pt`, `ni`, `li`, `lo`), or nullopt when `line` is not one.
  std::optional<std::string> consoleCommand(const std::string& line);

  // --- program thread: interpreter and engine callbacks ---------------------------------------
  void beforeStatement(const interp::StatementEvent& e) override;
  /// Live exception stops: an exception no `try` may catch stops at the raise (filters
  /// shape_error, assert, uncaught), with the raising frames alive.
  void onRaise(const interp::Value& exc, bool inTry) override;
  /// Inside long loops and builtins (a comprehension over a large range): disconnect and
  /// terminate take effect, and a pause stops there.
  void poll(interp::Interpreter& in) override;
  void runStarted(const std::vector<const Node*>& plan) override;
  void runFinished(bool ok) override;
  HookAction beforeNode(const NodeEvent& e) override;
  HookAction afterNode(const NodeEvent& e) override;
  HookAction nonFinite(const NodeEvent& e, const NumericsReport& r) override;


  struct Impl;  // per-stop state (frames, variable references), Inspect.cpp / Evaluate.cpp

 private:
  enum class Where { Statement, Node };
  /// Blocks the program thread at a stop until resumed; returns false when cancelled.
  bool stopHere(StopInfo info, Where where);
  void runProgram();
  /// Rebuilds the breakpoints' line tables from the files' current text (restart).
  void refreshLineTables();
  void captureNode(const NodeEvent& e);
  /// Graph construction: remembers the user frames' scopes at each statement and, when the
  /// statement built nodes, keeps a copy of their names for those nodes (names at node stops).
  void openBindings();
  void closeBindings();
  void recordStep(const NodeEvent& e, size_t firstEntry);
  /// Shows step `k` of the run record (stepping back) or the live stop (k = liveIndex).
  void showStep(size_t k);
  // Python line history (LineHistory.cpp)
  void recordLine(const interp::StatementEvent& e);
  void showLine(std::optional<size_t> k);
  bool atPythonStop() const;
  StopInfo stepBackLine(bool toBreakpoint);
  std::optional<StopInfo> resumeLines(Step how);
  bool lineMatches(size_t k, StopInfo& info);
  bool replayMatches(size_t k, StopInfo& info);
  bool watchedWrite(const NodeEvent& e, StopInfo& info);
  /// The breakpoints that could stop at a node (cached per node and breakpoint table).
  struct Candidates {
    std::string name;
    const LineBreakpoint* line = nullptr;
    std::vector<const FunctionBreakpoint*> functions;
    bool empty() const { return !line && functions.empty(); }
  };
  const Candidates& candidatesFor(const NodeEvent& e, const BreakpointTable& t, Candidates& scratch);
  bool nodeMatches(const NodeEvent& e, const Candidates& c, const BreakpointTable& t, StopInfo& info);
  /// Checks condition / hit count / logpoint of a matched breakpoint; true to stop.
  bool shouldStop(const LineBreakpoint& bp, int frameHint);
  void postMortem(int status);
  /// The exception stopped at live, without its traceback (its post-mortem stop is not repeated).
  interp::ExceptionReport liveException_;
  /// Runs `fn` on the program thread while stopped; throws DebuggerError when running.
  void onProgramThread(const std::function<void()>& fn);
  std::shared_ptr<const BreakpointTable> table();

  DebuggerEvents& events_;
  LaunchConfig config_;
  std::shared_ptr<const lang::SourceFile> file_;
  std::unique_ptr<interp::Interpreter> interp_;
  std::shared_ptr<tf::TfRuntime> runtime_;
  std::thread thread_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopped_ = false;
  bool resume_ = false;
  std::deque<std::function<void()>> tasks_;
  std::shared_ptr<const BreakpointTable> table_;
  std::set<std::string> filters_{"nan_inf"};

  std::atomic<bool> cancel_{false};
  std::atomic<bool> cancelRequest_{false};
  std::atomic<bool> announceExit_{true};
  std::atomic<bool> exited_{false};
  // Data breakpoints: the watched set is swapped in whole (DAP thread), read by the program
  // thread when an op with ref inputs runs.
  struct Watch {
    int id = 0;
    std::string varName;  ///< the key in the session's or the eager context's resources
    DataBreakpointSpec spec;
    bool notFinite = false;  ///< condition `not finite`: stop only on a NaN/Inf new value
  };
  std::shared_ptr<const std::vector<Watch>> watches_;
  std::atomic<bool> replaying_{false};
  std::atomic<bool> anyWatches_{false};
  std::vector<std::pair<std::string, tlens::Tensor>> oldValues_;  ///< program thread
  std::atomic<bool> pause_{false};
  std::atomic<uint64_t> tableVersion_{0};
  // program thread only
  uint64_t seenVersion_ = ~0ull;
  std::shared_ptr<const BreakpointTable> cached_;
  std::map<int, int64_t> hits_;
  const BreakpointTable* candidatesTable_ = nullptr;
  std::unordered_map<const Node*, Candidates> nodeCandidates_;
  std::unordered_map<std::string, std::vector<const FunctionBreakpoint*>> opCandidates_;
  std::set<int> conditionErrors_;
  bool entryDone_ = false;
  bool evaluating_ = false;
  // stepping (written by the DAP thread before resuming, read by the program thread after)
  Step step_ = Step::Continue;
  int stepDepth_ = 0;
  bool stepNode_ = false;
  int lastDepth_ = 1;

  std::unique_ptr<Impl> impl_;
};

}  // namespace tlens::dap
