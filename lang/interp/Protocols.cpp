// Object protocols: attribute access (descriptors: methods bind, properties call, static and
// class methods unwrap), subscripts (indices, slices, dict keys, __getitem__, native objects),
// iteration, len, truth, hashing and equality, context managers, isinstance.
//
// Abstract mode is lenient where the analysis itself is approximate: a missing attribute on an
// instance, module or class, a missing dict key or an index out of range yields Unknown instead
// of an error (the container may have been filled on a path the analysis did not follow).
#include <cmath>

#include "lang/interp/Machine.h"
#include "lang/interp/Subclass.h"

namespace tlens::interp {
namespace {

Value tupleOf(const std::vector<std::shared_ptr<ClassObj>>& cs) {
  std::vector<Value> v(cs.begin(), cs.end());
  return makeTuple(std::move(v));
}

Value namespaceDict(const Namespace& ns) {
  auto d = makeDict();
  ns.forEach([&](const std::string& k, const Value& v) { d->setStr(k, v); });
  return d;
}

/// An object's own __dict__ (an instance's, a module's, a function's): a dict whose writes set
/// the object's attributes, as the live mapping Python gives (self.__dict__.update(kwargs)).
Value liveDict(Namespace& ns, const Value& owner) {
  Value d = namespaceDict(ns);
  auto* dd = static_cast<DictObj*>(d.get());
  dd->mirror = &ns;
  dd->mirrorOwner = owner;
  return d;
}

}  // namespace

Value ObjectProtocol::bindMethod(const Value& attr, const Value& self, ClassObj* cls) {
  switch (attr->kind()) {
    case Kind::Function:
    case Kind::NativeFunction: {
      auto bm = std::make_shared<BoundMethodObj>(self, attr);
      return bm;
    }
    case Kind::StaticMethod: return static_cast<StaticMethodObj*>(attr.get())->function;
    case Kind::ClassMethod:
      return std::make_shared<BoundMethodObj>(cls ? cls->shared_from_this() : Value(typeOf(self)),
                                              static_cast<ClassMethodObj*>(attr.get())->function);
    default: return attr;
  }
}

Value ObjectProtocol::findAttr(const Value& obj, std::string_view name) {
  if (SubclassPart* part = subclassPart(obj)) {
    // An int/float/str subclass's instance: properties, its own attributes, then the class's.
    ClassObj* cls = part->cls.get();
    Value clsAttr = cls->lookup(name);
    if (clsAttr && clsAttr->kind() == Kind::Property) {
      auto* p = static_cast<PropertyObj*>(clsAttr.get());
      if (!p->fget) raise(types.attributeError, "property '" + std::string(name) + "' of '" + cls->name + "' object has no getter");
      return call(p->fget, {obj}, {});
    }
    if (const Value* v = part->dict.find(name)) return *v;
    if (name == "__class__") return part->cls;
    if (name == "__dict__") return liveDict(part->dict, obj);
    if (clsAttr) return bindMethod(clsAttr, obj, cls);
    if (Value ga = userAttr(*cls, "__getattr__")) {
      try {
        return call(bindMethod(ga, obj, cls), {makeStr(std::string(name))}, {});
      } catch (PyError& e) {
        if (exceptionMatches(e.exc, types.attributeError)) return nullptr;
        throw;
      }
    }
  }
  switch (obj->kind()) {
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(obj.get());
      ClassObj* cls = inst->cls.get();
      Value clsAttr = cls->lookup(name);
      if (clsAttr && clsAttr->kind() == Kind::Property) {
        auto* p = static_cast<PropertyObj*>(clsAttr.get());
        if (!p->fget) raise(types.attributeError, "property '" + std::string(name) + "' of '" + cls->name + "' object has no getter");
        return call(p->fget, {obj}, {});
      }
      if (const Value* v = inst->dict.find(name)) return *v;
      if (name == "__class__") return inst->cls;
      if (auto* ex = dynamic_cast<ExceptionObj*>(inst)) {
        if (name == "__cause__") return ex->cause ? ex->cause : none();
        if (name == "__context__") return ex->context ? ex->context : none();
        if (name == "__suppress_context__") return boolean(ex->suppressContext);
        if (name == "__traceback__") return none();
      }
      if (name == "__dict__") return liveDict(inst->dict, obj);
      if (clsAttr) return bindMethod(clsAttr, obj, cls);
      if (Value ga = cls->lookup("__getattr__")) {
        try {
          return call(bindMethod(ga, obj, cls), {makeStr(std::string(name))}, {});
        } catch (PyError& e) {
          if (exceptionMatches(e.exc, types.attributeError)) return nullptr;
          throw;
        }
      }
      return nullptr;
    }
    case Kind::Class: {
      auto* cls = static_cast<ClassObj*>(obj.get());
      if (name == "__name__") return makeStr(cls->name);
      if (name == "__qualname__") return makeStr(cls->qualname);
      if (name == "__module__") return makeStr(cls->module);
      if (name == "__bases__") return tupleOf(cls->bases);
      if (name == "__mro__") return tupleOf(cls->mro);
      if (name == "__dict__") return namespaceDict(cls->dict);
      if (name == "__class__") return types.type;
      Value v = cls->lookup(name);
      if (!v) {
        if (name == "__doc__") return none();
        // Methods of `type` itself (mro()).
        if (name == "mro") return NativeFunction::make("mro", "", [c = obj](CallContext&) {
            return makeList(std::vector<Value>(static_cast<ClassObj*>(c.get())->mro.begin(), static_cast<ClassObj*>(c.get())->mro.end()));
          });
        return nullptr;
      }
      if (v->kind() == Kind::StaticMethod) return static_cast<StaticMethodObj*>(v.get())->function;
      if (v->kind() == Kind::ClassMethod) return std::make_shared<BoundMethodObj>(obj, static_cast<ClassMethodObj*>(v.get())->function);
      return v;
    }
    case Kind::Module: {
      auto* mod = static_cast<ModuleObj*>(obj.get());
      // Abstract mode: the installed version of a library (tf.__version__) is the environment's,
      // not the program's: unknown, so `assert tf.__version__ == "1.8.0"` neither passes nor fails.
      if (approximating() && (mod->file.empty() || (mod->file.front() == '<' && mod->file.back() == '>')) &&
          (name == "__version__" || name == "VERSION" || name == "GIT_VERSION"))
        if (mod->get(name)) return unknownOf(types.str);
      if (Value v = mod->get(name)) return v;
      if (name == "__dict__") return liveDict(mod->globals->vars, obj);
      std::string full = mod->name + "." + std::string(name);
      if (self().registry.contains(full) || self().modulesByName.count(full)) return self().importModule(full);
      if (mod->foreign) return findAttr(mod->foreign, name);
      return nullptr;
    }
    case Kind::Super: {
      auto* s = static_cast<SuperObj*>(obj.get());
      const auto& mro = s->selfClass->mro;
      size_t i = 0;
      while (i < mro.size() && mro[i] != s->thisClass) ++i;
      for (++i; i < mro.size(); ++i)
        if (const Value* v = mro[i]->dict.find(name)) {
          if ((*v)->kind() == Kind::Property) return call(static_cast<PropertyObj*>(v->get())->fget, {s->self}, {});
          if (s->self->kind() == Kind::Class) {
            if ((*v)->kind() == Kind::ClassMethod) return std::make_shared<BoundMethodObj>(s->self, static_cast<ClassMethodObj*>(v->get())->function);
            if ((*v)->kind() == Kind::StaticMethod) return static_cast<StaticMethodObj*>(v->get())->function;
            return *v;
          }
          return bindMethod(*v, s->self, s->selfClass.get());
        }
      return nullptr;
    }
    case Kind::Native: {
      auto* native = static_cast<NativeObject*>(obj.get());
      if (Value v = libraryCall([&] { return native->getAttr(api, name); })) return v;
      // A native context manager can be driven by hand, as Python code does with any other
      // (a class that wraps tf.name_scope, contextlib.ExitStack).
      if (name == "__enter__")
        return native->boundMethod(NativeFunction::make("__enter__", "self", [](CallContext& c) -> Value {
          Value v = static_cast<NativeObject*>(c.arg(0).get())->enter(c.interp);
          if (!v) c.interp.raise("AttributeError", "__enter__");
          return v;
        }));
      if (name == "__exit__")
        return native->boundMethod(NativeFunction::make("__exit__", "self, exc_type=None, exc_value=None, traceback=None", [](CallContext& c) -> Value {
          Value exc = c.arg(2);
          return boolean(static_cast<NativeObject*>(c.arg(0).get())->exit(c.interp, isNone(exc) ? Value() : exc));
        }));
      return nullptr;
    }
    case Kind::Unknown: return unknown();
    case Kind::Function: {
      auto* f = static_cast<FunctionObj*>(obj.get());
      if (const Value* v = f->attrs.find(name)) return *v;
      if (name == "__name__") return makeStr(f->name);
      if (name == "__qualname__") return makeStr(f->qualname);
      if (name == "__module__") return makeStr(f->module);
      if (name == "__doc__") return none();
      if (name == "__dict__") return liveDict(f->attrs, obj);
      break;
    }
    case Kind::BoundMethod: {
      auto* bm = static_cast<BoundMethodObj*>(obj.get());
      if (name == "__self__") return bm->self;
      if (name == "__func__") return bm->function;
      return findAttr(bm->function, name);
    }
    case Kind::NativeFunction: {
      auto* f = static_cast<NativeFunction*>(obj.get());
      if (name == "__name__" || name == "__qualname__") return makeStr(f->name);
      if (name == "__doc__") return f->doc.empty() ? none() : makeStr(f->doc);
      if (name == "__module__") return f->module.empty() ? none() : makeStr(f->module);
      break;
    }
    case Kind::Property: {
      auto* p = static_cast<PropertyObj*>(obj.get());
      if (name == "fget") return p->fget ? p->fget : none();
      if (name == "fset") return p->fset ? p->fset : none();
      break;
    }
    case Kind::Range: {
      auto* r = static_cast<RangeObj*>(obj.get());
      if (name == "start") return makeInt(r->start);
      if (name == "stop") return makeInt(r->stop);
      if (name == "step") return makeInt(r->step);
      break;
    }
    case Kind::Slice: {
      auto* s = static_cast<SliceObj*>(obj.get());
      if (name == "start") return s->start;
      if (name == "stop") return s->stop;
      if (name == "step") return s->step;
      break;
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(obj.get());
      if (name == "default_factory" && d->cls == types.defaultDict) return d->defaultFactory ? d->defaultFactory : none();
      break;
    }
    case Kind::Int:
    case Kind::Bool:
      if (name == "real" || name == "numerator") return makeInt(*asInt(obj));
      if (name == "imag") return makeInt(0);
      if (name == "denominator") return makeInt(1);
      break;
    case Kind::Float:
      if (name == "real") return obj;
      if (name == "imag") return makeFloat(0);
      break;
    default: break;
  }
  if (name == "__class__") return typeOf(obj);
  auto cls = typeOf(obj);
  Value v = cls->lookup(name);
  if (!v) return nullptr;
  return bindMethod(v, obj, cls.get());
}

