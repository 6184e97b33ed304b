#include "lang/tf/AbstractRun.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "engine/ops/OpRegistry.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

/// What one analysis remembers of its abstract runs (TfRuntime::abstractRuns).
struct AbstractRunState {
  std::unordered_map<std::string, std::vector<TensorType>> signatures;
  std::set<const Node*> reported;  ///< nodes whose failure was reported
  size_t inferred = 0;
  size_t visited = 0;
  size_t work() const { return inferred + visited; }
};

void AbstractRunStateDeleter::operator()(AbstractRunState* s) const { delete s; }

namespace {

using SymbolSizes = std::map<uint32_t, int64_t>;  ///< fed symbols; -1: fed two sizes (unused)

/// `s` with the fed symbols replaced by their sizes.
Shape substitute(const Shape& s, const SymbolSizes& syms) {
  if (syms.empty() || !s.rankKnown()) return s;
  Shape r = s;
  for (Dim& d : r.dims())
    if (d.isSymbolic()) {
      auto it = syms.find(d.sym);
      if (it != syms.end() && it->second >= 0) d = Dim::known(it->second);
    }
  return r;
}

bool sameType(const TensorType& a, const TensorType& b) {
  if (a.dtype != b.dtype || a.shape != b.shape) return false;
  if (a.asShape.has_value() != b.asShape.has_value() || (a.asShape && *a.asShape != *b.asShape)) return false;
  if (!a.value || !b.value) return !a.value && !b.value;
  if (a.value == b.value) return true;
  const Tensor& x = *a.value;
  const Tensor& y = *b.value;
  return x.dtype() == y.dtype() && x.shape() == y.shape() && x.hostAccessible() && y.hostAccessible() &&
         (x.bytes() == 0 || std::memcmp(x.raw(), y.raw(), x.bytes()) == 0);
}

/// The run's type of an output whose producer was inferred again: the new type, refined by what
/// the static type knew beyond its inputs (set_shape) where the two agree.
TensorType refine(TensorType fresh, const TensorType& old, const SymbolSizes& syms) {
  Shape before = substitute(old.shape, syms);
  if (fresh.shape.compatible(before)) fresh.shape = fresh.shape.merge(before);
  if (fresh.dtype == DType::Invalid) fresh.dtype = old.dtype;
  return fresh;
}

/// Whether every element of an integer or bool value keeps its value in `dtype` (a feed of
/// 3 * 10**9 to an int32 placeholder does not: numpy raises or wraps it, so its value is unknown).
bool fits(const Tensor& v, DType dtype) {
  int64_t lo = 0, hi = 1;
  switch (dtype) {
    case DType::Int32: lo = INT32_MIN, hi = INT32_MAX; break;
    case DType::Int64: return true;
    case DType::UInt8: lo = 0, hi = 255; break;
    case DType::Bool: lo = INT64_MIN, hi = INT64_MAX; break;  // any integer is a truth value
    default: return false;
  }
  for (int64_t i = 0; i < v.numElements(); ++i) {
    const int64_t x = v.getInt(i);
    if (x < lo || x > hi) return false;
  }
  return true;
}

bool isRefInput(const Node& n, size_t i) {
  return std::find(n.op->refInputs.begin(), n.op->refInputs.end(), static_cast<int>(i)) != n.op->refInputs.end();
}

}  // namespace

