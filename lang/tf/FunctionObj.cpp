#include "lang/tf/FunctionObj.h"

#include "lang/interp/PyError.h"
#include "lang/tf/OpApply.h"

namespace tlens::tf {

using namespace interp;

namespace {

/// Enters a trace for the lifetime of the object.
struct TraceScope {
  TfRuntime& rt;
  TraceContext* prev;
  TraceScope(TfRuntime& rt, TraceContext* tc, Graph* g) : rt(rt), prev(rt.trace) {
    rt.trace = tc;
    rt.pushGraph(g);
  }
  ~TraceScope() {
    rt.popGraph();
    rt.trace = prev;
  }
};

Value rebuildOutputs(TfRuntime& rt, Interpreter& in, const Value& v, const Graph* g,
                     const std::vector<std::vector<EagerValue>>& vals, int depth = 0) {
  if (depth > 32) return v;
  if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
    if (!t->isSymbolic() || t->graph != g) return v;
    const auto& outs = vals[static_cast<size_t>(t->out.node->id)];
    if (static_cast<size_t>(t->out.index) >= outs.size()) return none();
    return concreteTensor(rt, outs[static_cast<size_t>(t->out.index)], false);
  }
  if (dynamic_cast<OperationObj*>(v.get())) return none();
  if (auto* l = as<ListObj>(v)) {
    std::vector<Value> items;
    for (const Value& e : l->items) items.push_back(rebuildOutputs(rt, in, e, g, vals, depth + 1));
    return makeList(std::move(items));
  }
  if (auto* tu = as<TupleObj>(v)) {
    std::vector<Value> items;
    for (const Value& e : tu->items) items.push_back(rebuildOutputs(rt, in, e, g, vals, depth + 1));
    return makeTuple(std::move(items));
  }
  if (auto* d = as<DictObj>(v)) {
    auto r = makeDict();
    for (const auto& e : d->entries()) r->set(in, e.key, rebuildOutputs(rt, in, e.value, g, vals, depth + 1));
    return r;
  }
  return v;
}

/// The nodes of `g` that a traced result refers to: its tensors and its operations.
void resultNodes(const Value& v, const Graph* g, std::vector<size_t>& out, int depth = 0) {
  if (depth > 32) return;
  if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
    if (t->isSymbolic() && t->graph == g) out.push_back(static_cast<size_t>(t->out.node->id));
  } else if (auto* op = dynamic_cast<OperationObj*>(v.get())) {
    if (op->node && op->graph == g) out.push_back(static_cast<size_t>(op->node->id));
  } else if (auto* l = as<ListObj>(v)) {
    for (const Value& e : l->items) resultNodes(e, g, out, depth + 1);
  } else if (auto* tu = as<TupleObj>(v)) {
    for (const Value& e : tu->items) resultNodes(e, g, out, depth + 1);
  } else if (auto* d = as<DictObj>(v)) {
    for (const auto& e : d->entries()) resultNodes(e.value, g, out, depth + 1);
  }
}

/// Which nodes the replay runs and when each value can go (FunctionObj::Trace::run, release).
void planReplay(FunctionObj::Trace& t) {
  const auto& nodes = t.graph->nodes();
  size_t n = nodes.size();
  std::vector<size_t> roots;
  resultNodes(t.outputs, t.graph, roots);
  std::vector<char> isResult(n, 0);
  for (size_t r : roots) isResult[r] = 1;
  for (const Node& node : nodes)
    if (node.op->stateful) roots.push_back(static_cast<size_t>(node.id));
  t.run.assign(n, 0);
  while (!roots.empty()) {
    size_t id = roots.back();
    roots.pop_back();
    if (t.run[id]) continue;
    t.run[id] = 1;
    const Node& node = nodes[id];
    for (const Output& o : node.inputs) roots.push_back(static_cast<size_t>(o.node->id));
    for (const Node* c : node.controlInputs) roots.push_back(static_cast<size_t>(c->id));
  }
  std::vector<size_t> lastUse(n, 0);
  std::vector<char> used(n, 0);
  for (const Node& node : nodes) {
    if (!t.run[static_cast<size_t>(node.id)]) continue;
    for (const Output& o : node.inputs) {
      lastUse[static_cast<size_t>(o.node->id)] = static_cast<size_t>(node.id);
      used[static_cast<size_t>(o.node->id)] = 1;
    }
  }
  t.release.assign(n, {});
  for (size_t id = 0; id < n; ++id) {
    if (!t.run[id] || isResult[id]) continue;
    // A value nothing reads goes right after its own node; the others after their last reader.
    t.release[used[id] ? lastUse[id] : id].push_back(id);
  }
  t.param.assign(n, -1);
  for (size_t i = 0; i < t.params.size(); ++i) t.param[static_cast<size_t>(t.params[i]->id)] = static_cast<int>(i);
  t.capture.assign(n, nullptr);
  for (const auto& [node, value] : t.captures) t.capture[static_cast<size_t>(node->id)] = &value;
  t.device.assign(n, std::string());
  for (const Node& node : nodes)
    if (t.run[static_cast<size_t>(node.id)]) t.device[static_cast<size_t>(node.id)] = node.device.str();
}

}  // namespace