Value ObjectProtocol::getAttr(const Value& obj, std::string_view name) {
  if (Value v = findAttr(obj, name)) return v;
  switch (obj->kind()) {
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(obj.get());
      if (abstract()) return unknown();
      raise(types.attributeError, "'" + inst->cls->name + "' object has no attribute '" + std::string(name) + "'");
    }
    case Kind::Module:
      if (abstract()) return unknown();
      raise(types.attributeError, "module '" + static_cast<ModuleObj*>(obj.get())->name + "' has no attribute '" +
                                      std::string(name) + "'");
    case Kind::Class:
      if (abstract()) return unknown();
      raise(types.attributeError, "type object '" + static_cast<ClassObj*>(obj.get())->name + "' has no attribute '" +
                                      std::string(name) + "'");
    case Kind::Super:
      if (abstract()) return unknown();
      raise(types.attributeError, "'super' object has no attribute '" + std::string(name) + "'");
    case Kind::Native:
      if (abstract()) return unknown();
      break;
    default: break;
  }
  raise(types.attributeError, "'" + typeName(obj) + "' object has no attribute '" + std::string(name) + "'");
}

void ObjectProtocol::setAttr(const Value& obj, std::string_view name, const Value& v) {
  if (SubclassPart* part = subclassPart(obj)) {
    Value clsAttr = part->cls->lookup(name);
    if (clsAttr && clsAttr->kind() == Kind::Property) {
      auto* p = static_cast<PropertyObj*>(clsAttr.get());
      if (!p->fset) raise(types.attributeError, "property '" + std::string(name) + "' of '" + part->cls->name + "' object has no setter");
      call(p->fset, {obj, v}, {});
      return;
    }
    part->dict.set(name, v);
    return;
  }
  switch (obj->kind()) {
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(obj.get());
      Value clsAttr = inst->cls->lookup(name);
      if (clsAttr && clsAttr->kind() == Kind::Property) {
        auto* p = static_cast<PropertyObj*>(clsAttr.get());
        if (!p->fset) raise(types.attributeError, "property '" + std::string(name) + "' of '" + inst->cls->name + "' object has no setter");
        call(p->fset, {obj, v}, {});
        return;
      }
      Value sa = inst->cls->lookup("__setattr__");
      if (sa && sa->kind() == Kind::Function) {
        call(bindMethod(sa, obj, inst->cls.get()), {makeStr(std::string(name)), v}, {});
        return;
      }
      inst->dict.set(name, v);
      return;
    }
    case Kind::Class: {
      auto* cls = static_cast<ClassObj*>(obj.get());
      if (name == "__name__" || name == "__qualname__") {
        const std::string* s = asString(v);
        if (!s) typeError("can only assign string to " + cls->name + "." + std::string(name));
        (name == "__name__" ? cls->name : cls->qualname) = *s;
        return;
      }
      cls->dict.set(name, v);
      return;
    }
    case Kind::Module: {
      auto* mod = static_cast<ModuleObj*>(obj.get());
      if (mod->foreign) return setAttr(mod->foreign, name, v);
      mod->set(name, v);
      return;
    }
    case Kind::Function: static_cast<FunctionObj*>(obj.get())->attrs.set(name, v); return;
    case Kind::Native:
      if (static_cast<NativeObject*>(obj.get())->setAttr(api, name, v)) return;
      if (abstract()) return;
      break;
    case Kind::Unknown: return;
    default: break;
  }
  raise(types.attributeError, "'" + typeName(obj) + "' object has no attribute '" + std::string(name) + "'");
}

