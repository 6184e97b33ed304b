// str methods. Case mapping and character classes cover ASCII; other characters pass through.
#include <algorithm>

#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Format.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

bool isWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::vector<std::string> splitWs(std::string_view s, int64_t maxsplit) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isWs(s[i])) ++i;
    if (i >= s.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      size_t e = s.size();
      while (e > i && isWs(s[e - 1])) --e;
      out.emplace_back(s.substr(i, e - i));
      return out;
    }
    size_t j = i;
    while (j < s.size() && !isWs(s[j])) ++j;
    out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

Value strList(std::vector<std::string> parts) {
  std::vector<Value> v;
  v.reserve(parts.size());
  for (auto& p : parts) v.push_back(makeStr(std::move(p)));
  return makeList(std::move(v));
}

std::string strip(std::string_view s, const Value& chars, bool left, bool right, CallContext& c) {
  std::string set = isNone(chars) ? std::string(" \t\n\r\f\v") : c.toStr(chars);
  size_t b = 0, e = s.size();
  if (left)
    while (b < e && set.find(s[b]) != std::string::npos) ++b;
  if (right)
    while (e > b && set.find(s[e - 1]) != std::string::npos) --e;
  return std::string(s.substr(b, e - b));
}

/// Byte offsets for the optional start/end arguments (code point indices, clamped like slices).
std::pair<size_t, size_t> window(CallContext& c, const StrObj& s, const Value& start, const Value& end) {
  int64_t n = static_cast<int64_t>(s.length());
  auto norm = [&](const Value& v, int64_t dflt) {
    if (isNone(v)) return dflt;
    int64_t i = c.toInt(v);
    if (i < 0) i = std::max<int64_t>(0, i + n);
    return std::min(i, n);
  };
  int64_t b = norm(start, 0), e = norm(end, n);
  if (e < b) e = b;
  size_t bb = s.slice(0, static_cast<size_t>(b)).size();
  size_t eb = bb + s.slice(static_cast<size_t>(b), static_cast<size_t>(e)).size();
  return {bb, eb};
}

