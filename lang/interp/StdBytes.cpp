// bytes and bytearray (Bytes.h): the object, its methods (in the class dict, so `bytes.decode(b)`
// works too), the constructors, str.encode and str(b, encoding), int.from_bytes / to_bytes.
#include "lang/interp/Bytes.h"

#include <algorithm>

#include "lang/interp/Class.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/Utf8.h"

namespace tlens::interp {

Value makeBytes(std::string data, bool bytearray) { return std::make_shared<BytesObj>(std::move(data), bytearray); }

const std::string* asBytes(const Value& v) {
  auto* n = as<NativeObject>(v);
  auto* b = n ? dynamic_cast<BytesObj*>(n) : nullptr;
  return b ? &b->data : nullptr;
}

std::string bytesRepr(std::string_view d, bool bytearray) {
  bool single = d.find('\'') == std::string_view::npos || d.find('"') != std::string_view::npos;
  char q = single ? '\'' : '"';
  std::string out = bytearray ? "bytearray(b" : "b";
  out += q;
  static const char* hex = "0123456789abcdef";
  for (unsigned char c : d) {
    if (c == static_cast<unsigned char>(q) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 32 || c >= 127) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else out += static_cast<char>(c);
  }
  out += q;
  if (bytearray) out += ')';
  return out;
}

std::string latin1FromUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) out += static_cast<char>(c);
    else if ((c & 0xE0) == 0xC0 && i + 1 < s.size()) {
      uint32_t cp = ((c & 0x1F) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3F);
      out += static_cast<char>(cp < 256 ? cp : '?');
      ++i;
    } else {
      out += '?';
      while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80) ++i;
    }
  }
  return out;
}

namespace {

std::string normEncoding(std::string_view e) {
  std::string s;
  for (char c : e)
    if (c != '-' && c != '_' && c != ' ') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "utf8" || s == "u8") return "utf8";
  if (s == "ascii" || s == "usascii") return "ascii";
  if (s == "latin1" || s == "iso88591" || s == "l1" || s == "latin" || s == "cp819") return "latin1";
  return s;
}

/// Length of the valid UTF-8 sequence at d[i], or 0.
size_t utf8Len(std::string_view d, size_t i) {
  unsigned char c = static_cast<unsigned char>(d[i]);
  size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > d.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(d[i + k]) & 0xC0) != 0x80) return 0;
  return n;
}

}  // namespace

std::string decodeBytes(ObjectProtocol& m, std::string_view d, std::string_view encoding, std::string_view errors) {
  std::string enc = normEncoding(encoding);
  std::string out;
  out.reserve(d.size());
  auto bad = [&](size_t i, const char* why, const char* codec) {
    if (errors == "ignore") return;
    if (errors == "replace") {
      out += "\xEF\xBF\xBD";
      return;
    }
    static const char* hex = "0123456789abcdef";
    unsigned char c = static_cast<unsigned char>(d[i]);
    std::string b = std::string("0x") + hex[c >> 4] + hex[c & 15];
    m.raise("UnicodeDecodeError", std::string("'") + codec + "' codec can't decode byte " + b + " in position " +
                                      std::to_string(i) + ": " + why);
  };
  if (enc == "utf8") {
    for (size_t i = 0; i < d.size();) {
      size_t n = utf8Len(d, i);
      if (n == 0) {
        unsigned char c = static_cast<unsigned char>(d[i]);
        size_t want = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        const char* why = "invalid start byte";
        if (want) {
          why = "unexpected end of data";
          for (size_t k = 1; k < want && i + k < d.size(); ++k)
            if ((static_cast<unsigned char>(d[i + k]) & 0xC0) != 0x80) why = "invalid continuation byte";
        }
        bad(i, why, "utf-8");
        ++i;
        continue;
      }
      out.append(d.substr(i, n));
      i += n;
    }
    return out;
  }
  if (enc == "ascii") {
    for (size_t i = 0; i < d.size(); ++i) {
      if (static_cast<unsigned char>(d[i]) < 0x80) out += d[i];
      else bad(i, "ordinal not in range(128)", "ascii");
    }
    return out;
  }
  if (enc == "latin1") {
    for (unsigned char c : d) appendUtf8(out, c);
    return out;
  }
  m.raise("LookupError", "unknown encoding: " + std::string(encoding));
}