Specialisation specialiseRun(const std::vector<Output>& fetches, const std::vector<Node*>& targets,
                             const std::vector<AbstractFeed>& feeds, size_t nodeBudget) {
  Specialisation s;
  for (const Output& f : fetches) s.fetches.push_back(f.type());

  // The fed types: the placeholder's type made as specific as the fed value, in its dtype (a
  // feed converts with np.asarray(value, dtype)). The symbols of the placeholder's None dims
  // take the fed sizes.
  SymbolSizes syms;
  for (const AbstractFeed& f : feeds) {
    const Shape& want = f.target.type().shape;
    const Shape& got = f.type.shape;
    if (!want.rankKnown() || !got.rankKnown() || want.rank() != got.rank()) continue;
    for (size_t i = 0; i < want.dims().size(); ++i)
      if (want[i].isSymbolic() && got[i].isKnown()) {
        auto [it, fresh] = syms.emplace(want[i].sym, got[i].size);
        if (!fresh && it->second != got[i].size) it->second = -1;
      }
  }
  std::map<Output, TensorType> fed;
  bool anySpecific = false;
  for (const AbstractFeed& f : feeds) {
    TensorType t = f.target.type();
    if (!t.shape.compatible(f.type.shape)) return s;  // the feed itself fails (reported as feed-shape)
    t.shape = substitute(t.shape, syms).merge(f.type.shape);
    if (t.dtype == DType::Invalid) t.dtype = f.type.dtype;
    auto smallValue = [](DType d) { return isInteger(d) || d == DType::Bool; };
    if (f.type.value && smallValue(t.dtype) && smallValue(f.type.value->dtype()) && f.type.value->hostAccessible() &&
        fits(*f.type.value, t.dtype)) {
      t.value = f.type.value->dtype() == t.dtype ? f.type.value
                                                 : std::make_shared<const Tensor>(f.type.value->cast(t.dtype));
      t.asShape.reset();
    }
    anySpecific = anySpecific || !sameType(t, f.target.type());
    fed[f.target] = std::move(t);
  }
  for (size_t i = 0; i < fetches.size(); ++i) {
    auto it = fed.find(fetches[i]);
    if (it != fed.end()) s.fetches[i] = it->second;
  }
  if (!anySpecific) return s;

  // The nodes the run executes (Session::planFor's pruning): fed outputs cut the walk.
  std::unordered_map<const Node*, char> needed;
  std::vector<Node*> work;
  for (const Output& f : fetches)
    if (!fed.count(f)) work.push_back(f.node);
  for (Node* t : targets) work.push_back(t);
  std::vector<Node*> order;
  while (!work.empty()) {
    Node* n = work.back();
    work.pop_back();
    if (!needed.emplace(n, 1).second) continue;
    order.push_back(n);
    for (size_t i = 0; i < n->inputs.size(); ++i)
      if (!isRefInput(*n, i) && !fed.count(n->inputs[i])) work.push_back(n->inputs[i].node);
    for (Node* c : n->controlInputs) {
      bool allFed = c->numOutputs() > 0;
      for (size_t k = 0; k < c->numOutputs() && allFed; ++k) allFed = fed.count(Output{c, static_cast<int>(k)}) > 0;
      if (!allFed) work.push_back(c);
    }
  }
  s.visited = order.size();
  std::sort(order.begin(), order.end(), [](const Node* a, const Node* b) { return a->id < b->id; });

  // Dead: on the branch of a tf.cond that this run's fed predicate does not take.
  enum class State : uint8_t { Same, Changed, Failed, Dead };
  struct Typed {
    State state = State::Same;
    int branch = 0;  ///< tf.cond branches of unknown predicate this node is inside
    int taken = -1;  ///< Switch: the output this run takes (its predicate is known), else -1
    std::vector<TensorType> outputs;
  };
  std::unordered_map<const Node*, Typed> typed;
  typed.reserve(order.size());
  std::vector<TensorType> types;
  std::vector<std::string> names;
  for (Node* n : order) {
    Typed& me = typed[n];
    types.clear();
    names.clear();
    const bool merge = n->type() == "Merge";
    bool changed = false, failed = false, dead = false;
    size_t live = 0;
    for (size_t i = 0; i < n->inputs.size(); ++i) {
      const Output& in = n->inputs[i];
      names.push_back(in.name());
      auto f = fed.find(in);
      if (f != fed.end()) {
        types.push_back(f->second);
        changed = true;
        ++live;
        continue;
      }
      auto t = typed.find(in.node);
      if (t == typed.end()) {
        types.push_back(in.type());
        ++live;
        continue;
      }
      const Typed& from = t->second;
      const bool fromSwitch = in.node->type() == "Switch";
      if (from.state == State::Dead || (fromSwitch && from.taken >= 0 && from.taken != in.index)) {
        dead = true;
        types.push_back(in.type());
        changed = true;
        continue;
      }
      ++live;
      me.branch = std::max(me.branch, from.branch + (fromSwitch && from.taken < 0 ? 1 : 0));
      if (from.state == State::Same) {
        types.push_back(in.type());
        continue;
      }
      if (from.state == State::Failed) failed = true;
      else types.push_back(from.outputs[static_cast<size_t>(in.index)]);
      changed = true;
    }
    for (const Node* c : n->controlInputs) {
      auto t = typed.find(c);
      if (t != typed.end() && t->second.state == State::Dead) dead = true;
    }
    if (merge && me.branch > 0) --me.branch;
    // A node with a dead input is dead; a Merge only when all its inputs are, and otherwise it is
    // its live input.
    if (dead && (!merge || live == 0)) {
      me.state = State::Dead;
      continue;
    }
    if (failed) {
      me.state = State::Failed;
      continue;
    }
    if (merge && dead) {
      for (size_t i = 0; i < n->inputs.size(); ++i) {
        const Output& in = n->inputs[i];
        auto t = typed.find(in.node);
        if (!fed.count(in) && t != typed.end() &&
            (t->second.state == State::Dead || (in.node->type() == "Switch" && t->second.taken >= 0 && t->second.taken != in.index)))
          continue;
        for (size_t k = 0; k < n->inputs.size(); ++k)
          if (k != i) types[k] = types[i];
        break;
      }
    }
    if (n->type() == "Switch" && types.size() == 2 && types[1].value && types[1].value->numElements() == 1 &&
        types[1].value->hostAccessible())
      me.taken = types[1].value->getInt(0) != 0 ? 1 : 0;
    // Unchanged inputs: the static types hold. A node whose creation already failed was reported
    // then; its outputs stay unknown.
    if (!changed || !n->shapeError.empty()) continue;
    if (s.inferred >= nodeBudget) {
      s.cutShort = true;
      break;
    }
    ++s.inferred;
    ShapeResult r = n->op->infer(types, n->attrs, n->name, &names);
    if (!r.ok()) {
      me.state = State::Failed;
      // A branch of tf.cond may not run: what fails inside one is not reported.
      if (me.branch == 0) {
        s.failure = RunFailure{n, r.error, r.blame, types, std::move(r.data)};
        break;
      }
      continue;
    }
    if (r.outputs.size() != n->outputs.size()) continue;  // keep the static types
    bool differs = false;
    for (size_t k = 0; k < r.outputs.size(); ++k) {
      r.outputs[k] = refine(std::move(r.outputs[k]), n->outputs[k], syms);
      differs = differs || !sameType(r.outputs[k], n->outputs[k]);
    }
    if (!differs) continue;
    me.state = State::Changed;
    me.outputs = std::move(r.outputs);
  }
  if (s.failure || s.cutShort) return s;
  for (size_t i = 0; i < fetches.size(); ++i) {
    if (fed.count(fetches[i])) continue;
    auto t = typed.find(fetches[i].node);
    if (t != typed.end() && t->second.state == State::Changed)
      s.fetches[i] = t->second.outputs[static_cast<size_t>(fetches[i].index)];
  }
  return s;
}

