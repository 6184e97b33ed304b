// OpDef: the one definition of an op that every part of tensorlens reads. The language server
// calls `shape` on partially known shapes while the user types; the graph builder calls it when a
// node is created; the executor calls it on concrete shapes to size the outputs before the kernel
// runs. So a hover can never disagree with what runs.
//
// Kernels live elsewhere (engine/kernels/<backend>/) and are looked up by `type`; gradients are
// graph code (engine/grad/) stored here.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/DiagnosticData.h"
#include "engine/ops/Attr.h"

namespace tlens {

class Graph;
struct Node;

/// What static analysis knows about one tensor.
struct TensorType {
  DType dtype = DType::Invalid;  ///< Invalid when unknown
  Shape shape;                   ///< unknown rank by default
  /// The value, when it is a known constant (small tensors only: shape arguments, axes, scalars).
  std::shared_ptr<const Tensor> value;
  /// For int32/int64 vectors and scalars that hold dims (the output of Shape, a list built from
  /// `tf.shape(x)[0]`...): one Dim per element, possibly unknown or symbolic; a literal -1 is
  /// Dim::minusOne(). A scalar is a rank-1 asShape of one element.
  std::optional<Shape> asShape;

  TensorType() = default;
  TensorType(DType t, Shape s) : dtype(t), shape(std::move(s)) {}
  /// "float32[?, 256]"
  std::string str() const;
};

/// The TensorType a concrete tensor presents to a shape function (values for small int tensors).
TensorType concreteType(const Tensor& t);

/// The inputs of one shape-function call.
class InferContext : public AttrReader {
 public:
  InferContext(const struct OpDef& op, const std::vector<TensorType>& inputs, const Attrs& attrs,
               std::string_view nodeName = {},
               const std::vector<std::string>* inputNames = nullptr)
      : AttrReader(attrs), op_(op), inputs_(inputs), nodeName_(nodeName), inputNames_(inputNames) {}
  const OpDef& op() const { return op_; }
  size_t numInputs() const { return inputs_.size(); }
  const TensorType& input(size_t i) const { return inputs_[i]; }
  const std::vector<TensorType>& inputs() const { return inputs_; }
  const Shape& shape(size_t i) const { return inputs_[i].shape; }
  DType dtype(size_t i) const { return inputs_[i].dtype; }
  /// The known value of input i, or nullptr.
  const Tensor* value(size_t i) const { return i < inputs_.size() ? inputs_[i].value.get() : nullptr; }
  /// The dims held in int vector input i: from its value (-1 becomes Dim::minusOne()), from
  /// `asShape`, or unknown dims when only its length is known; unknown rank otherwise.
  Shape valueAsShape(size_t i) const;
  std::string_view nodeName() const { return nodeName_; }
  /// The tensor feeding input i ("fc1/MatMul:0") when known, else the op's argument name.
  std::string inputName(size_t i) const;

 private:
  const OpDef& op_;
  const std::vector<TensorType>& inputs_;
  std::string_view nodeName_;
  const std::vector<std::string>* inputNames_;
};

/// The result of a shape function: one TensorType per output, or an error message.
struct ShapeResult {
  std::vector<TensorType> outputs;
  std::string error;       ///< empty on success
  std::vector<int> blame;  ///< on error: which inputs the conflict involves (for related info)
  /// On error: the structured payload (op type, the inputs' shapes and dtypes, blamed ones
  /// marked; shape functions add named shapes such as a reshape's "target"). OpDef::infer fills
  /// the op and inputs; the caller adds source locations.
  DiagnosticData data;