int64_t cpIndex(const StrObj& s, size_t byteOffset) {
  if (s.isAscii()) return static_cast<int64_t>(byteOffset);
  int64_t n = 0;
  for (size_t i = 0; i < byteOffset; ++i)
    if ((static_cast<unsigned char>(s.value[i]) & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace

void installStrMethods(ObjectProtocol& m) {
  Namespace& d = m.types.str->dict;
  ObjectProtocol* mp = &m;
  auto self = [](CallContext& c) -> const std::string& { return static_cast<StrObj*>(c.arg(0).get())->value; };

  defineNative(d, "split", "self, sep=None, maxsplit=-1", [self, mp](CallContext& c) -> Value {
    const std::string& s = self(c);
    int64_t maxsplit = c.toInt(c.arg(2));
    if (isNone(c.arg(1))) return strList(splitWs(s, maxsplit));
    std::string sep = c.toStr(c.arg(1));
    if (sep.empty()) mp->valueError("empty separator");
    std::vector<std::string> out;
    size_t i = 0;
    for (;;) {
      if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) break;
      size_t j = s.find(sep, i);
      if (j == std::string::npos) break;
      out.push_back(s.substr(i, j - i));
      i = j + sep.size();
    }
    out.push_back(s.substr(i));
    return strList(std::move(out));
  });
  defineNative(d, "rsplit", "self, sep=None, maxsplit=-1", [self, mp](CallContext& c) -> Value {
    const std::string& s = self(c);
    int64_t maxsplit = c.toInt(c.arg(2));
    if (maxsplit < 0) return mp->callMethod(c.arg(0), "split", {c.arg(1)});
    std::vector<std::string> out;
    if (isNone(c.arg(1))) {
      size_t e = s.size();
      while (true) {
        while (e > 0 && isWs(s[e - 1])) --e;
        if (e == 0) break;
        if (static_cast<int64_t>(out.size()) == maxsplit) {
          size_t b = 0;
          while (b < e && isWs(s[b])) ++b;
          out.push_back(s.substr(b, e - b));
          break;
        }
        size_t b = e;
        while (b > 0 && !isWs(s[b - 1])) --b;
        out.push_back(s.substr(b, e - b));
        e = b;
      }
    } else {
      std::string sep = c.toStr(c.arg(1));
      if (sep.empty()) mp->valueError("empty separator");
      size_t e = s.size();
      while (static_cast<int64_t>(out.size()) < maxsplit) {
        size_t j = e >= sep.size() ? s.rfind(sep, e - sep.size()) : std::string::npos;
        if (j == std::string::npos) break;
        out.push_back(s.substr(j + sep.size(), e - j - sep.size()));
        e = j;
      }
      out.push_back(s.substr(0, e));
    }
    std::reverse(out.begin(), out.end());
    return strList(std::move(out));
  });
  defineNative(d, "splitlines", "self, keepends=False", [self](CallContext& c) -> Value {
    const std::string& s = self(c);
    bool keep = c.toBool(c.arg(1));
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
      size_t j = i;
      while (j < s.size() && s[j] != '\n' && s[j] != '\r') ++j;
      size_t e = j;
      if (j < s.size()) {
        if (s[j] == '\r' && j + 1 < s.size() && s[j + 1] == '\n') ++j;
        ++j;
      }
      out.push_back(s.substr(i, (keep ? j : e) - i));
      i = j;
    }
    return strList(std::move(out));
  });
  defineNative(d, "join", "self, iterable, /", [self, mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(1))) return unknownOf(mp->types.str);
    const std::string& sep = self(c);
    std::vector<Value> items = mp->toList(c.arg(1));
    double total = items.empty() ? 0.0 : static_cast<double>(sep.size()) * static_cast<double>(items.size() - 1);
    for (size_t i = 0; i < items.size(); ++i) {
      if (isUnknown(items[i])) return unknownOf(mp->types.str);
      const std::string* s = asString(items[i]);
      if (!s) mp->typeError("sequence item " + std::to_string(i) + ": expected str instance, " + mp->typeName(items[i]) + " found");
      total += static_cast<double>(s->size());
    }
    mp->reserveSize(total, mp->types.str);
    std::string out;
    out.reserve(static_cast<size_t>(total));
    for (size_t i = 0; i < items.size(); ++i) {
      if (i) out += sep;
      out += *asString(items[i]);
    }
    return makeStr(std::move(out));
  });
  defineNative(d, "strip", "self, chars=None, /", [self](CallContext& c) { return makeStr(strip(self(c), c.arg(1), true, true, c)); });
  defineNative(d, "lstrip", "self, chars=None, /", [self](CallContext& c) { return makeStr(strip(self(c), c.arg(1), true, false, c)); });
  defineNative(d, "rstrip", "self, chars=None, /", [self](CallContext& c) { return makeStr(strip(self(c), c.arg(1), false, true, c)); });
  defineNative(d, "replace", "self, old, new, count=-1, /", [self, mp](CallContext& c) -> Value {
    const std::string& s = self(c);
    std::string from = c.toStr(c.arg(1)), to = c.toStr(c.arg(2));
    int64_t count = c.toInt(c.arg(3));
    // The result's size before building it: s grows by (to - from) per replacement.
    if (to.size() > from.size()) {
      double n = 0;
      const double grow = static_cast<double>(to.size() - from.size());
      const double limit = mp->abstract() ? ObjectProtocol::kAbstractMaxSize : ObjectProtocol::kMaxStrBytes;
      if (from.empty()) {
        n = static_cast<double>(s.size()) + 1;
      } else {
        // Counting stops once the result is known to be too large.
        for (size_t at = s.find(from); at != std::string::npos && static_cast<double>(s.size()) + n * grow <= limit;
             at = s.find(from, at + from.size()))
          ++n;
      }
      if (count >= 0) n = std::min(n, static_cast<double>(count));
      mp->reserveSize(static_cast<double>(s.size()) + n * static_cast<double>(to.size() - from.size()), mp->types.str);
    }
    std::string out;
    if (from.empty()) {
      int64_t n = 0;
      for (size_t i = 0; i <= s.size(); ++i) {
        if (count < 0 || n < count) {
          out += to;
          ++n;
        }
        if (i < s.size()) out += s[i];
      }
      return makeStr(std::move(out));
    }
    size_t i = 0;
    int64_t n = 0;
    for (;;) {
      size_t j = (count >= 0 && n >= count) ? std::string::npos : s.find(from, i);
      if (j == std::string::npos) break;
      out.append(s, i, j - i);
      out += to;
      i = j + from.size();
      ++n;
    }
    out.append(s, i, std::string::npos);
    return makeStr(std::move(out));
  });
  defineRaw(d, "format", [mp](CallContext& c) -> Value {
    if (c.args.empty() || !asString(c.args[0])) mp->typeError("descriptor 'format' requires a 'str' object");
    std::vector<Value> args(c.args.begin() + 1, c.args.end());
    for (const Value& a : args)
      if (isUnknown(a)) return unknownOf(mp->types.str);
    return makeStr(strFormat(*mp, *asString(c.args[0]), args, c.kwargs));
  });
  defineNative(d, "format_map", "self, mapping", [mp](CallContext& c) -> Value {
    KwArgs kw;
    if (auto* dd = as<DictObj>(c.arg(1)))
      for (const auto& e : dd->entries())
        if (const std::string* k = asString(e.key)) kw.emplace_back(*k, e.value);
    return makeStr(strFormat(*mp, *asString(c.arg(0)), {}, kw));
  });
  auto affix = [mp, self](bool prefix) {
    return [mp, self, prefix](CallContext& c) -> Value {
      const auto* so = static_cast<StrObj*>(c.arg(0).get());
      auto [b, e] = window(c, *so, c.arg(2), c.arg(3));
      std::string_view s = std::string_view(self(c)).substr(b, e - b);
      std::vector<Value> cands = c.arg(1)->kind() == Kind::Tuple ? *asSequence(c.arg(1)) : std::vector<Value>{c.arg(1)};
      for (const Value& cand : cands) {
        if (isUnknown(cand)) return unknownOf(mp->types.bool_);
        const std::string* p = asString(cand);
        if (!p)
          mp->typeError(std::string(prefix ? "startswith" : "endswith") +
                        " first arg must be str or a tuple of str, not " + mp->typeName(cand));
        if (p->size() <= s.size() &&
            (prefix ? s.compare(0, p->size(), *p) == 0 : s.compare(s.size() - p->size(), p->size(), *p) == 0))
          return boolean(true);
      }
      return boolean(false);
    };
  };
  defineNative(d, "startswith", "self, prefix, start=None, end=None, /", affix(true));
  defineNative(d, "endswith", "self, suffix, start=None, end=None, /", affix(false));
  auto mapChars = [self](int (*f)(int)) {
    return [self, f](CallContext& c) -> Value {
      std::string s = self(c);
      for (char& ch : s)
        if (static_cast<unsigned char>(ch) < 0x80) ch = static_cast<char>(f(static_cast<unsigned char>(ch)));
      return makeStr(std::move(s));
    };
  };
  defineNative(d, "upper", "self", mapChars(::toupper));
  defineNative(d, "lower", "self", mapChars(::tolower));
  defineNative(d, "casefold", "self", mapChars(::tolower));
  defineNative(d, "swapcase", "self", [self](CallContext& c) -> Value {
    std::string s = self(c);
    for (char& ch : s) {
      unsigned char u = static_cast<unsigned char>(ch);
      if (u < 0x80) ch = static_cast<char>(std::isupper(u) ? std::tolower(u) : std::toupper(u));
    }
    return makeStr(std::move(s));
  });
  defineNative(d, "capitalize", "self", [self](CallContext& c) -> Value {
    std::string s = self(c);
    for (size_t i = 0; i < s.size(); ++i) {
      unsigned char u = static_cast<unsigned char>(s[i]);
      if (u < 0x80) s[i] = static_cast<char>(i == 0 ? std::toupper(u) : std::tolower(u));
    }
    return makeStr(std::move(s));
  });
  defineNative(d, "title", "self", [self](CallContext& c) -> Value {
    std::string s = self(c);
    bool prevCased = false;
    for (char& ch : s) {
      unsigned char u = static_cast<unsigned char>(ch);
      if (std::isalpha(u)) {
        ch = static_cast<char>(prevCased ? std::tolower(u) : std::toupper(u));
        prevCased = true;
      } else {
        prevCased = false;
      }
    }
    return makeStr(std::move(s));
  });
  auto find = [mp, self](bool reverse, bool raiseIfMissing) {
    return [mp, self, reverse, raiseIfMissing](CallContext& c) -> Value {
      const auto* so = static_cast<StrObj*>(c.arg(0).get());
      std::string sub = c.toStr(c.arg(1));
      auto [b, e] = window(c, *so, c.arg(2), c.arg(3));
      std::string_view s = std::string_view(self(c)).substr(0, e);
      size_t pos = reverse ? s.rfind(sub) : s.find(sub, b);
      if (pos != std::string::npos && pos < b) pos = std::string::npos;
      if (pos == std::string::npos) {
        if (raiseIfMissing) mp->valueError("substring not found");
        return makeInt(-1);
      }
      return makeInt(cpIndex(*so, pos));
    };
  };
  defineNative(d, "find", "self, sub, start=None, end=None, /", find(false, false));
  defineNative(d, "rfind", "self, sub, start=None, end=None, /", find(true, false));
  defineNative(d, "index", "self, sub, start=None, end=None, /", find(false, true));
  defineNative(d, "rindex", "self, sub, start=None, end=None, /", find(true, true));
  defineNative(d, "count", "self, sub, start=None, end=None, /", [self](CallContext& c) -> Value {
    const auto* so = static_cast<StrObj*>(c.arg(0).get());
    std::string sub = c.toStr(c.arg(1));
    auto [b, e] = window(c, *so, c.arg(2), c.arg(3));
    std::string_view s = std::string_view(self(c)).substr(b, e - b);
    if (sub.empty()) return makeInt(static_cast<int64_t>(StrObj(std::string(s)).length()) + 1);
    int64_t n = 0;
    for (size_t i = s.find(sub); i != std::string::npos; i = s.find(sub, i + sub.size())) ++n;
    return makeInt(n);
  });
  auto classify = [self](int (*pred)(int), bool needCased) {
    return [self, pred, needCased](CallContext& c) -> Value {
      const std::string& s = self(c);
      if (s.empty()) return boolean(false);
      for (unsigned char ch : s)
        if (ch < 0x80 && !pred(ch)) return boolean(false);
      (void)needCased;
      return boolean(true);
    };
  };
  defineNative(d, "isdigit", "self", classify(::isdigit, false));
  defineNative(d, "isdecimal", "self", classify(::isdigit, false));
  defineNative(d, "isnumeric", "self", classify(::isdigit, false));
  defineNative(d, "isalpha", "self", classify(::isalpha, false));
  defineNative(d, "isalnum", "self", classify(::isalnum, false));
  defineNative(d, "isspace", "self", classify(::isspace, false));
  defineNative(d, "isupper", "self", [self](CallContext& c) -> Value {
    bool cased = false;
    for (unsigned char ch : self(c)) {
      if (std::islower(ch)) return boolean(false);
      if (std::isupper(ch)) cased = true;
    }
    return boolean(cased);
  });
  defineNative(d, "islower", "self", [self](CallContext& c) -> Value {
    bool cased = false;
    for (unsigned char ch : self(c)) {
      if (std::isupper(ch)) return boolean(false);
      if (std::islower(ch)) cased = true;
    }
    return boolean(cased);
  });
  defineNative(d, "isidentifier", "self", [self](CallContext& c) -> Value {
    const std::string& s = self(c);
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return boolean(false);
    for (unsigned char ch : s)
      if (!(std::isalnum(ch) || ch == '_' || ch >= 0x80)) return boolean(false);
    return boolean(true);
  });
  auto partition = [self](bool reverse) {
    return [self, reverse](CallContext& c) -> Value {
      const std::string& s = self(c);
      std::string sep = c.toStr(c.arg(1));
      if (sep.empty()) c.valueError("empty separator");
      size_t i = reverse ? s.rfind(sep) : s.find(sep);
      if (i == std::string::npos)
        return reverse ? makeTuple({makeStr(""), makeStr(""), makeStr(s)}) : makeTuple({makeStr(s), makeStr(""), makeStr("")});
      return makeTuple({makeStr(s.substr(0, i)), makeStr(sep), makeStr(s.substr(i + sep.size()))});
    };
  };
  defineNative(d, "partition", "self, sep, /", partition(false));
  defineNative(d, "rpartition", "self, sep, /", partition(true));
  auto justify = [mp](char align) {
    return [align, mp](CallContext& c) -> Value {
      auto* so = static_cast<StrObj*>(c.arg(0).get());
      int64_t width = c.toInt(c.arg(1));
      std::string fill = c.toStr(c.arg(2));
      int64_t len = static_cast<int64_t>(so->length());
      if (width <= len) return c.arg(0);
      int64_t padn = width - len;
      mp->reserveSize(static_cast<double>(so->value.size()) + static_cast<double>(padn) * static_cast<double>(fill.size()),
                      mp->types.str);
      int64_t left = align == '<' ? 0 : align == '>' ? padn : padn / 2 + (padn & width & 1);
      std::string out;
      for (int64_t i = 0; i < left; ++i) out += fill;
      out += so->value;
      for (int64_t i = 0; i < padn - left; ++i) out += fill;
      return makeStr(std::move(out));
    };
  };
  defineNative(d, "ljust", "self, width, fillchar=' ', /", justify('<'));
  defineNative(d, "rjust", "self, width, fillchar=' ', /", justify('>'));
  defineNative(d, "center", "self, width, fillchar=' ', /", justify('^'));
  defineNative(d, "zfill", "self, width, /", [self, mp](CallContext& c) -> Value {
    int64_t width = c.toInt(c.arg(1));
    int64_t len = static_cast<int64_t>(static_cast<StrObj*>(c.arg(0).get())->length());
    if (width <= len) return c.arg(0);
    mp->reserveSize(static_cast<double>(self(c).size()) + static_cast<double>(width - len), mp->types.str);
    std::string s = self(c);
    size_t at = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
    s.insert(at, static_cast<size_t>(width - len), '0');
    return makeStr(std::move(s));
  });
  defineNative(d, "removeprefix", "self, prefix, /", [self](CallContext& c) -> Value {
    const std::string& s = self(c);
    std::string p = c.toStr(c.arg(1));
    return s.compare(0, p.size(), p) == 0 ? makeStr(s.substr(p.size())) : c.arg(0);
  });
  defineNative(d, "removesuffix", "self, suffix, /", [self](CallContext& c) -> Value {
    const std::string& s = self(c);
    std::string p = c.toStr(c.arg(1));
    return !p.empty() && s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0
               ? makeStr(s.substr(0, s.size() - p.size()))
               : c.arg(0);
  });
  defineNative(d, "encode", "self, encoding='utf-8', errors='strict'", [](CallContext& c) { return c.arg(0); });
  defineNative(d, "decode", "self, encoding='utf-8', errors='strict'", [](CallContext& c) { return c.arg(0); });
  defineNative(d, "expandtabs", "self, tabsize=8", [self, mp](CallContext& c) -> Value {
    int64_t ts = c.toInt(c.arg(1));
    if (ts > 1) {
      double tabs = static_cast<double>(std::count(self(c).begin(), self(c).end(), '\t'));
      mp->reserveSize(static_cast<double>(self(c).size()) + tabs * static_cast<double>(ts), mp->types.str);
    }
    std::string out;
    int64_t col = 0;
    for (char ch : self(c)) {
      if (ch == '\t') {
        int64_t n = ts > 0 ? ts - col % ts : 0;
        out.append(static_cast<size_t>(n), ' ');
        col += n;
      } else {
        out += ch;
        col = ch == '\n' ? 0 : col + 1;
      }
    }
    return makeStr(std::move(out));
  });
}

}  // namespace tlens::interp
