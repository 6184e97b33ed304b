// Built-in types as ClassObjs: object, type, int, float, bool, str, list, tuple, dict, set,
// frozenset, range, slice, property, staticmethod, classmethod, super, and the internal types of
// functions, modules and iterators. Constructors are native (`construct`); methods of str, list
// and dict live in their own files.
#include <cerrno>
#include <cmath>

#include "lang/interp/Bytes.h"
#include "lang/interp/Machine.h"
#include "lang/interp/PyError.h"
#include "lang/interp/Operators.h"
#include "lang/interp/Subclass.h"

namespace tlens::interp {

std::shared_ptr<NativeFunction> defineNative(Namespace& ns, std::string name, std::string_view signature, NativeFn fn) {
  auto f = NativeFunction::make(name, signature, std::move(fn));
  ns.set(name, f);
  return f;
}

std::shared_ptr<NativeFunction> defineRaw(Namespace& ns, std::string name, NativeFn fn) {
  auto f = NativeFunction::makeRaw(name, std::move(fn));
  ns.set(name, f);
  return f;
}

namespace {

std::string_view trimWs(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Value parseInt(Machine& m, const std::string& text, int64_t base) {
  std::string_view s = trimWs(text);
  std::string digits;
  bool neg = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  int b = static_cast<int>(base);
  if (i + 1 < s.size() && s[i] == '0') {
    char p = static_cast<char>(s[i + 1] | 0x20);
    if ((p == 'x' && (b == 16 || b == 0)) || (p == 'o' && (b == 8 || b == 0)) || (p == 'b' && (b == 2 || b == 0))) {
      b = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      i += 2;
    }
  }
  if (b == 0) b = 10;
  bool lastUnderscore = true;
  for (; i < s.size(); ++i) {
    if (s[i] == '_' && !lastUnderscore) {
      lastUnderscore = true;
      continue;
    }
    digits += s[i];
    lastUnderscore = false;
  }
  auto fail = [&]() -> Value {
    m.valueError("invalid literal for int() with base " + std::to_string(base) + ": " + reprString(text));
  };
  if (digits.empty() || lastUnderscore) return fail();
  errno = 0;
  char* end = nullptr;
  unsigned long long u = std::strtoull(digits.c_str(), &end, b);
  if (!end || *end != 0 || digits[0] == '-' || digits[0] == '+') return fail();
  if (errno == ERANGE || u > static_cast<unsigned long long>(INT64_MAX) + (neg ? 1ull : 0ull))
    m.raise(m.types.overflowError, "integer too large (tensorlens integers are 64-bit)");
  return makeInt(neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u));
}

Value floatFromString(Machine& m, const std::string& text) {
  std::string s(trimWs(text));
  std::string lower;
  for (char c : s) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string body = lower;
  double sign = 1;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    if (body[0] == '-') sign = -1;
    body.erase(0, 1);
  }
  if (body == "inf" || body == "infinity") return makeFloat(sign * INFINITY);
  if (body == "nan") return makeFloat(NAN);
  std::string clean;
  for (char c : s)
    if (c != '_') clean += c;
  char* end = nullptr;
  double d = std::strtod(clean.c_str(), &end);
  if (clean.empty() || !end || *end != 0 || lower.find("inf") != std::string::npos || lower.find("nan") != std::string::npos ||
      lower.find("0x") != std::string::npos)
    m.valueError("could not convert string to float: " + reprString(text));
  return makeFloat(d);
}

std::shared_ptr<ClassObj> builtinClass(Machine& m, const std::string& name, std::vector<std::shared_ptr<ClassObj>> bases) {
  auto c = makeClass(name, std::move(bases), "builtins");
  c->isBuiltin = true;
  m.builtins.set(name, c);
  return c;
}

}  // namespace

