#include "lang/interp/Function.h"

#include <stdexcept>

#include "lang/interp/ObjectProtocol.h"

namespace tlens::interp {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Value parseDefault(std::string_view s) {
  s = trim(s);
  if (s == "None") return none();
  if (s == "True") return boolean(true);
  if (s == "False") return boolean(false);
  if (s == "()") return makeTuple();
  if (s == "[]") return makeList();
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
    return makeStr(std::string(s.substr(1, s.size() - 2)));
  std::string t(s);
  char* end = nullptr;
  if (t.find_first_of(".eE") == std::string::npos || t.find("inf") != std::string::npos) {
    long long v = std::strtoll(t.c_str(), &end, 10);
    if (end && *end == 0) return makeInt(v);
  }
  double d = std::strtod(t.c_str(), &end);
  if (end && *end == 0) return makeFloat(d);
  throw std::invalid_argument("bad default in native signature: " + t);
}

std::string quotedList(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) s += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    s += "'" + names[i] + "'";
  }
  return s;
}

}  // namespace

Signature Signature::parse(std::string_view spec) {
  Signature sig;
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < spec.size(); ++i) {
    char c = spec[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(spec.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(spec.substr(start));
  bool kwOnly = false;
  for (std::string_view raw : parts) {
    std::string_view p = trim(raw);
    if (p.empty()) continue;
    if (p == "/") {
      for (Param& q : sig.params)
        if (q.kind == ParamKind::Normal) q.kind = ParamKind::PositionalOnly;
      continue;
    }
    if (p == "*") {
      kwOnly = true;
      continue;
    }
    Param param;
    if (p.substr(0, 2) == "**") {
      param.kind = ParamKind::VarKeywords;
      param.name = std::string(trim(p.substr(2)));
    } else if (p[0] == '*') {
      param.kind = ParamKind::VarArgs;
      param.name = std::string(trim(p.substr(1)));
      kwOnly = true;
    } else {
      size_t eq = p.find('=');
      param.name = std::string(trim(p.substr(0, eq)));
      if (eq != std::string_view::npos) param.defaultValue = parseDefault(p.substr(eq + 1));
      param.kind = kwOnly ? ParamKind::KeywordOnly : ParamKind::Normal;
    }
    sig.params.push_back(std::move(param));
  }
  return sig;
}

int Signature::indexOf(std::string_view name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<Value> Signature::bind(Interpreter& in, std::string_view fname, std::vector<Value> args,
                                   KwArgs kwargs) const {
  ObjectProtocol& m = protocolOf(in);
  std::vector<Value> out(params.size());
  // Positional parameters by position: a few on the stack (this runs for every call).
  constexpr size_t kFew = 16;
  size_t fewPositional[kFew];
  std::vector<size_t> manyPositional;
  size_t positionalCount = 0;
  int varArgs = -1, varKw = -1;
  size_t required = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    switch (params[i].kind) {
      case ParamKind::PositionalOnly:
      case ParamKind::Normal:
        if (positionalCount < kFew) {
          fewPositional[positionalCount] = i;
        } else {
          if (manyPositional.empty()) manyPositional.assign(fewPositional, fewPositional + kFew);
          manyPositional.push_back(i);
        }
        ++positionalCount;
        if (!params[i].defaultValue) ++required;
        break;
      case ParamKind::VarArgs: varArgs = static_cast<int>(i); break;
      case ParamKind::VarKeywords: varKw = static_cast<int>(i); break;
      case ParamKind::KeywordOnly: break;
    }
  }
  const size_t* positional = positionalCount <= kFew ? fewPositional : manyPositional.data();
  auto fn = [&] { return std::string(fname) + "()"; };  // for messages only
  std::vector<Value> extra;
  for (size_t a = 0; a < args.size(); ++a) {
    if (a < positionalCount) {
      out[positional[a]] = std::move(args[a]);
    } else if (varArgs >= 0) {
      extra.push_back(std::move(args[a]));
    } else {
      size_t given = args.size();
      std::string takes = required == positionalCount
                              ? std::to_string(positionalCount)
                              : "from " + std::to_string(required) + " to " + std::to_string(positionalCount);
      bool one = required == positionalCount && positionalCount == 1;
      m.typeError(fn() + " takes " + takes + " positional argument" + (one ? "" : "s") + " but " +
                  std::to_string(given) + (given == 1 ? " was" : " were") + " given");
    }
  }
  std::shared_ptr<DictObj> kwDict;
  if (varKw >= 0) kwDict = makeDict();
  for (auto& [k, v] : kwargs) {
    int idx = -1;
    for (size_t i = 0; i < params.size(); ++i)
      if (params[i].name == k && (params[i].kind == ParamKind::Normal || params[i].kind == ParamKind::KeywordOnly)) {
        idx = static_cast<int>(i);
        break;
      }
    if (idx >= 0) {
      if (out[static_cast<size_t>(idx)]) m.typeError(fn() + " got multiple values for argument '" + k + "'");
      out[static_cast<size_t>(idx)] = std::move(v);
    } else if (kwDict) {
      if (kwDict->getStr(k)) m.typeError(fn() + " got multiple values for keyword argument '" + k + "'");
      kwDict->setStr(k, std::move(v));
    } else {
      m.typeError(fn() + " got an unexpected keyword argument '" + k + "'");
    }
  }
  bool missing = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (out[i] || p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKeywords) continue;
    if (p.defaultValue) out[i] = p.defaultValue;
    else missing = true;
  }
  if (missing) {
    std::vector<std::string> missingPos, missingKw;
    for (size_t i = 0; i < params.size(); ++i) {
      const Param& p = params[i];
      if (out[i] || p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKeywords) continue;
      if (p.kind == ParamKind::KeywordOnly) missingKw.push_back(p.name);
      else missingPos.push_back(p.name);
    }
    if (!missingPos.empty())
      m.typeError(fn() + " missing " + std::to_string(missingPos.size()) + " required positional argument" +
                  (missingPos.size() == 1 ? "" : "s") + ": " + quotedList(missingPos));
    if (!missingKw.empty())
      m.typeError(fn() + " missing " + std::to_string(missingKw.size()) + " required keyword-only argument" +
                  (missingKw.size() == 1 ? "" : "s") + ": " + quotedList(missingKw));
  }
  if (varArgs >= 0) out[static_cast<size_t>(varArgs)] = makeTuple(std::move(extra));
  if (varKw >= 0) out[static_cast<size_t>(varKw)] = kwDict;
  return out;
}

std::string Signature::str(Interpreter& in) const {
  std::string s = "(";
  bool starDone = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (i) s += ", ";
    if (p.kind == ParamKind::KeywordOnly && !starDone) {
      s += "*, ";
      starDone = true;
    }
    if (p.kind == ParamKind::VarArgs) {
      s += "*";
      starDone = true;
    }
    if (p.kind == ParamKind::VarKeywords) s += "**";
    s += p.name;
    if (p.defaultValue) s += "=" + in.repr(p.defaultValue);
    if (p.kind == ParamKind::PositionalOnly && (i + 1 == params.size() || params[i + 1].kind != ParamKind::PositionalOnly))
      s += ", /";
  }
  return s + ")";
}