void ObjectProtocol::delAttr(const Value& obj, std::string_view name) {
  bool ok = false;
  switch (obj->kind()) {
    case Kind::Instance: ok = static_cast<InstanceObj*>(obj.get())->dict.erase(name); break;
    case Kind::Class: ok = static_cast<ClassObj*>(obj.get())->dict.erase(name); break;
    case Kind::Module: ok = static_cast<ModuleObj*>(obj.get())->globals->vars.erase(name); break;
    case Kind::Function: ok = static_cast<FunctionObj*>(obj.get())->attrs.erase(name); break;
    case Kind::Unknown: ok = true; break;
    default: break;
  }
  if (!ok && !abstract())
    raise(types.attributeError, "'" + typeName(obj) + "' object has no attribute '" + std::string(name) + "'");
}

// ---- indices -------------------------------------------------------------------------------------

int64_t ObjectProtocol::toIndex(const Value& v, std::string_view what) {
  if (auto i = asInt(v)) return *i;
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (v->kind() == Kind::Instance) {
    Value r = callDunder(v, "__index__", {});
    if (r && asInt(r)) return *asInt(r);
  }
  if (v->kind() == Kind::Native)  // numpy's integer scalars index lists and size range()
    if (Value f = findAttr(v, "__index__")) {
      Value r = call(f, {}, {});
      if (r && asInt(r)) return *asInt(r);
      if (r && isUnknown(r)) throw NeedsKnownValue{};  // abstract mode: a scalar of unknown value
    }
  if (what.empty()) typeError("'" + typeName(v) + "' object cannot be interpreted as an integer");
  if (what == "slice indices") typeError("slice indices must be integers or None or have an __index__ method");
  typeError(std::string(what) + " indices must be integers or slices, not " + typeName(v));
}

int64_t ObjectProtocol::normalizeIndex(int64_t i, int64_t len, std::string_view what) {
  if (i < 0) i += len;
  if (i < 0 || i >= len) {
    if (abstract()) throw NeedsKnownValue{};
    raise(types.indexError, std::string(what) + " index out of range");
  }
  return i;
}