Value FunctionObj::call(CallContext& c) {
  Interpreter& in = c.interp;
  if (eagerOnly || rt->abstract() || rt->options().functionsEagerly || rt->buildingGraph())
    return in.call(fn, c.args, c.kwargs);

  // The input signature: tensors by dtype and shape, Python values by repr (they are baked in).
  std::string key;
  std::vector<std::shared_ptr<TensorObj>> tensorArgs;
  auto sign = [&](const Value& v) {
    if (auto t = std::dynamic_pointer_cast<TensorObj>(v); t && !t->variable && t->form == TensorObj::Form::Concrete) {
      key += "T" + t->type.str() + ";";
      tensorArgs.push_back(t);
    } else {
      key += "P" + in.repr(v) + ";";
    }
  };
  for (const Value& a : c.args) sign(a);
  for (const auto& [k, v] : c.kwargs) {
    key += k + "=";
    sign(v);
  }

  auto it = traces.find(key);
  if (it == traces.end()) {
    Trace t;
    t.graph = &rt->newGraph();
    TraceContext tc;
    tc.graph = t.graph;
    tc.captures = &t.captures;
    try {
      TraceScope scope(*rt, &tc, t.graph);
      size_t next = 0;
      auto substitute = [&](const Value& v) -> Value {
        auto* tv = dynamic_cast<TensorObj*>(v.get());
        if (!tv || tv->variable || tv->form != TensorObj::Form::Concrete) return v;
        auto arg = tensorArgs[next];
        rt->stampCreation(t.graph);
        NodeOptions o;
        o.name = "args_" + std::to_string(next++);
        Node* n = t.graph->addNode("Placeholder", {}, Attrs{{"dtype", arg->type.dtype}, {"shape", arg->type.shape}}, o);
        t.params.push_back(n);
        return symbolicTensor(*rt, *t.graph, n->out(0));
      };
      std::vector<Value> args;
      for (const Value& a : c.args) args.push_back(substitute(a));
      KwArgs kwargs;
      for (const auto& [k, v] : c.kwargs) kwargs.emplace_back(k, substitute(v));
      t.outputs = in.call(fn, std::move(args), std::move(kwargs));
    } catch (const PyError&) {
      // Not traceable (Python control flow on tensors, ...): run as Python from now on; a
      // genuine error is raised again by the eager run.
      eagerOnly = true;
      return in.call(fn, c.args, c.kwargs);
    }
    planReplay(t);
    it = traces.emplace(key, std::move(t)).first;
  }

  // Replay the trace through the eager context.
  Trace& t = it->second;
  std::vector<std::vector<EagerValue>> vals(t.graph->size());
  const bool readsCreation = rt->exec().readsCreation();
  for (Node& n : t.graph->nodes()) {
    const size_t id = static_cast<size_t>(n.id);
    if (!t.run[id]) continue;
    auto& out = vals[id];
    if (t.param[id] >= 0) {
      out = {tensorArgs[static_cast<size_t>(t.param[id])]->concrete()};
      continue;
    }
    if (const Value* cap = t.capture[id]) {
      try {
        out = {static_cast<TensorObj*>(cap->get())->concrete()};
      } catch (const EngineError& e) {
        rt->raiseEngineError(e);
      }
      continue;
    }
    std::vector<EagerValue> inputs;
    inputs.reserve(n.inputs.size());
    std::vector<std::string> varNames;
    bool refs = !n.op->refInputs.empty();
    for (const Output& o : n.inputs) {
      const Value* cap = t.capture[static_cast<size_t>(o.node->id)];
      auto* capVar = cap ? static_cast<TensorObj*>(cap->get()) : nullptr;
      if (capVar && capVar->variable) {
        // Variables are read when their consumer runs (program order, as TF's automatic control
        // dependencies give inside tf.function).
        try {
          inputs.push_back(capVar->concrete());
        } catch (const EngineError& e) {
          rt->raiseEngineError(e);
        }
      } else {
        inputs.push_back(vals[static_cast<size_t>(o.node->id)][static_cast<size_t>(o.index)]);
      }
      if (refs) varNames.push_back(capVar && capVar->variable ? capVar->varName : std::string());
    }
    if (readsCreation) {
      rt->eagerCreation().location = n.location;
      rt->eagerCreation().stack = n.stack;
    }
    // Each op runs on the device its node was placed on when traced.
    try {
      out = rt->exec().execute(*n.op, inputs, n.attrs, varNames, &t.device[id], rt->eagerCreation());
    } catch (const EngineError& e) {
      rt->raiseEngineError(e);
    }
    if (rt->records && !isGradientNode(n))
      for (size_t i = 0; i < out.size(); ++i)
        rt->records->push_back(TensorRecord{n.location, n.type(), static_cast<int>(i),
                                            TensorType(out[i].tensor.dtype(), Shape::fromConcrete(out[i].tensor.shape())), false});
    for (size_t done : t.release[id]) vals[done].clear();
  }
  return rebuildOutputs(*rt, in, t.outputs, t.graph, vals);
}

Value FunctionObj::getAttr(Interpreter& in, std::string_view name) {
  if (name == "python_function") return fn;
  if (name == "__name__") return in.findAttr(fn, "__name__");
  return nullptr;
}

std::string FunctionObj::repr(Interpreter& in) {
  return "<tensorflow.python.eager.def_function.Function object (" + std::to_string(traces.size()) + " traces)>";
}

}  // namespace tlens::tf
