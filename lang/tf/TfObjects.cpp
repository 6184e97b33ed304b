#include "lang/tf/TfObjects.h"

#include "engine/graph/Gradients.h"
#include "lang/tf/OpApply.h"

namespace tlens::tf {

using namespace interp;

// --- Operation -------------------------------------------------------------------------------

Value OperationObj::getAttr(Interpreter& in, std::string_view name) {
  if (name == "name") return makeStr(node ? node->name : "NoOp");
  if (name == "type") return makeStr(node ? node->type() : "NoOp");
  if (name == "device") return makeStr(node ? node->device.str() : "");
  if (name == "graph") return rt->graphObject(*graph);
  if (name == "outputs") {
    std::vector<Value> outs;
    if (node)
      for (size_t i = 0; i < node->numOutputs(); ++i) outs.push_back(symbolicTensor(*rt, *graph, node->out(static_cast<int>(i))));
    return makeList(std::move(outs));
  }
  if (name == "run") {
    return boundMethod(NativeFunction::make("run", "self, feed_dict=None, session=None", [](CallContext& c) -> Value {
      auto* op = static_cast<OperationObj*>(c.arg(0).get());
      Value sess = c.arg(2);
      if (isNone(sess)) {
        if (op->rt->sessionStack.empty())
          c.interp.raise("ValueError", "Cannot execute operation using `run()`: No default session is registered. Use `with sess.as_default():` or pass an explicit session to `run(session=sess)`");
        sess = op->rt->sessionStack.back();
      }
      auto* s = dynamic_cast<SessionObj*>(sess.get());
      if (!s) c.typeError("session must be a tf.Session");
      s->run(c.arg(0), c.arg(1));
      return none();
    }));
  }
  return nullptr;
}

std::string OperationObj::repr(Interpreter& in) {
  if (!node) return "<tf.Operation 'NoOp' type=NoOp>";
  return "<tf.Operation '" + node->name + "' type=" + node->type() + ">";
}

// --- Graph -----------------------------------------------------------------------------------

Value GraphObj::getAttr(Interpreter& in, std::string_view name) {
  auto self = shared_from_this();
  if (name == "as_default") {
    return boundMethod(NativeFunction::make("as_default", "self", [](CallContext& c) -> Value {
      auto* g = static_cast<GraphObj*>(c.arg(0).get());
      auto scope = std::make_shared<ScopeObj>();
      scope->kind = "graph_scope";
      TfRuntime* rt = g->rt;
      Graph* graph = g->graph;
      Value gv = c.arg(0);
      scope->onEnter = [rt, graph, gv] {
        rt->pushGraph(graph);
        return gv;
      };
      scope->onExit = [rt] { rt->popGraph(); };
      return scope;
    }));
  }
  if (name == "get_tensor_by_name") {
    return boundMethod(NativeFunction::make("get_tensor_by_name", "self, name", [](CallContext& c) -> Value {
      auto* g = static_cast<GraphObj*>(c.arg(0).get());
      Output o = outputOf(*g->rt, *g->graph, c.arg(1));
      return symbolicTensor(*g->rt, *g->graph, o);
    }));
  }
  if (name == "get_operation_by_name") {
    return boundMethod(NativeFunction::make("get_operation_by_name", "self, name", [](CallContext& c) -> Value {
      auto* g = static_cast<GraphObj*>(c.arg(0).get());
      Node* n = g->graph->find(c.toStr(c.arg(1)));
      if (!n) c.interp.raise("KeyError", "The name '" + c.toStr(c.arg(1)) + "' refers to an Operation not in the graph.");
      return std::make_shared<OperationObj>(*g->rt, *g->graph, n);
    }));
  }
  if (name == "get_operations") {
    return boundMethod(NativeFunction::make("get_operations", "self", [](CallContext& c) -> Value {
      auto* g = static_cast<GraphObj*>(c.arg(0).get());
      std::vector<Value> ops;
      for (Node& n : g->graph->nodes()) ops.push_back(std::make_shared<OperationObj>(*g->rt, *g->graph, &n));
      return makeList(std::move(ops));
    }));
  }
  if (name == "finalize")
    return boundMethod(NativeFunction::make("finalize", "self", [](CallContext&) -> Value { return none(); }));
  // Methods written in Python (tensorflow.py's _GraphMethods: as_graph_def, ...).
  if (rt->graphMethods)
    if (Value f = in.findAttr(rt->graphMethods, name)) return f->kind() == Kind::Function ? boundMethod(f) : f;
  return nullptr;
}

Value GraphObj::compare(Interpreter& in, CmpOp op, const Value& other, bool reflected) {
  if (op != CmpOp::Eq && op != CmpOp::Ne) return nullptr;
  auto* o = dynamic_cast<GraphObj*>(other.get());
  bool eq = o && o->graph == graph;
  return boolean(op == CmpOp::Eq ? eq : !eq);
}

// --- GradientTape ----------------------------------------------------------------------------

namespace {
/// The tapes inside their `with` (a tape is entered on one interpreter thread only).
std::vector<TapeObj*>& recordingTapes() {
  static std::vector<TapeObj*> tapes;
  return tapes;
}
}  // namespace

void noteVariableRead(TfRuntime& rt, const Value& variable) {
  for (TapeObj* t : recordingTapes()) {
    if (t->rt != &rt) continue;
    bool seen = false;
    for (const Value& v : t->accessed) seen = seen || v.get() == variable.get();
    if (!seen) t->accessed.push_back(variable);
  }
}

Value TapeObj::enter(Interpreter& in) {
  if (tape) {
    rt->exec().pushTape(*tape);
    rt->activeTapes.push_back(tape.get());
    recordingTapes().push_back(this);
  }
  return shared_from_this();
}

bool TapeObj::exit(Interpreter& in, const Value& exc) {
  if (tape) {
    rt->exec().popTape(*tape);
    auto& a = rt->activeTapes;
    a.erase(std::remove(a.begin(), a.end(), tape.get()), a.end());
    auto& r = recordingTapes();
    r.erase(std::remove(r.begin(), r.end(), this), r.end());
  }
  return false;
}

static Value tapeGradient(CallContext& c) {
  auto* self = static_cast<TapeObj*>(c.arg(0).get());
  TfRuntime& rt = *self->rt;
  Interpreter& in = c.interp;
  const Value& target = c.arg(1);
  const Value& sources = c.arg(2);
  bool single = !asSequence(sources);
  std::vector<Value> srcs = single ? std::vector<Value>{sources} : *asSequence(sources);
  if (self->used && !self->persistent)
    in.raise("RuntimeError", "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)");
  self->used = true;
  auto* t = dynamic_cast<TensorObj*>(target.get());
  if (!t) {
    if (isUnknown(target)) throw NeedsKnownValue{};
    c.typeError("GradientTape.gradient: target must be a tensor, got " + in.typeName(target));
  }
  std::vector<Value> out;
  if (t->isSymbolic()) {
    std::vector<Output> xs;
    for (const Value& s : srcs) xs.push_back(outputOf(rt, *t->graph, s));
    std::vector<Output> gs;
    try {
      gs = gradients(*t->graph, {t->out}, xs);
    } catch (const EngineError& e) {
      in.raise("LookupError", e.what());
    }
    for (const Output& g : gs) out.push_back(g ? Value(symbolicTensor(rt, *t->graph, g)) : none());
  } else if (rt.abstract()) {
    for (const Value& s : srcs) {
      auto* st = dynamic_cast<TensorObj*>(s.get());
      out.push_back(st ? Value(abstractTensor(rt, st->type, false)) : none());
    }
  } else {
    std::vector<EagerValue> xs;
    for (const Value& s : srcs) {
      auto* st = dynamic_cast<TensorObj*>(s.get());
      if (!st) c.typeError("GradientTape.gradient: sources must be tensors or variables, got " + in.typeName(s));
      xs.push_back(st->concrete());
    }
    std::vector<Tensor> gs;
    try {
      gs = self->tape->gradient(t->concrete(), xs);
    } catch (const EngineError& e) {
      rt.raiseEngineError(e);
    }
    for (Tensor& g : gs) out.push_back(g.valid() ? Value(concreteTensor(rt, rt.wrap(std::move(g)), false)) : none());
  }
  if (single) return out.front();
  return as<TupleObj>(sources) ? makeTuple(std::move(out)) : makeList(std::move(out));
}

Value TapeObj::getAttr(Interpreter& in, std::string_view name) {
  if (name == "gradient")
    return boundMethod(NativeFunction::make("gradient", "self, target, sources, output_gradients=None, unconnected_gradients=None", tapeGradient));
  if (name == "watched_variables")
    return boundMethod(NativeFunction::make("watched_variables", "self", [](CallContext& c) -> Value {
      auto* self = static_cast<TapeObj*>(c.arg(0).get());
      std::vector<Value> out = self->accessed;
      for (const Value& v : self->watched) {
        auto* t = dynamic_cast<TensorObj*>(v.get());
        bool seen = false;
        for (const Value& o : out) seen = seen || o.get() == v.get();
        if (t && t->variable && !seen) out.push_back(v);
      }
      return makeTuple(std::move(out));
    }));
  if (name == "watch") {
    return boundMethod(NativeFunction::make("watch", "self, tensor", [](CallContext& c) -> Value {
      auto* self = static_cast<TapeObj*>(c.arg(0).get());
      std::vector<Value> items = asSequence(c.arg(1)) ? *asSequence(c.arg(1)) : std::vector<Value>{c.arg(1)};
      for (const Value& v : items) {
        auto* t = dynamic_cast<TensorObj*>(v.get());
        if (!t) continue;
        if (t->form == TensorObj::Form::Concrete && self->tape) self->tape->watch(t->concrete());
        self->watched.push_back(v);
      }
      return none();
    }));
  }
  return nullptr;
}

Value TfRuntime::graphObject(Graph& g) {
  for (const auto& [graph, obj] : graphObjects)
    if (graph == &g) return obj;
  Value obj = std::make_shared<GraphObj>(*this, g);
  graphObjects.emplace_back(&g, obj);
  return obj;
}

}  // namespace tlens::tf
