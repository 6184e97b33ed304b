#include "lang/interp/Bytes.h"
#include "lang/tf/AbstractRun.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/FunctionObj.h"
#include "lang/tf/TfObjects.h"

namespace tlens::tf {

using namespace interp;

Output outputOf(TfRuntime& rt, Graph& g, const Value& v) {
  Interpreter& in = rt.interp();
  if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
    if (!t->isSymbolic()) {
      // An eager variable inside a tf.function trace: the node that captured it (so a tape in
      // the traced body differentiates with respect to model.trainable_variables).
      if (t->variable && rt.trace && rt.trace->graph == &g) {
        auto it = rt.trace->variables.find(t->varName);
        if (it != rt.trace->variables.end()) return it->second;
      }
      return Output{};
    }
    if (t->graph != &g)
      in.raise("ValueError", "Tensor " + t->out.name() + " is not an element of this graph.");
    return t->out;
  }
  if (const std::string* s = asString(v)) {
    Output o = g.findOutput(*s);
    if (!o) in.raise("KeyError", "The name '" + *s + "' refers to a Tensor which does not exist.");
    return o;
  }
  return Output{};
}

SessionObj::SessionObj(TfRuntime& rt, Graph& g, bool interactive, bool softPlacement)
    : rt(&rt), graph(&g), session(nullptr), interactive(interactive), softPlacement(softPlacement) {
  if (!rt.abstract()) {
    session = &rt.exec().newSession(g);
    if (rt.graphSeedSet) session->setGraphSeed(rt.graphSeed);
  }
}

namespace {

// A namedtuple-like instance (its class has `_fields`, as collections.namedtuple and TF's
// LSTMStateTuple do): its field values, in order. TF fetches and feeds such structures.
bool namedFields(Interpreter& in, const Value& v, std::vector<Value>* items) {
  if (!v || v->kind() != Kind::Instance) return false;
  Value fields = in.typeOf(v)->lookup("_fields");
  const std::vector<Value>* names = fields ? asSequence(fields) : nullptr;
  if (!names) return false;
  for (const Value& n : *names) {
    const std::string* s = asString(n);
    if (!s) return false;
    items->push_back(in.getAttr(v, *s));
  }
  return true;
}

struct Fetches {
  std::vector<Output> outputs;
  std::vector<Node*> targets;
  std::vector<Value> passThrough;
};

void collect(TfRuntime& rt, Graph& g, const Value& f, Fetches& out, int depth = 0) {
  Interpreter& in = rt.interp();
  if (depth > 64) in.raise("ValueError", "fetches are nested too deeply");
  if (auto* t = dynamic_cast<TensorObj*>(f.get())) {
    if (t->isSymbolic()) out.outputs.push_back(outputOf(rt, g, f));
    return;
  }
  if (auto* op = dynamic_cast<OperationObj*>(f.get())) {
    if (op->node) out.targets.push_back(op->node);
    return;
  }
  if (const std::string* s = asString(f)) {
    if (s->find(':') == std::string::npos) {
      Node* n = g.find(*s);
      if (!n) in.raise("ValueError", "The name '" + *s + "' refers to an Operation not in the graph.");
      out.targets.push_back(n);
    } else {
      out.outputs.push_back(outputOf(rt, g, f));
    }
    return;
  }
  if (auto* seq = asSequence(f)) {
    for (const Value& e : *seq) collect(rt, g, e, out, depth + 1);
    return;
  }
  if (auto* d = as<DictObj>(f)) {
    for (const auto& e : d->entries()) collect(rt, g, e.value, out, depth + 1);
    return;
  }
  if (std::vector<Value> fields; namedFields(in, f, &fields)) {
    for (const Value& e : fields) collect(rt, g, e, out, depth + 1);
    return;
  }
  if (isUnknown(f)) throw NeedsKnownValue{};
  in.raise("TypeError", "Fetch argument " + in.repr(f) + " has invalid type " + in.typeName(f) +
                            ", must be a string or Tensor. (Can not convert a " + in.typeName(f) + " into a Tensor or Operation.)");
}

Value rebuild(TfRuntime& rt, const Value& f, const std::vector<Value>& values, size_t& next) {
  Interpreter& in = rt.interp();
  if (auto* t = dynamic_cast<TensorObj*>(f.get())) return t->isSymbolic() ? values[next++] : f;
  if (dynamic_cast<OperationObj*>(f.get())) return none();
  if (const std::string* s = asString(f)) return s->find(':') == std::string::npos ? none() : values[next++];
  if (auto* l = as<ListObj>(f)) {
    std::vector<Value> items;
    for (const Value& e : l->items) items.push_back(rebuild(rt, e, values, next));
    return makeList(std::move(items));
  }
  if (auto* tu = as<TupleObj>(f)) {
    std::vector<Value> items;
    for (const Value& e : tu->items) items.push_back(rebuild(rt, e, values, next));
    return makeTuple(std::move(items));
  }
  if (auto* d = as<DictObj>(f)) {
    auto r = makeDict();
    for (const auto& e : d->entries()) r->set(in, e.key, rebuild(rt, e.value, values, next));
    return r;
  }
  if (std::vector<Value> fields; namedFields(in, f, &fields)) {
    std::vector<Value> items;
    for (const Value& e : fields) items.push_back(rebuild(rt, e, values, next));
    // A class may name what its fetched values make (a SparseTensor fetches a SparseTensorValue).
    Value made = in.typeOf(f)->lookup("_fetch_type");
    return in.call(made ? made : in.typeOf(f), std::move(items));
  }
  return none();
}

}  // namespace