Value ObjectProtocol::getItem(const Value& obj, const Value& key) {
  switch (obj->kind()) {
    case Kind::List:
    case Kind::Tuple: {
      bool isList = obj->kind() == Kind::List;
      const auto& items = *asSequence(obj);
      if (isUnknown(key)) return unknown();
      if (auto* s = as<SliceObj>(key)) {
        auto b = s->indices(api, static_cast<int64_t>(items.size()));
        std::vector<Value> out;
        out.reserve(static_cast<size_t>(b.count));
        for (int64_t k = 0, i = b.start; k < b.count; ++k, i += b.step) out.push_back(items[static_cast<size_t>(i)]);
        return isList ? makeList(std::move(out)) : makeTuple(std::move(out));
      }
      // An index of unknown value (an abstract numpy scalar: `digit[c] for c in picks`) gives an
      // unknown item, as an unknown key does; the statement goes on.
      try {
        int64_t i = toIndex(key, isList ? "list" : "tuple");
        return items[static_cast<size_t>(normalizeIndex(i, static_cast<int64_t>(items.size()), isList ? "list" : "tuple"))];
      } catch (NeedsKnownValue&) {
        return unknown();
      }
    }
    case Kind::Str: {
      auto* s = static_cast<StrObj*>(obj.get());
      if (isUnknown(key)) return unknownOf(types.str);
      int64_t len = static_cast<int64_t>(s->length());
      if (auto* sl = as<SliceObj>(key)) {
        auto b = sl->indices(api, len);
        if (b.step == 1) return makeStr(std::string(s->slice(static_cast<size_t>(b.start), static_cast<size_t>(b.start + b.count))));
        std::string out;
        for (int64_t k = 0, i = b.start; k < b.count; ++k, i += b.step)
          out += s->slice(static_cast<size_t>(i), static_cast<size_t>(i + 1));
        return makeStr(std::move(out));
      }
      int64_t i = 0;
      try {
        i = normalizeIndex(toIndex(key, "string"), len, "string");
      } catch (NeedsKnownValue&) {
        return unknownOf(types.str);
      }
      return makeStr(std::string(s->slice(static_cast<size_t>(i), static_cast<size_t>(i + 1))));
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(obj.get());
      if (isUnknown(key)) return unknown();
      if (Value v = d->get(api, key)) return v;
      if (d->defaultFactory) {
        Value v = call(d->defaultFactory, {}, {});
        d->set(api, key, v);
        return v;
      }
      if (d->imprecise || abstract()) return unknown();
      raiseValue(makeException(types.keyError, {key}));
    }
    case Kind::Range: {
      auto* r = static_cast<RangeObj*>(obj.get());
      if (isUnknown(key)) return unknownOf(types.int_);
      if (auto* sl = as<SliceObj>(key)) {
        auto b = sl->indices(api, r->length());
        int64_t st = r->at(b.start), step = r->step * b.step;
        return std::make_shared<RangeObj>(st, st + b.count * step, step);
      }
      try {
        return makeInt(r->at(normalizeIndex(toIndex(key, "range object"), r->length(), "range object")));
      } catch (NeedsKnownValue&) {
        return unknownOf(types.int_);
      }
    }
    case Kind::Instance: {
      Value r = callDunder(obj, "__getitem__", {key});
      if (r) return r;
      if (abstract() && static_cast<InstanceObj*>(obj.get())->cls->unknownBase) return unknown();
      break;
    }
    case Kind::Class: {
      // `list[int]`, `MyGeneric[T]`: generic aliases are the class itself here.
      auto* cls = static_cast<ClassObj*>(obj.get());
      if (Value cg = cls->lookup("__class_getitem__")) return call(bindMethod(cg, obj, cls), {key}, {});
      return obj;
    }
    case Kind::Native: {
      Value r = libraryCall([&] { return static_cast<NativeObject*>(obj.get())->getItem(api, key); });
      if (r) return r;
      if (approximating()) return unknown();  // what tensorlens does not model of a library type
      break;
    }
    case Kind::Unknown: return unknown();
    default: break;
  }
  typeError("'" + typeName(obj) + "' object is not subscriptable");
}

void ObjectProtocol::setItem(const Value& obj, const Value& key, const Value& v) {
  switch (obj->kind()) {
    case Kind::List: {
      auto* l = static_cast<ListObj*>(obj.get());
      if (isUnknown(key)) return;
      if (auto* s = as<SliceObj>(key)) {
        auto b = s->indices(api, static_cast<int64_t>(l->items.size()));
        std::vector<Value> repl = toList(v);
        if (b.step == 1) {
          auto first = l->items.begin() + b.start;
          l->items.erase(first, first + b.count);
          l->items.insert(l->items.begin() + b.start, repl.begin(), repl.end());
        } else {
          if (static_cast<int64_t>(repl.size()) != b.count)
            valueError("attempt to assign sequence of size " + std::to_string(repl.size()) + " to extended slice of size " +
                       std::to_string(b.count));
          for (int64_t k = 0, i = b.start; k < b.count; ++k, i += b.step) l->items[static_cast<size_t>(i)] = repl[static_cast<size_t>(k)];
        }
        return;
      }
      int64_t i = toIndex(key, "list");
      if (i < 0) i += static_cast<int64_t>(l->items.size());
      if (i < 0 || i >= static_cast<int64_t>(l->items.size())) {
        if (abstract()) return;
        raise(types.indexError, "list assignment index out of range");
      }
      l->items[static_cast<size_t>(i)] = v;
      return;
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(obj.get());
      if (isUnknown(key)) {
        d->imprecise = true;
        return;
      }
      d->set(api, key, v);
      return;
    }
    case Kind::Instance:
      if (callDunder(obj, "__setitem__", {key, v})) return;
      break;
    case Kind::Native:
      if (static_cast<NativeObject*>(obj.get())->setItem(api, key, v)) return;
      break;
    case Kind::Unknown: return;
    default: break;
  }
  typeError("'" + typeName(obj) + "' object does not support item assignment");
}

void ObjectProtocol::delItem(const Value& obj, const Value& key) {
  switch (obj->kind()) {
    case Kind::List: {
      auto* l = static_cast<ListObj*>(obj.get());
      if (auto* s = as<SliceObj>(key)) {
        auto b = s->indices(api, static_cast<int64_t>(l->items.size()));
        std::vector<bool> drop(l->items.size(), false);
        for (int64_t k = 0, i = b.start; k < b.count; ++k, i += b.step) drop[static_cast<size_t>(i)] = true;
        std::vector<Value> kept;
        for (size_t i = 0; i < l->items.size(); ++i)
          if (!drop[i]) kept.push_back(l->items[i]);
        l->items = std::move(kept);
        return;
      }
      int64_t i = toIndex(key, "list");
      if (i < 0) i += static_cast<int64_t>(l->items.size());
      if (i < 0 || i >= static_cast<int64_t>(l->items.size())) {
        if (abstract()) return;
        raise(types.indexError, "list assignment index out of range");
      }
      l->items.erase(l->items.begin() + i);
      return;
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(obj.get());
      if (isUnknown(key)) return;
      if (!d->erase(api, key) && !abstract()) raiseValue(makeException(types.keyError, {key}));
      return;
    }
    case Kind::Instance:
      if (callDunder(obj, "__delitem__", {key})) return;
      break;
    case Kind::Native:
      if (static_cast<NativeObject*>(obj.get())->delItem(api, key)) return;
      break;
    case Kind::Unknown: return;
    default: break;
  }
  typeError("'" + typeName(obj) + "' object doesn't support item deletion");
}

