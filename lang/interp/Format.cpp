// Text formatting as Python does it: float repr (shortest round-trip digits, exponent outside
// 1e-4 <= |x| < 1e16), the format-spec mini-language ("{x:>10.3f}", "{n:,}", "{v:08.2e}"),
// printf-style `%` formatting, and str.format fields ("{0}", "{name}", "{0.attr}", "{0[key]}",
// "{!r}", nested specs).
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>

#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Format.h"

namespace tlens::interp {
namespace {

struct Spec {
  char fill = ' ';
  char align = 0;
  char sign = '-';
  bool alt = false;
  bool zero = false;
  int width = -1;
  char grouping = 0;
  int precision = -1;
  char type = 0;
};

/// One more decimal digit of a width or precision, saturating (a width of 10**12 must not wrap;
/// pad() then refuses it through the size cap).
int digit(int v, char c) {
  int64_t r = static_cast<int64_t>(v) * 10 + (c - '0');
  return r > INT32_MAX ? INT32_MAX : static_cast<int>(r);
}

bool parseSpec(std::string_view s, Spec& sp) {
  size_t i = 0;
  auto isAlign = [](char c) { return c == '<' || c == '>' || c == '=' || c == '^'; };
  if (s.size() >= 2 && isAlign(s[1])) {
    sp.fill = s[0];
    sp.align = s[1];
    i = 2;
  } else if (!s.empty() && isAlign(s[0])) {
    sp.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
  if (i < s.size() && s[i] == '#') {
    sp.alt = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    sp.zero = true;
    ++i;
  }
  if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    sp.width = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) sp.width = digit(sp.width, s[i++]);
  }
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) sp.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    sp.precision = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) sp.precision = digit(sp.precision, s[i++]);
  }
  if (i < s.size()) sp.type = s[i++];
  return i == s.size();
}

std::string group(const std::string& digits, char sep, int every) {
  std::string out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % every == 0) out += sep;
    out += digits[static_cast<size_t>(i)];
  }
  return out;
}

/// Pads `body` (without sign) and `sign` to the spec's width.
std::string pad(const std::string& sign, const std::string& body, const Spec& sp, char defaultAlign) {
  char align = sp.align ? sp.align : defaultAlign;
  char fill = sp.fill;
  if (sp.zero && !sp.align) {
    align = '=';
    fill = '0';
  }
  int len = static_cast<int>(sign.size() + body.size());
  if (sp.width <= len) return sign + body;
  if (ObjectProtocol* m = currentProtocol()) m->reserveSize(static_cast<double>(sp.width), m->types.str);
  std::string padding(static_cast<size_t>(sp.width - len), fill);
  switch (align) {
    case '<': return sign + body + padding;
    case '^': {
      size_t left = padding.size() / 2;
      return padding.substr(0, left) + sign + body + padding.substr(left);
    }
    case '=': return sign + padding + body;
    default: return padding + sign + body;
  }
}

std::string signOf(bool negative, char signMode) {
  if (negative) return "-";
  if (signMode == '+') return "+";
  if (signMode == ' ') return " ";
  return "";
}

std::string cFormat(double d, char type, int precision, bool alt) {
  char fmt[16];
  std::snprintf(fmt, sizeof fmt, "%%%s.%d%c", alt ? "#" : "", precision, type);
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, d);
  return buf;
}

