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
      r = shape(c);
    } catch (const std::exception& e) {
      r = shapeError(c, std::string("Internal error in shape function: ") + e.what());
    }
  }
  if (!r.ok()) describeFailure(c, r);
  return r;
}

}  // namespace tlens
