// Session: runs a graph. `run(fetches, feeds, targets)` prunes the graph to what the fetches and
// targets need (stopping at fed tensors), validates feeds against their placeholders with
// TensorFlow's wording, and runs the needed nodes in ascending id order, which is a deterministic
// topological order. Variable values and random generators persist across runs in Resources.
// Tensors are freed as soon as their last consumer has run. A While node (a graph loop,
// engine/graph/Loops.h) runs its condition and body frames with nested runs of the same executor
// (SessionLoops.cpp).
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "engine/graph/Graph.h"
#include "engine/runtime/DebugHooks.h"
#include "engine/runtime/Resources.h"
#include "engine/runtime/Transfers.h"

namespace tlens {

using Feeds = std::vector<std::pair<Output, Tensor>>;

struct RunOptions {
  bool checkNumerics = false;   ///< stop at the first node that produces NaN/Inf
  DebugHooks* hooks = nullptr;  ///< debugger hooks; null costs nothing
};

class Session {
 public:
  explicit Session(Graph& g);
  ~Session();

  /// Values of `fetches`, after running every node they and `targets` depend on. Throws
  /// EngineError (InvalidArgument for bad feeds and shape errors, FailedPrecondition for
  /// uninitialised variables, Cancelled when a hook cancels, NumericsError in check mode).
  std::vector<Tensor> run(const std::vector<Output>& fetches, const Feeds& feeds = {},
                          const std::vector<Node*>& targets = {}, const RunOptions& opts = {});
  /// Runs `targets` only.
  void runTargets(const std::vector<Node*>& targets, const Feeds& feeds = {},
                  const RunOptions& opts = {}) {
    run({}, feeds, targets, opts);
  }

  Graph& graph() { return graph_; }
  Resources& resources() { return resources_; }
  /// The nodes the last run needed, in order (variables included, though they are read lazily).
  const std::vector<const Node*>& lastPlan() const { return lastPlan_; }
  /// The copies between devices the last run made (none when every node is on the CPU).
  const Transfers& lastTransfers() const { return transfers_; }

 private:
  struct Plan;
  struct LoopState;  ///< loops' frame plans and recorded iterations (SessionLoops.cpp)
  using Values = std::vector<std::vector<Tensor>>;
  using FedValues = std::map<Output, Tensor>;
  const Tensor& readVariable(const Node* var, const Node* consumer);
  Tensor fetched(const Tensor& t, const Output& o);
  const Plan& planFor(const std::vector<Output>& fetches, const Feeds& feeds,
                      const std::vector<Node*>& targets);
  /// The nodes with ids in [lo, hi) that `fetches` and `targets` need, stopping at `fed`.
  std::unique_ptr<Plan> buildPlan(const std::vector<Output>& fetches, const std::map<Output, bool>& fed,
                                  const std::vector<Node*>& targets, int lo, int hi);
  /// Runs a plan's nodes in order; values are indexed by node id minus the plan's first id.
  void execute(const Plan& plan, Values& values, const FedValues& fedValues, const RunOptions& opts,
               DebugHooks* hooks);
  /// One run of a loop frame (nested in a run): the values of `fetches` (dead ones empty).
  std::vector<Tensor> runFrame(const Plan& plan, const FedValues& fedValues, const std::vector<Output>& fetches,
                               const RunOptions& opts);
  std::vector<Tensor> runWhile(Node* node, const std::vector<Tensor>& inputs, const RunOptions& opts);
  std::vector<Tensor> runWhileGrad(Node* node, const std::vector<Tensor>& inputs, const RunOptions& opts);
  /// Drops what loops recorded during a run (the gradient reads it in the same run only).
  void endLoops();

  Graph& graph_;
  Resources resources_;
  std::map<std::vector<int64_t>, std::unique_ptr<Plan>> plans_;
  std::unique_ptr<LoopState> loops_;
  std::vector<const Node*> lastPlan_;
  Transfers transfers_;
};

/// Checks a fed value against the static type of the tensor it replaces, casting numeric dtypes
/// as TensorFlow's feed_dict conversion does. Throws with TensorFlow's message on a shape mismatch:
/// "Cannot feed value of shape (19,) for Tensor 'x:0', which has shape '(?, 19)'".
Tensor validateFeed(const Output& target, const Tensor& value);

}  // namespace tlens
