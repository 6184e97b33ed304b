// json: a native encoder and decoder (`_json`) under a small Python module with CPython's API
// (dumps/dump/loads/load, JSONDecodeError with CPython's messages and positions, JSONEncoder for
// `cls=` and `default=`). Pure functions of their arguments, so both modes run them; json.load of
// an abstract file reads an Unknown and yields Unknown.
#include <cmath>

#include "lang/interp/Bytes.h"
#include "lang/interp/Class.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Format.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/Utf8.h"

namespace tlens::interp {
namespace {

struct Encoder {
  Encoder(ObjectProtocol& machine, CallContext& call) : m(machine), c(call) {}
  ObjectProtocol& m;
  CallContext& c;
  bool skipkeys = false, ensureAscii = true, allowNan = true, sortKeys = false, pretty = false;
  std::string indent, itemSep = ", ", keySep = ": ";
  Value defaultFn;
  std::vector<const Object*> active;
  std::string out;

  void newline(size_t depth) {
    out += '\n';
    for (size_t i = 0; i < depth; ++i) out += indent;
  }

  void string(std::string_view s) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < s.size(); ++i) {
      unsigned char ch = static_cast<unsigned char>(s[i]);
      auto u4 = [&](uint32_t v) {
        out += "\\u";
        for (int sh = 12; sh >= 0; sh -= 4) out += hex[(v >> sh) & 15];
      };
      switch (ch) {
        case '"': out += "\\\""; continue;
        case '\\': out += "\\\\"; continue;
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '\b': out += "\\b"; continue;
        case '\f': out += "\\f"; continue;
        default: break;
      }
      if (ch < 0x20 || (ensureAscii && ch == 0x7f)) {
        u4(ch);
        continue;
      }
      if (ch < 0x80 || !ensureAscii) {
        out += static_cast<char>(ch);
        continue;
      }
      size_t n = (ch & 0xE0) == 0xC0 ? 2 : (ch & 0xF0) == 0xE0 ? 3 : 4;
      uint32_t cp = n == 2 ? ch & 0x1F : n == 3 ? ch & 0x0F : ch & 0x07;
      for (size_t k = 1; k < n && i + 1 < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[++i]) & 0x3F);
      if (cp >= 0x10000) {
        cp -= 0x10000;
        u4(0xD800 + (cp >> 10));
        u4(0xDC00 + (cp & 0x3FF));
      } else {
        u4(cp);
      }
    }
    out += '"';
  }

  std::string floatText(double d) {
    if (std::isfinite(d)) return formatFloat(d);
    if (!allowNan) m.valueError("Out of range float values are not JSON compliant");
    return std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
  }

  /// A dict key as JSON text, or nullopt to skip it.
  std::optional<std::string> key(const Value& k) {
    switch (k->kind()) {
      case Kind::Str: return static_cast<StrObj*>(k.get())->value;
      case Kind::Bool: return std::string(*asInt(k) ? "true" : "false");
      case Kind::Int: return std::to_string(*asInt(k));
      case Kind::Float: return floatText(*asDouble(k));
      case Kind::None: return std::string("null");
      case Kind::Unknown: throw NeedsKnownValue{};
      default: break;
    }
    if (skipkeys) return std::nullopt;
    m.typeError("keys must be str, int, float, bool or None, not " + m.typeName(k));
  }

  void enterContainer(const Value& v) {
    for (const Object* o : active)
      if (o == v.get()) m.valueError("Circular reference detected");
    active.push_back(v.get());
    m.checkStack();
  }

  void value(const Value& v, size_t depth) {
    switch (v->kind()) {
      case Kind::None: out += "null"; return;
      case Kind::Bool: out += *asInt(v) ? "true" : "false"; return;
      case Kind::Int: out += std::to_string(*asInt(v)); return;
      case Kind::Float: out += floatText(*asDouble(v)); return;
      case Kind::Str: string(static_cast<StrObj*>(v.get())->value); return;
      case Kind::Unknown: throw NeedsKnownValue{};
      case Kind::List:
      case Kind::Tuple: {
        const auto items = *asSequence(v);
        if (items.empty()) {
          out += "[]";
          return;
        }
        enterContainer(v);
        out += '[';
        for (size_t i = 0; i < items.size(); ++i) {
          if (i) out += itemSep;
          if (pretty) newline(depth + 1);
          value(items[i], depth + 1);
        }
        if (pretty) newline(depth);
        out += ']';
        active.pop_back();
        return;
      }
      case Kind::Dict: {
        auto* d = static_cast<DictObj*>(v.get());
        if (d->imprecise) throw NeedsKnownValue{};
        std::vector<std::pair<std::string, Value>> items;
        for (const auto& e : d->entries())
          if (auto k = key(e.key)) items.emplace_back(std::move(*k), e.value);
        if (items.empty()) {
          out += "{}";
          return;
        }
        if (sortKeys)
          std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        enterContainer(v);
        out += '{';
        for (size_t i = 0; i < items.size(); ++i) {
          if (i) out += itemSep;
          if (pretty) newline(depth + 1);
          string(items[i].first);
          out += keySep;
          value(items[i].second, depth + 1);
        }
        if (pretty) newline(depth);
        out += '}';
        active.pop_back();
        return;
      }
      default: break;
    }
    if (!defaultFn || isNone(defaultFn))
      m.typeError("Object of type " + m.typeOf(v)->name + " is not JSON serializable");
    enterContainer(v);
    value(m.call(defaultFn, {v}, {}), depth);
    active.pop_back();
  }
};