std::string encodeStr(ObjectProtocol& m, std::string_view text, std::string_view encoding, std::string_view errors) {
  std::string enc = normEncoding(encoding);
  if (enc == "utf8") return std::string(text);
  if (enc != "ascii" && enc != "latin1") m.raise("LookupError", "unknown encoding: " + std::string(encoding));
  uint32_t limit = enc == "ascii" ? 128 : 256;
  std::string out;
  size_t pos = 0;
  for (size_t i = 0; i < text.size(); ++pos) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n && i + k < text.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += n;
    if (cp < limit) out += static_cast<char>(cp);
    else if (errors == "ignore") continue;
    else if (errors == "replace") out += '?';
    else {
      static const char* hex = "0123456789abcdef";
      std::string ch = cp < 0x100 ? "\\x" : cp < 0x10000 ? "\\u" : "\\U";
      int digits = cp < 0x100 ? 2 : cp < 0x10000 ? 4 : 8;
      for (int k = digits - 1; k >= 0; --k) ch += hex[(cp >> (4 * k)) & 15];
      m.raise("UnicodeEncodeError", std::string("'") + (enc == "ascii" ? "ascii" : "latin-1") + "' codec can't encode character '" + ch +
                                        "' in position " + std::to_string(pos) + ": ordinal not in range(" + std::to_string(limit) + ")");
    }
  }
  return out;
}

