// Graph: nodes named like TensorFlow's under name scopes ("fc1/MatMul", "fc1/MatMul_1"), with
// control dependencies, a requested and an assigned device, and the source location and creation
// call stack that the caller (the interpreter) supplies. Nodes are created in topological order
// (inputs must exist first), so ascending id is a valid execution order.
//
// Adding a node runs the op's shape function; a shape error throws EngineError(InvalidArgument)
// with TensorFlow's message, unless the caller asked to record it on the node instead (abstract
// analysis keeps going past errors).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/base/SourceLocation.h"
#include "engine/core/Device.h"
#include "engine/core/DeviceSet.h"
#include "engine/graph/NameSet.h"
#include "engine/ops/OpDef.h"

namespace tlens {

struct Node {
  int id = 0;
  std::string name;  ///< unique in its graph: "fc1/MatMul_1"
  const OpDef* op = nullptr;
  std::vector<Output> inputs;
  std::vector<Node*> controlInputs;
  Attrs attrs;
  std::vector<TensorType> outputs;
  std::string requestedDevice;  ///< from tf.device scopes; empty when none
  Device device;                ///< where it runs (assigned at creation, engine/graph/Placement.h)
  std::string placementNote;    ///< why it is not where it was asked or defaulted to; empty if it is
  bool softPlaced = false;      ///< an explicit tf.device request could not be honoured
  SourceLocation location;
  std::vector<StackFrame> stack;
  std::string shapeError;  ///< set only when created with tolerateShapeErrors and inference failed
  Node* initializer = nullptr;  ///< VariableV2 only: the Assign node that initialises it

  const std::string& type() const { return op->type; }
  Output out(int i = 0) { return Output{this, i}; }
  size_t numOutputs() const { return outputs.size(); }
};

/// Where and how the next node is created; the interpreter updates it as it walks the source.
struct CreationContext {
  SourceLocation location;
  std::vector<StackFrame> stack;
};

struct NodeOptions {
  std::string name;  ///< the `name=` argument; made unique under the current scope
  bool tolerateShapeErrors = false;
};

class Graph {
 public:
  Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  using NodeOptions = tlens::NodeOptions;
  /// Creates a node of op `type`. Throws EngineError on unknown ops, wrong input counts, and
  /// (unless tolerated) shape errors.
  Node* addNode(std::string_view type, std::vector<Output> inputs, Attrs attrs = {},
                const NodeOptions& opts = {});
  /// Shorthand: the first output of a new node.
  Output op(std::string_view type, std::vector<Output> inputs, Attrs attrs = {},
            std::string name = {});

  const std::deque<Node>& nodes() const { return nodes_; }
  std::deque<Node>& nodes() { return nodes_; }
  size_t size() const { return nodes_.size(); }
  Node* node(int id) { return &nodes_[static_cast<size_t>(id)]; }
  Node* find(std::string_view name);
  /// "fc1/MatMul:0" or "fc1/MatMul" -> the output.
  Output findOutput(std::string_view name);

  // Scopes, as `with tf.name_scope(...)`, `with tf.device(...)`, `with tf.control_dependencies(...)`.
  /// Enters a name scope; returns the unique scope name actually used ("fc1", "fc1_1").
  std::string pushNameScope(const std::string& name);
  void popNameScope();
  const std::string& nameScope() const { return scopes_.empty() ? kEmpty : scopes_.back(); }
  void pushDevice(const std::string& spec) {
    checkNotFrozen();
    devices_.push_back(spec);
  }
  void popDevice() { if (!devices_.empty()) devices_.pop_back(); }
  /// `clear`: the dependencies of the enclosing contexts stop here (tf.control_dependencies(None),
  /// and variable creation, as TensorFlow's init_scope).
  void pushControlDependencies(std::vector<Node*> deps, bool clear = false) {
    checkNotFrozen();
    controls_.push_back({std::move(deps), clear});
  }
  void popControlDependencies() { if (!controls_.empty()) controls_.pop_back(); }
  /// tf.cond: while one branch is built, every input from outside the branch goes through a
  /// Switch on `pred` (its output `branch`: 0 false, 1 true) and nodes with no data input depend
  /// on the branch's pivot, so the branch not taken is dead when the graph runs (the Session
  /// skips dead nodes; Merge joins the branches) and gradients flow back through the Switches.
  void pushCondBranch(Output pred, int branch);
  void popCondBranch();
  bool inCondBranch() const { return !conds_.empty(); }

  CreationContext& creation() { return creation_; }
  /// While frozen (a debugger evaluating an expression), anything that would change the graph
  /// (a new node, a name taken, a name scope entered) throws FailedPrecondition with `why`; null
  /// thaws it. Nodes, names and counters stay exactly as they were.
  void freeze(const char* why) { frozen_ = why; }
  bool frozen() const { return frozen_ != nullptr; }
  /// Variables of this graph in creation order (tf.global_variables()).
  const std::vector<Node*>& variables() const { return variables_; }
  /// A NoOp that depends on every variable's initializer (tf.global_variables_initializer()).
  Node* globalVariablesInitializer();
  std::vector<Node*> trainableVariables() const;
  /// The name a node called `base` would get now, and reserve it.
  std::string uniqueName(const std::string& base);
  /// The devices new nodes are placed on (placeOp's rules); null: only the CPU. The set must
  /// outlive the graph's use.
  void setDevices(const DeviceSet* d) { deviceSet_ = d; }
  const DeviceSet* devices() const { return deviceSet_; }
  /// The innermost tf.device scope ("" when none).
  const std::string& deviceScope() const { return devices_.empty() ? kEmpty : devices_.back(); }

 private:
  static const std::string kEmpty;
  std::deque<Node> nodes_;
  /// Nodes by name, indexed when first asked (find()): an abstract run makes thousands of nodes
  /// and never looks one up by name. nodes_[indexed_...] are not in it yet.
  std::unordered_map<std::string, Node*> byName_;
  size_t indexed_ = 0;
  std::unordered_map<std::string, int> nameCounts_;
  NameSet usedNames_;
  std::vector<std::string> scopes_;
  std::vector<std::string> devices_;
  struct ControlContext {
    std::vector<Node*> deps;
    bool clear = false;
  };
  std::vector<ControlContext> controls_;
  struct CondBranch {
    Output pred;
    int branch = 0;
    int firstId = 0;       ///< nodes from this id on belong to the branch
    Node* pivot = nullptr;  ///< Identity of Switch(pred, pred)[branch]: live only when taken
    std::map<std::pair<int, int>, Output> captured;  ///< outside output -> its Switch output
  };
  std::vector<CondBranch> conds_;
  /// `in` as seen from inside the innermost branch (its Switch output, made on first use).
  Output captureIntoBranch(const Output& in);
  std::vector<Node*> variables_;
  CreationContext creation_;
  const DeviceSet* deviceSet_ = nullptr;
  const char* frozen_ = nullptr;
  void checkNotFrozen() const;
};

/// Types of the given outputs, in order.
std::vector<TensorType> outputTypes(const std::vector<Output>& outs);

}  // namespace tlens