struct Decoder {
  ObjectProtocol& m;
  const std::string& s;
  Value errorClass, objectHook, pairsHook, parseFloat, parseInt;
  size_t i = 0;

  [[noreturn]] void fail(const std::string& msg, size_t at) {
    // Positions count code points, as in CPython.
    int64_t pos = 0;
    for (size_t k = 0; k < at && k < s.size(); ++k)
      if ((static_cast<unsigned char>(s[k]) & 0xC0) != 0x80) ++pos;
    m.raiseValue(m.call(errorClass, {makeStr(msg), makeStr(s), makeInt(pos)}, {}));
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool lit(std::string_view w) {
    if (s.compare(i, w.size(), w) != 0) return false;
    i += w.size();
    return true;
  }

  int hex4(size_t at) {
    if (at + 4 > s.size()) return -1;
    int v = 0;
    for (size_t k = at; k < at + 4; ++k) {
      char ch = s[k];
      int d = ch >= '0' && ch <= '9' ? ch - '0' : (ch | 0x20) >= 'a' && (ch | 0x20) <= 'f' ? (ch | 0x20) - 'a' + 10 : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return v;
  }

  std::string str() {
    size_t start = i - 1;  // the opening quote
    std::string out;
    while (true) {
      if (i >= s.size()) fail("Unterminated string starting at", start);
      unsigned char ch = static_cast<unsigned char>(s[i]);
      if (ch == '"') {
        ++i;
        return out;
      }
      if (ch < 0x20) fail("Invalid control character at", i);
      if (ch != '\\') {
        out += static_cast<char>(ch);
        ++i;
        continue;
      }
      if (i + 1 >= s.size()) fail("Unterminated string starting at", start);
      char e = s[i + 1];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          int v = hex4(i + 2);
          if (v < 0) fail("Invalid \\uXXXX escape", i + 1);
          uint32_t cp = static_cast<uint32_t>(v);
          i += 6;
          if (cp >= 0xD800 && cp < 0xDC00 && s.compare(i, 2, "\\u") == 0) {
            int lo = hex4(i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (static_cast<uint32_t>(lo) - 0xDC00);
              i += 6;
            }
          }
          appendUtf8(out, cp);
          continue;
        }
        default: fail("Invalid \\escape", i);
      }
      i += 2;
    }
  }