namespace {

BytesObj& selfBytes(CallContext& c) {
  auto* b = as<NativeObject>(c.arg(0)) ? dynamic_cast<BytesObj*>(static_cast<NativeObject*>(c.arg(0).get())) : nullptr;
  if (!b) {
    if (isUnknown(c.arg(0))) throw NeedsKnownValue{};
    c.typeError("descriptor requires a 'bytes' object but received a '" + protocolOf(c.interp).typeName(c.arg(0)) + "'");
  }
  return *b;
}

/// A bytes-like argument (bytes, bytearray); an int where `intOk` (find/count/in).
std::string bytesArg(CallContext& c, const Value& v, bool intOk = false) {
  if (const std::string* s = asBytes(v)) return *s;
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (intOk)
    if (auto i = asInt(v)) {
      if (*i < 0 || *i > 255) c.valueError("byte must be in range(0, 256)");
      return std::string(1, static_cast<char>(*i));
    }
  c.typeError("a bytes-like object is required, not '" + protocolOf(c.interp).typeName(v) + "'");
}

/// The bytes of bytes(x): an int (zeros), an iterable of ints, bytes, a str with an encoding.
std::string bytesFromArgs(CallContext& c) {
  ObjectProtocol& m = protocolOf(c.interp);
  if (c.args.empty()) return {};
  const Value& x = c.args[0];
  if (isUnknown(x)) throw NeedsKnownValue{};
  std::string encoding, errors = "strict";
  if (c.args.size() > 1) encoding = c.toStr(c.args[1]);
  if (c.args.size() > 2) errors = c.toStr(c.args[2]);
  for (const auto& [k, v] : c.kwargs) {
    if (k == "encoding") encoding = c.toStr(v);
    else if (k == "errors") errors = c.toStr(v);
  }
  if (const std::string* s = asString(x)) {
    if (encoding.empty()) c.typeError("string argument without an encoding");
    return encodeStr(m, *s, encoding, errors);
  }
  if (const std::string* b = asBytes(x)) return *b;
  if (x->kind() == Kind::Int) {
    int64_t n = *asInt(x);
    if (n < 0) c.valueError("negative count");
    if (n > (int64_t{1} << 32)) m.raise("MemoryError", "");
    return std::string(static_cast<size_t>(n), '\0');
  }
  std::string out;
  for (const Value& v : c.toList(x)) {
    auto i = asInt(v);
    if (!i) {
      if (isUnknown(v)) throw NeedsKnownValue{};
      c.typeError("'" + m.typeName(v) + "' object cannot be interpreted as an integer");
    }
    if (*i < 0 || *i > 255) c.valueError("bytes must be in range(0, 256)");
    out += static_cast<char>(*i);
  }
  return out;
}

bool isSpace(char ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f'; }

Value sameKind(const BytesObj& b, std::string d) { return makeBytes(std::move(d), b.isMutable); }

void installMethods(ObjectProtocol& m, const std::shared_ptr<ClassObj>& cls) {
  ObjectProtocol* mp = &m;
  Namespace& d = cls->dict;
  defineNative(d, "decode", "self, encoding='utf-8', errors='strict'", [mp](CallContext& c) -> Value {
    return makeStr(decodeBytes(*mp, selfBytes(c).data, c.toStr(c.arg(1)), c.toStr(c.arg(2))));
  });
  defineNative(d, "hex", "self", [](CallContext& c) -> Value {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char ch : selfBytes(c).data) {
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
    return makeStr(out);
  });
  auto affix = [](bool start) {
    return [start](CallContext& c) -> Value {
      const std::string& s = selfBytes(c).data;
      std::vector<Value> options;
      if (auto* t = as<TupleObj>(c.arg(1))) options = t->items;
      else options.push_back(c.arg(1));
      for (const Value& o : options) {
        std::string p = bytesArg(c, o);
        if (p.size() <= s.size() && (start ? s.compare(0, p.size(), p) == 0 : s.compare(s.size() - p.size(), p.size(), p) == 0))
          return boolean(true);
      }
      return boolean(false);
    };
  };
  defineNative(d, "startswith", "self, prefix, /", affix(true));
  defineNative(d, "endswith", "self, suffix, /", affix(false));
  // find/rfind/index/count on self[start:end], positions relative to self.
  auto window = [](CallContext& c, const std::string& s) {
    int64_t n = static_cast<int64_t>(s.size());
    auto clamp = [n](int64_t v) { return v < 0 ? std::max<int64_t>(0, v + n) : std::min(v, n); };
    int64_t b = isNone(c.arg(2)) ? 0 : clamp(c.toInt(c.arg(2)));
    int64_t e = isNone(c.arg(3)) ? n : clamp(c.toInt(c.arg(3)));
    return std::make_pair(static_cast<size_t>(b), static_cast<size_t>(std::max(b, e)));
  };
  auto finder = [window](bool reverse, bool raise) {
    return [window, reverse, raise](CallContext& c) -> Value {
      const std::string& s = selfBytes(c).data;
      std::string sub = bytesArg(c, c.arg(1), true);
      auto [b, e] = window(c, s);
      std::string_view w = std::string_view(s).substr(b, e - b);
      size_t p = reverse ? w.rfind(sub) : w.find(sub);
      if (p == std::string::npos) {
        if (raise) c.valueError("subsection not found");
        return makeInt(-1);
      }
      return makeInt(static_cast<int64_t>(p + b));
    };
  };
  defineNative(d, "find", "self, sub, start=None, end=None, /", finder(false, false));
  defineNative(d, "rfind", "self, sub, start=None, end=None, /", finder(true, false));
  defineNative(d, "index", "self, sub, start=None, end=None, /", finder(false, true));
  defineNative(d, "rindex", "self, sub, start=None, end=None, /", finder(true, true));
  defineNative(d, "count", "self, sub, start=None, end=None, /", [window](CallContext& c) -> Value {
    const std::string& full = selfBytes(c).data;
    std::string sub = bytesArg(c, c.arg(1), true);
    auto [b, e] = window(c, full);
    std::string s = full.substr(b, e - b);
    if (sub.empty()) return makeInt(static_cast<int64_t>(s.size() + 1));
    int64_t n = 0;
    for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + sub.size())) ++n;
    return makeInt(n);
  });
  defineNative(d, "split", "self, sep=None, maxsplit=-1", [](CallContext& c) -> Value {
    BytesObj& b = selfBytes(c);
    const std::string& s = b.data;
    int64_t max = c.toInt(c.arg(2));
    std::vector<Value> out;
    if (isNone(c.arg(1))) {
      size_t i = 0;
      while (true) {
        while (i < s.size() && isSpace(s[i])) ++i;
        if (i >= s.size()) break;
        if (max >= 0 && static_cast<int64_t>(out.size()) == max) {
          size_t e = s.size();
          while (e > i && isSpace(s[e - 1])) --e;
          out.push_back(sameKind(b, s.substr(i, e - i)));
          break;
        }
        size_t j = i;
        while (j < s.size() && !isSpace(s[j])) ++j;
        out.push_back(sameKind(b, s.substr(i, j - i)));
        i = j;
      }
      return makeList(std::move(out));
    }
    std::string sep = bytesArg(c, c.arg(1));
    if (sep.empty()) c.valueError("empty separator");
    size_t p = 0;
    while (true) {
      size_t q = max >= 0 && static_cast<int64_t>(out.size()) == max ? std::string::npos : s.find(sep, p);
      if (q == std::string::npos) {
        out.push_back(sameKind(b, s.substr(p)));
        break;
      }
      out.push_back(sameKind(b, s.substr(p, q - p)));
      p = q + sep.size();
    }
    return makeList(std::move(out));
  });
  auto strip = [](int which) {
    return [which](CallContext& c) -> Value {
      BytesObj& b = selfBytes(c);
      std::string chars = isNone(c.arg(1)) ? std::string(" \t\n\r\v\f") : bytesArg(c, c.arg(1));
      size_t i = 0, e = b.data.size();
      if (which != 2)
        while (i < e && chars.find(b.data[i]) != std::string::npos) ++i;
      if (which != 1)
        while (e > i && chars.find(b.data[e - 1]) != std::string::npos) --e;
      return sameKind(b, b.data.substr(i, e - i));
    };
  };
  defineNative(d, "strip", "self, bytes=None, /", strip(0));
  defineNative(d, "lstrip", "self, bytes=None, /", strip(1));
  defineNative(d, "rstrip", "self, bytes=None, /", strip(2));
  defineNative(d, "join", "self, iterable, /", [](CallContext& c) -> Value {
    BytesObj& b = selfBytes(c);
    std::string out;
    bool first = true;
    for (const Value& v : c.toList(c.arg(1))) {
      if (!first) out += b.data;
      first = false;
      out += bytesArg(c, v);
    }
    return sameKind(b, out);
  });
  defineNative(d, "replace", "self, old, new, count=-1, /", [](CallContext& c) -> Value {
    BytesObj& b = selfBytes(c);
    std::string from = bytesArg(c, c.arg(1)), to = bytesArg(c, c.arg(2));
    int64_t max = c.toInt(c.arg(3));
    std::string out;
    size_t p = 0;
    int64_t n = 0;
    while (max < 0 || n < max) {
      size_t q = from.empty() ? (p <= b.data.size() ? p : std::string::npos) : b.data.find(from, p);
      if (q == std::string::npos) break;
      out += b.data.substr(p, q - p) + to;
      if (from.empty()) {
        if (q < b.data.size()) out += b.data[q];
        p = q + 1;
      } else p = q + from.size();
      ++n;
    }
    if (p < b.data.size()) out += b.data.substr(p);
    return sameKind(b, out);
  });
  auto mapChars = [](int (*f)(int)) {
    return [f](CallContext& c) -> Value {
      BytesObj& b = selfBytes(c);
      std::string out = b.data;
      for (char& ch : out) ch = static_cast<char>(f(static_cast<unsigned char>(ch)));
      return sameKind(b, out);
    };
  };
  defineNative(d, "lower", "self", mapChars([](int ch) { return ch < 128 ? std::tolower(ch) : ch; }));
  defineNative(d, "upper", "self", mapChars([](int ch) { return ch < 128 ? std::toupper(ch) : ch; }));
  auto test = [](int (*f)(int)) {
    return [f](CallContext& c) -> Value {
      const std::string& s = selfBytes(c).data;
      if (s.empty()) return boolean(false);
      for (unsigned char ch : s)
        if (ch >= 128 || !f(ch)) return boolean(false);
      return boolean(true);
    };
  };
  defineNative(d, "isdigit", "self", test([](int ch) { return std::isdigit(ch); }));
  defineNative(d, "isalpha", "self", test([](int ch) { return std::isalpha(ch); }));
  defineNative(d, "isspace", "self", test([](int ch) { return std::isspace(ch); }));
  defineNative(d, "splitlines", "self, keepends=False", [](CallContext& c) -> Value {
    BytesObj& b = selfBytes(c);
    bool keep = c.toBool(c.arg(1));
    std::vector<Value> out;
    size_t i = 0;
    while (i < b.data.size()) {
      size_t j = i;
      while (j < b.data.size() && b.data[j] != '\n' && b.data[j] != '\r') ++j;
      size_t e = j;
      if (j < b.data.size()) e += b.data[j] == '\r' && j + 1 < b.data.size() && b.data[j + 1] == '\n' ? 2 : 1;
      out.push_back(sameKind(b, b.data.substr(i, (keep ? e : j) - i)));
      i = e;
    }
    return makeList(std::move(out));
  });
  auto mutableSelf = [](CallContext& c) -> BytesObj& {
    BytesObj& b = selfBytes(c);
    if (!b.isMutable) c.interp.raise("AttributeError", "'bytes' object has no attribute 'append'");
    return b;
  };
  defineNative(d, "append", "self, item, /", [mutableSelf](CallContext& c) -> Value {
    mutableSelf(c).data += bytesArg(c, c.arg(1), true);
    return none();
  });
  defineNative(d, "extend", "self, iterable, /", [mutableSelf](CallContext& c) -> Value {
    BytesObj& b = mutableSelf(c);
    if (const std::string* s = asBytes(c.arg(1))) b.data += *s;
    else
      for (const Value& v : c.toList(c.arg(1))) b.data += bytesArg(c, v, true);
    return none();
  });
}

}  // namespace

