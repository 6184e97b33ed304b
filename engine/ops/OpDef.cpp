#include "engine/ops/OpDef.h"

#include <algorithm>

#include "engine/graph/Graph.h"

namespace tlens {

TensorType concreteType(const Tensor& t) {
  TensorType tt(t.dtype(), Shape::fromConcrete(t.shape()));
  // Shape functions read values of small integer tensors (reshape targets, axes, sizes).
  // Only from memory the host can read: shape arguments of GPU kernels arrive on the host (the
  // op's hostInputs), and a device tensor is never read here (it would need a sync per op).
  if ((t.dtype() == DType::Int32 || t.dtype() == DType::Int64) && t.numElements() <= 4096 && t.hostAccessible())
    tt.value = std::make_shared<const Tensor>(t);
  return tt;
}


std::string TensorType::str() const {
  std::string s = dtype == DType::Invalid ? "?" : std::string(dtypeName(dtype));
  return s + shape.str();
}

Shape InferContext::valueAsShape(size_t i) const {
  if (i >= inputs_.size()) return Shape::unknownRank();
  const TensorType& t = inputs_[i];
  if (t.value) {
    std::vector<Dim> d;
    for (int64_t v : t.value->toInt64Vector())
      d.push_back(v >= 0 ? Dim::known(v) : v == -1 ? Dim::minusOne() : Dim::unknown());
    return Shape(std::move(d));
  }
  if (t.asShape) return *t.asShape;
  if (t.shape.rank() == 1 && t.shape[0].isKnown()) return Shape::unknownDims(t.shape[0].size);
  if (t.shape.rank() == 0) return Shape::scalar();
  return Shape::unknownRank();
}

std::string InferContext::inputName(size_t i) const {
  if (inputNames_ && i < inputNames_->size() && !(*inputNames_)[i].empty()) return (*inputNames_)[i];
  if (op_.inputs.empty()) return "input " + std::to_string(i);
  const InputDef& d = i < op_.inputs.size() ? op_.inputs[i] : op_.inputs.back();
  return d.variadic ? d.name + "[" + std::to_string(i - (op_.inputs.size() - 1)) + "]" : d.name;
}

ShapeResult shapeError(const InferContext& c, const std::string& what, std::vector<int> blame) {
  ShapeResult r;
  std::string msg = what;
  if (!msg.empty() && msg.back() == '.') msg.pop_back();
  msg += " for '" + std::string(c.nodeName().empty() ? c.op().type : c.nodeName()) + "' (op: '" +
         c.op().type + "')";
  if (c.numInputs()) {
    msg += " with input shapes: ";
    for (size_t i = 0; i < c.numInputs(); ++i) {
      if (i) msg += ", ";
      const Shape& s = c.shape(i);
      if (!s.rankKnown()) { msg += "?"; continue; }
      msg += "[";
      for (size_t d = 0; d < s.dims().size(); ++d) msg += (d ? "," : "") + s[d].str();
      msg += "]";
    }
  }
  r.error = msg + ".";
  r.blame = std::move(blame);
  return r;
}

bool Output::operator<(const Output& o) const {
  if (node != o.node) return (node ? node->id : -1) < (o.node ? o.node->id : -1);
  return index < o.index;
}

const TensorType& Output::type() const { return node->outputs[static_cast<size_t>(index)]; }

std::string Output::name() const {
  return node ? node->name + ":" + std::to_string(index) : std::string("<none>");
}

Output GradContext::input(size_t i) const { return node.inputs[i]; }
Output GradContext::output(size_t i) const {
  return Output{const_cast<Node*>(&node), static_cast<int>(i)};
}

Attrs OpDef::withDefaults(Attrs a) const {
  for (const AttrDef& d : attrs)
    if (!std::holds_alternative<std::monostate>(d.defaultValue) && a.find(d.name) == a.end())
      a.emplace(d.name, d.defaultValue);
  return a;
}

namespace {

/// TensorFlow's op_def_library TypeError for a string where the op takes numbers.
ShapeResult rejectString(const std::string& param) {
  ShapeResult r;
  r.data.conflict = "dtype";
  r.error = "Value passed to parameter '" + param +
            "' has DataType string not in list of allowed values: float16, float32, float64, int32, int64, uint8, bool";
  return r;
}

/// The shape function's answer with TensorFlow's rules for string inputs and outputs
/// (OpDef::strings): ops that do not take strings reject them with op_def_library's TypeError.
ShapeResult inferStrings(const OpDef& op, const InferContext& c, const std::vector<TensorType>& in, const Attrs& a,
                         std::string_view nodeName, const std::vector<std::string>* inputNames) {
  if (op.strings != OpDef::Strings::Reject) {
    // Shape functions fold small known values numerically: string inputs go in without theirs.
    bool anyValue = false;
    for (const TensorType& t : in) anyValue = anyValue || (t.dtype == DType::String && t.value);
    if (!anyValue) return op.shape(c);
    std::vector<TensorType> typesOnly = in;
    for (TensorType& t : typesOnly)
      if (t.dtype == DType::String) t.value.reset();
    InferContext c2(op, typesOnly, a, nodeName, inputNames);
    return op.shape(c2);
  }
  for (size_t i = 0; i < in.size(); ++i)
    if (in[i].dtype == DType::String)
      return rejectString(op.inputs.empty() ? "x" : i < op.inputs.size() ? op.inputs[i].name : op.inputs.back().name);
  ShapeResult r = op.shape(c);
  if (r.ok())
    for (const TensorType& t : r.outputs)
      if (t.dtype == DType::String) {
        std::string attr = "T";
        for (const AttrDef& d : op.attrs)
          if (d.name == "DstT" || d.name == "dtype" || d.name == "out_type") attr = d.name;
        return rejectString(attr);
      }
  return r;
}

}  // namespace

/// The payload of a failed inference: the op, and each input's shape and dtype (the blamed ones
/// marked), whatever the shape function wrote in the message.
static void describeFailure(const InferContext& c, ShapeResult& r) {
  DiagnosticData& d = r.data;
  d.opType = c.op().type;
  if (d.conflict.empty()) d.conflict = "shape";
  d.inputs.clear();
  for (size_t i = 0; i < c.numInputs(); ++i) {
    OperandInfo o;
    o.shape = shapeInfo(c.shape(i));
    if (c.dtype(i) != DType::Invalid) o.dtype = std::string(dtypeName(c.dtype(i)));
    o.blamed = std::find(r.blame.begin(), r.blame.end(), static_cast<int>(i)) != r.blame.end();
    d.inputs.push_back(std::move(o));
  }
}

ShapeResult OpDef::infer(const std::vector<TensorType>& in, const Attrs& a,
                         std::string_view nodeName,
                         const std::vector<std::string>* inputNames) const {
  InferContext c(*this, in, a, nodeName, inputNames);
  ShapeResult r;
  if (!shape) {
    r = shapeError(c, "Op has no shape function");
  } else {
    try {
      r = inferStrings(*this, c, in, a, nodeName, inputNames);
    } catch (const std::exception& e) {
      r = shapeError(c, std::string("Internal error in shape function: ") + e.what());
    }
  }
  if (!r.ok()) describeFailure(c, r);
  return r;
}

}  // namespace tlens