// ---- iteration -----------------------------------------------------------------------------------

Value ObjectProtocol::getIter(const Value& v) {
  switch (v->kind()) {
    case Kind::List: {
      auto l = std::static_pointer_cast<ListObj>(v);
      auto i = std::make_shared<size_t>(0);
      return makeIterator("list_iterator", [l, i]() -> Value { return *i < l->items.size() ? l->items[(*i)++] : nullptr; });
    }
    case Kind::Tuple: {
      auto t = std::static_pointer_cast<TupleObj>(v);
      auto i = std::make_shared<size_t>(0);
      return makeIterator("tuple_iterator", [t, i]() -> Value { return *i < t->items.size() ? t->items[(*i)++] : nullptr; });
    }
    case Kind::Str: {
      auto s = std::static_pointer_cast<StrObj>(v);
      auto i = std::make_shared<size_t>(0);
      return makeIterator("str_iterator", [s, i]() -> Value {
        if (*i >= s->length()) return nullptr;
        ++*i;
        return makeStr(std::string(s->slice(*i - 1, *i)));
      });
    }
    case Kind::Range: {
      auto r = std::static_pointer_cast<RangeObj>(v);
      auto i = std::make_shared<int64_t>(0);
      return makeIterator("range_iterator", [r, i]() -> Value { return *i < r->length() ? makeInt(r->at((*i)++)) : nullptr; });
    }
    case Kind::Dict: {
      auto d = std::static_pointer_cast<DictObj>(v);
      auto keys = std::make_shared<std::vector<Value>>();
      d->table.forEach([&](const HashTable::Entry& e) { keys->push_back(e.key); });
      auto i = std::make_shared<size_t>(0);
      return makeIterator("dict_keyiterator", [keys, i]() -> Value { return *i < keys->size() ? (*keys)[(*i)++] : nullptr; });
    }
    case Kind::Set: {
      auto items = std::make_shared<std::vector<Value>>(static_cast<SetObj*>(v.get())->items());
      auto i = std::make_shared<size_t>(0);
      return makeIterator("set_iterator", [items, i]() -> Value { return *i < items->size() ? (*items)[(*i)++] : nullptr; });
    }
    case Kind::Iterator:
    case Kind::Generator: return v;
    case Kind::Class:  // enum classes iterate over their members (no metaclasses here)
      if (Value members = static_cast<ClassObj*>(v.get())->lookup("_tlens_class_iter_")) return getIter(call(members, {v}, {}));
      break;
    case Kind::Instance: {
      Value it = callDunder(v, "__iter__", {});
      if (it) return it;
      auto* inst = static_cast<InstanceObj*>(v.get());
      if (inst->cls->lookup("__getitem__")) {
        // The old sequence protocol: v[0], v[1], ... until IndexError.
        auto i = std::make_shared<int64_t>(0);
        Machine* m = &self();
        return makeIterator("iterator", [m, v, i]() -> Value {
          try {
            return m->getItem(v, makeInt((*i)++));
          } catch (PyError& e) {
            if (m->exceptionMatches(e.exc, m->types.indexError) || m->exceptionMatches(e.exc, m->types.stopIteration)) return nullptr;
            throw;
          }
        });
      }
      if (abstract() && inst->cls->unknownBase) return getIter(unknown());
      break;
    }
    case Kind::Native: {
      Value it = libraryCall([&] { return static_cast<NativeObject*>(v.get())->iter(api); });
      if (!it && approximating()) return getIter(unknown());  // not modelled for this library type
      if (!it) break;
      if (it->kind() == Kind::Iterator || it->kind() == Kind::Generator || it->kind() == Kind::Instance) return it;
      return getIter(it);
    }
    case Kind::Unknown: {
      auto left = std::make_shared<int>(std::max(1, opts.abstractLoopIterations));
      return makeIterator("iterator", [left]() -> Value { return (*left)-- > 0 ? unknown() : nullptr; });
    }
    default: break;
  }
  typeError("'" + typeName(v) + "' object is not iterable");
}

Value ObjectProtocol::next(const Value& it) {
  // Native loops over iterators (sum(range(10**12))) count as work too.
  tick();
  switch (it->kind()) {
    case Kind::Iterator: return static_cast<IteratorObj*>(it.get())->next();
    case Kind::Generator: {
      Value keep = it;
      return self().resumeGenerator(*static_cast<GeneratorObj*>(it.get()), none());
    }
    case Kind::Instance:
      try {
        Value r = callDunder(it, "__next__", {});
        if (!r) typeError("'" + typeName(it) + "' object is not an iterator");
        return r;
      } catch (PyError& e) {
        if (exceptionMatches(e.exc, types.stopIteration)) return nullptr;
        throw;
      }
    case Kind::Unknown: return nullptr;
    default: typeError("'" + typeName(it) + "' object is not an iterator");
  }
}

std::vector<Value> ObjectProtocol::toList(const Value& v) {
  if (const auto* seq = asSequence(v)) return *seq;
  if (auto* d = as<DictObj>(v)) {
    std::vector<Value> out;
    d->table.forEach([&](const HashTable::Entry& e) { out.push_back(e.key); });
    return out;
  }
  if (auto* r = as<RangeObj>(v)) {
    int64_t n = r->length();
    if (abstract() && n > 100000) throw NeedsKnownValue{};  // the analysis must stay small
    reserveSize(static_cast<double>(n), types.list);
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      out.push_back(makeInt(r->at(i)));
      if ((i & 0xFFFF) == 0xFFFF) poll();
    }
    return out;
  }
  Value it = getIter(v);
  std::vector<Value> out;
  // Past the cap: abstract mode gives up (Unknown), concrete mode raises MemoryError.
  const size_t cap = static_cast<size_t>(abstract() ? 100000 : kMaxItems);
  for (;;) {
    Value x = next(it);
    if (!x) break;
    if (out.size() >= cap) reserveSize(static_cast<double>(out.size()) + (abstract() ? kAbstractMaxSize : 1), types.list);
    out.push_back(std::move(x));
    if ((out.size() & 1023) == 0) checkBudget();
  }
  return out;
}