// ---- BytesObj ------------------------------------------------------------------------------------

Value BytesObj::getAttr(Interpreter& in, std::string_view name) {
  auto cls = protocolOf(in).typeOf(shared_from_this());
  if (name == "__class__") return cls;
  Value f = cls->lookup(name);
  if (f && f->kind() == Kind::NativeFunction) return boundMethod(f);
  return nullptr;
}

std::vector<std::string> BytesObj::attributeNames(Interpreter& in) {
  std::vector<std::string> out;
  protocolOf(in).typeOf(shared_from_this())->dict.forEach([&](const std::string& k, const Value&) { out.push_back(k); });
  return out;
}

Value BytesObj::binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) {
  if (op == BinOp::Add) {
    const std::string* o = asBytes(other);
    if (!o && !reflected && other->kind() == Kind::Str) in.raise("TypeError", "can't concat str to bytes");
    if (!o) return nullptr;
    return makeBytes(reflected ? *o + data : data + *o, isMutable);
  }
  if (op == BinOp::Mul) {
    auto n = other->kind() == Kind::Int ? asInt(other) : std::nullopt;
    if (!n) return nullptr;
    if (*n <= 0 || data.empty()) return makeBytes(std::string(), isMutable);  // at once, not n appends
    if (static_cast<double>(data.size()) * static_cast<double>(*n) > static_cast<double>(size_t{1} << 32))
      in.raise("MemoryError", "cannot build bytes of " + std::to_string(data.size()) + " x " + std::to_string(*n) +
                                  " bytes (tensorlens refuses values over 4 GB)");
    std::string out;
    for (int64_t i = 0; i < *n; ++i) out += data;
    return makeBytes(std::move(out), isMutable);
  }
  return nullptr;
}