std::string formatFloatSpec(double d, const Spec& sp) {
  char type = sp.type;
  bool neg = std::signbit(d) && !std::isnan(d);
  double a = std::fabs(d);
  std::string body;
  if (std::isnan(a) || std::isinf(a)) {
    body = std::isnan(a) ? "nan" : "inf";
    if (type == 'E' || type == 'F' || type == 'G')
      for (char& c : body) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (type == '%') body += "%";
  } else if (type == 0 && sp.precision < 0) {
    body = formatFloat(a);
  } else if (type == 0 || type == 'n') {
    body = cFormat(a, 'g', sp.precision < 0 ? 6 : std::max(sp.precision, 1), sp.alt);
    if (type == 0 && body.find_first_of(".e") == std::string::npos) body += ".0";
  } else if (type == '%') {
    body = cFormat(a * 100, 'f', sp.precision < 0 ? 6 : sp.precision, sp.alt) + "%";
  } else {
    body = cFormat(a, type, sp.precision < 0 ? 6 : sp.precision, sp.alt);
  }
  if (sp.grouping && std::isdigit(static_cast<unsigned char>(body[0]))) {
    size_t end = body.find_first_not_of("0123456789");
    std::string intPart = body.substr(0, end);
    body = group(intPart, sp.grouping, 3) + (end == std::string::npos ? "" : body.substr(end));
  }
  return pad(signOf(neg, sp.sign), body, sp, '>');
}

std::string formatIntSpec(ObjectProtocol& m, int64_t v, const Spec& sp) {
  char type = sp.type;
  if (type == 'e' || type == 'E' || type == 'f' || type == 'F' || type == 'g' || type == 'G' || type == '%')
    return formatFloatSpec(static_cast<double>(v), sp);
  if (sp.precision >= 0) m.valueError("Precision not allowed in integer format specifier");
  bool neg = v < 0;
  uint64_t a = neg ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v);
  std::string digits, prefix;
  auto toBase = [&](int base, bool upper) {
    if (a == 0) return std::string("0");
    std::string s;
    const char* d = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (uint64_t x = a; x; x /= static_cast<uint64_t>(base)) s += d[x % static_cast<uint64_t>(base)];
    return std::string(s.rbegin(), s.rend());
  };
  switch (type) {
    case 0:
    case 'd':
    case 'n': digits = toBase(10, false); break;
    case 'x': digits = toBase(16, false); if (sp.alt) prefix = "0x"; break;
    case 'X': digits = toBase(16, true); if (sp.alt) prefix = "0X"; break;
    case 'o': digits = toBase(8, false); if (sp.alt) prefix = "0o"; break;
    case 'b': digits = toBase(2, false); if (sp.alt) prefix = "0b"; break;
    case 'c': {
      std::string s;
      uint32_t cp = static_cast<uint32_t>(v);
      if (cp < 0x80) s += static_cast<char>(cp);
      else if (cp < 0x800) { s += static_cast<char>(0xC0 | (cp >> 6)); s += static_cast<char>(0x80 | (cp & 0x3F)); }
      else { s += static_cast<char>(0xE0 | (cp >> 12)); s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); s += static_cast<char>(0x80 | (cp & 0x3F)); }
      return pad("", s, sp, '<');
    }
    default: m.valueError(std::string("Unknown format code '") + type + "' for object of type 'int'");
  }
  if (sp.grouping) digits = group(digits, sp.grouping, (type == 0 || type == 'd' || type == 'n') ? 3 : 4);
  return pad(signOf(neg, sp.sign) + prefix, digits, sp, '>');
}

}  // namespace

std::string formatFloat(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string s(buf, res.ptr);
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.erase(0, 1);
  size_t e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = std::stoi(s.substr(e + 1));
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int decpt = exp + 1;
  std::string out;
  if (decpt <= -4 || decpt > 16) {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += eb;
  } else if (decpt <= 0) {
    out = "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
  } else if (decpt >= static_cast<int>(digits.size())) {
    out = digits + std::string(static_cast<size_t>(decpt) - digits.size(), '0') + ".0";
  } else {
    out = digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
  }
  return neg ? "-" + out : out;
}

std::string reprString(std::string_view s) {
  bool hasSingle = s.find('\'') != std::string_view::npos;
  bool hasDouble = s.find('"') != std::string_view::npos;
  char q = hasSingle && !hasDouble ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c == static_cast<unsigned char>(q)) {
          out += '\\';
          out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
          char b[8];
          std::snprintf(b, sizeof b, "\\x%02x", c);
          out += b;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += q;
  return out;
}