  bool ok() const { return error.empty(); }
  static ShapeResult single(DType t, Shape s) {
    ShapeResult r;
    r.outputs.emplace_back(t, std::move(s));
    return r;
  }
};

/// Builds a TensorFlow-style message: "<what> for '<node>' (op: '<Type>') with input shapes:
/// [2,3], [4,5]." and names the blamed inputs.
ShapeResult shapeError(const InferContext& c, const std::string& what, std::vector<int> blame = {});
/// Marks an error as a dtype conflict (DiagnosticData::conflict = "dtype"); others are "shape".
inline ShapeResult dtypeError(ShapeResult r) {
  r.data.conflict = "dtype";
  return r;
}

using ShapeFn = std::function<ShapeResult(const InferContext&)>;

/// Gradient functions add nodes to the graph that compute d(loss)/d(input) for each input from
/// d(loss)/d(output). `dys[i]` is null (node == nullptr) when output i receives no gradient.
struct Output {
  Node* node = nullptr;
  int index = 0;
  explicit operator bool() const { return node != nullptr; }
  bool operator==(const Output& o) const { return node == o.node && index == o.index; }
  bool operator!=(const Output& o) const { return !(*this == o); }
  bool operator<(const Output& o) const;
  const TensorType& type() const;
  std::string name() const;  ///< "fc1/MatMul:0"
};

struct GradContext {
  Graph& graph;
  const Node& node;
  std::vector<Output> dys;
  Output input(size_t i) const;
  Output output(size_t i) const;
};
using GradFn = std::function<std::vector<Output>(GradContext&)>;

struct InputDef {
  std::string name;
  bool variadic = false;  ///< takes the rest of the inputs as a list (Concat's values, Pack, AddN)
};

struct AttrDef {
  std::string name;
  AttrValue defaultValue;  ///< monostate means required
  std::string doc;
};

struct OpDef {
  std::string type;              ///< TensorFlow op type: "MatMul"
  std::vector<std::string> api;  ///< Python names: "tf.matmul", "tf.linalg.matmul"
  std::vector<InputDef> inputs;
  std::vector<AttrDef> attrs;
  ShapeFn shape;
  GradFn grad;                    ///< empty when not differentiable
  bool differentiable = true;     ///< false: no gradient flows through (ArgMax, Shape, Equal...)
  bool stateful = false;          ///< random ops, variables, Print, Assert: never folded or deduplicated
  /// Inputs that are variable references (Assign's `ref`, ApplyAdam's var/m/v): the kernel
  /// reads and writes the variable through Resources, and the executor passes no value.
  std::vector<int> refInputs;
  /// Inputs every backend's kernel reads on the host (shape arguments, axes, sizes, paddings), as
  /// TensorFlow's HostMemory(...): a GPU kernel gets these in host memory, all others on its device.
  /// Negative indexes count from the end (ConcatV2's axis after its list of values).
  std::vector<int> hostInputs;
  /// Whether input k of a node with n inputs is one of `hostInputs`.
  bool isHostInput(size_t k, size_t n) const {
    for (int h : hostInputs)
      if ((h >= 0 ? static_cast<size_t>(h) : n - static_cast<size_t>(-h)) == k) return true;
    return false;
  }
  /// Non-empty: this op has no GPU kernel, and why ("prints to the host"). Placement (static and
  /// at run time) puts it on the CPU under soft placement and says so.
  std::string cpuOnly;
  /// The kernel reads only its inputs' shapes (Shape, Size, Rank): they are never copied
  /// between devices for it.
  bool readsOnlyShapes = false;
  /// Switch and Merge: an output the kernel leaves empty is dead (tf.cond's branch not taken);
  /// the Session skips the nodes that depend on it.
  bool deadOutputs = false;
  /// How the op treats string tensors (DType::String) among its inputs and outputs:
  ///   Reject   numeric ops (the default): `infer` fails with TensorFlow's TypeError wording
  ///            ("Value passed to parameter 'x' has DataType string not in list of allowed
  ///            values: ..."), so no kernel ever sees a string it cannot read;
  ///   Native   the kernel reads and writes strings itself (Const, Placeholder, StringJoin...);
  ///   ByIndex  dtype-agnostic data movement (Reshape, Gather, ConcatV2, Transpose...): the
  ///            executor runs the op's numeric kernel on int64 indexes into the inputs' strings
  ///            and gathers the strings by its results (runOp), so those kernels stay untouched;
  ///   ByValue  as ByIndex, but equal strings get equal numbers (Equal, NotEqual, Unique).
  enum class Strings : uint8_t { Reject, Native, ByIndex, ByValue };
  Strings strings = Strings::Reject;
  std::string summary;            ///< one line of documentation, shown on hover
  /// Fills in attributes that are absent with their defaults.
  Attrs withDefaults(Attrs attrs) const;
  /// Runs `shape` and never throws: an exception in a shape function becomes an error result.
  ShapeResult infer(const std::vector<TensorType>& inputs, const Attrs& attrs,
                    std::string_view nodeName = {},
                    const std::vector<std::string>* inputNames = nullptr) const;
};

}  // namespace tlens
