#include "engine/graph/Graph.h"

#include <algorithm>

#include "engine/graph/Placement.h"

#include "engine/core/Error.h"
#include "engine/ops/OpRegistry.h"

namespace tlens {

const std::string Graph::kEmpty;

Graph::Graph() = default;

std::vector<TensorType> outputTypes(const std::vector<Output>& outs) {
  std::vector<TensorType> t;
  t.reserve(outs.size());
  for (const Output& o : outs) t.push_back(o.type());
  return t;
}

void Graph::checkNotFrozen() const {
  if (frozen_) throwError(ErrorCode::FailedPrecondition, frozen_);
}

std::string Graph::uniqueName(const std::string& base) {
  checkNotFrozen();
  // The base itself while free: one probe of the used names (insert tells whether it was
  // there). A base with a suffix count is always among the used names (the count only grows
  // after the base was found taken, and names are never released), so a fresh base needs no
  // count entry.
  if (usedNames_.insert(base)) return base;
  int& count = nameCounts_[base];
  std::string name;
  do {
    name = base + "_" + std::to_string(++count);
  } while (!usedNames_.insert(name));
  return name;
}

std::string Graph::pushNameScope(const std::string& name) {
  checkNotFrozen();
  std::string full;
  if (name.empty()) {
    full = "";
  } else if (name.back() == '/') {  // TF: a trailing slash re-enters an existing scope as is
    full = name.substr(0, name.size() - 1);
  } else {
    std::string prefix = nameScope().empty() ? "" : nameScope() + "/";
    full = uniqueName(prefix + name);
  }
  scopes_.push_back(full);
  return full;
}

void Graph::popNameScope() {
  if (!scopes_.empty()) scopes_.pop_back();
}

Node* Graph::find(std::string_view name) {
  // Names are unique and never change once a node is made.
  for (; indexed_ < nodes_.size(); ++indexed_) byName_.emplace(nodes_[indexed_].name, &nodes_[indexed_]);
  auto it = byName_.find(std::string(name));
  return it == byName_.end() ? nullptr : it->second;
}

Output Graph::findOutput(std::string_view name) {
  int index = 0;
  std::string n(name);
  if (size_t colon = n.rfind(':'); colon != std::string::npos) {
    try {
      index = std::stoi(n.substr(colon + 1));
    } catch (...) {
      return {};
    }
    n = n.substr(0, colon);
  }
  Node* node = find(n);
  if (!node || index < 0 || static_cast<size_t>(index) >= node->numOutputs()) return {};
  return Output{node, index};
}

std::vector<Node*> Graph::trainableVariables() const {
  std::vector<Node*> v;
  for (Node* n : variables_)
    if (AttrReader(n->attrs).getBool("trainable", true)) v.push_back(n);
  return v;
}

Node* Graph::globalVariablesInitializer() {
  std::vector<Node*> inits;
  for (Node* v : variables_)
    if (v->initializer) inits.push_back(v->initializer);
  pushControlDependencies(inits);
  NodeOptions o;
  o.name = "init";
  Node* n = addNode("NoOp", {}, {}, o);
  popControlDependencies();
  return n;
}

Node* Graph::addNode(std::string_view type, std::vector<Output> inputs, Attrs attrs,
                     const NodeOptions& opts) {
  checkNotFrozen();
  const OpDef& def = OpRegistry::global().get(type);
  for (const Output& in : inputs)
    if (!in.node) invalidArgument("Op " + def.type + ": an input is missing (None)");
  // Fixed-arity ops must get exactly their inputs; a variadic input takes the rest.
  const bool variadic = !def.inputs.empty() && def.inputs.back().variadic;
  const size_t fixed = def.inputs.size() - (variadic ? 1 : 0);
  if ((!variadic && inputs.size() != def.inputs.size()) || (variadic && inputs.size() < fixed))
    invalidArgument("Op " + def.type + " takes " + std::to_string(def.inputs.size()) +
                    (variadic ? " or more" : "") + " inputs but was given " +
                    std::to_string(inputs.size()));

  bool hasDataInput = false;
  if (!conds_.empty())
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (std::find(def.refInputs.begin(), def.refInputs.end(), static_cast<int>(k)) != def.refInputs.end()) continue;
      hasDataInput = true;
      if (inputs[k].node->id < conds_.back().firstId) inputs[k] = captureIntoBranch(inputs[k]);
    }

