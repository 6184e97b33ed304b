// str() and repr() of every kind of value, as CPython prints them (recursive containers print
// "[...]"), and format() for f-strings and str.format.
#include <cstdio>

#include "lang/interp/Format.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Subclass.h"

namespace tlens::interp {
namespace {

std::string address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%012llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
  return buf;
}

std::string qualifiedName(const ClassObj& c) {
  if (c.module == "builtins" || c.module.empty()) return c.qualname;
  return c.module + "." + c.qualname;
}

/// Guards against infinite recursion through self-containing containers.
struct ReprGuard {
  static std::vector<const Object*>& active() {
    thread_local std::vector<const Object*> a;
    return a;
  }
  const Object* o;
  bool recursive;
  explicit ReprGuard(const Object* obj) : o(obj) {
    auto& a = active();
    recursive = std::find(a.begin(), a.end(), obj) != a.end();
    if (!recursive) a.push_back(obj);
  }
  ~ReprGuard() {
    if (!recursive) active().pop_back();
  }
};

}  // namespace

std::string ObjectProtocol::typeName(const Value& v) {
  if (v->kind() == Kind::Native) return static_cast<NativeObject*>(v.get())->typeName();
  if (v->kind() == Kind::Unknown) {
    auto* u = static_cast<UnknownObj*>(v.get());
    return u->type ? u->type->name : "unknown";
  }
  return typeOf(v)->name;
}

std::string ObjectProtocol::repr(const Value& v) {
  if (SubclassPart* part = subclassPart(v))
    if (Value f = userAttr(*part->cls, "__repr__")) {
      checkStack();
      Value r = call(bindMethod(f, v, part->cls.get()), {}, {});
      if (isUnknown(r)) return "<unknown>";
      if (const std::string* s = asString(r)) return *s;
      typeError("__repr__ returned non-string (type " + typeName(r) + ")");
    }
  switch (v->kind()) {
    case Kind::None: return "None";
    case Kind::Bool: return static_cast<BoolObj*>(v.get())->value ? "True" : "False";
    case Kind::Int: return std::to_string(static_cast<IntObj*>(v.get())->value);
    case Kind::Float: return formatFloat(static_cast<FloatObj*>(v.get())->value);
    case Kind::Str: return reprString(static_cast<StrObj*>(v.get())->value);
    case Kind::Ellipsis: return "Ellipsis";
    case Kind::NotImplemented: return "NotImplemented";
    case Kind::List:
    case Kind::Tuple: {
      bool list = v->kind() == Kind::List;
      ReprGuard g(v.get());
      if (g.recursive) return list ? "[...]" : "(...)";
      checkStack();
      const std::vector<Value> items = *asSequence(v);  // a copy: element __repr__ may mutate
      std::string s = list ? "[" : "(";
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) s += ", ";
        s += repr(items[i]);
      }
      if (!list && items.size() == 1) s += ",";
      return s + (list ? "]" : ")");
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(v.get());
      ReprGuard g(v.get());
      if (g.recursive) return "{...}";
      checkStack();
      std::string s = "{";
      bool first = true;
      for (const auto& e : d->entries()) {
        if (!first) s += ", ";
        first = false;
        s += repr(e.key) + ": " + repr(e.value);
      }
      s += "}";
      if (d->cls == types.defaultDict)
        return "defaultdict(" + (d->defaultFactory ? repr(d->defaultFactory) : std::string("None")) + ", " + s + ")";
      if (d->cls == types.orderedDict) {
        if (d->size() == 0) return "OrderedDict()";
        std::string o = "OrderedDict([";
        bool f2 = true;
        for (const auto& e : d->entries()) {
          if (!f2) o += ", ";
          f2 = false;
          o += "(" + repr(e.key) + ", " + repr(e.value) + ")";
        }
        return o + "])";
      }
      return s;
    }
    case Kind::Set: {
      auto* st = static_cast<SetObj*>(v.get());
      ReprGuard g(v.get());
      if (g.recursive) return "{...}";
      if (st->size() == 0) return st->frozen ? "frozenset()" : "set()";
      std::string s = "{";
      bool first = true;
      for (const Value& x : st->items()) {
        if (!first) s += ", ";
        first = false;
        s += repr(x);
      }
      s += "}";
      return st->frozen ? "frozenset(" + s + ")" : s;
    }
    case Kind::Range: {
      auto* r = static_cast<RangeObj*>(v.get());
      std::string s = "range(" + std::to_string(r->start) + ", " + std::to_string(r->stop);
      if (r->step != 1) s += ", " + std::to_string(r->step);
      return s + ")";
    }
    case Kind::Slice: {
      auto* s = static_cast<SliceObj*>(v.get());
      return "slice(" + repr(s->start) + ", " + repr(s->stop) + ", " + repr(s->step) + ")";
    }
    case Kind::Function: {
      auto* f = static_cast<FunctionObj*>(v.get());
      return "<function " + f->qualname + " at " + address(f) + ">";
    }
    case Kind::NativeFunction: return "<built-in function " + static_cast<NativeFunction*>(v.get())->name + ">";
    case Kind::BoundMethod: {
      auto* bm = static_cast<BoundMethodObj*>(v.get());
      std::string fname;
      if (auto* f = as<FunctionObj>(bm->function)) fname = f->qualname;
      else if (auto* nf = as<NativeFunction>(bm->function)) {
        return "<built-in method " + nf->name + " of " + typeName(bm->self) + " object at " + address(bm->self.get()) + ">";
      }
      ReprGuard g(v.get());
      return "<bound method " + fname + " of " + (g.recursive ? std::string("...") : repr(bm->self)) + ">";
    }
    case Kind::StaticMethod: return "<staticmethod object at " + address(v.get()) + ">";
    case Kind::ClassMethod: return "<classmethod object at " + address(v.get()) + ">";
    case Kind::Property: return "<property object at " + address(v.get()) + ">";
    case Kind::Class: return "<class '" + qualifiedName(*static_cast<ClassObj*>(v.get())) + "'>";
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(v.get());
      ClassObj* d = inst->cls->definer("__repr__");
      if (d && (d != types.object.get())) {
        ReprGuard g(v.get());
        if (g.recursive) return "...";
        checkStack();
        Value r = callDunder(v, "__repr__", {});
        if (isUnknown(r)) return "<unknown>";
        if (const std::string* s = asString(r)) return *s;
        typeError("__repr__ returned non-string (type " + typeName(r) + ")");
      }
      return "<" + qualifiedName(*inst->cls) + " object at " + address(inst) + ">";
    }
    case Kind::Module: {
      auto* m = static_cast<ModuleObj*>(v.get());
      if (m->file.empty()) return "<module '" + m->name + "' (built-in)>";
      return "<module '" + m->name + "' from '" + m->file + "'>";
    }
    case Kind::Super: return "<super: <class '" + static_cast<SuperObj*>(v.get())->thisClass->name + "'>, <" +
                              typeName(static_cast<SuperObj*>(v.get())->self) + " object>>";
    case Kind::Iterator: return "<" + static_cast<IteratorObj*>(v.get())->typeName + " object at " + address(v.get()) + ">";
    case Kind::Generator: {
      auto* g = static_cast<GeneratorObj*>(v.get());
      auto* f = as<FunctionObj>(g->function);
      return "<generator object " + (f ? f->qualname : g->expr ? std::string("<genexpr>") : std::string("?")) + " at " +
             address(g) + ">";
    }
    case Kind::Unknown: {
      auto* u = static_cast<UnknownObj*>(v.get());
      return u->type ? "<unknown " + u->type->name + ">" : "<unknown>";
    }
    case Kind::Native: return static_cast<NativeObject*>(v.get())->repr(api);
  }
  return "<?>";
}