void installBuiltinTypes(Machine& m) {
  auto& T = m.types;
  Machine* mp = &m;
  T.object = builtinClass(m, "object", {});
  auto obj = [&](const std::string& n) { return builtinClass(m, n, {T.object}); };
  T.type = obj("type");
  T.int_ = obj("int");
  T.bool_ = builtinClass(m, "bool", {T.int_});
  T.float_ = obj("float");
  T.str = obj("str");
  T.list = obj("list");
  T.tuple = obj("tuple");
  T.dict = obj("dict");
  T.set = obj("set");
  T.frozenset = obj("frozenset");
  T.range = obj("range");
  T.slice = obj("slice");
  T.property = obj("property");
  T.staticmethod = obj("staticmethod");
  T.classmethod = obj("classmethod");
  T.super = obj("super");
  auto internal = [&](const std::string& n) {
    auto c = makeClass(n, {T.object}, "builtins");
    c->isBuiltin = true;
    return c;
  };
  T.none = internal("NoneType");
  T.function = internal("function");
  T.builtinFunction = internal("builtin_function_or_method");
  T.method = internal("method");
  T.module = internal("module");
  T.generator = internal("generator");
  T.iterator = internal("iterator");
  T.ellipsis = internal("ellipsis");
  T.notImplemented = internal("NotImplementedType");
  T.unknown = internal("unknown");
  T.orderedDict = makeClass("OrderedDict", {T.dict}, "collections");
  T.orderedDict->isBuiltin = true;
  T.defaultDict = makeClass("defaultdict", {T.dict}, "collections");
  T.defaultDict->isBuiltin = true;

  // object
  defineRaw(T.object->dict, "__init__", [mp](CallContext& c) -> Value {
    if (c.args.size() > 1 || !c.kwargs.empty())
      mp->typeError("object.__init__() takes exactly one argument (the instance to initialize)");
    return none();
  });
  defineNative(T.object->dict, "__new__", "cls, *args, **kwargs", [mp](CallContext& c) -> Value {
    auto cls = asShared<ClassObj>(c.arg(0));
    if (!cls) mp->typeError("object.__new__(X): X is not a type object");
    Value o = cls->isException ? std::make_shared<ExceptionObj>(cls) : std::make_shared<InstanceObj>(cls);
    track(o);
    return o;
  });
  defineNative(T.object->dict, "__repr__", "self", [mp](CallContext& c) -> Value {
    const Value& s = c.arg(0);
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%012llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(s.get())));
    auto cls = mp->typeOf(s);
    std::string n = cls->module == "builtins" ? cls->qualname : cls->module + "." + cls->qualname;
    return makeStr("<" + n + " object at " + buf + ">");
  });
  defineNative(T.object->dict, "__str__", "self", [mp](CallContext& c) -> Value { return makeStr(mp->repr(c.arg(0))); });
  defineNative(T.object->dict, "__setattr__", "self, name, value", [](CallContext& c) -> Value {
    auto* inst = as<InstanceObj>(c.arg(0));
    if (!inst) c.typeError("can't set attributes of built-in/extension type");
    inst->dict.set(c.toStr(c.arg(1)), c.arg(2));
    return none();
  });
  defineNative(T.object->dict, "__getattribute__", "self, name", [mp](CallContext& c) -> Value {
    return mp->getAttr(c.arg(0), c.toStr(c.arg(1)));
  });
  defineNative(T.object->dict, "__eq__", "self, other", [](CallContext& c) -> Value {
    return c.arg(0).get() == c.arg(1).get() ? boolean(true) : notImplemented();
  });
  defineNative(T.object->dict, "__ne__", "self, other", [mp](CallContext& c) -> Value {
    Value r = mp->compare(CmpOp::Eq, c.arg(0), c.arg(1));
    Truth t = mp->truth(r);
    if (t == Truth::Unknown) return unknownOf(mp->types.bool_);
    return boolean(t == Truth::False);
  });
  defineNative(T.object->dict, "__hash__", "self", [](CallContext& c) -> Value {
    return makeInt(static_cast<int64_t>(reinterpret_cast<intptr_t>(c.arg(0).get()) >> 4));
  });
  defineNative(T.object->dict, "__init_subclass__", "cls", [](CallContext&) -> Value { return none(); });

  // type
  T.type->construct = [mp](CallContext& c) -> Value {
    if (c.args.size() == 1 && c.kwargs.empty()) {
      if (isUnknown(c.args[0])) {
        auto* u = as<UnknownObj>(c.args[0]);
        return u->type ? Value(u->type) : unknown();
      }
      return mp->typeOf(c.args[0]);
    }
    if (c.args.size() != 3) mp->typeError("type() takes 1 or 3 arguments");
    std::vector<std::shared_ptr<ClassObj>> bases;
    for (const Value& b : c.toList(c.args[1])) {
      auto cb = asShared<ClassObj>(b);
      if (!cb) mp->typeError("bases must be types");
      bases.push_back(cb);
    }
    if (bases.empty()) bases.push_back(mp->types.object);
    auto cls = makeClass(c.toStr(c.args[0]), bases, "__main__");
    if (auto* d = as<DictObj>(c.args[2]))
      for (const auto& e : d->entries())
        if (const std::string* k = asString(e.key)) cls->dict.set(*k, e.value);
    return cls;
  };

  // int
  T.int_->construct = [mp](CallContext& c) -> Value {
    Signature sig = Signature::parse("x=0, /, base=10");
    auto b = sig.bind(c.interp, "int", c.args, c.kwargs);
    const Value& x = b[0];
    bool hasBase = false;
    for (const auto& kw : c.kwargs)
      if (kw.first == "base") hasBase = true;
    if (c.args.size() > 1) hasBase = true;
    if (isUnknown(x)) throw NeedsKnownValue{};
    if (hasBase) {
      if (!asString(x)) mp->typeError("int() can't convert non-string with explicit base");
      return parseInt(*mp, *asString(x), c.toInt(b[1]));
    }
    if (auto i = asInt(x)) return makeInt(*i);
    if (auto* f = as<FloatObj>(x)) {
      if (std::isnan(f->value)) mp->valueError("cannot convert float NaN to integer");
      if (std::isinf(f->value)) mp->raise(mp->types.overflowError, "cannot convert float infinity to integer");
      double t = std::trunc(f->value);
      if (std::fabs(t) >= 9.2233720368547758e18) mp->raise(mp->types.overflowError, "integer too large (tensorlens integers are 64-bit)");
      return makeInt(static_cast<int64_t>(t));
    }
    if (const std::string* s = asString(x)) return parseInt(*mp, *s, 10);
    if (x->kind() == Kind::Instance || x->kind() == Kind::Native) {
      for (const char* d : {"__int__", "__index__", "__trunc__"}) {
        Value r = x->kind() == Kind::Instance ? mp->callDunder(x, d, {}) : nullptr;
        if (!r && x->kind() == Kind::Native)
          if (Value f = mp->findAttr(x, d)) r = mp->call(f, {}, {});
        if (r) return r;
      }
    }
    mp->typeError("int() argument must be a string, a bytes-like object or a real number, not '" + mp->typeName(x) + "'");
  };
  defineNative(T.int_->dict, "bit_length", "self", [](CallContext& c) -> Value {
    int64_t v = c.toInt(c.arg(0));
    uint64_t a = v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
    int n = 0;
    while (a) {
      ++n;
      a >>= 1;
    }
    return makeInt(n);
  });
  defineNative(T.int_->dict, "__index__", "self", [](CallContext& c) -> Value { return makeInt(c.toInt(c.arg(0))); });

  // bool
  T.bool_->construct = [mp](CallContext& c) -> Value {
    if (c.args.empty()) return boolean(false);
    Truth t = mp->truth(c.args[0]);
    if (t == Truth::Unknown) return unknownOf(mp->types.bool_);
    return boolean(t == Truth::True);
  };

  // float
  T.float_->construct = [mp](CallContext& c) -> Value {
    if (c.args.empty()) return makeFloat(0.0);
    const Value& x = c.args[0];
    if (isUnknown(x)) throw NeedsKnownValue{};
    if (auto d = asDouble(x)) return makeFloat(*d);
    if (const std::string* s = asString(x)) return floatFromString(*mp, *s);
    if (x->kind() == Kind::Instance) {
      if (Value r = mp->callDunder(x, "__float__", {})) return r;
      if (Value r = mp->callDunder(x, "__index__", {})) return makeFloat(static_cast<double>(c.toInt(r)));
    }
    if (x->kind() == Kind::Native)
      if (Value f = mp->findAttr(x, "__float__")) return mp->call(f, {}, {});
    mp->typeError("float() argument must be a string or a real number, not '" + mp->typeName(x) + "'");
  };
  defineNative(T.float_->dict, "is_integer", "self", [](CallContext& c) -> Value {
    double d = c.toDouble(c.arg(0));
    return boolean(std::isfinite(d) && d == std::floor(d));
  });

  // str
  T.str->construct = [mp](CallContext& c) -> Value {
    if (c.args.empty()) return makeStr("");
    if (isUnknown(c.args[0])) return unknownOf(mp->types.str);
    return makeStr(mp->str(c.args[0]));
  };

  // int.__new__(cls, ...), float.__new__ and str.__new__: what a subclass's own __new__ (or
  // enum's members) call to make the built-in value as an instance of the subclass.
  for (const auto& base : {T.int_, T.float_, T.str}) {
    std::weak_ptr<ClassObj> weakBase = base;
    defineNative(base->dict, "__new__", "cls, *args, **kwargs", [mp, weakBase](CallContext& c) -> Value {
      auto b = weakBase.lock();
      auto cls = asShared<ClassObj>(c.arg(0));
      if (!cls) mp->typeError(b->name + ".__new__(X): X is not a type object");
      if (!cls->isSubclassOf(b.get())) mp->typeError(b->name + ".__new__(" + cls->name + "): " + cls->name + " is not a subtype of " + b->name);
      std::vector<Value> args;
      if (const auto* t = asSequence(c.arg(1))) args = *t;
      KwArgs kwargs;
      if (auto* d = as<DictObj>(c.arg(2)))
        for (const auto& e : d->entries())
          if (const std::string* k = asString(e.key)) kwargs.emplace_back(*k, e.value);
      CallContext ctx(mp->api, b->name, std::move(args), std::move(kwargs));
      ctx.cls = b;
      Value plain;
      try {
        plain = b->construct(ctx);
      } catch (NeedsKnownValue&) {
        return unknownOf(cls);
      }
      return cls == b ? plain : makeSubclassValue(cls, plain);
    });
  }

  // The built-in str()/repr() of the value itself, for a subclass that overrides __repr__ or
  // __str__ and calls the base's (float.__repr__(self)).
  for (const auto& base : {T.int_, T.float_, T.str}) {
    auto plainRepr = [mp](CallContext& c) -> Value {
      const Value& v = c.arg(0);
      Value plain = v->kind() == Kind::Float ? makeFloat(static_cast<FloatObj*>(v.get())->value)
                    : v->kind() == Kind::Str ? makeStr(static_cast<StrObj*>(v.get())->value)
                    : asInt(v)               ? makeInt(*asInt(v))
                                             : nullptr;
      if (!plain) mp->typeError("descriptor '__repr__' requires a built-in value, not '" + mp->typeName(v) + "'");
      return makeStr(mp->repr(plain));
    };
    defineNative(base->dict, "__repr__", "self", plainRepr);
    if (base == T.str)
      defineNative(base->dict, "__str__", "self", [mp](CallContext& c) -> Value {
        if (c.arg(0)->kind() != Kind::Str) mp->typeError("descriptor '__str__' requires a 'str' object");
        return makeStr(static_cast<StrObj*>(c.arg(0).get())->value);
      });
    else
      defineNative(base->dict, "__str__", "self", plainRepr);
  }

  // The operator dunders of int, float and str (int.__add__, str.__lt__, ...), for subclasses
  // that call their base's: the operator on the plain value, NotImplemented where the built-in's
  // operator does not apply (a TypeError), as CPython's slot wrappers.
  auto plainOf = [mp](const Value& v, const std::shared_ptr<ClassObj>& base, std::string_view name) -> Value {
    bool ok = base == mp->types.str ? v->kind() == Kind::Str
              : base == mp->types.float_ ? v->kind() == Kind::Float
                                         : (v->kind() == Kind::Int || v->kind() == Kind::Bool);
    if (!ok)
      mp->typeError("descriptor '" + std::string(name) + "' requires a '" + base->name + "' object but received a '" +
                    mp->typeName(v) + "'");
    if (v->kind() == Kind::Str) return makeStr(static_cast<StrObj*>(v.get())->value);
    if (v->kind() == Kind::Float) return makeFloat(static_cast<FloatObj*>(v.get())->value);
    return makeInt(*asInt(v));
  };
  auto orNotImplemented = [mp](const std::function<Value()>& f) -> Value {
    try {
      return f();
    } catch (PyError& e) {
      if (mp->exceptionMatches(e.exc, mp->types.typeError)) return notImplemented();
      throw;
    }
  };
  for (const auto& base : {T.int_, T.float_, T.str}) {
    std::weak_ptr<ClassObj> weakBase = base;
    for (int i = 0; i <= static_cast<int>(BinOp::Xor); ++i) {
      auto op = static_cast<BinOp>(i);
      bool bitwise = op == BinOp::LShift || op == BinOp::RShift || op == BinOp::And || op == BinOp::Or || op == BinOp::Xor;
      if (op == BinOp::MatMul || (base == T.float_ && bitwise)) continue;
      if (base == T.str && op != BinOp::Add && op != BinOp::Mul && op != BinOp::Mod) continue;
      for (bool reflected : {false, true}) {
        if (base == T.str && reflected && op == BinOp::Add) continue;  // str has no __radd__
        std::string name(reflected ? reflectedDunder(op) : dunder(op));
        defineNative(base->dict, name, "self, other, /",
                     [mp, op, reflected, weakBase, name, plainOf, orNotImplemented](CallContext& c) -> Value {
                       Value self = plainOf(c.arg(0), weakBase.lock(), name);
                       Value other = c.arg(1);
                       return orNotImplemented([&] { return reflected ? mp->binary(op, other, self) : mp->binary(op, self, other); });
                     });
      }
    }
    for (int i = 0; i <= static_cast<int>(CmpOp::Ge); ++i) {
      auto op = static_cast<CmpOp>(i);
      std::string name(dunder(op));
      defineNative(base->dict, name, "self, other, /", [mp, op, weakBase, name, plainOf, orNotImplemented](CallContext& c) -> Value {
        Value self = plainOf(c.arg(0), weakBase.lock(), name);
        Value other = c.arg(1);
        return orNotImplemented([&] { return mp->compare(op, self, other); });
      });
    }
  }

  // list, tuple
  T.list->construct = [mp](CallContext& c) -> Value {
    if (c.args.empty()) return makeList();
    if (isUnknown(c.args[0])) return unknownOf(mp->types.list);
    return makeList(mp->toList(c.args[0]));
  };
  T.tuple->construct = [mp](CallContext& c) -> Value {
    if (c.args.empty()) return makeTuple();
    if (isUnknown(c.args[0])) return unknownOf(mp->types.tuple);
    if (c.args[0]->kind() == Kind::Tuple) return c.args[0];
    return makeTuple(mp->toList(c.args[0]));
  };

  // dict and its subclasses
  auto fillDict = [mp](DictObj& d, CallContext& c, size_t first) {
    if (c.args.size() > first) {
      const Value& src = c.args[first];
      if (isUnknown(src)) {
        d.imprecise = true;
      } else if (auto* sd = as<DictObj>(src)) {
        for (const auto& e : sd->entries()) d.set(c.interp, e.key, e.value);
        if (sd->imprecise) d.imprecise = true;
      } else if (src->kind() == Kind::Instance && mp->findAttr(src, "keys")) {
        for (const Value& k : mp->toList(mp->callMethod(src, "keys", {}))) d.set(c.interp, k, mp->getItem(src, k));
      } else {
        size_t i = 0;
        for (const Value& item : mp->toList(src)) {
          if (isUnknown(item)) {
            d.imprecise = true;
            continue;
          }
          std::vector<Value> kv = mp->toList(item);
          if (kv.size() != 2)
            mp->valueError("dictionary update sequence element #" + std::to_string(i) + " has length " +
                           std::to_string(kv.size()) + "; 2 is required");
          if (isUnknown(kv[0])) d.imprecise = true;
          else d.set(c.interp, kv[0], kv[1]);
          ++i;
        }
      }
    }
    for (const auto& [k, v] : c.kwargs) d.setStr(k, v);
  };
  T.dict->construct = [fillDict](CallContext& c) -> Value {
    auto d = makeDict();
    fillDict(*d, c, 0);
    return d;
  };
  T.orderedDict->construct = [fillDict, mp](CallContext& c) -> Value {
    auto d = makeDict();
    d->cls = mp->types.orderedDict;
    fillDict(*d, c, 0);
    return d;
  };
  T.defaultDict->construct = [fillDict, mp](CallContext& c) -> Value {
    auto d = makeDict();
    d->cls = mp->types.defaultDict;
    if (!c.args.empty() && !isNone(c.args[0])) d->defaultFactory = c.args[0];
    fillDict(*d, c, 1);
    return d;
  };

  // set, frozenset
  auto makeSetFrom = [mp](CallContext& c, bool frozen) -> Value {
    auto s = makeSet();
    s->frozen = frozen;
    if (!c.args.empty()) {
      if (isUnknown(c.args[0])) return unknownOf(frozen ? mp->types.frozenset : mp->types.set);
      for (const Value& v : mp->toList(c.args[0])) {
        if (isUnknown(v)) s->imprecise = true;
        else s->add(c.interp, v);
      }
    }
    return s;
  };
  T.set->construct = [makeSetFrom](CallContext& c) { return makeSetFrom(c, false); };
  T.frozenset->construct = [makeSetFrom](CallContext& c) { return makeSetFrom(c, true); };

  // range, slice
  T.range->construct = [mp](CallContext& c) -> Value {
    if (!c.kwargs.empty()) mp->typeError("range() takes no keyword arguments");
    if (c.args.empty() || c.args.size() > 3)
      mp->typeError("range expected at least 1 argument, got " + std::to_string(c.args.size()));
    for (const Value& a : c.args)
      if (isUnknown(a)) return unknownOf(mp->types.range);
    int64_t a = mp->toIndex(c.args[0], ""), b = 0, s = 1;
    if (c.args.size() == 1) return std::make_shared<RangeObj>(0, a, 1);
    b = mp->toIndex(c.args[1], "");
    if (c.args.size() == 3) s = mp->toIndex(c.args[2], "");
    if (s == 0) mp->valueError("range() arg 3 must not be zero");
    return std::make_shared<RangeObj>(a, b, s);
  };
  T.slice->construct = [mp](CallContext& c) -> Value {
    if (c.args.size() == 1) return std::make_shared<SliceObj>(none(), c.args[0], none());
    if (c.args.size() == 2) return std::make_shared<SliceObj>(c.args[0], c.args[1], none());
    if (c.args.size() == 3) return std::make_shared<SliceObj>(c.args[0], c.args[1], c.args[2]);
    mp->typeError("slice expected at least 1 argument, got " + std::to_string(c.args.size()));
  };
  defineNative(T.slice->dict, "indices", "self, length", [](CallContext& c) -> Value {
    auto b = static_cast<SliceObj*>(c.arg(0).get())->indices(c.interp, c.toInt(c.arg(1)));
    return makeTuple({makeInt(b.start), makeInt(b.stop), makeInt(b.step)});
  });
  defineNative(T.range->dict, "index", "self, value", [mp](CallContext& c) -> Value {
    auto* r = static_cast<RangeObj*>(c.arg(0).get());
    if (mp->contains(c.arg(0), c.arg(1)) != Truth::True) mp->valueError(mp->repr(c.arg(1)) + " is not in range");
    return makeInt((c.toInt(c.arg(1)) - r->start) / r->step);
  });
  defineNative(T.range->dict, "count", "self, value", [mp](CallContext& c) -> Value {
    return makeInt(mp->contains(c.arg(0), c.arg(1)) == Truth::True ? 1 : 0);
  });

  // property, staticmethod, classmethod
  T.property->construct = [](CallContext& c) -> Value {
    Signature sig = Signature::parse("fget=None, fset=None, fdel=None, doc=None");
    auto b = sig.bind(c.interp, "property", c.args, c.kwargs);
    auto p = std::make_shared<PropertyObj>();
    if (!isNone(b[0])) p->fget = b[0];
    if (!isNone(b[1])) p->fset = b[1];
    if (!isNone(b[2])) p->fdel = b[2];
    track(p);
    return p;
  };
  auto copyProperty = [](const Value& v) {
    auto* old = static_cast<PropertyObj*>(v.get());
    auto p = std::make_shared<PropertyObj>();
    p->fget = old->fget;
    p->fset = old->fset;
    p->fdel = old->fdel;
    track(p);
    return p;
  };
  defineNative(T.property->dict, "setter", "self, fn", [copyProperty](CallContext& c) -> Value {
    auto p = copyProperty(c.arg(0));
    p->fset = c.arg(1);
    return p;
  });
  defineNative(T.property->dict, "getter", "self, fn", [copyProperty](CallContext& c) -> Value {
    auto p = copyProperty(c.arg(0));
    p->fget = c.arg(1);
    return p;
  });
  defineNative(T.property->dict, "deleter", "self, fn", [copyProperty](CallContext& c) -> Value {
    auto p = copyProperty(c.arg(0));
    p->fdel = c.arg(1);
    return p;
  });
  T.staticmethod->construct = [](CallContext& c) -> Value {
    if (c.args.size() != 1) c.typeError("staticmethod expected 1 argument");
    Value v = std::make_shared<StaticMethodObj>(c.args[0]);
    track(v);
    return v;
  };
  T.classmethod->construct = [](CallContext& c) -> Value {
    if (c.args.size() != 1) c.typeError("classmethod expected 1 argument");
    Value v = std::make_shared<ClassMethodObj>(c.args[0]);
    track(v);
    return v;
  };

  // generator methods
  defineNative(T.generator->dict, "send", "self, value, /", [mp](CallContext& c) -> Value {
    Value keep = c.arg(0);
    Value v = mp->resumeGenerator(*static_cast<GeneratorObj*>(c.arg(0).get()), c.arg(1));
    if (!v) mp->raiseValue(mp->makeException(mp->types.stopIteration, {}));
    return v;
  });
  defineNative(T.generator->dict, "close", "self", [mp](CallContext& c) -> Value {
    mp->closeGeneratorPython(*static_cast<GeneratorObj*>(c.arg(0).get()));
    return none();
  });
  defineNative(T.generator->dict, "__next__", "self", [mp](CallContext& c) -> Value {
    Value v = mp->next(c.arg(0));
    if (!v) mp->raiseValue(mp->makeException(mp->types.stopIteration, {}));
    return v;
  });
  defineNative(T.generator->dict, "__iter__", "self", [](CallContext& c) -> Value { return c.arg(0); });

  // super
  T.super->construct = [mp](CallContext& c) -> Value {
    std::shared_ptr<ClassObj> cls;
    Value self;
    if (c.args.empty()) {
      for (auto it = mp->frames.rbegin(); it != mp->frames.rend(); ++it) {
        Frame* f = *it;
        if (f->type != Frame::FunctionFrame) continue;
        if (f->function) cls = f->function->ownerClass.lock();
        self = f->firstArg;
        break;
      }
      if (!cls || !self) {
        if (mp->abstract()) return unknown();
        mp->raise(mp->types.runtimeError, "super(): no arguments");
      }
    } else {
      cls = asShared<ClassObj>(c.args[0]);
      if (!cls) mp->typeError("super() argument 1 must be a type, not " + mp->typeName(c.args[0]));
      if (c.args.size() < 2) mp->raise(mp->types.runtimeError, "super() with one argument is not supported");
      self = c.args[1];
    }
    if (isUnknown(self)) return unknown();
    std::shared_ptr<ClassObj> selfClass = self->kind() == Kind::Class ? std::static_pointer_cast<ClassObj>(self) : mp->typeOf(self);
    if (!selfClass->isSubclassOf(cls.get())) {
      if (mp->abstract()) return unknown();
      mp->typeError("super(type, obj): obj must be an instance or subtype of type");
    }
    return std::make_shared<SuperObj>(cls, self, selfClass);
  };
}

void Builtins::installBuiltins() {
  installBuiltinTypes(self());
  installExceptions(self());
  installBuiltinFunctions(self());
  installStrMethods(self());
  installListMethods(self());
  installDictMethods(self());
  installBytes(self());
  builtins.set("None", none());
  builtins.set("Ellipsis", ellipsis());
  builtins.set("NotImplemented", notImplemented());
  builtins.set("__debug__", boolean(true));
  builtins.set("__name__", makeStr("builtins"));
}

}  // namespace tlens::interp
