// Built-in functions: print, len, enumerate, zip, min, max, sum, sorted, map, filter, isinstance,
// getattr, open, ... Iterator builtins (enumerate, zip, map, filter, reversed) are lazy, as in
// Python 3. print writes to the interpreter's output sinks, never to stdout, and does nothing in
// abstract mode.
#include <cmath>
#include <cstdio>

#include "lang/interp/BuiltinExec.h"
#include "lang/interp/Format.h"
#include "lang/interp/FsPath.h"
#include "lang/interp/Imports.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/Utf8.h"

namespace tlens::interp {
namespace {

std::string utf8(uint32_t cp) {
  std::string out;
  appendUtf8(out, cp);
  return out;
}

Value minMax(Imports& m, CallContext& c, bool isMax) {
  const char* name = isMax ? "max" : "min";
  Value key, dflt;
  for (const auto& [k, v] : c.kwargs) {
    if (k == "key") key = isNone(v) ? nullptr : v;
    else if (k == "default") dflt = v;
    else m.typeError(std::string(name) + "() got an unexpected keyword argument '" + k + "'");
  }
  std::vector<Value> items;
  if (c.args.empty()) m.typeError(std::string(name) + " expected at least 1 argument, got 0");
  if (c.args.size() == 1) {
    if (isUnknown(c.args[0])) return unknown();
    items = m.toList(c.args[0]);
  } else {
    items = c.args;
  }
  if (items.empty()) {
    if (dflt) return dflt;
    m.valueError(std::string(name) + "() arg is an empty sequence");
  }
  Value best = items[0];
  Value bestKey = key ? m.call(key, {best}, {}) : best;
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key ? m.call(key, {items[i]}, {}) : items[i];
    Truth t = m.truth(m.compare(isMax ? CmpOp::Gt : CmpOp::Lt, k, bestKey));
    if (t == Truth::Unknown) return m.join(best, items[i]);
    if (t == Truth::True) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

Value roundValue(Imports& m, const Value& x, const Value& nd) {
  if (isUnknown(x) || isUnknown(nd)) return unknown();
  if (x->kind() == Kind::Instance) {
    std::vector<Value> args;
    if (!isNone(nd)) args.push_back(nd);
    if (Value r = m.callDunder(x, "__round__", args)) return r;
  }
  if (x->kind() == Kind::Native)
    if (Value f = m.findAttr(x, "__round__")) return m.call(f, isNone(nd) ? std::vector<Value>{} : std::vector<Value>{nd}, {});
  if (auto i = asInt(x); i && x->kind() != Kind::Float) {
    if (isNone(nd)) return makeInt(*i);
    int64_t n = m.toIndex(nd, "");
    if (n >= 0) return makeInt(*i);
    int64_t p = 1;
    for (int64_t k = 0; k < -n && p < INT64_MAX / 10; ++k) p *= 10;
    int64_t q = *i / p, r = *i % p;
    if (r < 0) {
      r += p;
      --q;
    }
    if (2 * r > p || (2 * r == p && (q & 1))) ++q;
    return makeInt(q * p);
  }
  auto d = asDouble(x);
  if (!d) m.typeError("type " + m.typeName(x) + " doesn't define __round__ method");
  if (isNone(nd)) {
    if (std::isnan(*d)) m.valueError("cannot convert float NaN to integer");
    if (std::isinf(*d)) m.raise(m.types.overflowError, "cannot convert float infinity to integer");
    return makeInt(static_cast<int64_t>(std::nearbyint(*d)));
  }
  int64_t n = m.toIndex(nd, "");
  if (!std::isfinite(*d)) return makeFloat(*d);
  if (n > 300) return makeFloat(*d);
  if (n >= 0) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(n), *d);
    return makeFloat(std::strtod(buf, nullptr));
  }
  double p = std::pow(10.0, static_cast<double>(-n));
  double y = *d / p;
  double r = std::nearbyint(y);
  return makeFloat(r * p);
}

/// sys.stdout / sys.stderr.
class TextSink : public NativeObject {
 public:
  TextSink(Imports* m, bool err) : m_(m), err_(err) {}
  std::string typeName() const override { return "TextIOWrapper"; }
  Value getAttr(Interpreter& in, std::string_view name) override {
    if (name == "write") {
      auto f = NativeFunction::make("write", "s", [this](CallContext& c) -> Value {
        std::string s = c.interp.str(c.arg(0));
        m_->write(s, err_);
        return makeInt(static_cast<int64_t>(s.size()));
      });
      f->sideEffecting = true;
      return f;
    }
    if (name == "flush") return NativeFunction::make("flush", "", [](CallContext&) -> Value { return none(); });
    if (name == "isatty") return NativeFunction::make("isatty", "", [](CallContext&) -> Value { return boolean(false); });
    if (name == "name") return makeStr(err_ ? "<stderr>" : "<stdout>");
    if (name == "encoding") return makeStr("utf-8");
    return nullptr;
  }
  std::string repr(Interpreter&) override {
    return std::string("<_io.TextIOWrapper name='") + (err_ ? "<stderr>" : "<stdout>") + "' mode='w' encoding='utf-8'>";
  }
  bool isErr() const { return err_; }