Value BytesObj::inplaceOp(Interpreter& in, BinOp op, const Value& other) {
  if (isMutable && op == BinOp::Add) {
    if (const std::string* o = asBytes(other)) {
      data += *o;
      return shared_from_this();
    }
  }
  return binaryOp(in, op, other, false);
}

Value BytesObj::compare(Interpreter&, CmpOp op, const Value& other, bool reflected) {
  const std::string* o = asBytes(other);
  if (!o) return nullptr;
  int r = reflected ? o->compare(data) : data.compare(*o);
  switch (op) {
    case CmpOp::Lt: return boolean(r < 0);
    case CmpOp::Le: return boolean(r <= 0);
    case CmpOp::Eq: return boolean(r == 0);
    case CmpOp::Ne: return boolean(r != 0);
    case CmpOp::Gt: return boolean(r > 0);
    case CmpOp::Ge: return boolean(r >= 0);
  }
  return nullptr;
}

std::optional<Truth> BytesObj::contains(Interpreter& in, const Value& item) {
  if (isUnknown(item)) return Truth::Unknown;
  std::string sub;
  if (const std::string* s = asBytes(item)) sub = *s;
  else if (auto i = item->kind() == Kind::Int ? asInt(item) : std::nullopt) {
    if (*i < 0 || *i > 255) in.raise("ValueError", "byte must be in range(0, 256)");
    sub = std::string(1, static_cast<char>(*i));
  } else {
    in.raise("TypeError", "a bytes-like object is required, not '" + protocolOf(in).typeName(item) + "'");
  }
  return data.find(sub) != std::string::npos ? Truth::True : Truth::False;
}

