// TensorObj: a tensor as Python code sees it (tf.Tensor, an eager tensor, a tf.Variable, a numpy
// ndarray). One class for all of them, because every op accepts any of them:
//
//   Symbolic  a graph node's output (TF1 graphs, tf.function traces); static type from the node
//   Concrete  an eager value computed by a kernel (concrete mode); type from the value
//   Abstract  an eager value in abstract mode: only its static type (and small known constants)
//
// A variable is a TensorObj with `variable` set: in a graph its node is the VariableV2; eagerly
// its value lives in the eager context's resources under `varName` and is read at each use.
// An ndarray is a tensor with numpy semantics (`ndarray`): numpy promotion, `.shape` a tuple,
// repr like numpy's.
#pragma once

#include <memory>
#include <string>

#include "engine/core/EagerValue.h"
#include "engine/graph/Graph.h"
#include "lang/interp/Interpreter.h"

namespace tlens::tf {

class TfRuntime;

class TensorObj : public interp::NativeObject {
 public:
  enum class Form : uint8_t { Symbolic, Concrete, Abstract };

  TensorObj(TfRuntime& rt, Form f) : rt(&rt), form(f) {}

  TfRuntime* rt;
  Form form;
  // Symbolic
  Graph* graph = nullptr;
  Output out;
  // Concrete (for variables: the value as last read)
  EagerValue value;
  /// The static type: the node's output type, the concrete value's type, or the abstract type.
  /// Eager and abstract-eager tensors: the device the producing op was placed on, and why it is
  /// not where it was asked or defaulted to (empty when it is). Graph tensors read their node's.
  Device device;
  std::string placementNote;
  /// Where this tensor lives or will live ("/gpu:0"), and the placement note.
  std::string deviceName() const;
  const std::string& devicePlacementNote() const;
  TensorType type;
  /// Where the Python expression that produced it is.
  SourceLocation origin;
  bool ndarray = false;
  /// A string ndarray's numpy kind: 'U' (str elements), 'S' (bytes) or 'O'/0 (an object array of
  /// bytes, as TensorFlow returns tf.string values). See NumpyFormat.h.
  char strKind = 0;
  // Variables
  bool variable = false;
  bool trainable = true;
  std::string varName;  ///< eager: key in resources(); graph: the VariableV2 node's name
  /// Eager: the name asked for. TensorFlow 2 does not make eager variables' names unique (two
  /// tf.Variable(1.0, name="x") are both "x:0"); varName is, as the resources' key.
  std::string requestedName;
  const std::string& shownVariableName() const { return requestedName.empty() ? varName : requestedName; }
  /// A slice of a variable (v[0, 0]): (variable, begin, end, strides, masks), so that
  /// `v[0, 0].assign(x)` can write through to the variable as TensorFlow's sliced assign does.
  interp::Value sliceOf;

  /// The current type (for eager variables, of the current value).
  const TensorType& staticType() const { return type; }
  bool isSymbolic() const { return form == Form::Symbolic; }
  /// Concrete: the value (for variables, read now). Throws EngineError when uninitialised.
  EagerValue concrete();
  /// Concrete: the value in memory the host can read (a copy when it lives on a CUDA device).
  Tensor hostValue();

  // NativeObject
  std::string typeName() const override;
  std::string typeModule() const override { return ndarray ? "numpy" : "tensorflow"; }
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  std::vector<std::string> attributeNames(interp::Interpreter& in) override;
  bool setAttr(interp::Interpreter& in, std::string_view name, const interp::Value& v) override;
  interp::Value binaryOp(interp::Interpreter& in, interp::BinOp op, const interp::Value& other,
                         bool reflected) override;
  interp::Value inplaceOp(interp::Interpreter& in, interp::BinOp op, const interp::Value& other) override;
  interp::Value unaryOp(interp::Interpreter& in, interp::UnaryOp op) override;
  interp::Value compare(interp::Interpreter& in, interp::CmpOp op, const interp::Value& other,
                        bool reflected) override;
  interp::Value getItem(interp::Interpreter& in, const interp::Value& key) override;
  bool setItem(interp::Interpreter& in, const interp::Value& key, const interp::Value& v) override;
  interp::Value iter(interp::Interpreter& in) override;
  std::optional<int64_t> len(interp::Interpreter& in) override;
  interp::Truth truthy(interp::Interpreter& in) override;
  std::string repr(interp::Interpreter& in) override;
  std::string str(interp::Interpreter& in) override;
  interp::Value join(interp::Interpreter& in, const interp::Value& other) override;
  std::optional<int64_t> hash(interp::Interpreter& in) override;
  bool isCallable() const override { return false; }

 private:
  /// getItem before a numpy string element becomes a Python str/bytes.
  interp::Value index(interp::Interpreter& in, const interp::Value& key);
};

/// A dtype object: tf.float32, np.float64 (callable in numpy: np.float32(1.5)).
class DTypeObj : public interp::NativeObject {
 public:
  explicit DTypeObj(DType t, bool numpy = false, TfRuntime* rt = nullptr) : dtype(t), numpy(numpy), rt(rt) {}
  DType dtype;
  bool numpy;
  TfRuntime* rt;
  /// numpy string dtypes: "<U5", "|S3" or "O" (empty: "O" for a numpy string dtype).
  std::string npName;
  std::string typeName() const override { return numpy ? "dtype[" + std::string(dtypeName(dtype)) + "]" : "DType"; }
  std::string typeModule() const override { return numpy ? "numpy" : "tensorflow"; }
  interp::Value getAttr(interp::Interpreter& in, std::string_view name) override;
  interp::Value compare(interp::Interpreter& in, interp::CmpOp op, const interp::Value& other,
                        bool reflected) override;
  std::optional<int64_t> hash(interp::Interpreter&) override { return static_cast<int64_t>(dtype) + 7919; }
  std::string repr(interp::Interpreter& in) override;
  /// numpy prints "float32"; TensorFlow "<dtype: 'float32'>" (its repr is "tf.float32").
  std::string str(interp::Interpreter& in) override {
    if (numpy && dtype == DType::String) return npName.empty() || npName == "O" ? "object" : npName;
    return numpy ? std::string(dtypeName(dtype)) : "<dtype: '" + std::string(dtypeName(dtype)) + "'>";
  }
  interp::Value call(interp::CallContext& ctx) override;
};

/// Hover/debugger text of a tensor's static type: "float32[?, 256]".
std::string describeType(const TensorType& t);

}  // namespace tlens::tf