std::optional<std::vector<Value>> ObjectProtocol::knownItems(const Value& v, size_t limit) {
  switch (v->kind()) {
    case Kind::List:
    case Kind::Tuple: {
      const auto& s = *asSequence(v);
      if (s.size() > limit) return std::nullopt;
      return s;
    }
    case Kind::Range: {
      auto* r = static_cast<RangeObj*>(v.get());
      if (static_cast<uint64_t>(r->length()) > limit) return std::nullopt;
      std::vector<Value> out;
      for (int64_t i = 0; i < r->length(); ++i) out.push_back(makeInt(r->at(i)));
      return out;
    }
    case Kind::Str: {
      auto* s = static_cast<StrObj*>(v.get());
      if (s->length() > limit) return std::nullopt;
      std::vector<Value> out;
      for (size_t i = 0; i < s->length(); ++i) out.push_back(makeStr(std::string(s->slice(i, i + 1))));
      return out;
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(v.get());
      if (d->imprecise || d->size() > limit) return std::nullopt;
      return toList(v);
    }
    case Kind::Set: {
      auto* s = static_cast<SetObj*>(v.get());
      if (s->imprecise || s->size() > limit) return std::nullopt;
      return s->items();
    }
    default: return std::nullopt;
  }
}

// ---- len, truth, hash, equality ------------------------------------------------------------------

int64_t ObjectProtocol::len(const Value& v) {
  switch (v->kind()) {
    case Kind::Str: return static_cast<int64_t>(static_cast<StrObj*>(v.get())->length());
    case Kind::List:
    case Kind::Tuple: return static_cast<int64_t>(asSequence(v)->size());
    case Kind::Dict:
      if (static_cast<DictObj*>(v.get())->imprecise) throw NeedsKnownValue{};
      return static_cast<int64_t>(static_cast<DictObj*>(v.get())->size());
    case Kind::Set:
      if (static_cast<SetObj*>(v.get())->imprecise) throw NeedsKnownValue{};
      return static_cast<int64_t>(static_cast<SetObj*>(v.get())->size());
    case Kind::Range: return static_cast<RangeObj*>(v.get())->length();
    case Kind::Instance: {
      Value r = callDunder(v, "__len__", {});
      if (r) {
        if (isUnknown(r)) throw NeedsKnownValue{};
        auto i = asInt(r);
        if (!i) typeError("'" + typeName(r) + "' object cannot be interpreted as an integer");
        if (*i < 0) valueError("__len__() should return >= 0");
        return *i;
      }
      if (abstract() && static_cast<InstanceObj*>(v.get())->cls->unknownBase) throw NeedsKnownValue{};
      break;
    }
    case Kind::Native: {
      auto n = libraryCall([&] { return static_cast<NativeObject*>(v.get())->len(api); });
      if (n) {
        if (*n < 0) throw NeedsKnownValue{};
        return *n;
      }
      if (approximating()) throw NeedsKnownValue{};
      break;
    }
    case Kind::Unknown: throw NeedsKnownValue{};
    default: break;
  }
  typeError("object of type '" + typeName(v) + "' has no len()");
}

Truth ObjectProtocol::truth(const Value& v) {
  switch (v->kind()) {
    case Kind::None: return Truth::False;
    case Kind::Bool: return static_cast<BoolObj*>(v.get())->value ? Truth::True : Truth::False;
    case Kind::Int: return static_cast<IntObj*>(v.get())->value ? Truth::True : Truth::False;
    case Kind::Float: return static_cast<FloatObj*>(v.get())->value != 0.0 ? Truth::True : Truth::False;
    case Kind::Str: return static_cast<StrObj*>(v.get())->value.empty() ? Truth::False : Truth::True;
    case Kind::List:
    case Kind::Tuple: return asSequence(v)->empty() ? Truth::False : Truth::True;
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(v.get());
      if (d->size()) return Truth::True;
      return d->imprecise ? Truth::Unknown : Truth::False;
    }
    case Kind::Set: {
      auto* s = static_cast<SetObj*>(v.get());
      if (s->size()) return Truth::True;
      return s->imprecise ? Truth::Unknown : Truth::False;
    }
    case Kind::Range: return static_cast<RangeObj*>(v.get())->length() ? Truth::True : Truth::False;
    case Kind::Instance: {
      if (Value b = callDunder(v, "__bool__", {})) {
        if (isUnknown(b)) return Truth::Unknown;
        if (b->kind() != Kind::Bool) typeError("__bool__ should return bool, returned " + typeName(b));
        return truth(b);
      }
      auto* inst = static_cast<InstanceObj*>(v.get());
      if (inst->cls->lookup("__len__")) {
        try {
          return len(v) ? Truth::True : Truth::False;
        } catch (NeedsKnownValue&) {
          return Truth::Unknown;
        }
      }
      if (abstract() && inst->cls->unknownBase) return Truth::Unknown;
      return Truth::True;
    }
    case Kind::Native: return static_cast<NativeObject*>(v.get())->truthy(api);
    case Kind::Unknown: return Truth::Unknown;
    default: return Truth::True;
  }
}

bool ObjectProtocol::isTrue(const Value& v) { return self().branchTruth(v) == Truth::True; }