  std::string base = opts.name.empty() ? def.type : opts.name;
  std::string prefix = nameScope().empty() ? "" : nameScope() + "/";
  std::string name = uniqueName(prefix + base);

  attrs = def.withDefaults(std::move(attrs));
  std::vector<TensorType> inTypes = outputTypes(inputs);
  std::vector<std::string> inNames;
  inNames.reserve(inputs.size());
  for (const Output& in : inputs) inNames.push_back(in.name());
  ShapeResult r = def.infer(inTypes, attrs, name, &inNames);
  if (!r.ok() && !opts.tolerateShapeErrors) invalidArgument(r.error);

  Node& n = nodes_.emplace_back();
  n.id = static_cast<int>(nodes_.size() - 1);
  n.name = std::move(name);
  n.op = &def;
  n.inputs = std::move(inputs);
  n.attrs = std::move(attrs);
  if (r.ok()) {
    n.outputs = std::move(r.outputs);
  } else {
    n.shapeError = r.error;
    n.outputs.assign(1, TensorType{});
  }
  size_t firstControl = 0;
  for (size_t i = controls_.size(); i-- > 0;)
    if (controls_[i].clear) {
      firstControl = i;
      break;
    }
  for (size_t i = firstControl; i < controls_.size(); ++i)
    for (Node* d : controls_[i].deps) n.controlInputs.push_back(d);
  if (!conds_.empty() && !hasDataInput && def.type != "VariableV2") n.controlInputs.push_back(conds_.back().pivot);
  n.requestedDevice = devices_.empty() ? std::string() : devices_.back();
  Device colocate;
  const bool colocated = !def.refInputs.empty() &&
                         static_cast<size_t>(def.refInputs[0]) < n.inputs.size() &&
                         n.inputs[static_cast<size_t>(def.refInputs[0])].node;
  if (colocated) colocate = n.inputs[static_cast<size_t>(def.refInputs[0])].node->device;
  bool strings = false;
  for (const TensorType& t : inTypes) strings = strings || t.dtype == DType::String;
  for (const TensorType& t : n.outputs) strings = strings || t.dtype == DType::String;
  Placement where = placeOp(def, n.requestedDevice, deviceSet_, colocated ? &colocate : nullptr, strings);
  n.device = where.device;
  n.placementNote = std::move(where.note);
  n.softPlaced = where.softPlaced;
  n.location = creation_.location;
  n.stack = creation_.stack;
  if (def.type == "VariableV2") variables_.push_back(&n);
  return &n;
}

void Graph::pushCondBranch(Output pred, int branch) {
  checkNotFrozen();
  NodeOptions so;
  so.name = "Switch";
  Node* sw = addNode("Switch", {pred, pred}, {}, so);
  NodeOptions po;
  po.name = branch ? "switch_t" : "switch_f";
  Node* pivot = addNode("Identity", {sw->out(branch)}, {}, po);
  CondBranch b;
  b.pred = pred;
  b.branch = branch;
  b.firstId = static_cast<int>(nodes_.size());
  b.pivot = pivot;
  conds_.push_back(std::move(b));
}

void Graph::popCondBranch() {
  if (!conds_.empty()) conds_.pop_back();
}

Output Graph::captureIntoBranch(const Output& in) {
  auto key = std::make_pair(in.node->id, in.index);
  if (auto it = conds_.back().captured.find(key); it != conds_.back().captured.end()) return it->second;
  // The Switch belongs to the enclosing branches, not to this one: made with this one set aside.
  CondBranch b = std::move(conds_.back());
  conds_.pop_back();
  Node* sw = nullptr;
  try {
    NodeOptions o;
    o.name = "Switch";
    sw = addNode("Switch", {in, b.pred}, {}, o);
  } catch (...) {
    conds_.push_back(std::move(b));
    throw;
  }
  conds_.push_back(std::move(b));
  Output out = sw->out(conds_.back().branch);
  conds_.back().captured.emplace(key, out);
  return out;
}

Output Graph::op(std::string_view type, std::vector<Output> inputs, Attrs attrs, std::string name) {
  NodeOptions o;
  o.name = std::move(name);
  return addNode(type, std::move(inputs), std::move(attrs), o)->out(0);
}

}  // namespace tlens