// Placement happened when each node was created (engine/graph/Placement.h); a node whose
// tf.device request could not be honoured sits on the CPU with a note. Without
// allow_soft_placement a TF1 session refuses such a node, as TensorFlow does; with it, the
// session says once which nodes moved and why.
void SessionObj::placeNodes() {
  Interpreter& in = rt->interp();
  std::vector<const Node*> moved;
  const bool log = rt->options().logDevicePlacement;
  for (size_t i = placedNodes; i < graph->size(); ++i) {
    const Node& n = graph->nodes()[i];
    if (log)  // as TensorFlow logs a graph's placement when a session first runs it
      in.write(n.name + ": (" + n.type() + "): " + n.device.fullName() +
                   (n.placementNote.empty() ? "" : "  [" + n.placementNote + "]") + "\n", true);
    if (!n.softPlaced) continue;
    if (!softPlacement) {
      std::string available;
      for (const DeviceInfo& d : rt->devices().devices()) available += " " + d.device.fullName();
      auto requested = Device::parse(n.requestedDevice);
      rt->raiseEngineError(EngineError(ErrorCode::InvalidArgument,
          "Cannot assign a device for operation " + n.name + ": Operation was explicitly assigned to " +
              (requested ? requested->fullName() : n.requestedDevice) + " but available devices are [" +
              available + " ]. Make sure the device specification refers to a valid device. (tensorlens: " +
              n.placementNote + "; pass tf.ConfigProto(allow_soft_placement=True) to run such nodes on the CPU)"));
    }
    moved.push_back(&n);
  }
  placedNodes = graph->size();
  if (!moved.empty()) {
    std::string list;
    for (size_t i = 0; i < moved.size() && i < 8; ++i) list += std::string(i ? ", " : "") + moved[i]->name;
    if (moved.size() > 8) list += ", ...";
    in.write("tensorlens: soft placement moved " + std::to_string(moved.size()) + " node(s) to /cpu:0: " + list +
                 " (" + moved[0]->name + ": " + moved[0]->placementNote + ")\n", true);
  }
}