 private:
  Imports* m_;
  bool err_;
};

}  // namespace

Value makeTextSink(Imports& m, bool err) { return std::make_shared<TextSink>(&m, err); }

void installBuiltinFunctions(ObjectProtocol& protocol) {
  // The machine is under construction (Interpreter::machine() is not set yet): `__import__`
  // reaches its module loader by the layer above the protocol.
  Imports& m = static_cast<Imports&>(protocol);
  Namespace& b = m.builtins;
  Imports* mp = &m;

  auto print = defineRaw(b, "print", [mp](CallContext& c) -> Value {
    std::string sep = " ", end = "\n";
    Value file;
    for (const auto& [k, v] : c.kwargs) {
      if (k == "sep") sep = isNone(v) ? " " : c.toStr(v);
      else if (k == "end") end = isNone(v) ? "\n" : c.toStr(v);
      else if (k == "file") file = isNone(v) ? nullptr : v;
      else if (k == "flush") continue;
      else mp->typeError("'" + k + "' is an invalid keyword argument for print()");
    }
    std::string out;
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (i) out += sep;
      out += mp->str(c.args[i]);
    }
    out += end;
    if (!file) mp->write(out, false);
    else if (auto* sink = dynamic_cast<TextSink*>(file.get())) mp->write(out, sink->isErr());
    else if (!isUnknown(file)) mp->callMethod(file, "write", {makeStr(out)});
    return none();
  });
  print->sideEffecting = true;

  defineNative(b, "len", "obj, /", [mp](CallContext& c) -> Value {
    try {
      return makeInt(mp->len(c.arg(0)));
    } catch (NeedsKnownValue&) {
      return unknownOf(mp->types.int_);
    }
  });
  defineNative(b, "repr", "obj, /", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0))) return unknownOf(mp->types.str);
    return makeStr(mp->repr(c.arg(0)));
  });
  defineNative(b, "ascii", "obj, /", [mp](CallContext& c) -> Value { return makeStr(mp->repr(c.arg(0))); });
  defineNative(b, "abs", "x, /", [mp](CallContext& c) -> Value {
    const Value& x = c.arg(0);
    if (auto* f = as<FloatObj>(x)) return makeFloat(std::fabs(f->value));
    if (auto i = asInt(x)) {
      if (*i == INT64_MIN) mp->raise(mp->types.overflowError, "integer overflow (tensorlens integers are 64-bit)");
      return makeInt(*i < 0 ? -*i : *i);
    }
    if (isUnknown(x)) return unknown();
    if (x->kind() == Kind::Instance)
      if (Value r = mp->callDunder(x, "__abs__", {})) return r;
    if (x->kind() == Kind::Native)
      if (Value f = mp->findAttr(x, "__abs__")) return mp->call(f, {}, {});
    mp->typeError("bad operand type for abs(): '" + mp->typeName(x) + "'");
  });
  defineNative(b, "round", "number, ndigits=None", [mp](CallContext& c) -> Value { return roundValue(*mp, c.arg(0), c.arg(1)); });
  defineNative(b, "divmod", "a, b, /", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0)) || isUnknown(c.arg(1))) return unknownOf(mp->types.tuple);
    return makeTuple({mp->binary(BinOp::FloorDiv, c.arg(0), c.arg(1)), mp->binary(BinOp::Mod, c.arg(0), c.arg(1))});
  });
  defineNative(b, "pow", "base, exp, mod=None", [mp](CallContext& c) -> Value {
    if (isNone(c.arg(2))) return mp->binary(BinOp::Pow, c.arg(0), c.arg(1));
    int64_t base = c.toInt(c.arg(0)), e = c.toInt(c.arg(1)), mod = c.toInt(c.arg(2));
    if (mod == 0) mp->valueError("pow() 3rd argument cannot be 0");
    if (e < 0) mp->valueError("pow() 2nd argument cannot be negative when 3rd argument specified");
    __int128 r = 1, x = ((base % mod) + mod) % mod;
    while (e > 0) {
      if (e & 1) r = r * x % mod;
      x = x * x % mod;
      e >>= 1;
    }
    int64_t res = static_cast<int64_t>(r);
    if (mod < 0 && res > 0) res += mod;
    return makeInt(res);
  });
  defineNative(b, "hash", "obj, /", [mp](CallContext& c) -> Value { return makeInt(mp->hash(c.arg(0))); });
  defineNative(b, "id", "obj, /", [](CallContext& c) -> Value {
    return makeInt(static_cast<int64_t>(reinterpret_cast<intptr_t>(c.arg(0).get())));
  });
  defineNative(b, "callable", "obj, /", [mp](CallContext& c) -> Value {
    const Value& v = c.arg(0);
    switch (v->kind()) {
      case Kind::Function:
      case Kind::NativeFunction:
      case Kind::BoundMethod:
      case Kind::Class:
      case Kind::StaticMethod: return boolean(true);
      case Kind::Instance: return boolean(static_cast<bool>(static_cast<InstanceObj*>(v.get())->cls->lookup("__call__")));
      case Kind::Unknown: return unknownOf(mp->types.bool_);
      case Kind::Native: return boolean(static_cast<NativeObject*>(v.get())->isCallable());
      default: return boolean(false);
    }
  });
  defineNative(b, "chr", "i, /", [mp](CallContext& c) -> Value {
    int64_t i = c.toInt(c.arg(0));
    if (i < 0 || i > 0x10ffff) mp->valueError("chr() arg not in range(0x110000)");
    return makeStr(utf8(static_cast<uint32_t>(i)));
  });
  defineNative(b, "ord", "c, /", [mp](CallContext& c) -> Value {
    std::string s = c.toStr(c.arg(0));
    auto* so = static_cast<StrObj*>(c.arg(0).get());
    if (so->length() != 1)
      mp->typeError("ord() expected a character, but string of length " + std::to_string(so->length()) + " found");
    const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data());
    uint32_t cp = p[0];
    if (cp >= 0xF0) cp = ((cp & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    else if (cp >= 0xE0) cp = ((cp & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    else if (cp >= 0xC0) cp = ((cp & 0x1F) << 6) | (p[1] & 0x3F);
    return makeInt(cp);
  });
  auto radix = [mp](const char* name, const char* spec) {
    defineNative(mp->builtins, name, "x, /", [mp, spec](CallContext& c) -> Value {
      return makeStr(applyFormatSpec(*mp, makeInt(c.toInt(c.arg(0))), spec));
    });
  };
  radix("hex", "#x");
  radix("oct", "#o");
  radix("bin", "#b");
  defineNative(b, "format", "value, format_spec='', /", [mp](CallContext& c) -> Value {
    return makeStr(mp->formatValue(c.arg(0), c.toStr(c.arg(1))));
  });

  defineNative(b, "isinstance", "obj, class_or_tuple, /", [mp](CallContext& c) -> Value {
    Truth t = mp->isInstanceValue(c.arg(0), c.arg(1));
    return t == Truth::Unknown ? unknownOf(mp->types.bool_) : boolean(t == Truth::True);
  });
  defineNative(b, "issubclass", "cls, class_or_tuple, /", [mp](CallContext& c) -> Value {
    auto* cls = as<ClassObj>(c.arg(0));
    if (isUnknown(c.arg(0))) return unknownOf(mp->types.bool_);
    if (!cls) mp->typeError("issubclass() arg 1 must be a class");
    std::vector<Value> targets = c.arg(1)->kind() == Kind::Tuple ? *asSequence(c.arg(1)) : std::vector<Value>{c.arg(1)};
    for (const Value& t : targets) {
      if (isUnknown(t)) return unknownOf(mp->types.bool_);
      auto* tc = as<ClassObj>(t);
      if (!tc) mp->typeError("issubclass() arg 2 must be a class, a tuple of classes, or a union");
      if (cls->isSubclassOf(tc)) return boolean(true);
      if (!tc->isBuiltin && tc->lookup("__tlens_subclasscheck__")) {  // abc's virtual subclasses
        Truth r = mp->truth(mp->call(mp->getAttr(t, "__tlens_subclasscheck__"), {c.arg(0)}, {}));
        if (r == Truth::True) return boolean(true);
        if (r == Truth::Unknown) return unknownOf(mp->types.bool_);
      }
    }
    return boolean(false);
  });
  defineNative(b, "hasattr", "obj, name, /", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0))) return unknownOf(mp->types.bool_);
    try {
      Value v = mp->findAttr(c.arg(0), c.toStr(c.arg(1)));
      return boolean(static_cast<bool>(v));
    } catch (PyError& e) {
      if (mp->exceptionMatches(e.exc, mp->types.attributeError)) return boolean(false);
      throw;
    }
  });
  defineRaw(b, "getattr", [mp](CallContext& c) -> Value {
    if (c.args.size() < 2 || c.args.size() > 3) mp->typeError("getattr expected 2 or 3 arguments, got " + std::to_string(c.args.size()));
    if (isUnknown(c.args[1])) return unknown();
    std::string name = c.toStr(c.args[1]);
    if (c.args.size() == 2) return mp->getAttr(c.args[0], name);
    try {
      Value v = mp->findAttr(c.args[0], name);
      return v ? v : c.args[2];
    } catch (PyError& e) {
      if (mp->exceptionMatches(e.exc, mp->types.attributeError)) return c.args[2];
      throw;
    }
  });
  defineNative(b, "setattr", "obj, name, value, /", [mp](CallContext& c) -> Value {
    mp->setAttr(c.arg(0), c.toStr(c.arg(1)), c.arg(2));
    return none();
  });
  defineNative(b, "delattr", "obj, name, /", [mp](CallContext& c) -> Value {
    mp->delAttr(c.arg(0), c.toStr(c.arg(1)));
    return none();
  });

  defineRaw(b, "iter", [mp](CallContext& c) -> Value {
    if (c.args.size() == 2) {
      Value fn = c.args[0], sentinel = c.args[1];
      return makeIterator("callable_iterator", [mp, fn, sentinel]() -> Value {
        Value v = mp->call(fn, {}, {});
        return mp->equal(v, sentinel) == Truth::True ? nullptr : v;
      });
    }
    if (c.args.size() != 1) mp->typeError("iter expected 1 argument");
    if (isUnknown(c.args[0])) return unknown();  // next() of it is unknown too, never a StopIteration
    return mp->getIter(c.args[0]);
  });
  defineRaw(b, "next", [mp](CallContext& c) -> Value {
    if (c.args.empty() || c.args.size() > 2) mp->typeError("next expected 1 or 2 arguments");
    if (isUnknown(c.args[0])) return unknown();
    Value v = mp->next(c.args[0]);
    if (v) return v;
    if (c.args.size() == 2) return c.args[1];
    mp->raiseValue(mp->makeException(mp->types.stopIteration, {}));
  });
  defineNative(b, "enumerate", "iterable, start=0", [mp](CallContext& c) -> Value {
    Value it = mp->getIter(c.arg(0));
    auto i = std::make_shared<int64_t>(c.toInt(c.arg(1)));
    return makeIterator("enumerate", [mp, it, i]() -> Value {
      Value v = mp->next(it);
      if (!v) return nullptr;
      return makeTuple({makeInt((*i)++), v});
    });
  });
  defineRaw(b, "zip", [mp](CallContext& c) -> Value {
    bool strict = false;
    for (const auto& [k, v] : c.kwargs)
      if (k == "strict") strict = c.toBool(v);
    std::vector<Value> its;
    for (const Value& a : c.args) its.push_back(mp->getIter(a));
    return makeIterator("zip", [mp, its, strict]() -> Value {
      if (its.empty()) return nullptr;
      std::vector<Value> out;
      for (size_t k = 0; k < its.size(); ++k) {
        Value v = mp->next(its[k]);
        if (!v) {
          if (strict && (k > 0 || mp->next(its[1 % its.size()])))
            mp->valueError("zip() argument " + std::to_string(k + 1) + " is shorter than argument 1");
          return nullptr;
        }
        out.push_back(v);
      }
      return makeTuple(std::move(out));
    });
  });
  defineRaw(b, "map", [mp](CallContext& c) -> Value {
    if (c.args.size() < 2) mp->typeError("map() must have at least two arguments.");
    Value fn = c.args[0];
    std::vector<Value> its;
    for (size_t k = 1; k < c.args.size(); ++k) its.push_back(mp->getIter(c.args[k]));
    return makeIterator("map", [mp, fn, its]() -> Value {
      std::vector<Value> args;
      for (const Value& it : its) {
        Value v = mp->next(it);
        if (!v) return nullptr;
        args.push_back(v);
      }
      return mp->call(fn, std::move(args), {});
    });
  });
  defineNative(b, "filter", "function, iterable, /", [mp](CallContext& c) -> Value {
    Value fn = c.arg(0), it = mp->getIter(c.arg(1));
    return makeIterator("filter", [mp, fn, it]() -> Value {
      for (;;) {
        Value v = mp->next(it);
        if (!v) return nullptr;
        Value keep = isNone(fn) ? v : mp->call(fn, {v}, {});
        if (mp->truth(keep) != Truth::False) return v;
      }
    });
  });
  defineNative(b, "reversed", "seq, /", [mp](CallContext& c) -> Value {
    const Value& s = c.arg(0);
    if (isUnknown(s)) return unknown();
    if (s->kind() == Kind::Instance)
      if (Value r = mp->callDunder(s, "__reversed__", {})) return r;
    if (s->kind() == Kind::Dict || s->kind() == Kind::Set) {
      if (s->kind() == Kind::Set) mp->typeError("'set' object is not reversible");
    }
    std::vector<Value> items;
    if (s->kind() == Kind::Instance) {
      int64_t n = mp->len(s);
      for (int64_t i = 0; i < n; ++i) items.push_back(mp->getItem(s, makeInt(i)));
    } else if (s->kind() == Kind::Iterator || s->kind() == Kind::Generator) {
      mp->typeError("'" + mp->typeName(s) + "' object is not reversible");
    } else {
      items = mp->toList(s);
    }
    auto data = std::make_shared<std::vector<Value>>(items.rbegin(), items.rend());
    auto i = std::make_shared<size_t>(0);
    return makeIterator("reversed", [data, i]() -> Value { return *i < data->size() ? (*data)[(*i)++] : nullptr; });
  });
  defineRaw(b, "min", [mp](CallContext& c) { return minMax(*mp, c, false); });
  defineRaw(b, "max", [mp](CallContext& c) { return minMax(*mp, c, true); });
  defineNative(b, "sum", "iterable, /, start=0", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0))) return unknown();
    Value acc = c.arg(1);
    if (asString(acc)) mp->typeError("sum() can't sum strings [use ''.join(seq) instead]");
    Value it = mp->getIter(c.arg(0));
    for (;;) {
      Value v = mp->next(it);
      if (!v) break;
      acc = mp->binary(BinOp::Add, acc, v);
    }
    return acc;
  });
  defineNative(b, "any", "iterable, /", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0))) return unknownOf(mp->types.bool_);
    Value it = mp->getIter(c.arg(0));
    bool unknownSeen = false;
    for (;;) {
      Value v = mp->next(it);
      if (!v) break;
      Truth t = mp->truth(v);
      if (t == Truth::True) return boolean(true);
      if (t == Truth::Unknown) unknownSeen = true;
    }
    return unknownSeen ? unknownOf(mp->types.bool_) : boolean(false);
  });
  defineNative(b, "all", "iterable, /", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0))) return unknownOf(mp->types.bool_);
    Value it = mp->getIter(c.arg(0));
    bool unknownSeen = false;
    for (;;) {
      Value v = mp->next(it);
      if (!v) break;
      Truth t = mp->truth(v);
      if (t == Truth::False) return boolean(false);
      if (t == Truth::Unknown) unknownSeen = true;
    }
    return unknownSeen ? unknownOf(mp->types.bool_) : boolean(true);
  });
  defineNative(b, "sorted", "iterable, /, *, key=None, reverse=False", [mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(0))) return unknownOf(mp->types.list);
    std::vector<Value> items = mp->toList(c.arg(0));
    sortValues(*mp, items, isNone(c.arg(1)) ? nullptr : c.arg(1), c.toBool(c.arg(2)));
    return makeList(std::move(items));
  });
  defineRaw(b, "vars", [mp](CallContext& c) -> Value {
    if (c.args.empty()) {
      auto d = makeDict();
      mp->frame().locals->vars.forEach([&](const std::string& k, const Value& v) { d->setStr(k, v); });
      return d;
    }
    Value v = mp->findAttr(c.args[0], "__dict__");
    if (!v) mp->typeError("vars() argument must have __dict__ attribute");
    return v;
  });
  defineNative(b, "globals", "", [mp](CallContext&) -> Value {
    auto d = makeDict();
    mp->frame().globals->vars.forEach([&](const std::string& k, const Value& v) { d->setStr(k, v); });
    return d;
  });
  defineNative(b, "locals", "", [mp](CallContext&) -> Value {
    auto d = makeDict();
    mp->frame().locals->vars.forEach([&](const std::string& k, const Value& v) { d->setStr(k, v); });
    return d;
  });
  defineRaw(b, "dir", [mp](CallContext& c) -> Value {
    std::vector<std::string> names;
    auto addNs = [&](const Namespace& ns) { ns.forEach([&](const std::string& k, const Value&) { names.push_back(k); }); };
    if (c.args.empty()) {
      addNs(mp->frame().locals->vars);
    } else {
      const Value& v = c.args[0];
      if (auto* inst = as<InstanceObj>(v)) {
        addNs(inst->dict);
        for (const auto& k : inst->cls->mro) addNs(k->dict);
      } else if (auto* cls = as<ClassObj>(v)) {
        for (const auto& k : cls->mro) addNs(k->dict);
      } else if (auto* mod = as<ModuleObj>(v)) {
        addNs(mod->globals->vars);
      } else if (auto* nat = as<NativeObject>(v)) {
        names = nat->attributeNames(c.interp);
      } else {
        for (const auto& k : mp->typeOf(v)->mro) addNs(k->dict);
      }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<Value> out;
    for (auto& n : names) out.push_back(makeStr(n));
    return makeList(std::move(out));
  });
  defineRaw(b, "input", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.str);
    if (!c.args.empty()) mp->write(mp->str(c.args[0]), false);
    mp->raise(mp->types.eofError, "EOF when reading a line");
  });
  auto exitFn = [mp](CallContext& c) -> Value {
    mp->raiseValue(mp->makeException(mp->types.systemExit, c.args.empty() ? std::vector<Value>{} : std::vector<Value>{c.args[0]}));
  };
  defineRaw(b, "exit", exitFn);
  defineRaw(b, "quit", exitFn);
  defineRaw(b, "breakpoint", [](CallContext&) -> Value { return none(); });
  installExecBuiltins(m);
  defineRaw(b, "__import__", [mp](CallContext& c) -> Value {
    if (c.args.empty()) mp->typeError("__import__() missing required argument 'name'");
    std::string name = c.toStr(c.args[0]);
    auto mod = mp->requireModule(name, mp->frame().current);
    if (!mod) return unknown();
    return mp->modulesByName[name.substr(0, name.find('.'))];
  });
  defineNative(b, "open", "file, mode='r', buffering=-1, encoding=None, errors=None, newline=None", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknown();  // never touches the file system
    return openFile(*mp, pathArg(c, c.arg(0)), c.toStr(c.arg(1)), isNone(c.arg(5)));
  });
}

}  // namespace tlens::interp