// Native numbers (numpy scalars, eager scalar tensors) format as the Python number they convert
// to through __index__ or __float__.
static Value nativeNumber(ObjectProtocol& m, const Value& v, bool wantFloat) {
  if (!v || v->kind() != Kind::Native) return nullptr;
  for (const char* d : {wantFloat ? "__float__" : "__index__", wantFloat ? "__index__" : "__float__"})
    if (Value f = m.findAttr(v, d)) {
      Value r = m.call(f, {}, {});
      if (r && (r->kind() == Kind::Int || r->kind() == Kind::Float || r->kind() == Kind::Bool || r->kind() == Kind::Unknown)) return r;
    }
  return nullptr;
}

std::string applyFormatSpec(ObjectProtocol& m, const Value& v, std::string_view spec) {
  if (!spec.empty())
    if (Value n = nativeNumber(m, v, spec.find_first_of("eEfFgG%") != std::string_view::npos)) return applyFormatSpec(m, n, spec);
  Spec sp;
  if (!parseSpec(spec, sp)) m.valueError("Invalid format specifier '" + std::string(spec) + "' for object of type '" + m.typeName(v) + "'");
  switch (v->kind()) {
    case Kind::Str: {
      if (sp.type && sp.type != 's')
        m.valueError(std::string("Unknown format code '") + sp.type + "' for object of type 'str'");
      if (sp.sign != '-') m.valueError("Sign not allowed in string format specifier");
      const auto* so = static_cast<StrObj*>(v.get());
      std::string body = sp.precision >= 0 ? std::string(so->slice(0, static_cast<size_t>(sp.precision))) : so->value;
      // Width counts code points.
      size_t cps = 0;
      for (unsigned char c : body)
        if ((c & 0xC0) != 0x80) ++cps;
      Spec adj = sp;
      if (adj.width >= 0) adj.width += static_cast<int>(body.size() - cps);
      return pad("", body, adj, '<');
    }
    case Kind::Bool:
      if (spec.empty()) return m.str(v);
      [[fallthrough]];
    case Kind::Int: return formatIntSpec(m, *asInt(v), sp);
    case Kind::Float:
      if (sp.type && std::string_view("eEfFgGn%").find(sp.type) == std::string_view::npos)
        m.valueError(std::string("Unknown format code '") + sp.type + "' for object of type 'float'");
      return formatFloatSpec(static_cast<FloatObj*>(v.get())->value, sp);
    case Kind::Unknown: return "<unknown>";
    default:
      if (spec.empty()) return m.str(v);
      if (v->kind() == Kind::Native || v->kind() == Kind::None) {
        Spec s2 = sp;
        return pad("", m.str(v), s2, '<');
      }
      m.typeError("unsupported format string passed to " + m.typeName(v) + ".__format__");
  }
}