// Feeds the tensors of tf.data iterators this run needs (TfRuntime::AutoFeed): each producer
// is called, with the run's feed_dict, once per run that reaches one of its outputs and is not
// fed by the program.
static void addAutoFeeds(TfRuntime* rt, Graph* graph, const Fetches& f, const Value& feedDict, Feeds& feeds) {
  bool any = false;
  for (const auto& a : rt->autoFeeds) any = any || a.graph == graph;
  if (!any) return;
  std::vector<char> seen(graph->size(), 0);
  std::vector<Node*> work(f.targets.begin(), f.targets.end());
  for (const Output& o : f.outputs) work.push_back(o.node);
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    if (seen[static_cast<size_t>(n->id)]) continue;
    seen[static_cast<size_t>(n->id)] = 1;
    for (const Output& in : n->inputs) work.push_back(in.node);
    for (Node* c : n->controlInputs) work.push_back(c);
  }
  Interpreter& in = rt->interp();
  // A run nested in another's auto feed: the outer run's auto-fed values stand.
  for (const TfRuntime::AutoFeed& a : rt->autoFeeds) {
    if (a.graph != graph) continue;
    for (const Output& o : a.outputs) {
      if (static_cast<size_t>(o.node->id) >= seen.size() || !seen[static_cast<size_t>(o.node->id)]) continue;
      bool fed = false;
      for (const auto& [target, v] : feeds) fed = fed || target == o;
      for (const TfRuntime::RunningSession& outer : rt->runningSessions)
        if (outer.feeds && &feeds != outer.feeds)
          for (const auto& [target, v] : *outer.feeds)
            if (!fed && target == o) {
              feeds.emplace_back(o, v);
              fed = true;
            }
    }
  }
  for (size_t i = 0; i < rt->autoFeeds.size(); ++i) {
    const TfRuntime::AutoFeed& a = rt->autoFeeds[i];
    if (a.graph != graph) continue;
    bool needed = false;
    for (const Output& o : a.outputs) {
      bool fed = false;
      for (const auto& [target, v] : feeds) fed = fed || target == o;
      needed = needed || (!fed && static_cast<size_t>(o.node->id) < seen.size() && seen[static_cast<size_t>(o.node->id)]);
    }
    if (!needed) continue;
    const std::vector<Output> outs = a.outputs;  // the producer may register more feeds
    std::vector<Value> vals = in.toList(in.call(a.producer, {feedDict ? feedDict : none()}, {}));
    if (vals.size() != outs.size()) in.raise("RuntimeError", "tf.data: an element does not match the iterator's structure");
    for (size_t k = 0; k < outs.size(); ++k) {
      auto t = toTensor(*rt, vals[k], outs[k].type().dtype, true);
      feeds.emplace_back(outs[k], t->hostValue());
    }
  }
}

namespace {

/// Integer and bool feeds up to this many elements keep their values for the abstract run (a batch
/// size, a sequence length, tf.cond's predicate: shape functions and branches read them).
constexpr int64_t kSmallFeed = 64;

struct FeedEntry {
  Value key;
  Value value;
};

// feed_dict keys may be nested structures of tensors (a tuple, or an LSTMStateTuple of
// placeholders) fed with a value of the same structure, as TF allows.
void flattenFeed(Interpreter& in, const Value& key, const Value& value, std::vector<FeedEntry>& out, int depth) {
  if (depth > 64) in.raise("ValueError", "feed_dict keys are nested too deeply");
  std::vector<Value> keys;
  const std::vector<Value>* seq = asSequence(key);
  if (seq || namedFields(in, key, &keys)) {
    if (seq) keys = *seq;
    std::vector<Value> vals;
    if (const std::vector<Value>* vs = asSequence(value)) vals = *vs;
    else if (!namedFields(in, value, &vals)) vals = in.toList(value);
    if (vals.size() != keys.size())
      in.raise("ValueError", "The feed_dict key " + in.repr(key) + " is a structure of " + std::to_string(keys.size()) +
                                 " tensors but its value has " + std::to_string(vals.size()) + " elements");
    for (size_t i = 0; i < keys.size(); ++i) flattenFeed(in, keys[i], vals[i], out, depth + 1);
    return;
  }
  out.push_back({key, value});
}

std::vector<FeedEntry> flattenFeeds(Interpreter& in, const DictObj& d) {
  std::vector<FeedEntry> out;
  for (const auto& e : d.entries()) flattenFeed(in, e.key, e.value, out, 0);
  return out;
}

/// A fed list that holds numpy arrays (`[np.eye(n)[ids] for ...]`, a list of batches) as the
/// array `np.asarray` makes of it, as TensorFlow converts feeds; other values are unchanged.
Value asFeedArray(TfRuntime& rt, const Value& v) {
  if (!asSequence(v) || literalDType(v, true) != DType::Invalid || literalStringKind(v)) return v;
  try {
    return toTensor(rt, v, DType::Invalid, true);
  } catch (const NeedsKnownValue&) {
    return v;
  }
}

}  // namespace

