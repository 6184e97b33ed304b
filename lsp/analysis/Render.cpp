#include "lsp/analysis/Render.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <unordered_set>

#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::lsp {

using namespace interp;

namespace {

constexpr size_t kMaxValueText = 80;

std::string firstLine(std::string s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return {};
  s = s.substr(a);
  if (size_t nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

std::string docOf(const Value& v) {
  if (auto* f = as<FunctionObj>(v)) {
    if (auto* s = as<StrObj>(f->attrs.get("__doc__"))) return firstLine(s->value);
  } else if (auto* n = as<NativeFunction>(v)) {
    return firstLine(n->doc);
  } else if (auto* c = as<ClassObj>(v)) {
    if (auto* s = as<StrObj>(c->dict.get("__doc__"))) return firstLine(s->value);
  }
  return {};
}

/// A known value small enough to show: ints, floats, bools, short strings, None, and short
/// lists/tuples of those.
bool simpleValue(const Value& v, int depth = 0) {
  switch (v->kind()) {
    case Kind::None:
    case Kind::Bool:
    case Kind::Int:
    case Kind::Float:
      return true;
    case Kind::Str:
      return static_cast<StrObj*>(v.get())->value.size() <= kMaxValueText;
    case Kind::List:
    case Kind::Tuple: {
      const auto& items = v->kind() == Kind::List ? static_cast<ListObj*>(v.get())->items : static_cast<TupleObj*>(v.get())->items;
      if (depth > 1 || items.size() > 16) return false;
      for (const Value& i : items)
        if (!i || !simpleValue(i, depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

void callableInfo(Interpreter& in, const Value& v, RenderedValue& info) {
  Value fn = v;
  bool bound = false;
  if (auto* b = as<BoundMethodObj>(v)) {
    fn = b->function;
    bound = true;
  }
  const Signature* sig = nullptr;
  std::string name;
  if (auto* f = as<FunctionObj>(fn)) {
    sig = &f->sig;
    name = f->name;
  } else if (auto* n = as<NativeFunction>(fn)) {
    if (n->sig) sig = &*n->sig;
    name = n->name;
  }
  info.kind = RenderedValue::Kind::Callable;
  info.type = "function";
  info.doc = docOf(fn);
  if (!sig) {
    info.signature = name + "(...)";
    return;
  }
  size_t skip = bound && !sig->params.empty() ? 1 : 0;
  std::string label = name + "(";
  for (size_t i = skip; i < sig->params.size(); ++i) {
    const Param& p = sig->params[i];
    std::string one = p.kind == ParamKind::VarArgs ? "*" + p.name : p.kind == ParamKind::VarKeywords ? "**" + p.name : p.name;
    if (p.defaultValue && simpleValue(p.defaultValue)) {
      try {
        one += "=" + in.repr(p.defaultValue);
      } catch (const PyError&) {
      }
    }
    if (i > skip) label += ", ";
    label += one;
    info.params.push_back(one);
  }
  label += ")";
  info.signature = label;
}

/// Calls the model's `_tlens_summary_rows()` into `info.summaryRows` (none when it raises).
void computeSummaryRows(Interpreter& in, const Value& v, RenderedValue& info);

/// Past this many words a model's trace is not kept (its rows are computed every time).
constexpr size_t kMaxSummaryTrace = 1 << 16;

/// What a model's summary rows are computed from: every object reachable from `root` through
/// containers, attributes, classes (their dicts and MROs), bound methods and function defaults,
/// in the order visited, as words. Numbers, strings, None, booleans and tuples of them are their
/// values (a layer sets `_seen_output_shape` to a new, equal tuple at every call); every other
/// object is its address, then, the first time, its kind and contents (sizes, attribute names'
/// hashes, what it holds). Functions, modules and native objects (tensors) are their address.
/// `alive` (when given) gets a weak reference to each object named by address, so a later trace
/// with the same words names the same objects exactly when all of them are still alive (no
/// address was reused). False when `root` reaches something whose state the words do not
/// capture (a generator, an iterator, a user subclass of int/float/str) or too much.
bool summaryTrace(const Object* root, std::vector<uint64_t>& trace,
                  std::vector<std::weak_ptr<const Object>>* alive) {
  trace.clear();
  std::unordered_set<const Object*> seen;
  std::vector<const Object*> todo;
  bool ok = true;
  auto tag = [&](Kind k) { trace.push_back(static_cast<uint64_t>(k) | uint64_t{1} << 63); };
  std::function<void(const Object*, int)> ref = [&](const Object* o, int depth) {
    if (o) switch (o->kind()) {
      case Kind::None:
        tag(o->kind());
        return;
      case Kind::Bool:
        tag(o->kind());
        trace.push_back(static_cast<const BoolObj*>(o)->value);
        return;
      case Kind::Int:
        if (static_cast<const IntObj*>(o)->sub) break;
        tag(o->kind());
        trace.push_back(static_cast<uint64_t>(static_cast<const IntObj*>(o)->value));
        return;
      case Kind::Float: {
        if (static_cast<const FloatObj*>(o)->sub) break;
        tag(o->kind());
        double d = static_cast<const FloatObj*>(o)->value;
        uint64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        trace.push_back(bits);
        return;
      }
      case Kind::Str: {
        const auto* str = static_cast<const StrObj*>(o);
        if (str->sub) break;
        tag(o->kind());
        trace.push_back(str->value.size());
        trace.push_back(std::hash<std::string>()(str->value));
        return;
      }
      case Kind::Tuple: {
        const auto& items = static_cast<const TupleObj*>(o)->items;
        if (depth > 16) {
          ok = false;
          return;
        }
        tag(o->kind());
        trace.push_back(items.size());
        for (const Value& i : items) ref(i.get(), depth + 1);
        return;
      }
      default:
        break;
    }
    trace.push_back(reinterpret_cast<uintptr_t>(o));
    if (o && seen.insert(o).second) todo.push_back(o);
  };
  auto names = [&](const Namespace& ns) {
    trace.push_back(ns.size());
    ns.forEach([&](const std::string& k, const Value& v) {
      trace.push_back(std::hash<std::string>()(k));
      ref(v.get(), 0);
    });
  };
  trace.push_back(reinterpret_cast<uintptr_t>(root));
  seen.insert(root);
  todo.push_back(root);
  while (!todo.empty() && ok) {
    const Object* o = todo.back();
    todo.pop_back();
    if (alive) alive->push_back(o->weak_from_this());
    tag(o->kind());
    switch (o->kind()) {
      case Kind::Int:
      case Kind::Float:
      case Kind::Str:
        return false;  // a user subclass's value (the others are values in the trace)
      case Kind::List: {
        const auto& items = static_cast<const ListObj*>(o)->items;
        trace.push_back(items.size());
        for (const Value& i : items) ref(i.get(), 0);
        break;
      }
      case Kind::Dict: {
        const auto* d = static_cast<const DictObj*>(o);
        trace.push_back(d->table.slots());
        ref(d->defaultFactory.get(), 0);
        ref(d->cls.get(), 0);
        d->table.forEach([&](const HashTable::Entry& e) {
          ref(e.key.get(), 0);
          ref(e.value.get(), 0);
        });
        break;
      }
      case Kind::Set: {
        const auto* st = static_cast<const SetObj*>(o);
        trace.push_back(st->table.slots());
        st->table.forEach([&](const HashTable::Entry& e) { ref(e.key.get(), 0); });
        break;
      }
      case Kind::Instance: {
        const auto* i = static_cast<const InstanceObj*>(o);
        ref(i->cls.get(), 0);
        trace.push_back(reinterpret_cast<uintptr_t>(i->native.get()));
        names(i->dict);
        break;
      }
      case Kind::Class: {
        const auto* c = static_cast<const ClassObj*>(o);
        names(c->dict);
        trace.push_back(c->mro.size());
        for (const auto& m : c->mro) ref(m.get(), 0);
        break;
      }
      case Kind::Function: {
        const auto* f = static_cast<const FunctionObj*>(o);
        for (const Param& p : f->sig.params) ref(p.defaultValue.get(), 0);
        names(f->attrs);
        break;
      }
      case Kind::BoundMethod: {
        const auto* b = static_cast<const BoundMethodObj*>(o);
        ref(b->self.get(), 0);
        ref(b->function.get(), 0);
        break;
      }
      case Kind::Iterator:
      case Kind::Generator:
        return false;
      default:
        break;  // immutable, or changed only through beforeChange() (tensors: set_shape)
    }
    if (trace.size() > kMaxSummaryTrace) return false;
  }
  return ok;
}

/// Keras models offer `_tlens_summary_rows()` (lang/tf/python keras): rows of the summary table.
/// A model is observed at every mention (each `self.` in its `call`, each use in a training
/// loop) and the Python costs ~0.5-1 ms a call, a third of a Keras file's analysis: rows are
/// memoised per model and reused while everything reachable from the model is the same objects
/// with the same contents (summaryTrace); the call reads nothing else but library module globals
/// (rows whose call ran any of the user's code are not memoised).
void summaryRows(Interpreter& in, const Value& v, InstanceObj& inst, RenderedValue& info, RenderCache& cache) {
  bool offers = false;
  for (const auto& c : inst.cls->mro)
    if (c->dict.contains("_tlens_summary_rows")) offers = true;
  if (!offers) return;
  std::vector<uint64_t> before;
  const bool traced = summaryTrace(v.get(), before, nullptr);
  if (traced)
    if (auto it = cache.summaries.find(v.get()); it != cache.summaries.end() && it->second.trace == before &&
                                                 std::none_of(it->second.alive.begin(), it->second.alive.end(),
                                                              [](const auto& w) { return w.expired(); })) {
      info.summaryRows = it->second.rows;
      ++cache.summariesReused;
      return;
    }
  const uint64_t userCode = cache.userCodeSeen;
  ++cache.summariesComputed;
  computeSummaryRows(in, v, info);
  if (!traced || cache.userCodeSeen != userCode) return;
  // Kept only when the call changed nothing it could see (the rows describe the state traced).
  SummaryMemo memo;
  if (!summaryTrace(v.get(), memo.trace, &memo.alive) || memo.trace != before) {
    cache.summaries.erase(v.get());
    return;
  }
  memo.rows = info.summaryRows;
  cache.summaries[v.get()] = std::move(memo);
}

void computeSummaryRows(Interpreter& in, const Value& v, RenderedValue& info) {
  try {
    // Rows are (name, class name, output shape as a list with None or None, params); shown as
    // model.summary() prints them.
    Value rows = in.call(in.getAttr(v, "_tlens_summary_rows"), {});
    info.summaryRows.push_back({"Layer (type)", "Output Shape", "Param #"});
    int64_t total = 0;
    for (const Value& row : in.toList(rows)) {
      std::vector<Value> cells = in.toList(row);
      if (cells.size() < 4) continue;
      std::string shape = "?";
      if (!is<NoneObj>(cells[2])) {
        shape = "(";
        std::vector<Value> dims = in.toList(cells[2]);
        for (size_t i = 0; i < dims.size(); ++i) shape += (i ? ", " : "") + in.str(dims[i]);
        shape += dims.size() == 1 ? ",)" : ")";
      }
      if (auto* n = as<IntObj>(cells[3])) total += n->value;
      info.summaryRows.push_back({in.str(cells[0]) + " (" + in.str(cells[1]) + ")", shape, in.str(cells[3])});
      if (info.summaryRows.size() > 200) break;
    }
    info.summaryRows.push_back({"Total params", "", std::to_string(total)});
  } catch (const PyError&) {
    info.summaryRows.clear();  // degrade: no table rather than half of one
  }
}

}  // namespace

Members memberNames(Interpreter& in, const Value& v, RenderCache& cache) {
  if (!v) return nullptr;
  if (auto it = cache.find(v.get()); it != cache.end()) return it->second;
  auto out = std::make_shared<std::vector<Member>>();
  auto add = [&](const std::string& name, const Value& m) {
    if (name.empty() || name[0] == '_') return;
    Member mem;
    mem.name = name;
    if (m) {
      switch (m->kind()) {
        case Kind::Function:
        case Kind::NativeFunction:
        case Kind::BoundMethod: {
          RenderedValue ci;
          callableInfo(in, m, ci);
          mem.kind = Member::Kind::Function;
          mem.detail = ci.signature;
          mem.doc = ci.doc;
          break;
        }
        case Kind::Class:
          mem.kind = Member::Kind::Class;
          mem.doc = docOf(m);
          break;
        case Kind::Module:
          mem.kind = Member::Kind::Module;
          break;
        default:
          mem.detail = in.typeName(m);
      }
    }
    out->push_back(std::move(mem));
  };
  switch (v->kind()) {
    case Kind::Module:
      static_cast<ModuleObj*>(v.get())->globals->vars.forEach(add);
      break;
    case Kind::Class:
      for (const auto& c : static_cast<ClassObj*>(v.get())->mro)
        if (c->module != "builtins") c->dict.forEach(add);
      break;
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(v.get());
      inst->dict.forEach(add);
      for (const auto& c : inst->cls->mro)
        if (c->module != "builtins") c->dict.forEach(add);
      break;
    }
    case Kind::Native:
      for (const std::string& n : static_cast<NativeObject*>(v.get())->attributeNames(in)) add(n, nullptr);
      break;
    default:
      cache[v.get()] = nullptr;
      return nullptr;
  }
  // Deduplicate (an instance attribute shadows a class attribute of the same name).
  std::vector<Member> uniq;
  for (auto& m : *out) {
    bool seen = false;
    for (const auto& u : uniq) seen = seen || u.name == m.name;
    if (!seen) uniq.push_back(std::move(m));
  }
  *out = std::move(uniq);
  Members r = out;
  cache[v.get()] = r;
  return r;
}

namespace {

void renderValueInto(Interpreter& in, const Value& v, RenderCache& cache, RenderedValue& info, bool callPython) {
  switch (v->kind()) {
    case Kind::Unknown: {
      auto* u = static_cast<UnknownObj*>(v.get());
      info.kind = RenderedValue::Kind::Unknown;
      info.type = u->type ? u->type->name : "unknown";
      return;
    }
    case Kind::Native: {
      if (auto* t = dynamic_cast<tf::TensorObj*>(v.get())) {
        info.kind = RenderedValue::Kind::Tensor;
        info.type = tf::describeType(t->type);
        info.known = t->type.dtype != DType::Invalid && t->type.shape.rankKnown();
        if (t->isSymbolic() && t->out.node) {
          info.device = t->deviceName();
          info.node = t->out.node->name;
          if (t->out.node->op) info.op = t->out.node->op->type;  // its summary: from the registry
        } else if (!t->ndarray && t->rt) {
          info.device = t->deviceName();
        }
        if (!t->ndarray) info.placementNote = t->devicePlacementNote();
        if (t->variable) info.node = t->isSymbolic() ? info.node : t->varName;
        info.value = t->typeName();  // Tensor, EagerTensor, ndarray, RefVariable
        // Every tensor of a kind offers the same names: list them once per kind.
        if (t->rt) {
          const Value& methods = t->ndarray ? t->rt->ndarrayMethods : t->variable ? t->rt->variableMethods : t->rt->tensorMethods;
          const interp::Object* key = methods ? methods.get() : nullptr;
          if (key) {
            auto it = cache.find(key);
            if (it == cache.end()) {
              RenderCache scratch;
              it = cache.emplace(key, memberNames(in, v, scratch)).first;
            }
            info.members = it->second;
          }
        }
        return;
      }
      if (auto* d = dynamic_cast<tf::DTypeObj*>(v.get())) {
        info.kind = RenderedValue::Kind::DType;
        info.type = d->typeName();
        info.known = true;
        info.value = std::string(d->numpy ? "np." : "tf.") + std::string(dtypeName(d->dtype));
        return;
      }
      auto* n = static_cast<NativeObject*>(v.get());
      info.kind = RenderedValue::Kind::Instance;
      info.type = n->typeName();
      info.members = memberNames(in, v, cache);
      return;
    }
    case Kind::Function:
    case Kind::NativeFunction:
    case Kind::BoundMethod:
      callableInfo(in, v, info);
      return;
    case Kind::Module:
      info.kind = RenderedValue::Kind::Module;
      info.type = "module";
      info.value = static_cast<ModuleObj*>(v.get())->name;
      info.members = memberNames(in, v, cache);
      return;
    case Kind::Class: {
      auto* c = static_cast<ClassObj*>(v.get());
      info.kind = RenderedValue::Kind::Class;
      info.type = "type";
      info.value = c->name;
      info.doc = docOf(v);
      if (Value init = c->dict.get("__init__")) {
        // A constructor wrapped by the library (Keras' built-in classes record their arguments)
        // shows the signature it wraps (`__wrapped__`, functools.wraps' convention).
        if (auto* f = as<FunctionObj>(init))
          if (Value w = f->attrs.get("__wrapped__"); w && as<FunctionObj>(w)) init = w;
        RenderedValue ci;
        callableInfo(in, std::make_shared<BoundMethodObj>(v, init), ci);
        info.signature = c->name + ci.signature.substr(ci.signature.find('('));
        info.params = ci.params;
      }
      info.members = memberNames(in, v, cache);
      return;
    }
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(v.get());
      info.kind = RenderedValue::Kind::Instance;
      info.type = inst->cls->name;
      if (callPython) summaryRows(in, v, *inst, info, cache);
      // Shapes are values people want to see: `x.shape` -> TensorShape([Dimension(None), ...]).
      if (callPython && (inst->cls->name == "TensorShape" || inst->cls->name == "Dimension")) {
        try {
          info.value = in.repr(v);
          if (info.value.size() > kMaxValueText * 2) info.value.clear();
        } catch (const PyError&) {
        }
      }
      info.members = memberNames(in, v, cache);
      return;
    }
    default:
      break;
  }
  info.kind = RenderedValue::Kind::Python;
  info.type = in.typeName(v);
  if (simpleValue(v)) {
    try {
      info.value = in.repr(v);
      info.known = true;
    } catch (const PyError&) {
    }
  }
}

}  // namespace

RenderedValue renderValue(Interpreter& in, const Value& v, RenderCache& cache, bool callPython) {
  RenderedValue info;
  renderValueInto(in, v, cache, info, callPython);
  return info;
}

}  // namespace tlens::lsp