int64_t ObjectProtocol::hash(const Value& v) {
  switch (v->kind()) {
    case Kind::None: return 0x3a5f3c1d;
    case Kind::Bool: return static_cast<BoolObj*>(v.get())->value ? 1 : 0;
    case Kind::Int: return static_cast<IntObj*>(v.get())->value;
    case Kind::Float: {
      double d = static_cast<FloatObj*>(v.get())->value;
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) return static_cast<int64_t>(d);
      return static_cast<int64_t>(std::hash<double>()(d));
    }
    case Kind::Str: return static_cast<int64_t>(std::hash<std::string_view>()(static_cast<StrObj*>(v.get())->value));
    case Kind::Tuple: {
      checkStack();
      uint64_t h = 0x345678;
      for (const Value& x : static_cast<TupleObj*>(v.get())->items) h = (h ^ static_cast<uint64_t>(hash(x))) * 1000003u;
      return static_cast<int64_t>(h);
    }
    case Kind::Set:
      if (static_cast<SetObj*>(v.get())->frozen) {
        uint64_t h = 0;
        for (const Value& x : static_cast<SetObj*>(v.get())->items()) h ^= static_cast<uint64_t>(hash(x)) * 0x9E3779B97F4A7C15ull;
        return static_cast<int64_t>(h);
      }
      break;
    case Kind::List:
    case Kind::Dict: break;
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(v.get());
      ClassObj* hd = inst->cls->definer("__hash__");
      if (hd && !hd->isBuiltin) {
        Value h = callDunder(v, "__hash__", {});
        if (isNone(h)) break;
        if (isUnknown(h)) throw NeedsKnownValue{};
        if (auto i = asInt(h)) return *i;
        typeError("__hash__ method should return an integer");
      }
      if (hd && hd->isBuiltin && isNone(inst->cls->lookup("__hash__"))) break;
      ClassObj* ed = inst->cls->definer("__eq__");
      if (ed && !ed->isBuiltin && !hd) break;
      return static_cast<int64_t>(reinterpret_cast<intptr_t>(v.get()) >> 4);
    }
    case Kind::Native: {
      auto h = static_cast<NativeObject*>(v.get())->hash(api);
      if (h) return *h;
      break;
    }
    case Kind::Unknown: throw NeedsKnownValue{};
    default: return static_cast<int64_t>(reinterpret_cast<intptr_t>(v.get()) >> 4);
  }
  typeError("unhashable type: '" + typeName(v) + "'");
}

bool ObjectProtocol::identical(const Value& a, const Value& b) const { return a.get() == b.get(); }

Truth ObjectProtocol::equal(const Value& a, const Value& b) {
  if (a.get() == b.get()) {
    if (auto* f = as<FloatObj>(a)) return std::isnan(f->value) ? Truth::False : Truth::True;
    if (a->kind() != Kind::Instance && a->kind() != Kind::Native && a->kind() != Kind::Unknown) return Truth::True;
  }
  Kind ka = a->kind(), kb = b->kind();
  if (ka == Kind::Unknown || kb == Kind::Unknown) return Truth::Unknown;
  auto numeric = [](Kind k) { return k == Kind::Int || k == Kind::Bool || k == Kind::Float; };
  if (numeric(ka) && numeric(kb)) {
    if (ka != Kind::Float && kb != Kind::Float) return *asInt(a) == *asInt(b) ? Truth::True : Truth::False;
    return *asDouble(a) == *asDouble(b) ? Truth::True : Truth::False;
  }
  if (ka == Kind::Instance || kb == Kind::Instance || ka == Kind::Native || kb == Kind::Native) {
    Value r = compare(CmpOp::Eq, a, b);
    return truth(r);
  }
  if (ka != kb) return Truth::False;
  switch (ka) {
    case Kind::Str: return static_cast<StrObj*>(a.get())->value == static_cast<StrObj*>(b.get())->value ? Truth::True : Truth::False;
    case Kind::List:
    case Kind::Tuple: {
      checkStack();
      const auto& x = *asSequence(a);
      const auto& y = *asSequence(b);
      if (x.size() != y.size()) return Truth::False;
      Truth res = Truth::True;
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        Value xi = x[i], yi = y[i];
        Truth t = equal(xi, yi);
        if (t == Truth::False) return t;
        if (t == Truth::Unknown) res = t;
      }
      return res;
    }
    case Kind::Dict: {
      checkStack();
      auto* x = static_cast<DictObj*>(a.get());
      auto* y = static_cast<DictObj*>(b.get());
      if (x->imprecise || y->imprecise) return Truth::Unknown;
      if (x->size() != y->size()) return Truth::False;
      Truth res = Truth::True;
      for (const auto& e : x->entries()) {
        Value other = y->get(api, e.key);
        if (!other) return Truth::False;
        Truth t = equal(e.value, other);
        if (t == Truth::False) return t;
        if (t == Truth::Unknown) res = t;
      }
      return res;
    }
    case Kind::Set: {
      auto* x = static_cast<SetObj*>(a.get());
      auto* y = static_cast<SetObj*>(b.get());
      if (x->size() != y->size()) return Truth::False;
      for (const Value& k : x->items())
        if (!y->contains(api, k)) return Truth::False;
      return Truth::True;
    }
    case Kind::Range: {
      auto* x = static_cast<RangeObj*>(a.get());
      auto* y = static_cast<RangeObj*>(b.get());
      int64_t n = x->length();
      if (n != y->length()) return Truth::False;
      if (n == 0) return Truth::True;
      if (x->start != y->start) return Truth::False;
      return n == 1 || x->step == y->step ? Truth::True : Truth::False;
    }
    case Kind::Slice: {
      auto* x = static_cast<SliceObj*>(a.get());
      auto* y = static_cast<SliceObj*>(b.get());
      Truth t1 = equal(x->start, y->start), t2 = equal(x->stop, y->stop), t3 = equal(x->step, y->step);
      if (t1 == Truth::False || t2 == Truth::False || t3 == Truth::False) return Truth::False;
      return t1 == Truth::True && t2 == Truth::True && t3 == Truth::True ? Truth::True : Truth::Unknown;
    }
    case Kind::BoundMethod: {
      auto* x = static_cast<BoundMethodObj*>(a.get());
      auto* y = static_cast<BoundMethodObj*>(b.get());
      return x->self.get() == y->self.get() && x->function.get() == y->function.get() ? Truth::True : Truth::False;
    }
    default: return Truth::False;
  }
}

// ---- context managers ----------------------------------------------------------------------------

