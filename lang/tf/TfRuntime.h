// TfRuntime: the state behind the `tensorflow` and `numpy` modules of one Interpreter run.
//
// The Python API (tf.*, np.*, keras) is written in Python (lang/tf/python/*.py, embedded in the
// binary) over one small native module, `_tlens` (CoreModule.cpp), whose central call is
// `applyOp`: one op of the registry, applied in the way the current context asks for:
//
//   building a graph (TF1 default graph, a tf.function trace)  -> a node; shape errors raise
//                                                                 ValueError (concrete) or become
//                                                                 diagnostics (abstract)
//   eager, concrete                                            -> the kernel runs (EagerContext)
//   eager, abstract                                            -> only the shape function runs
//
// So abstract and concrete mode, graphs and eager code all go through the same OpDef: what a
// hover shows is what runs. Abstract mode never runs a kernel: Session.run yields tensors of the
// fetched static types, and numpy values are typed placeholders with known small constants.
//
// TF1 or TF2 is decided once per program (detectApiStyle): a program that uses a TF1-only API
// (placeholders, sessions, tf.compat.v1, disable_eager_execution, ...) builds graphs; any other
// program runs eagerly with tf.function bodies traced into graphs (or run eagerly when
// TfOptions::functionsEagerly, the debugger's mode "eager", or tf.config.run_functions_eagerly).
//
// This half links only tlens_core: kernels, sessions and tapes are reached through the Execution
// interface (Execution.h), which concrete runs get from TfOptions::execution.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/DeviceSet.h"
#include "engine/graph/Graph.h"
#include "lang/interp/Interpreter.h"
#include "lang/tf/Execution.h"
#include "lang/tf/NumpyFormat.h"

namespace tlens {
class DebugHooks;
}

namespace tlens::tf {

enum class ApiStyle : uint8_t {
  Graph,  ///< TF1: ops build the default graph; Session.run executes it
  Eager,  ///< TF2: ops run now; tf.function traces graphs
};

/// The rule: graph style when the program's text uses any TF1-only API (see the .cpp for the
/// list of markers); eager otherwise.
ApiStyle detectApiStyle(std::string_view programText);

struct TfOptions {
  /// Null: decided by detectApiStyle on the main file.
  std::optional<ApiStyle> style;
  /// tf.function bodies run as Python instead of being traced (debugger mode "eager").
  bool functionsEagerly = false;
  /// Stop at the first NaN/Inf producer (graph runs and eager ops).
  bool checkNumerics = false;
  /// The debugger's hooks for every graph run and eager op; null costs nothing.
  DebugHooks* hooks = nullptr;
  /// Print each node's device when it is created (tf.debugging.set_log_device_placement).
  bool logDevicePlacement = false;
  /// Which devices the program has: the machine's, none of its GPUs, or N virtual GPUs
  /// (`tlens run --virtual-gpus N`, the debugger's `device` launch argument).
  DeviceRequest devices;
  /// Eager ops whose tf.device request cannot be honoured run on the CPU (TF2's default,
  /// tf.config.set_soft_device_placement).
  bool softPlacement = true;
  /// The kernels (lang/tf/exec/KernelExecution.h): required by a concrete interpreter, optional
  /// in abstract mode, where it only lists the machine's devices. Without it the devices are the
  /// CPU and the virtual GPUs `devices` asks for (requestedDevices), and nothing can run.
  const ExecutionBackend* execution = nullptr;
};

/// One tensor-producing event seen by the runtime (for the static/dynamic agreement check and
/// the debugger): where it was created and what type it has.
struct TensorRecord {
  SourceLocation where;  ///< the user's expression that created it
  std::string opType;    ///< the op that produced it ("" for constants from Python values)
  int outputIndex = 0;
  TensorType type;
  bool symbolic = false;  ///< a graph tensor's static type (not a value)
};

/// Whether a node was made by tf.gradients / a GradientTape (the "gradients" name scope): such
/// nodes carry the location of the forward op they differentiate, so observations of them are
/// not the forward op's type and are left out of TensorRecords.
inline bool isGradientNode(const Node& n) {
  const std::string& s = n.name;
  return s.rfind("gradients", 0) == 0 || s.find("/gradients") != std::string::npos;
}

struct TraceContext;
struct AbstractRunState;
struct AbstractRunStateDeleter {
  void operator()(AbstractRunState* s) const;
};

class TfRuntime {
 public:
  TfRuntime(interp::Interpreter& in, TfOptions options);
  ~TfRuntime();