  Value number() {
    size_t b = i;
    if (s[i] == '-') ++i;
    auto digits = [&] {
      size_t d = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      return i - d;
    };
    if (i < s.size() && s[i] == '0') ++i;
    else if (digits() == 0) {
      i = b;
      if (s.compare(i, 9, "-Infinity") == 0) {
        i += 9;
        return callOr(parseFloat, "-Infinity", makeFloat(-INFINITY));
      }
      fail("Expecting value", b);
    }
    bool isFloat = false;
    size_t save = i;
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (digits() == 0) i = save;
      else isFloat = true;
    }
    save = i;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      if (digits() == 0) i = save;
      else isFloat = true;
    }
    std::string text = s.substr(b, i - b);
    if (isFloat) return callOr(parseFloat, text, makeFloat(std::strtod(text.c_str(), nullptr)));
    if (parseInt && !isNone(parseInt)) return m.call(parseInt, {makeStr(text)}, {});
    errno = 0;
    long long v = std::strtoll(text.c_str(), nullptr, 10);
    if (errno == ERANGE) m.raise(m.types.overflowError, "integer too large (tensorlens integers are 64-bit)");
    return makeInt(v);
  }

  Value callOr(const Value& fn, const std::string& text, Value dflt) {
    if (fn && !isNone(fn)) return m.call(fn, {makeStr(text)}, {});
    return dflt;
  }

  Value value() {
    ws();
    if (i >= s.size()) fail("Expecting value", i);
    char ch = s[i];
    switch (ch) {
      case '"': ++i; return makeStr(str());
      case '{': return object();
      case '[': return array();
      case 'n': if (lit("null")) return none(); break;
      case 't': if (lit("true")) return boolean(true); break;
      case 'f': if (lit("false")) return boolean(false); break;
      case 'N': if (lit("NaN")) return callOr(parseFloat, "NaN", makeFloat(NAN)); break;
      case 'I': if (lit("Infinity")) return callOr(parseFloat, "Infinity", makeFloat(INFINITY)); break;
      default:
        if (ch == '-' || (ch >= '0' && ch <= '9')) return number();
    }
    fail("Expecting value", i);
  }

  Value array() {
    m.checkStack();
    ++i;
    std::vector<Value> items;
    ws();
    if (i < s.size() && s[i] == ']') {
      ++i;
      return makeList();
    }
    while (true) {
      items.push_back(value());
      ws();
      if (i < s.size() && s[i] == ']') {
        ++i;
        return makeList(std::move(items));
      }
      if (i >= s.size() || s[i] != ',') fail("Expecting ',' delimiter", i);
      ++i;
    }
  }

  Value object() {
    m.checkStack();
    ++i;
    std::vector<std::pair<Value, Value>> pairs;
    ws();
    if (i < s.size() && s[i] == '}') ++i;
    else
      while (true) {
        ws();
        if (i >= s.size() || s[i] != '"') fail("Expecting property name enclosed in double quotes", i);
        ++i;
        Value k = makeStr(str());
        ws();
        if (i >= s.size() || s[i] != ':') fail("Expecting ':' delimiter", i);
        ++i;
        pairs.emplace_back(k, value());
        ws();
        if (i < s.size() && s[i] == '}') {
          ++i;
          break;
        }
        if (i >= s.size() || s[i] != ',') fail("Expecting ',' delimiter", i);
        ++i;
      }
    if (pairsHook && !isNone(pairsHook)) {
      std::vector<Value> list;
      for (auto& [k, v] : pairs) list.push_back(makeTuple({k, v}));
      return m.call(pairsHook, {makeList(std::move(list))}, {});
    }
    auto d = makeDict();
    for (auto& [k, v] : pairs) d->setStr(static_cast<StrObj*>(k.get())->value, v);
    if (objectHook && !isNone(objectHook)) return m.call(objectHook, {d}, {});
    return d;
  }
};