Value ObjectProtocol::enter(const Value& mgr) {
  switch (mgr->kind()) {
    case Kind::Instance: {
      Value r = callDunder(mgr, "__enter__", {});
      if (r) return r;
      if (abstract() && static_cast<InstanceObj*>(mgr.get())->cls->unknownBase) return unknown();
      break;
    }
    case Kind::Native: {
      Value r = static_cast<NativeObject*>(mgr.get())->enter(api);
      if (r) return r;
      break;
    }
    case Kind::Unknown: return unknown();
    default: break;
  }
  typeError("'" + typeName(mgr) + "' object does not support the context manager protocol");
}

bool ObjectProtocol::exit(const Value& mgr, const Value& exc) {
  switch (mgr->kind()) {
    case Kind::Instance: {
      std::vector<Value> args;
      if (exc) args = {typeOf(exc), exc, none()};
      else args = {none(), none(), none()};
      Value r = callDunder(mgr, "__exit__", std::move(args));
      if (!r) return false;
      return truth(r) == Truth::True;
    }
    case Kind::Native: return static_cast<NativeObject*>(mgr.get())->exit(api, exc);
    default: return false;
  }
}

// ---- types ---------------------------------------------------------------------------------------

std::shared_ptr<ClassObj> ObjectProtocol::typeOf(const Value& v) {
  switch (v->kind()) {
    case Kind::None: return types.none;
    case Kind::Bool: return types.bool_;
    case Kind::Int: {
      auto* o = static_cast<IntObj*>(v.get());
      return o->sub ? o->sub->cls : types.int_;
    }
    case Kind::Float: {
      auto* o = static_cast<FloatObj*>(v.get());
      return o->sub ? o->sub->cls : types.float_;
    }
    case Kind::Str: {
      auto* o = static_cast<StrObj*>(v.get());
      return o->sub ? o->sub->cls : types.str;
    }
    case Kind::List: return types.list;
    case Kind::Tuple: return types.tuple;
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(v.get());
      return d->cls ? d->cls : types.dict;
    }
    case Kind::Set: return static_cast<SetObj*>(v.get())->frozen ? types.frozenset : types.set;
    case Kind::Range: return types.range;
    case Kind::Slice: return types.slice;
    case Kind::Ellipsis: return types.ellipsis;
    case Kind::NotImplemented: return types.notImplemented;
    case Kind::Function: return types.function;
    case Kind::NativeFunction: return types.builtinFunction;
    case Kind::BoundMethod: return types.method;
    case Kind::StaticMethod: return types.staticmethod;
    case Kind::ClassMethod: return types.classmethod;
    case Kind::Property: return types.property;
    case Kind::Class: return types.type;
    case Kind::Instance: return static_cast<InstanceObj*>(v.get())->cls;
    case Kind::Module: return types.module;
    case Kind::Super: return types.super;
    case Kind::Iterator: {
      const std::string& n = static_cast<IteratorObj*>(v.get())->typeName;
      auto it = nativeTypes.find("iterator:" + n);
      if (it != nativeTypes.end()) return it->second;
      auto c = makeClass(n, {types.object}, "builtins");
      c->isBuiltin = true;
      nativeTypes.emplace("iterator:" + n, c);
      return c;
    }
    case Kind::Generator: return types.generator;
    case Kind::Unknown: {
      auto* u = static_cast<UnknownObj*>(v.get());
      return u->type ? u->type : types.unknown;
    }
    case Kind::Native: {
      auto* n = static_cast<NativeObject*>(v.get());
      std::string name = n->typeName();
      auto it = nativeTypes.find(name);
      if (it != nativeTypes.end()) return it->second;
      auto c = makeClass(name, {types.object}, n->typeModule().empty() ? "builtins" : n->typeModule());
      c->isBuiltin = true;
      nativeTypes.emplace(name, c);
      return c;
    }
  }
  return types.object;
}

bool ObjectProtocol::isInstance(const Value& v, const ClassObj& cls) { return typeOf(v)->isSubclassOf(&cls); }

Truth ObjectProtocol::isInstanceValue(const Value& v, const Value& clsOrTuple) {
  if (auto* t = as<TupleObj>(clsOrTuple)) {
    Truth res = Truth::False;
    for (const Value& c : t->items) {
      Truth r = isInstanceValue(v, c);
      if (r == Truth::True) return r;
      if (r == Truth::Unknown) res = r;
    }
    return res;
  }
  if (isUnknown(clsOrTuple)) return Truth::Unknown;
  if (auto* n = as<NativeObject>(clsOrTuple)) {
    if (isUnknown(v)) return Truth::Unknown;
    return n->instanceCheck(api, v) ? Truth::True : Truth::False;
  }
  auto* c = as<ClassObj>(clsOrTuple);
  if (!c) typeError("isinstance() arg 2 must be a type, a tuple of types, or a union");
  if (auto* u = as<UnknownObj>(v)) {
    if (!u->type) return Truth::Unknown;
    if (u->type->isSubclassOf(c)) return Truth::True;
    // A virtual subclass's subclasses are virtual subclasses too: an Unknown float is a Real.
    if (!c->isBuiltin && c->lookup("__tlens_subclasscheck__") &&
        truth(call(getAttr(clsOrTuple, "__tlens_subclasscheck__"), {u->type}, {})) == Truth::True)
      return Truth::True;
    return Truth::Unknown;
  }
  if (isInstance(v, *c)) return Truth::True;
  // The abc module's classes (and numbers') answer for virtual subclasses through a private hook
  // (tensorlens has no metaclasses, so no __subclasscheck__ on a metaclass); other classes lack it
  // and pay one failed MRO lookup. issubclass() does the same (BuiltinFunctions.cpp).
  if (!c->isBuiltin && c->lookup("__tlens_subclasscheck__")) {
    Truth t = truth(call(getAttr(clsOrTuple, "__tlens_subclasscheck__"), {typeOf(v)}, {}));
    if (t != Truth::False) return t;
  }
  if (auto* inst = as<InstanceObj>(v); inst && abstract() && inst->cls->unknownBase) return Truth::Unknown;
  return Truth::False;
}

}  // namespace tlens::interp