std::string percentFormat(ObjectProtocol& m, std::string_view fmt, const Value& args) {
  std::vector<Value> values;
  const DictObj* mapping = nullptr;
  if (auto* t = as<TupleObj>(args)) values = t->items;
  else {
    values.push_back(args);
    if (args->kind() == Kind::Dict) mapping = static_cast<DictObj*>(args.get());
  }
  size_t next = 0;
  bool usedMapping = false;
  auto take = [&]() -> Value {
    if (next >= values.size()) m.typeError("not enough arguments for format string");
    return values[next++];
  };
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c != '%') {
      out += c;
      continue;
    }
    if (++i >= fmt.size()) m.valueError("incomplete format");
    if (fmt[i] == '%') {
      out += '%';
      continue;
    }
    Value arg;
    if (fmt[i] == '(') {
      size_t close = fmt.find(')', i);
      if (close == std::string_view::npos) m.valueError("incomplete format key");
      if (!mapping) m.typeError("format requires a mapping");
      std::string key(fmt.substr(i + 1, close - i - 1));
      arg = mapping->getStr(key);
      if (!arg) m.raiseValue(m.makeException(m.types.keyError, {makeStr(key)}));
      usedMapping = true;
      i = close + 1;
    }
    Spec sp;
    for (; i < fmt.size(); ++i) {
      char f = fmt[i];
      if (f == '-') sp.align = '<';
      else if (f == '+') sp.sign = '+';
      else if (f == ' ') { if (sp.sign != '+') sp.sign = ' '; }
      else if (f == '#') sp.alt = true;
      else if (f == '0') sp.zero = true;
      else break;
    }
    if (i < fmt.size() && fmt[i] == '*') {
      sp.width = static_cast<int>(std::clamp<int64_t>(m.toIndex(take(), ""), INT32_MIN, INT32_MAX));
      ++i;
    } else {
      while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) sp.width = digit(std::max(sp.width, 0), fmt[i++]);
    }
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      sp.precision = 0;
      if (i < fmt.size() && fmt[i] == '*') {
        sp.precision = static_cast<int>(std::clamp<int64_t>(m.toIndex(take(), ""), INT32_MIN, INT32_MAX));
        ++i;
      } else {
        while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) sp.precision = digit(sp.precision, fmt[i++]);
      }
    }
    while (i < fmt.size() && (fmt[i] == 'l' || fmt[i] == 'h' || fmt[i] == 'L')) ++i;
    if (i >= fmt.size()) m.valueError("incomplete format");
    char conv = fmt[i];
    if (sp.align == '<') sp.zero = false;
    if (!arg) arg = take();
    if (std::string_view("diueEfFgGxXo").find(conv) != std::string_view::npos)
      if (Value n = nativeNumber(m, arg, std::string_view("eEfFgG").find(conv) != std::string_view::npos)) arg = n;
    switch (conv) {
      case 's':
      case 'r':
      case 'a': {
        std::string s = conv == 's' ? m.str(arg) : m.repr(arg);
        if (sp.precision >= 0) s = s.substr(0, static_cast<size_t>(sp.precision));
        Spec s2 = sp;
        s2.zero = false;
        s2.sign = '-';
        out += pad("", s, s2, '>');
        break;
      }
      case 'd':
      case 'i':
      case 'u': {
        if (isUnknown(arg)) { out += "<unknown>"; break; }
        int64_t v;
        if (auto iv = asInt(arg)) v = *iv;
        else if (auto dv = asDouble(arg)) v = static_cast<int64_t>(*dv);
        else m.typeError("%" + std::string(1, conv) + " format: a real number is required, not " + m.typeName(arg));
        Spec s2 = sp;
        s2.type = 'd';
        int prec = sp.precision;
        s2.precision = -1;
        std::string body = formatIntSpec(m, v, Spec{});
        bool neg = !body.empty() && body[0] == '-';
        if (neg) body.erase(0, 1);
        if (prec > static_cast<int>(body.size())) body = std::string(static_cast<size_t>(prec) - body.size(), '0') + body;
        out += pad(signOf(neg, sp.sign), body, s2, '>');
        break;
      }
      case 'x':
      case 'X':
      case 'o': {
        if (isUnknown(arg)) { out += "<unknown>"; break; }
        auto iv = asInt(arg);
        if (!iv) m.typeError("%" + std::string(1, conv) + " format: an integer is required, not " + m.typeName(arg));
        Spec s2 = sp;
        s2.type = conv;
        s2.precision = -1;
        out += formatIntSpec(m, *iv, s2);
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        if (isUnknown(arg)) { out += "<unknown>"; break; }
        auto dv = asDouble(arg);
        if (!dv) m.typeError("must be real number, not " + m.typeName(arg));
        Spec s2 = sp;
        s2.type = conv;
        if (s2.precision < 0) s2.precision = 6;
        out += formatFloatSpec(*dv, s2);
        break;
      }
      case 'c': {
        if (const std::string* s = asString(arg)) out += *s;
        else if (auto iv = asInt(arg)) {
          Spec s2;
          s2.type = 'c';
          out += formatIntSpec(m, *iv, s2);
        }
        break;
      }
      default: m.valueError(std::string("unsupported format character '") + conv + "'");
    }
  }
  if (next < values.size() && !usedMapping && !mapping)
    m.typeError("not all arguments converted during string formatting");
  return out;
}