namespace {

void appendType(std::string& key, const TensorType& t) {
  key += std::to_string(static_cast<int>(t.dtype));
  key += t.shape.rankKnown() ? '[' : '*';
  for (const Dim& d : t.shape.dims()) {
    key += std::to_string(d.size);
    key += ':';
    key += std::to_string(d.sym);
    key += ',';
  }
  if (t.value && t.value->hostAccessible()) {
    key += '=';
    key.append(static_cast<const char*>(t.value->raw()), t.value->bytes());
  }
  key += ';';
}

/// Whether a message shows the value: a scalar or a short vector (a batch size, a shape).
bool shownValue(const TensorType& t) {
  return t.value && t.value->hostAccessible() && t.value->rank() <= 1 && t.value->numElements() <= 8;
}

/// "float32[50, 784]", "int32[] = 40", "int32[3] = [40 28 28]".
std::string runText(const TensorType& t) {
  std::string s = describeType(t);
  if (shownValue(t)) s += " = " + t.value->str();
  return s;
}

std::string signature(const std::vector<Output>& fetches, const std::vector<Node*>& targets,
                      const std::vector<AbstractFeed>& feeds) {
  std::string key;
  auto out = [&](const Output& o) {
    key += std::to_string(reinterpret_cast<uintptr_t>(o.node));
    key += '.';
    key += std::to_string(o.index);
    key += ' ';
  };
  for (const Output& f : fetches) out(f);
  key += '|';
  for (const Node* t : targets) key += std::to_string(reinterpret_cast<uintptr_t>(t)) + ' ';
  key += '|';
  for (const AbstractFeed& f : feeds) {
    out(f.target);
    appendType(key, f.type);
  }
  return key;
}

}  // namespace