std::string ObjectProtocol::str(const Value& v) {
  if (SubclassPart* part = subclassPart(v)) {
    Value f = userAttr(*part->cls, "__str__");
    // int and float inherit object.__str__ (which calls __repr__); str has its own.
    if (!f && v->kind() != Kind::Str && userAttr(*part->cls, "__repr__")) return repr(v);
    if (f) {
      checkStack();
      Value r = call(bindMethod(f, v, part->cls.get()), {}, {});
      if (isUnknown(r)) return "<unknown>";
      if (const std::string* s = asString(r)) return *s;
      typeError("__str__ returned non-string (type " + typeName(r) + ")");
    }
  }
  switch (v->kind()) {
    case Kind::Str: return static_cast<StrObj*>(v.get())->value;
    case Kind::Instance: {
      auto* inst = static_cast<InstanceObj*>(v.get());
      ClassObj* d = inst->cls->definer("__str__");
      if (d && d != types.object.get()) {
        checkStack();
        Value r = callDunder(v, "__str__", {});
        if (isUnknown(r)) return "<unknown>";
        if (const std::string* s = asString(r)) return *s;
        typeError("__str__ returned non-string (type " + typeName(r) + ")");
      }
      return repr(v);
    }
    case Kind::Native: return static_cast<NativeObject*>(v.get())->str(api);
    default: return repr(v);
  }
}

std::string ObjectProtocol::formatValue(const Value& v, std::string_view spec) {
  if (SubclassPart* part = subclassPart(v))
    if (Value f = userAttr(*part->cls, "__format__")) {
      Value r = call(bindMethod(f, v, part->cls.get()), {makeStr(std::string(spec))}, {});
      if (const std::string* s = asString(r)) return *s;
      if (isUnknown(r)) return "<unknown>";
      typeError("__format__ must return a str, not " + typeName(r));
    }
  if (v->kind() == Kind::Instance) {
    auto* inst = static_cast<InstanceObj*>(v.get());
    ClassObj* d = inst->cls->definer("__format__");
    if (d && !d->isBuiltin) {
      Value r = callDunder(v, "__format__", {makeStr(std::string(spec))});
      if (const std::string* s = asString(r)) return *s;
    }
    std::string s = str(v);
    return spec.empty() ? s : applyFormatSpec(*this, makeStr(s), spec);
  }
  if (spec.empty()) return str(v);
  if (isUnknown(v)) return "<unknown>";
  return applyFormatSpec(*this, v, spec);
}

std::string NativeObject::repr(Interpreter& in) {
  return "<" + typeName() + " object>";
}

Value NativeObject::boundMethod(const Value& fn) { return std::make_shared<BoundMethodObj>(shared_from_this(), fn); }

}  // namespace tlens::interp
