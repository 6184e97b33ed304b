// The MLP training workload (784-256-256-10, Adam, softmax cross entropy) in two forms:
// GraphMlp builds it with the engine's ops and runs steps through a Session, as a TF1 program
// would; EigenMlp is the same step written by hand with Eigen, the baseline for benchmarks.
// Both start from the same weights, so their losses can be compared step by step.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/graph/Graph.h"
#include "engine/runtime/Session.h"

namespace tlens::workloads {

struct MlpConfig {
  int batch = 128;
  int inputs = 784;
  int hidden1 = 256;
  int hidden2 = 256;
  int classes = 10;
  float learningRate = 1e-3f;
  float beta1 = 0.9f, beta2 = 0.999f, epsilon = 1e-8f;
  uint64_t seed = 1;
  /// The devices the graph is placed on (null: the CPU only).
  const DeviceSet* devices = nullptr;
};

/// Synthetic MNIST-shaped batches: inputs in [0, 1), one-hot labels from a fixed random teacher,
/// so the loss falls as the model learns. Deterministic for a seed.
struct MlpBatch {
  Tensor x;  ///< float32 [batch, inputs]
  Tensor y;  ///< float32 [batch, classes], one-hot
};
MlpBatch makeBatch(const MlpConfig& c, uint64_t step);

/// Initial weights (truncated-normal-like, scaled by fan-in) and zero biases.
struct MlpWeights {
  Tensor w1, b1, w2, b2, w3, b3;
};
MlpWeights initialWeights(const MlpConfig& c);

class GraphMlp {
 public:
  explicit GraphMlp(const MlpConfig& c);
  /// One Adam step; returns the loss before the update.
  float step(const MlpBatch& b, const RunOptions& opts = {});
  Graph& graph() { return graph_; }
  Session& session() { return *session_; }
  Output loss() const { return loss_; }

 private:
  Graph graph_;
  std::unique_ptr<Session> session_;
  Output x_, y_, loss_;
  Node* train_ = nullptr;
};

class EigenMlp {
 public:
  explicit EigenMlp(const MlpConfig& c);
  ~EigenMlp();
  float step(const MlpBatch& b);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace tlens::workloads