AbstractRunStats abstractRunStats(const TfRuntime& rt) {
  AbstractRunStats s;
  if (rt.abstractRuns) {
    s.signatures = rt.abstractRuns->signatures.size();
    s.inferred = rt.abstractRuns->inferred;
    s.visited = rt.abstractRuns->visited;
  }
  return s;
}

std::vector<TensorType> abstractRun(TfRuntime& rt, const std::vector<Output>& fetches,
                                    const std::vector<Node*>& targets, const std::vector<AbstractFeed>& feeds) {
  if (!rt.abstractRuns) rt.abstractRuns.reset(new AbstractRunState);
  AbstractRunState& st = *rt.abstractRuns;
  std::string key = signature(fetches, targets, feeds);
  auto cached = st.signatures.find(key);
  if (cached != st.signatures.end()) return cached->second;
  std::vector<TensorType> statics;
  for (const Output& f : fetches) statics.push_back(f.type());
  if (st.signatures.size() >= kRunSignatureBudget || st.work() >= kRunNodeBudget) return statics;

  Specialisation s = specialiseRun(fetches, targets, feeds, kRunNodeBudget - st.work());
  st.inferred += s.inferred;
  st.visited += s.visited;
  if (s.failure && st.reported.insert(s.failure->node).second) {
    const RunFailure& f = *s.failure;
    std::vector<SourceLocation> rel{rt.userLocation()};
    std::string fedList;
    for (const AbstractFeed& feed : feeds) {
      if (feed.type.shape == feed.target.type().shape && !feed.type.value) continue;
      if (fedList.size() > 200) {
        fedList += ", ...";
        break;
      }
      fedList += (fedList.empty() ? "'" : ", '") + feed.target.name() + "' " + (shownValue(feed.type) ? "= " + feed.type.value->str() : "of shape " + feed.type.shape.tfStr());
    }
    std::vector<std::string> msgs{"raised by this run" + (fedList.empty() ? std::string() : ", which feeds " + fedList)};
    for (int b : f.blame) {
      if (b < 0 || static_cast<size_t>(b) >= f.node->inputs.size() || static_cast<size_t>(b) >= f.inputs.size()) continue;
      const Output& in = f.node->inputs[static_cast<size_t>(b)];
      rel.push_back(in.node->location);
      msgs.push_back("input " + std::to_string(b) + ": '" + in.name() + "' is " + runText(f.inputs[static_cast<size_t>(b)]) +
                     " in this run");
    }
    DiagnosticData data = f.data;
    for (size_t i = 0; i < data.inputs.size() && i < f.node->inputs.size(); ++i)
      data.inputs[i].location = f.node->inputs[i].node->location;
    data.ranges.push_back(rt.userLocation());  // the Session.run that raises it
    rt.reportErrorAt(f.node->location, f.error, rel, msgs, "shape-error", std::move(data));
  }
  std::vector<TensorType> result = s.failure ? statics : s.fetches;
  st.signatures.emplace(std::move(key), result);
  return result;
}

}  // namespace tlens::tf
