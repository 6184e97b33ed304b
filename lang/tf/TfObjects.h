// The native objects of the tensorflow module besides tensors: sessions, operations, graphs,
// scopes (name_scope, device, control_dependencies, as_default) and gradient tapes.
#pragma once

#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

/// A graph node without (interesting) outputs: tf.Operation (train ops, initializers, NoOps).
class OperationObj : public interp::NativeObject {
 public:
  OperationObj(TfRuntime& rt, Graph& g, Node* n) : rt(&rt), graph(&g), node(n) {}
  TfRuntime* rt;
  Graph* graph;
  Node* node;  ///< null for the eager no-op (an initializer in eager mode)
  std::string typeName() const override { return "Operation"; }
  bool isCallable() const override { return false; }
  std::string typeModule() const override { return "tensorflow"; }
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  std::string repr(interp::Interpreter& in) override;
};

class SessionObj : public interp::NativeObject {
 public:
  SessionObj(TfRuntime& rt, Graph& g, bool interactive, bool softPlacement = false);
  TfRuntime* rt;
  Graph* graph;
  GraphSession* session;  ///< null in abstract mode (nothing runs)
  bool closed = false;
  bool interactive;
  bool softPlacement;  ///< ConfigProto(allow_soft_placement=True)
  size_t placedNodes = 0;  ///< nodes already checked for placement
  std::string typeName() const override { return interactive ? "InteractiveSession" : "Session"; }
  bool isCallable() const override { return false; }
  std::string typeModule() const override { return "tensorflow"; }
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  interp::Value enter(interp::Interpreter& in) override;
  bool exit(interp::Interpreter& in, const interp::Value& exc) override;
  /// Session.run(fetches, feed_dict): fetches may be tensors, operations, names and nested
  /// lists, tuples and dicts of them; the result has the same structure.
  interp::Value run(const interp::Value& fetches, const interp::Value& feedDict);
  void placeNodes();
};

class GraphObj : public interp::NativeObject {
 public:
  GraphObj(TfRuntime& rt, Graph& g) : rt(&rt), graph(&g) {}
  TfRuntime* rt;
  Graph* graph;
  std::string typeName() const override { return "Graph"; }
  std::string typeModule() const override { return "tensorflow"; }
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  interp::Value compare(interp::Interpreter& in, interp::CmpOp op, const interp::Value& other, bool reflected) override;
};

/// A `with` scope: enter/exit run the given functions (name_scope, device, control_dependencies,
/// Graph.as_default). `value` is what `as` binds.
class ScopeObj : public interp::NativeObject {
 public:
  std::string kind;
  std::function<interp::Value()> onEnter;
  std::function<void()> onExit;
  std::string typeName() const override { return kind; }
  std::string typeModule() const override { return "tensorflow"; }
  interp::Value enter(interp::Interpreter&) override { return onEnter ? onEnter() : interp::none(); }
  bool exit(interp::Interpreter&, const interp::Value&) override {
    if (onExit) onExit();
    return false;
  }
};

class TapeObj : public interp::NativeObject {
 public:
  TapeObj(TfRuntime& rt, bool persistent)
      : rt(&rt), tape(rt.executes() ? rt.exec().newTape(persistent) : nullptr), persistent(persistent) {}
  TfRuntime* rt;
  std::unique_ptr<Tape> tape;  ///< null in abstract mode (nothing runs)
  bool persistent;
  bool used = false;
  std::vector<interp::Value> watched;  ///< abstract mode and graph mode: what was watched
  /// Trainable variables read while the tape was recording (watched_variables()).
  std::vector<interp::Value> accessed;
  std::string typeName() const override { return "GradientTape"; }
  std::string typeModule() const override { return "tensorflow"; }
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  interp::Value enter(interp::Interpreter& in) override;
  bool exit(interp::Interpreter& in, const interp::Value& exc) override;
};

/// A trainable variable was read while tapes record: each recording tape of `rt` remembers it
/// (GradientTape.watched_variables, tf.contrib.eager's implicit gradients).
void noteVariableRead(TfRuntime& rt, const interp::Value& variable);

/// Outputs of tensors given as Python values (tensors, names "x:0"), for sessions and gradients.
Output outputOf(TfRuntime& rt, Graph& g, const interp::Value& v);

/// Registers the native module `_tlens` (see CoreModule.cpp for its functions).
void registerCoreModule(interp::Interpreter& in, const std::shared_ptr<TfRuntime>& rt);

}  // namespace tlens::tf