Value SessionObj::run(const Value& fetches, const Value& feedDict) {
  Interpreter& in = rt->interp();
  if (closed) in.raise("RuntimeError", "Attempted to use a closed Session.");
  if (!rt->abstract()) placeNodes();
  Fetches f;
  collect(*rt, *graph, fetches, f);

  Feeds feeds;
  std::vector<AbstractFeed> abstractFeeds;
  if (auto* d = as<DictObj>(feedDict)) {
    for (FeedEntry& e : flattenFeeds(in, *d)) {
      if (isUnknown(e.key)) continue;
      e.value = asFeedArray(*rt, e.value);
      Output target = outputOf(*rt, *graph, e.key);
      if (!target) {
        if (dynamic_cast<TensorObj*>(e.key.get()) && !rt->abstract()) continue;
        in.raise("TypeError", "Cannot interpret feed_dict key as Tensor: " + in.repr(e.key));
      }
      if (rt->abstract()) {
        // Static check of the fed value's shape against the placeholder's.
        Shape valueShape;
        SourceLocation valueOrigin;
        std::shared_ptr<const Tensor> smallInts;  // a fed value shape functions may read
        DType valueDType = DType::Invalid;
        if (auto* t = dynamic_cast<TensorObj*>(e.value.get())) {
          if (!t->isSymbolic()) {  // a graph tensor is no feed value (TypeError when run)
            valueShape = t->type.shape;
            valueOrigin = t->origin;
            valueDType = t->type.dtype;
            if (t->type.value && t->type.value->numElements() <= kSmallFeed) smallInts = t->type.value;
          }
        } else {
          try {
            if (auto lit = literalToTensor(in, e.value, DType::Invalid, true)) {
              valueShape = Shape::fromConcrete(lit->shape());
              valueDType = lit->dtype();
              if (lit->numElements() <= kSmallFeed) smallInts = std::make_shared<const Tensor>(std::move(*lit));
            }
          } catch (const NeedsKnownValue&) {
          }
        }
        if (smallInts && !isInteger(smallInts->dtype()) && smallInts->dtype() != DType::Bool) smallInts.reset();
        if (valueShape.rankKnown()) {
          TensorType fedType(valueDType, valueShape);
          fedType.value = smallInts;
          abstractFeeds.push_back({target, std::move(fedType), valueOrigin});
        }
        const Shape& want = target.type().shape;
        if (valueShape.rankKnown() && want.rankKnown() && !want.compatible(valueShape)) {
          DiagnosticData data;
          data.shapes = {NamedShape{"fed", shapeInfo(valueShape)}, NamedShape{"placeholder", shapeInfo(want)}};
          data.ranges = {target.node->location, valueOrigin};
          rt->reportError("Cannot feed value of shape " + valueShape.tfStr() + " for Tensor '" + target.name() +
                              "', which has shape '" + want.tfStr() + "'",
                          {target.node->location, valueOrigin},
                          {"'" + target.name() + "' is " + describeType(target.type()) + " here",
                           "the fed value is " + valueShape.str() + " here"},
                          "feed-shape", std::move(data));
        }
        continue;
      }
      Tensor value;
      if (auto* t = dynamic_cast<TensorObj*>(e.value.get())) {
        if (t->isSymbolic())
          in.raise("TypeError", "The value of a feed cannot be a tf.Tensor object. Acceptable feed values include Python scalars, strings, lists, numpy ndarrays, or TensorHandles.");
        value = t->hostValue();
      } else {
        auto lit = literalToTensor(in, e.value, DType::Invalid, true);
        if (!lit) in.raise("TypeError", "Cannot feed a value of type " + in.typeName(e.value));
        value = std::move(*lit);
      }
      feeds.emplace_back(target, std::move(value));
    }
  }

  // The session stays reachable from auto-feed producers (`_tlens.running_session()`) while
  // they run, with the feeds made so far.
  rt->runningSessions.push_back({shared_from_this(), &feeds});
  struct PopRunning {
    TfRuntime* rt;
    ~PopRunning() { rt->runningSessions.pop_back(); }
  } popRunning{rt};
  if (!rt->abstract()) addAutoFeeds(rt, graph, f, feedDict, feeds);

  std::vector<Value> values;
  if (rt->abstract()) {
    // The fetches' types in this run, and the shape errors it raises (AbstractRun.h).
    for (TensorType& t : abstractRun(*rt, f.outputs, f.targets, abstractFeeds))
      values.push_back(abstractTensor(*rt, std::move(t), true));
  } else {
    std::vector<Tensor> results;
    try {
      results = session->run(f.outputs, feeds, f.targets);
    } catch (const EngineError& e) {
      std::string what = e.what();
      if (what.rfind("Cannot feed value", 0) == 0) in.raise("ValueError", what);
      rt->raiseEngineError(e);
    }
    const CopySummary tr = rt->options().logDevicePlacement ? session->lastCopies(8) : CopySummary{};
    if (tr.count) {
      std::string list;
      for (const CopyRecord& x : tr.first)
        list += "\n  " + x.tensor + ": " + x.from.str() + " -> " + x.to.str() + " (" + formatBytes(x.bytes) + ")";
      if (tr.count > 8) list += "\n  ...";
      in.write("tensorlens: this run copied " + std::to_string(tr.count) + " tensor(s) between devices (" +
                   formatBytes(tr.bytes) + "):" + list + "\n", true);
    }
    for (Tensor& t : results) {
      // A string scalar is bytes (an array of strings a numpy object array), as Session.run gives.
      if (t.dtype() == DType::String && t.rank() == 0) values.push_back(makeBytes(t.strings()[0]));
      else values.push_back(concreteTensor(*rt, rt->wrap(std::move(t)), true));
    }
  }
  size_t next = 0;
  return rebuild(*rt, fetches, values, next);
}

