// State that outlives one run: variable values and random generators. A Session owns one; the
// eager context owns another.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>

#include "engine/core/Tensor.h"

namespace tlens {

class Resources {
 public:
  /// nullptr when the variable has not been initialised.
  Tensor* variable(const std::string& name) {
    auto it = vars_.find(name);
    return it == vars_.end() ? nullptr : &it->second;
  }
  void setVariable(const std::string& name, Tensor t) { vars_[name] = std::move(t); }
  const std::unordered_map<std::string, Tensor>& variables() const { return vars_; }
  void clear() { vars_.clear(); rngs_.clear(); }
  /// Restarts every random generator (a new seed was set).
  void clearRngs() { rngs_.clear(); }

  /// The generator of a random op, created from (graphSeed, opSeed) on first use and advanced
  /// across runs, as TensorFlow's stateful random ops are. Deterministic by default.
  std::mt19937_64& rng(const std::string& node, int64_t seed, int64_t seed2);
  void setGraphSeed(int64_t s) { graphSeed_ = s; }
  int64_t graphSeed() const { return graphSeed_; }

 private:
  std::unordered_map<std::string, Tensor> vars_;
  std::unordered_map<std::string, std::mt19937_64> rngs_;
  int64_t graphSeed_ = 0;
};

}  // namespace tlens