  interp::Interpreter& interp() { return in_; }
  bool abstract() const { return in_.isAbstract(); }
  TfOptions& options() { return options_; }
  ApiStyle style() const { return style_; }
  void setStyle(ApiStyle s) { style_ = s; }

  // --- graphs -------------------------------------------------------------------------------
  /// The graph new ops go into, or null when ops run eagerly.
  Graph* buildingGraph();
  /// TF1's default graph (created on first use).
  Graph& defaultGraph();
  /// tf.reset_default_graph(): later ops go into a fresh graph (old tensors stay valid).
  void resetDefaultGraph();
  /// A new graph owned by the runtime (tf.Graph(), tf.function traces).
  Graph& newGraph();
  /// `with g.as_default()` / a tf.function trace.
  void pushGraph(Graph* g) { graphStack_.push_back(g); }
  void popGraph() { if (!graphStack_.empty()) graphStack_.pop_back(); }
  /// The graph the innermost `as_default` or trace pushed, else the default graph (graph style)
  /// or null (eager style).
  const std::vector<Graph*>& graphStack() const { return graphStack_; }

  // --- execution ----------------------------------------------------------------------------
  /// True in concrete mode: kernels, sessions and tapes are reachable through exec().
  bool executes() const { return exec_ != nullptr; }
  /// The concrete run's execution; throws EngineError (Internal) in abstract mode.
  Execution& exec();
  /// A tensor with an eager identity (the execution's in concrete mode).
  EagerValue wrap(Tensor t);

  // --- eager placement (both modes) ---------------------------------------------------------
  /// `with tf.device(spec)` in eager code.
  void pushEagerDevice(std::string spec) { eagerDeviceScopes_.push_back(std::move(spec)); }
  void popEagerDevice() { if (!eagerDeviceScopes_.empty()) eagerDeviceScopes_.pop_back(); }
  /// The innermost eager tf.device scope, or null.
  const std::string* eagerDeviceScope() const { return eagerDeviceScopes_.empty() ? nullptr : &eagerDeviceScopes_.back(); }
  /// Where an eager `op` runs now (placeOp's rules, soft): the scope, or where the variable an op
  /// updates lives (`varNames` per input, as for Execution::execute).
  /// `strings`: the op touches string tensors, which only the CPU holds.
  Placement eagerPlacement(const OpDef& op, const std::vector<std::string>& varNames = {}, bool strings = false);
  /// Source location and Python stack of the eager op about to run.
  CreationContext& eagerCreation() { return eagerCreation_; }

  // --- devices ------------------------------------------------------------------------------
  /// The program's devices (placement reads them; tf.config changes them before first use).
  DeviceSet& devices() { return devices_; }
  /// True once an op was placed: tf.config may no longer change the devices, as in TensorFlow.
  bool devicesInUse() const { return devicesInUse_; }
  void markDevicesInUse() { devicesInUse_ = true; }

  // --- where things come from ---------------------------------------------------------------
  /// The Python stack without the embedded library's frames (files named "<...>"), outermost
  /// first; its last frame is the user's line that called into tensorflow.
  std::vector<StackFrame> userStack();
  /// The user's source location of the call executing now.
  SourceLocation userLocation();
  /// Sets the creation context of `g` (or the eager context) to the user's line.
  void stampCreation(Graph* g);

  /// Abstract mode: reports a shape/dtype problem at the user's line, with related locations and
  /// the structured payload (`data`; its code is set to `code`), which consumers read instead of
  /// the message.
  void reportError(const std::string& message, const std::vector<SourceLocation>& related,
                   const std::vector<std::string>& relatedMessages, std::string code = "shape-error",
                   DiagnosticData data = {}, std::string_view raiseAs = "ValueError");
  /// The same at a given place (a graph node's line, for an error a later Session.run raises).
  void reportErrorAt(const SourceLocation& at, const std::string& message, const std::vector<SourceLocation>& related,
                     const std::vector<std::string>& relatedMessages, std::string code = "shape-error",
                     DiagnosticData data = {}, std::string_view raiseAs = "ValueError");
  // Inside a user's `try` (Interpreter::abstractCatching) both of the above raise instead: the
  // exception class `raiseAs` ("ValueError", "TypeError", or "InvalidArgumentError" for
  // tf.errors'), what a run would raise there, with the diagnostic reported only if no handler
  // catches it.

