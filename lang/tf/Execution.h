// Execution: what the tensorflow/numpy modules need from the engine's runtime to run a program
// concretely (kernels, sessions, tapes, variables' values), as an interface. `tlens_tf` (this
// folder) links only `tlens_core` and the interpreter: it builds graphs, places ops and runs shape
// functions, which is all abstract mode (the language server, `tlens check`) needs. The kernels are
// reached only through these classes, implemented over EagerContext and Session by `tlens_tf_exec`
// (lang/tf/exec/KernelExecution.h); whoever runs programs concretely (the `tlens` binary, the
// debugger, the tests) passes that backend in TfOptions::execution.
//
// A TfRuntime has an Execution exactly when its interpreter is concrete; abstract mode never
// reaches one, so it can never run a kernel.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/DeviceSet.h"
#include "engine/core/EagerValue.h"
#include "engine/graph/Graph.h"
#include "engine/graph/Placement.h"

namespace tlens::tf {

class TfRuntime;

/// Values fed to a graph run, by the output they replace.
using Feeds = std::vector<std::pair<Output, Tensor>>;

/// The copies between devices one graph run made (tf.debugging.set_log_device_placement).
struct CopyRecord {
  std::string tensor;  ///< "dense/MatMul:0"
  Device from, to;
  size_t bytes = 0;
};
struct CopySummary {
  size_t count = 0;
  size_t bytes = 0;
  std::vector<CopyRecord> first;  ///< the first copies, at most as many as asked for
};

/// A tf.GradientTape's recording of eager ops (concrete mode).
class Tape {
 public:
  virtual ~Tape() = default;
  /// Watches a tensor (tape.watch, trainable variables read while the tape records).
  virtual void watch(const EagerValue& v) = 0;
  /// d(target)/d(source) for each source (an invalid Tensor where the source is unconnected).
  /// Throws EngineError as the engine does.
  virtual std::vector<Tensor> gradient(const EagerValue& target, const std::vector<EagerValue>& sources) = 0;
};

/// A tf.Session's executor over one graph (concrete mode).
class GraphSession {
 public:
  virtual ~GraphSession() = default;
  /// Values of `fetches` after running what they and `targets` need, with the run options of the
  /// runtime (check-numerics, the debugger's hooks). Throws EngineError with TensorFlow's wording.
  virtual std::vector<Tensor> run(const std::vector<Output>& fetches, const Feeds& feeds,
                                  const std::vector<Node*>& targets) = 0;
  /// tf.set_random_seed before the session was made: its random ops start from this seed.
  virtual void setGraphSeed(int64_t seed) = 0;
  /// The copies between devices of the last run, listing at most `maxListed`.
  virtual CopySummary lastCopies(size_t maxListed) const = 0;
};

/// One concrete run's access to kernels and the values they make.
class Execution {
 public:
  virtual ~Execution() = default;

  // --- eager ops ------------------------------------------------------------------------------
  /// Runs one op now on the device `deviceScope` asks for (null: no tf.device scope), with
  /// `where` as its creation context (hooks and tapes see it). `varNames` binds ref inputs to
  /// variables. Throws EngineError like a graph run would.
  virtual std::vector<EagerValue> execute(const OpDef& op, const std::vector<EagerValue>& inputs, const Attrs& attrs,
                                          const std::vector<std::string>& varNames, const std::string* deviceScope,
                                          CreationContext& where) = 0;
  /// Whether the next execute() reads its creation context: debug hooks, check-numerics and
  /// recording tapes do; otherwise callers need not fill it (issue #16: capturing the Python
  /// stack for every eager op was a large part of an op's cost).
  virtual bool readsCreation() const { return true; }
  /// Where the last executed op ran, and why not elsewhere.
  virtual const Placement& lastPlacement() const = 0;
  /// Gives a tensor made outside execute() (a constant, a variable read) an identity.
  virtual EagerValue wrap(Tensor t) = 0;

  // --- eager variables and random state -------------------------------------------------------
  /// The eager variable's current value, or null.
  virtual Tensor* variable(const std::string& name) = 0;
  /// Whether the name is taken by a variable (even one without a value yet).
  virtual bool hasVariable(const std::string& name) = 0;
  virtual void setVariable(const std::string& name, Tensor value) = 0;
  /// tf.set_random_seed / tf.random.set_seed in eager code: the seed, and fresh generators.
  virtual void reseed(int64_t graphSeed) = 0;

  // --- tapes and sessions ---------------------------------------------------------------------
  virtual std::unique_ptr<Tape> newTape(bool persistent) = 0;
  /// A tape records the eager ops run between push and pop.
  virtual void pushTape(Tape& t) = 0;
  virtual void popTape(Tape& t) = 0;
  /// A session over `g`, owned by the execution (it lives as long as the run).
  virtual GraphSession& newSession(Graph& g) = 0;

  // --- what only kernels know ----------------------------------------------------------------
  /// TensorFlow's Tensor::SummarizeValue (tf.Print's format), at most `maxEntries` elements.
  virtual std::string summarizeValue(const Tensor& t, int64_t maxEntries) = 0;
  /// One TFRecord-framed TensorBoard Event: `field` 3 (file_version), 4 (graph_def: `payload` is
  /// ignored, `graph` is serialized) or 5 (a serialized Summary in `payload`).
  virtual std::string eventRecord(double wallTime, int64_t step, int field, const std::string& payload,
                                  const Graph* graph = nullptr) = 0;
  /// `data` framed as one TFRecord: length, its masked CRC32C, data, the data's masked CRC32C.
  virtual std::string tfRecord(const std::string& data) = 0;
  /// TFRecord's masked CRC32C of `data`.
  virtual uint32_t tfRecordCrc(const std::string& data) = 0;
};

/// The process-wide provider of executions: the machine's devices and one Execution per concrete
/// run. Implemented by tlens_tf_exec (lang/tf/exec/KernelExecution.h).
class ExecutionBackend {
 public:
  virtual ~ExecutionBackend() = default;
  /// The CPU and the machine's GPUs (or virtual ones, as requested).
  virtual DeviceSet machineDevices(const DeviceRequest& request) const = 0;
  /// The execution of one concrete run; `rt` outlives it.
  virtual std::unique_ptr<Execution> start(TfRuntime& rt) const = 0;
};

}  // namespace tlens::tf