std::shared_ptr<ModuleObj> makeJsonNative(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("_json");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "encode", "obj, skipkeys, ensure_ascii, check_circular, allow_nan, indent, separators, default, sort_keys",
               [mp](CallContext& c) -> Value {
                 Encoder e(*mp, c);
                 e.skipkeys = c.toBool(c.arg(1));
                 e.ensureAscii = c.toBool(c.arg(2));
                 e.allowNan = c.toBool(c.arg(4));
                 const Value& indent = c.arg(5);
                 if (!isNone(indent)) {
                   e.pretty = true;
                   if (const std::string* s = asString(indent)) e.indent = *s;
                   else e.indent = std::string(static_cast<size_t>(std::max<int64_t>(0, c.toInt(indent))), ' ');
                   e.itemSep = ",";
                 }
                 if (!isNone(c.arg(6))) {
                   std::vector<Value> seps = c.toList(c.arg(6));
                   if (seps.size() != 2) c.valueError("separators must be an (item_separator, key_separator) pair");
                   e.itemSep = c.toStr(seps[0]);
                   e.keySep = c.toStr(seps[1]);
                 }
                 e.defaultFn = c.arg(7);
                 e.sortKeys = c.toBool(c.arg(8));
                 e.value(c.arg(0), 0);
                 return makeStr(std::move(e.out));
               });
  defineNative(ns, "decode", "s, error_class, object_hook=None, object_pairs_hook=None, parse_float=None, parse_int=None",
               [mp](CallContext& c) -> Value {
                 std::string text;
                 if (const std::string* b = asBytes(c.arg(0))) text = decodeBytes(*mp, *b, "utf-8", "strict");
                 else if (const std::string* s = asString(c.arg(0))) text = *s;
                 else if (isUnknown(c.arg(0))) throw NeedsKnownValue{};
                 else c.typeError("the JSON object must be str, bytes or bytearray, not " + mp->typeName(c.arg(0)));
                 Decoder d{*mp, text, c.arg(1), c.arg(2), c.arg(3), c.arg(4), c.arg(5)};
                 if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) d.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
                 Value v = d.value();
                 d.ws();
                 if (d.i != text.size()) d.fail("Extra data", d.i);
                 return v;
               });
  return mod;
}

const char* kJson = R"PY(
import _json


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        before = doc[:pos]
        lineno = before.count('\n') + 1
        colno = pos - before.rfind('\n')
        ValueError.__init__(self, '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos))
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno


class JSONEncoder:
    def __init__(self, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True,
                 sort_keys=False, indent=None, separators=None, default=None):
        self.skipkeys = skipkeys
        self.ensure_ascii = ensure_ascii
        self.check_circular = check_circular
        self.allow_nan = allow_nan
        self.sort_keys = sort_keys
        self.indent = indent
        self.separators = separators
        if default is not None:
            self.default = default

    def default(self, o):
        raise TypeError('Object of type %s is not JSON serializable' % type(o).__name__)

    def encode(self, o):
        return _json.encode(o, self.skipkeys, self.ensure_ascii, self.check_circular, self.allow_nan,
                            self.indent, self.separators, self.default, self.sort_keys)


class JSONDecoder:
    def __init__(self, *, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
                 strict=True, object_pairs_hook=None):
        self.object_hook = object_hook
        self.parse_float = parse_float
        self.parse_int = parse_int
        self.object_pairs_hook = object_pairs_hook

    def decode(self, s):
        return _json.decode(s, JSONDecodeError, self.object_hook, self.object_pairs_hook,
                            self.parse_float, self.parse_int)


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None,
          indent=None, separators=None, default=None, sort_keys=False, **kw):
    if cls is not None:
        return cls(skipkeys=skipkeys, ensure_ascii=ensure_ascii, check_circular=check_circular,
                   allow_nan=allow_nan, indent=indent, separators=separators, default=default,
                   sort_keys=sort_keys, **kw).encode(obj)
    return _json.encode(obj, skipkeys, ensure_ascii, check_circular, allow_nan, indent, separators,
                        default, sort_keys)


def dump(obj, fp, **kw):
    fp.write(dumps(obj, **kw))


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
          object_pairs_hook=None, **kw):
    if cls is not None:
        return cls(object_hook=object_hook, parse_float=parse_float, parse_int=parse_int,
                   object_pairs_hook=object_pairs_hook, **kw).decode(s)
    return _json.decode(s, JSONDecodeError, object_hook, object_pairs_hook, parse_float, parse_int)


def load(fp, **kw):
    return loads(fp.read(), **kw)
)PY";

}  // namespace

void registerJsonModule(ModuleRegistry& r) {
  r.add("_json", makeJsonNative);
  r.addSource("json", kJson);
}

}  // namespace tlens::interp