std::string strFormat(ObjectProtocol& m, std::string_view fmt, const std::vector<Value>& args, const KwArgs& kwargs) {
  std::string out;
  size_t autoIndex = 0;
  bool autoUsed = false, manualUsed = false;
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c == '}') {
      if (i + 1 < fmt.size() && fmt[i + 1] == '}') ++i;
      else m.valueError("Single '}' encountered in format string");
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    // Find the matching '}' (specs may nest one level of braces).
    size_t j = i + 1;
    int depth = 1;
    for (; j < fmt.size(); ++j) {
      if (fmt[j] == '{') ++depth;
      else if (fmt[j] == '}' && --depth == 0) break;
    }
    if (j >= fmt.size()) m.valueError("expected '}' before end of string");
    std::string_view field = fmt.substr(i + 1, j - i - 1);
    i = j;
    std::string_view spec, conv;
    size_t colon = std::string_view::npos;
    int bracket = 0;
    for (size_t k = 0; k < field.size(); ++k) {
      if (field[k] == '[') ++bracket;
      else if (field[k] == ']') --bracket;
      else if (field[k] == ':' && bracket == 0) {
        colon = k;
        break;
      }
    }
    if (colon != std::string_view::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    size_t bang = field.find('!');
    if (bang != std::string_view::npos) {
      conv = field.substr(bang + 1);
      field = field.substr(0, bang);
    }
    size_t end = field.find_first_of(".[");
    std::string_view head = field.substr(0, end);
    Value v;
    bool automatic = head.empty();
    if (automatic ? manualUsed : (autoUsed && std::isdigit(static_cast<unsigned char>(head[0]))))
      m.valueError(automatic ? "cannot switch from manual field specification to automatic field numbering"
                             : "cannot switch from automatic field numbering to manual field specification");
    if (automatic) autoUsed = true;
    else if (std::isdigit(static_cast<unsigned char>(head[0]))) manualUsed = true;
    if (head.empty()) {
      if (autoIndex >= args.size()) m.raise(m.types.indexError, "Replacement index " + std::to_string(autoIndex) + " out of range for positional args tuple");
      v = args[autoIndex++];
    } else if (std::isdigit(static_cast<unsigned char>(head[0]))) {
      size_t idx = static_cast<size_t>(std::stoul(std::string(head)));
      if (idx >= args.size()) m.raise(m.types.indexError, "Replacement index " + std::to_string(idx) + " out of range for positional args tuple");
      v = args[idx];
    } else {
      for (const auto& [k, val] : kwargs)
        if (k == head) v = val;
      if (!v) m.raiseValue(m.makeException(m.types.keyError, {makeStr(std::string(head))}));
    }
    // .attr and [key] accessors
    while (end != std::string_view::npos && end < field.size()) {
      if (field[end] == '.') {
        size_t e2 = field.find_first_of(".[", end + 1);
        v = m.getAttr(v, field.substr(end + 1, e2 == std::string_view::npos ? std::string_view::npos : e2 - end - 1));
        end = e2;
      } else {
        size_t close = field.find(']', end);
        if (close == std::string_view::npos) m.valueError("Missing ']' in format string");
        std::string key(field.substr(end + 1, close - end - 1));
        bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
        v = m.getItem(v, numeric ? makeInt(std::stoll(key)) : makeStr(key));
        end = close + 1;
      }
    }
    std::string specStr(spec);
    if (specStr.find('{') != std::string::npos) specStr = strFormat(m, specStr, args, kwargs);
    if (conv == "r" || conv == "a") v = makeStr(m.repr(v));
    else if (conv == "s") v = makeStr(m.str(v));
    out += m.formatValue(v, specStr);
  }
  return out;
}

}  // namespace tlens::interp
