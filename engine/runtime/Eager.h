// Eager execution: ops run immediately, through the same shape functions and kernels as graph
// runs (runOp). Gradient tapes record eager ops into a private graph; `gradient()` builds the
// gradient nodes there with the ordinary graph gradient code and runs them with the recorded
// forward values fed in, so eager and graph gradients share every gradient function.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/core/EagerValue.h"
#include "engine/graph/Graph.h"
#include "engine/graph/Placement.h"
#include "engine/runtime/DebugHooks.h"
#include "engine/runtime/Resources.h"
#include "engine/runtime/Session.h"
#include "engine/runtime/Transfers.h"

namespace tlens {


class EagerContext;

class GradientTape {
 public:
  explicit GradientTape(bool persistent = false) : persistent_(persistent) {}
  void watch(const EagerValue& v);
  /// True for watched tensors and for results of recorded ops (what gradients can be taken to).
  bool watching(uint64_t id) const { return watched_.count(id) || recorded_.count(id); }
  /// Records one executed op if it touches a watched tensor.
  void record(const OpDef& op, const Attrs& attrs, const std::vector<EagerValue>& inputs,
              const std::vector<EagerValue>& outputs, const CreationContext& where);
  /// d(target)/d(source) for each source (an invalid Tensor where the source is unconnected).
  /// A non-persistent tape can compute one gradient only, as in TensorFlow.
  std::vector<Tensor> gradient(EagerContext& ctx, const EagerValue& target,
                               const std::vector<EagerValue>& sources,
                               const Tensor* outputGradient = nullptr);
  const Graph& graph() const { return graph_; }

 private:
  Output outputFor(const EagerValue& v);
  bool persistent_;
  bool used_ = false;
  Graph graph_;
  std::unordered_set<uint64_t> watched_;
  std::unordered_set<uint64_t> recorded_;
  std::unordered_map<uint64_t, Output> onTape_;
  Feeds values_;
};

class EagerContext {
 public:
  EagerContext();

  /// Runs one op now. `varNames` binds ref inputs (Assign, optimizer updates) to variables in
  /// resources(). Throws EngineError like a graph run would.
  std::vector<EagerValue> execute(const OpDef& op, const std::vector<EagerValue>& inputs,
                                  const Attrs& attrs = {},
                                  const std::vector<std::string>& varNames = {});
  std::vector<EagerValue> execute(std::string_view type, const std::vector<EagerValue>& inputs,
                                  const Attrs& attrs = {},
                                  const std::vector<std::string>& varNames = {});
  /// Gives a tensor produced outside execute() (a constant, a variable read) an identity.
  EagerValue wrap(Tensor t) { return EagerValue{std::move(t), nextId()}; }
  uint64_t nextId() { return ++ids_; }

  Resources& resources() { return resources_; }
  void setHooks(DebugHooks* h) { hooks_ = h; }
  void setCheckNumerics(bool on) { checkNumerics_ = on; }
  bool checkNumerics() const { return checkNumerics_; }
  /// The program's devices (null: the CPU only); the set must outlive the context's use.
  void setDevices(const DeviceSet* d) { devices_ = d; }
  const DeviceSet* devices() const { return devices_; }
  /// `with tf.device(spec)` in eager code.
  void pushDevice(std::string spec) { deviceScopes_.push_back(std::move(spec)); }
  void popDevice() { if (!deviceScopes_.empty()) deviceScopes_.pop_back(); }
  const std::string& deviceScope() const {
    static const std::string kNone;
    return deviceScopes_.empty() ? kNone : deviceScopes_.back();
  }
  /// Where `op` runs now (placeOp's rules, eager always places softly). `varNames` as in
  /// execute: an op that updates a variable runs where the variable lives.
  /// `strings`: an input is a string tensor (it then runs on the host, see placeOp).
  Placement placement(const OpDef& op, const std::vector<std::string>& varNames = {}, bool strings = false);
  /// Where the last executed op ran, and why not elsewhere.
  const Placement& lastPlacement() const { return lastPlacement_; }
  /// Copies between devices made by eager ops so far.
  const Transfers& transfers() const { return transfers_; }
  /// Source location and Python stack of the op about to run (the interpreter keeps it current).
  CreationContext& creation() { return creation_; }

  void pushTape(GradientTape* t) { tapes_.push_back(t); }
  void popTape(GradientTape* t);
  /// Ops run inside gradient() are not recorded on the tapes.
  bool recording() const { return !tapes_.empty() && !pauseRecording_; }

 private:
  friend class GradientTape;
  Resources resources_;
  DebugHooks* hooks_ = nullptr;
  bool checkNumerics_ = false;
  const DeviceSet* devices_ = nullptr;
  std::vector<std::string> deviceScopes_;
  Placement lastPlacement_;
  Transfers transfers_;
  CreationContext creation_;
  std::vector<GradientTape*> tapes_;
  bool pauseRecording_ = false;
  uint64_t ids_ = 0;
  int64_t opCount_ = 0;
};

}  // namespace tlens
