// Abstract Session.run: the shape errors a run raises, found without running it.
//
// A TF1 graph is built with `None` dims, so most of its shape errors wait for the run that feeds
// it: `tf.reshape(h_pool2, [-1, 7 * 7 * 64])` after a 'VALID' convolution, `tf.matmul(x, W)` fed a
// batch with 785 columns. At each `sess.run` / `Tensor.eval` / `Operation.run` in abstract mode,
// the fetched subgraph (pruned at the feeds, as Session::planFor prunes it) is typed again with the
// fed values' known shapes (and the values of small integer feeds), by the registry's shape
// functions: the same ones the executor calls on concrete shapes before each kernel, so what this
// finds is what the run raises. Only nodes downstream of a feed that says more than the
// placeholder are inferred again; the rest keep their static types.
//
// Bounded by work, not time: each distinct run signature (graph, fetches, targets, fed types) is
// specialised once per analysis (a training loop's runs share one), and a runtime infers at most
// kRunNodeBudget nodes over all runs. Nothing is materialised: types only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/graph/Graph.h"

namespace tlens::tf {

class TfRuntime;

/// A fed tensor as the analysis knows it: the placeholder (or any output) fed, the fed value's
/// type (shape dims it does not know are unknown) and where the value comes from.
struct AbstractFeed {
  Output target;
  TensorType type;
  SourceLocation origin;
};

/// The first node of a run whose shape function fails on the run's types.
struct RunFailure {
  Node* node = nullptr;
  std::string error;                ///< the shape function's message (TensorFlow's)
  std::vector<int> blame;           ///< the inputs the conflict involves
  std::vector<TensorType> inputs;   ///< the node's input types in this run
  DiagnosticData data;              ///< the shape function's payload (op, inputs' shapes, dtypes)
};

struct Specialisation {
  /// Per fetch: its type in this run (at least as specific as the static type).
  std::vector<TensorType> fetches;
  std::optional<RunFailure> failure;
  size_t inferred = 0;    ///< shape functions called
  size_t visited = 0;     ///< nodes of the run's subgraph walked
  bool cutShort = false;  ///< the node budget ran out: no failure can be trusted to be the first
};

/// The fetched subgraph typed with `feeds` (pure: the graph is not changed). Nodes downstream of a
/// tf.cond Switch are typed but never reported: the run may not take their branch. At most
/// `nodeBudget` shape functions are called.
Specialisation specialiseRun(const std::vector<Output>& fetches, const std::vector<Node*>& targets,
                             const std::vector<AbstractFeed>& feeds, size_t nodeBudget);

/// Shape functions called plus nodes walked, over all the abstract runs of one analysis; a new
/// signature is specialised only while the total is below it.
constexpr size_t kRunNodeBudget = 200000;
/// Distinct signatures one analysis specialises; later new ones keep the static types.
constexpr size_t kRunSignatureBudget = 512;

/// Work counts of one analysis' abstract runs (tests, benchmarks).
struct AbstractRunStats {
  size_t signatures = 0;  ///< distinct run signatures specialised
  size_t inferred = 0;    ///< shape functions called for them
  size_t visited = 0;     ///< subgraph nodes walked for them
};
AbstractRunStats abstractRunStats(const TfRuntime& rt);

/// Abstract mode, Session.run: specialises the run (once per signature), reports its first
/// failure as an error at the failing node's line (the run as related information; once per
/// node: runs of other batch sizes that fail there say nothing new), and returns the fetches' types for this run.
std::vector<TensorType> abstractRun(TfRuntime& rt, const std::vector<Output>& fetches,
                                    const std::vector<Node*>& targets, const std::vector<AbstractFeed>& feeds);

}  // namespace tlens::tf