Value SessionObj::getAttr(Interpreter& in, std::string_view name) {
  auto self = std::static_pointer_cast<SessionObj>(shared_from_this());
  if (name == "run")
    return boundMethod(NativeFunction::make("run", "self, fetches, feed_dict=None, options=None, run_metadata=None",
                                            [](CallContext& c) -> Value {
                                              auto* s = static_cast<SessionObj*>(c.arg(0).get());
                                              return s->run(c.arg(1), c.arg(2));
                                            }));
  if (name == "close")
    return boundMethod(NativeFunction::make("close", "self", [](CallContext& c) -> Value {
      static_cast<SessionObj*>(c.arg(0).get())->closed = true;
      return none();
    }));
  if (name == "graph") return rt->graphObject(*graph);
  // TF1's Session.graph_def: the graph's GraphDef, as tutorials pass it to FileWriter.
  if (name == "graph_def") return in.call(in.getAttr(rt->graphObject(*graph), "as_graph_def"), {});
  if (name == "as_default") {
    return boundMethod(NativeFunction::make("as_default", "self", [](CallContext& c) -> Value {
      auto* s = static_cast<SessionObj*>(c.arg(0).get());
      auto scope = std::make_shared<ScopeObj>();
      scope->kind = "session_scope";
      TfRuntime* rt = s->rt;
      Value sv = c.arg(0);
      scope->onEnter = [rt, sv] {
        rt->sessionStack.push_back(sv);
        return sv;
      };
      scope->onExit = [rt] {
        if (!rt->sessionStack.empty()) rt->sessionStack.pop_back();
      };
      return scope;
    }));
  }
  return nullptr;
}

Value SessionObj::enter(Interpreter& in) {
  rt->sessionStack.push_back(shared_from_this());
  rt->pushGraph(graph);
  return shared_from_this();
}

bool SessionObj::exit(Interpreter& in, const Value& exc) {
  if (!rt->sessionStack.empty()) rt->sessionStack.pop_back();
  rt->popGraph();
  closed = true;
  return false;
}

}  // namespace tlens::tf