Value BytesObj::getItem(Interpreter& in, const Value& key) {
  ObjectProtocol& m = protocolOf(in);
  if (auto* s = as<SliceObj>(key)) {
    auto b = s->indices(in, static_cast<int64_t>(data.size()));
    std::string out;
    out.reserve(static_cast<size_t>(b.count));
    for (int64_t i = 0, p = b.start; i < b.count; ++i, p += b.step) out += data[static_cast<size_t>(p)];
    return makeBytes(std::move(out), isMutable);
  }
  if (isUnknown(key)) return unknownOf(m.types.int_);
  int64_t i = m.normalizeIndex(m.toIndex(key, std::string(typeName()) + " indices"), static_cast<int64_t>(data.size()),
                               "index out of range");
  return makeInt(static_cast<unsigned char>(data[static_cast<size_t>(i)]));
}

bool BytesObj::setItem(Interpreter& in, const Value& key, const Value& v) {
  if (!isMutable) return false;
  ObjectProtocol& m = protocolOf(in);
  int64_t i = m.normalizeIndex(m.toIndex(key, "bytearray indices"), static_cast<int64_t>(data.size()), "bytearray index out of range");
  auto b = asInt(v);
  if (!b || *b < 0 || *b > 255) in.raise("ValueError", "byte must be in range(0, 256)");
  data[static_cast<size_t>(i)] = static_cast<char>(*b);
  return true;
}

Value BytesObj::iter(Interpreter&) {
  auto self = std::static_pointer_cast<BytesObj>(shared_from_this());
  auto pos = std::make_shared<size_t>(0);
  return makeIterator("bytes_iterator", [self, pos]() -> Value {
    if (*pos >= self->data.size()) return nullptr;
    return makeInt(static_cast<unsigned char>(self->data[(*pos)++]));
  });
}

std::string BytesObj::repr(Interpreter&) { return bytesRepr(data, isMutable); }

std::optional<int64_t> BytesObj::hash(Interpreter&) {
  if (isMutable) return std::nullopt;
  return static_cast<int64_t>(std::hash<std::string>()(data) >> 1);
}

// ---- installation ----------------------------------------------------------------------------------