// ---- CallContext -------------------------------------------------------------------------------

const Value& CallContext::arg(size_t i) const {
  const std::vector<Value>& v = sig ? bound : args;
  if (i >= v.size()) {
    static const Value kNone = none();
    if (!sig) protocolOf(interp).typeError(std::string(name) + "() missing required argument");
    return kNone;
  }
  return v[i];
}

const Value& CallContext::arg(std::string_view param) const {
  int i = sig ? sig->indexOf(param) : -1;
  if (i < 0) throw std::logic_error("native function " + std::string(name) + " has no parameter " + std::string(param));
  return bound[static_cast<size_t>(i)];
}

bool CallContext::isNone(std::string_view param) const { return interp::isNone(arg(param)); }

const Value& CallContext::self() const { return sig ? bound.at(0) : args.at(0); }

int64_t CallContext::toInt(const Value& v) const {
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (auto i = asInt(v)) return *i;
  return protocolOf(interp).toIndex(v, "");
}

double CallContext::toDouble(const Value& v) const {
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (auto d = asDouble(v)) return *d;
  ObjectProtocol& m = protocolOf(interp);
  if (v->kind() == Kind::Instance) {
    Value r = m.callDunder(v, "__float__", {});
    if (r && asDouble(r)) return *asDouble(r);
  }
  if (v->kind() == Kind::Native)  // numpy scalars in math.sqrt(), format specs, ...
    if (Value f = m.findAttr(v, "__float__")) {
      Value r = m.call(f, {}, {});
      if (r && asDouble(r)) return *asDouble(r);
      if (r && isUnknown(r)) throw NeedsKnownValue{};  // abstract mode: a scalar of unknown value
    }
  m.typeError("must be real number, not " + m.typeName(v));
}

std::string CallContext::toStr(const Value& v) const {
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (const std::string* s = asString(v)) return *s;
  protocolOf(interp).typeError(std::string(name) + "() argument must be str, not " + protocolOf(interp).typeName(v));
}

bool CallContext::toBool(const Value& v) const {
  Truth t = protocolOf(interp).truth(v);
  if (t == Truth::Unknown) throw NeedsKnownValue{};
  return t == Truth::True;
}

std::vector<Value> CallContext::toList(const Value& v) const {
  if (isUnknown(v)) throw NeedsKnownValue{};
  return protocolOf(interp).toList(v);
}

void CallContext::typeError(const std::string& message) const { protocolOf(interp).typeError(message); }
void CallContext::valueError(const std::string& message) const { protocolOf(interp).valueError(message); }

// ---- functions ---------------------------------------------------------------------------------

std::shared_ptr<NativeFunction> NativeFunction::make(std::string name, std::string_view signature, NativeFn fn) {
  return std::make_shared<NativeFunction>(std::move(name), Signature::parse(signature), std::move(fn));
}

std::shared_ptr<NativeFunction> NativeFunction::makeRaw(std::string name, NativeFn fn) {
  return std::make_shared<NativeFunction>(std::move(name), std::nullopt, std::move(fn));
}

void FunctionObj::clearReferences() {
  closure.reset();
  globals.reset();
  for (Param& p : sig.params) p.defaultValue.reset();
  attrs.clear();
}

}  // namespace tlens::interp
