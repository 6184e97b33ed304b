// OpRegistry: every op tensorlens knows, by TensorFlow type and by Python API name. Filled once
// by registerBuiltinOps(); read-only afterwards, so it is safe to read from any thread.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/ops/OpDef.h"

namespace tlens {

class OpRegistry {
 public:
  /// The registry with every builtin op.
  static const OpRegistry& global();

  /// Adds an op; a second op with the same type replaces nothing and aborts (a programming error).
  OpDef& add(OpDef def);
  const OpDef* find(std::string_view type) const;
  /// Looks up "tf.matmul", "tf.nn.relu"...
  const OpDef* findByApi(std::string_view apiName) const;
  /// Throws EngineError(NotFound) with the op name.
  const OpDef& get(std::string_view type) const;
  std::vector<const OpDef*> all() const;

 private:
  std::vector<std::unique_ptr<OpDef>> ops_;
  std::unordered_map<std::string, OpDef*> byType_;
  std::unordered_map<std::string, OpDef*> byApi_;
};

/// A fluent builder so op definitions read like TensorFlow's REGISTER_OP.
class OpBuilder {
 public:
  OpBuilder(OpRegistry& r, std::string type) : reg_(r) { def_.type = std::move(type); }
  ~OpBuilder() noexcept(false);
  OpBuilder& api(std::string name) { def_.api.push_back(std::move(name)); return *this; }
  OpBuilder& input(std::string name) { def_.inputs.push_back({std::move(name), false}); return *this; }
  OpBuilder& inputList(std::string name) { def_.inputs.push_back({std::move(name), true}); return *this; }
  OpBuilder& attr(std::string name, AttrValue def = {}, std::string doc = {}) {
    def_.attrs.push_back({std::move(name), std::move(def), std::move(doc)});
    return *this;
  }
  OpBuilder& shape(ShapeFn f) { def_.shape = std::move(f); return *this; }
  OpBuilder& grad(GradFn f) { def_.grad = std::move(f); return *this; }
  OpBuilder& notDifferentiable() { def_.differentiable = false; return *this; }
  OpBuilder& stateful() { def_.stateful = true; return *this; }
  /// Input i is a variable reference (see OpDef::refInputs); implies stateful.
  OpBuilder& refInput(int i) { def_.refInputs.push_back(i); def_.stateful = true; return *this; }
  OpBuilder& doc(std::string s) { def_.summary = std::move(s); return *this; }
  /// Input i is read on the host by every kernel (negative: from the end, for an axis after a list).
  OpBuilder& hostInput(int i) { def_.hostInputs.push_back(i); return *this; }
  /// The op has no GPU kernel, and why.
  OpBuilder& cpuOnly(std::string why) { def_.cpuOnly = std::move(why); return *this; }
  /// The kernel reads only the shapes of its inputs.
  OpBuilder& readsOnlyShapes() { def_.readsOnlyShapes = true; return *this; }
  /// How string tensors are handled (see OpDef::Strings).
  OpBuilder& strings(OpDef::Strings s) { def_.strings = s; return *this; }
  /// Outputs may be left dead (see OpDef::deadOutputs).
  OpBuilder& deadOutputs() { def_.deadOutputs = true; return *this; }

 private:
  OpRegistry& reg_;
  OpDef def_;
};

/// Registration entry points, one per op family (engine/ops/defs/*.cpp). Explicit calls rather
/// than static initialisers, so static linking can never drop an op.
void registerBuiltinOps(OpRegistry& r);

}  // namespace tlens