void installBytes(ObjectProtocol& m) {
  ObjectProtocol* mp = &m;
  for (bool mut : {false, true}) {
    const char* name = mut ? "bytearray" : "bytes";
    auto cls = makeClass(name, {m.types.object}, "builtins");
    cls->isBuiltin = true;
    cls->construct = [mut](CallContext& c) -> Value { return makeBytes(bytesFromArgs(c), mut); };
    installMethods(m, cls);
    defineNative(cls->dict, "fromhex", "string, /", [mut](CallContext& c) -> Value {
      std::string s = c.toStr(c.arg(0)), out;
      auto digit = [](char ch) { return std::isxdigit(static_cast<unsigned char>(ch)) ? (std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : (ch | 0x20) - 'a' + 10) : -1; };
      for (size_t i = 0; i < s.size();) {
        if (s[i] == ' ') {
          ++i;
          continue;
        }
        if (i + 1 >= s.size() || digit(s[i]) < 0 || digit(s[i + 1]) < 0)
          c.valueError("non-hexadecimal number found in fromhex() arg at position " + std::to_string(digit(s[i]) < 0 ? i : i + 1));
        out += static_cast<char>(digit(s[i]) * 16 + digit(s[i + 1]));
        i += 2;
      }
      return makeBytes(out, mut);
    });
    m.builtins.set(name, cls);
    m.nativeTypes[name] = cls;
  }
  // str.encode and str(b, encoding)
  defineNative(m.types.str->dict, "encode", "self, encoding='utf-8', errors='strict'", [mp](CallContext& c) -> Value {
    return makeBytes(encodeStr(*mp, c.toStr(c.arg(0)), c.toStr(c.arg(1)), c.toStr(c.arg(2))));
  });
  NativeFn strConstruct = m.types.str->construct;
  m.types.str->construct = [mp, strConstruct](CallContext& c) -> Value {
    bool decode = (c.args.size() > 1 || !c.kwargs.empty()) && !c.args.empty() && asBytes(c.args[0]);
    if (!decode) return strConstruct(c);
    std::string encoding = "utf-8", errors = "strict";
    if (c.args.size() > 1) encoding = c.toStr(c.args[1]);
    if (c.args.size() > 2) errors = c.toStr(c.args[2]);
    for (const auto& [k, v] : c.kwargs) {
      if (k == "encoding") encoding = c.toStr(v);
      else if (k == "errors") errors = c.toStr(v);
    }
    return makeStr(decodeBytes(*mp, *asBytes(c.args[0]), encoding, errors));
  };
  // int.from_bytes / int.to_bytes
  auto fromBytes = NativeFunction::make("from_bytes", "bytes, byteorder='big', *, signed=False", [](CallContext& c) -> Value {
    std::string d = bytesArg(c, c.arg(0));
    bool little = c.toStr(c.arg(1)) == "little";
    if (d.size() > 8) c.interp.raise("OverflowError", "int too big (tensorlens integers are 64-bit)");
    uint64_t u = 0;
    for (size_t i = 0; i < d.size(); ++i) {
      unsigned char ch = static_cast<unsigned char>(little ? d[d.size() - 1 - i] : d[i]);
      u = (u << 8) | ch;
    }
    if (c.toBool(c.arg(2)) && !d.empty() && d.size() < 8 && (u >> (d.size() * 8 - 1)) & 1) u |= ~uint64_t{0} << (d.size() * 8);
    if (!c.toBool(c.arg(2)) && d.size() == 8 && (u >> 63)) c.interp.raise("OverflowError", "int too big (tensorlens integers are 64-bit)");
    return makeInt(static_cast<int64_t>(u));
  });
  m.types.int_->dict.set("from_bytes", std::make_shared<ClassMethodObj>(NativeFunction::make(
      "from_bytes", "cls, bytes, byteorder='big', *, signed=False", [fromBytes](CallContext& c) -> Value {
        KwArgs kw = {{"signed", c.arg(3)}};
        return c.interp.call(fromBytes, {c.arg(1), c.arg(2)}, kw);
      })));
  defineNative(m.types.int_->dict, "to_bytes", "self, length=1, byteorder='big', *, signed=False", [](CallContext& c) -> Value {
    int64_t v = c.toInt(c.arg(0)), n = c.toInt(c.arg(1));
    bool little = c.toStr(c.arg(2)) == "little", sign = c.toBool(c.arg(3));
    if (v < 0 && !sign) c.interp.raise("OverflowError", "can't convert negative int to unsigned");
    if (n < 0) c.valueError("length argument must be non-negative");
    bool fits = n >= 8 || (sign ? (v >= -(int64_t{1} << (8 * n - 1)) && v < (int64_t{1} << (8 * n - 1))) : static_cast<uint64_t>(v) < (uint64_t{1} << (8 * n)));
    if (n == 0) fits = v == 0;
    if (!fits) c.interp.raise("OverflowError", "int too big to convert");
    std::string out(static_cast<size_t>(n), v < 0 ? '\xff' : '\0');
    uint64_t u = static_cast<uint64_t>(v);
    for (int64_t i = 0; i < std::min<int64_t>(n, 8); ++i) out[static_cast<size_t>(little ? i : n - 1 - i)] = static_cast<char>((u >> (8 * i)) & 0xff);
    return makeBytes(out);
  });
}

}  // namespace tlens::interp