  // --- registered Python classes (set by the embedded tensorflow module) --------------------
  interp::Value tensorShapeClass;  ///< tf.TensorShape
  interp::Value errorClass[8];     ///< tf.errors.*Error by ErrorCode

  /// numpy's print options for this run (np.set_printoptions), used by every ndarray's and
  /// eager tensor's str and repr.
  NumpyPrintOptions printOptions;

  /// Raises the Python exception for an engine error (tf.errors.InvalidArgumentError...).
  [[noreturn]] void raiseEngineError(const EngineError& e);

  /// GradientTapes being recorded (eager, concrete); trainable variables read while one is
  /// active are watched automatically, as in TensorFlow.
  std::vector<Tape*> activeTapes;
  /// Python classes whose methods tensors and ndarrays expose (set by the embedded modules):
  /// attribute lookups that the native object does not answer go to these.
  interp::Value tensorMethods, ndarrayMethods, variableMethods, graphMethods;
  /// Sessions made default by `with sess:`, `sess.as_default()` or InteractiveSession.
  std::vector<interp::Value> sessionStack;
  /// Every graph the program made (tlens graph prints them).
  const std::vector<std::unique_ptr<Graph>>& graphs() const { return graphs_; }
  /// The one Python object of each graph (tf.Graph): `t.graph is tf.get_default_graph()` holds,
  /// as in TensorFlow. Made on first use (TfObjects.cpp).
  interp::Value graphObject(Graph& g);
  std::vector<std::pair<const Graph*, interp::Value>> graphObjects;
  int64_t graphSeed = 0;
  bool graphSeedSet = false;
  /// Concrete mode, set by the Python bridge (lang/pybridge): a CPython object that numpy can
  /// turn into an array (a pandas DataFrame, a PIL image) as an ndarray, else null. Every op
  /// input and np.asarray goes through it.
  std::function<interp::Value(const interp::Value&)> foreignArray;

  /// The tf.Operation class wrapper (set by the embedded module).
  interp::Value operationClass;

  /// Every tensor created (static types), in creation order; kept when recording is on.
  std::vector<TensorRecord>* records = nullptr;
  /// tf.data iterators in graphs: get_next()'s tensors are placeholders that Session.run feeds
  /// by calling `producer` (a Python callable returning one value per output) whenever a run
  /// needs them. OutOfRangeError from the producer ends the iteration as in TensorFlow.
  struct AutoFeed {
    Graph* graph = nullptr;
    std::vector<Output> outputs;
    interp::Value producer;
  };
  std::vector<AutoFeed> autoFeeds;
  /// Session.run calls in progress (innermost last): the session, and the values its auto feeds
  /// produced so far. A producer may run the session again (a queue's enqueue evaluates its
  /// tensors, parse_single_example its serialized input): that nested run reuses the outer
  /// run's auto-fed values, so one run reads each input once, as TensorFlow's single step does.
  struct RunningSession {
    interp::Value session;
    const Feeds* feeds = nullptr;
  };
  std::vector<RunningSession> runningSessions;
  /// The tf.function trace being built (innermost), or null.
  TraceContext* trace = nullptr;
  /// Abstract Session.run (AbstractRun.h): the run signatures specialised so far, the failures
  /// reported, the work done. Made on the first abstract run.
  std::unique_ptr<AbstractRunState, AbstractRunStateDeleter> abstractRuns;

  /// Names for symbolic dims of placeholders with None dims ("batch" for dim 0).
  uint32_t newSymbol(std::string_view hint);

 private:
  interp::Interpreter& in_;
  TfOptions options_;
  ApiStyle style_ = ApiStyle::Eager;
  std::vector<std::unique_ptr<Graph>> graphs_;
  Graph* default_ = nullptr;
  std::vector<Graph*> graphStack_;
  DeviceSet devices_;
  bool devicesInUse_ = false;
  std::vector<std::string> eagerDeviceScopes_;
  CreationContext eagerCreation_;
  uint64_t abstractIds_ = 0;
  std::unique_ptr<Execution> exec_;  ///< last: made from, and destroyed before, the state above
};

/// Installs `_tlens`, `tensorflow` (and its submodules), `numpy`, `keras` into `in`'s module
/// registry. The runtime lives as long as the interpreter (it is attached to it). A concrete
/// interpreter needs `options.execution` (std::invalid_argument otherwise).
std::shared_ptr<TfRuntime> installTensorFlow(interp::Interpreter& in, TfOptions options = {});

}  // namespace tlens::tf
