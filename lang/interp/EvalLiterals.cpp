// Literals: integers (decimal, hex, octal, binary, underscores), floats, strings with escapes,
// raw strings, implicit concatenation and f-strings (conversions, nested format specs, `{x=}`).
// Bytes literals are read as str. Constant literals are cached per node.
#include <cerrno>
#include <cstdlib>

#include "lang/interp/Bytes.h"
#include "lang/interp/Evaluator.h"
#include "lang/interp/Format.h"
#include "lang/interp/Utf8.h"

namespace tlens::interp {
namespace {

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes backslash escapes; `fstring` also undoubles braces.
std::string unescape(std::string_view s, bool raw, bool fstring) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (fstring && (c == '{' || c == '}') && i + 1 < s.size() && s[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= s.size()) {
      out += c;
      continue;
    }
    char e = s[++i];
    switch (e) {
      case '\n': break;
      case '\r':
        if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
        break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x':
      case 'u':
      case 'U': {
        int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        uint32_t cp = 0;
        int k = 0;
        for (; k < len && i + 1 < s.size() && hexDigit(s[i + 1]) >= 0; ++k) cp = cp * 16 + static_cast<uint32_t>(hexDigit(s[++i]));
        if (k == 0) {
          out += '\\';
          out += e;
        } else {
          appendUtf8(out, cp);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t cp = static_cast<uint32_t>(e - '0');
          for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k)
            cp = cp * 8 + static_cast<uint32_t>(s[++i] - '0');
          appendUtf8(out, cp);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

}  // namespace

Value Evaluator::evalInteger(TSNode n) {
  // Small decimal literals (most of them: shapes, strides, axes) are the shared small ints: no
  // trip through the literal cache.
  std::string_view digits = text(n);
  if (!digits.empty() && digits.size() <= 3 && (digits.size() == 1 || digits[0] != '0')) {
    int64_t v = 0;
    bool decimal = true;
    for (char c : digits) {
      if (c < '0' || c > '9') decimal = false;
      v = v * 10 + (c - '0');
    }
    if (decimal && v <= 256) return makeInt(v);
  }
  NodeKey key(n);
  auto it = constCache.find(key);
  if (it != constCache.end()) return it->second;
  std::string t;
  for (char c : text(n))
    if (c != '_') t += c;
  if (!t.empty() && (t.back() == 'j' || t.back() == 'J')) return unsupported(n, "complex numbers");
  if (!t.empty() && (t.back() == 'l' || t.back() == 'L')) t.pop_back();
  int base = 10;
  size_t start = 0;
  if (t.size() > 1 && t[0] == '0') {
    char p = static_cast<char>(t[1] | 0x20);
    if (p == 'x') base = 16, start = 2;
    else if (p == 'o') base = 8, start = 2;
    else if (p == 'b') base = 2, start = 2;
  }
  errno = 0;
  char* end = nullptr;
  unsigned long long u = std::strtoull(t.c_str() + start, &end, base);
  if (errno == ERANGE || u > static_cast<unsigned long long>(INT64_MAX)) return unsupported(n, "integers beyond 64 bits");
  Value v = makeInt(static_cast<int64_t>(u));
  constCache.emplace(key, v);
  return v;
}

Value Evaluator::evalFloat(TSNode n) {
  NodeKey key(n);
  auto it = constCache.find(key);
  if (it != constCache.end()) return it->second;
  std::string t;
  for (char c : text(n))
    if (c != '_') t += c;
  if (!t.empty() && (t.back() == 'j' || t.back() == 'J')) return unsupported(n, "complex numbers");
  Value v = makeFloat(std::strtod(t.c_str(), nullptr));
  constCache.emplace(key, v);
  return v;
}

std::string Evaluator::stringPiece(TSNode n, bool& isBytes) {
  const Fields& F = fields();
  auto ch = children(n);
  if (ch.empty()) return {};
  std::string_view start = text(ch.front().node);
  bool raw = false, fstr = false;
  for (char c : start) {
    char l = static_cast<char>(c | 0x20);
    if (l == 'r') raw = true;
    else if (l == 'f') fstr = true;
    else if (l == 'b') isBytes = true;
  }
  if (!fstr) {
    uint32_t b = ts_node_end_byte(ch.front().node);
    uint32_t e = ch.size() > 1 && kindOf(ch.back().node) == NodeKind::StringEnd ? ts_node_start_byte(ch.back().node)
                                                                              : ts_node_end_byte(n);
    if (e < b) e = b;
    return unescape(file().text().substr(b, e - b), raw, false);
  }
  std::string out;
  for (const Child& c : ch) {
    switch (kindOf(c.node)) {
      case NodeKind::StringContent: out += unescape(text(c.node), raw, true); break;
      case NodeKind::Interpolation: {
        TSNode expr = field(c.node, F.expression);
        TSNode conv = field(c.node, F.typeConversion);
        TSNode spec = field(c.node, F.formatSpecifier);
        bool debug = false;
        for (const Child& k : children(c.node))
          if (!ts_node_is_named(k.node) && std::string_view(ts_node_type(k.node)) == "=") debug = true;
        Value v = eval(expr);
        if (debug) {
          uint32_t b = ts_node_end_byte(ch.front().node);
          (void)b;
          // `{x=}`: the expression's text, then '=', then repr unless a spec or conversion says otherwise.
          uint32_t eb = ts_node_start_byte(expr);
          uint32_t ee = ts_node_end_byte(expr);
          std::string_view all = file().text();
          size_t eq = all.find('=', ee);
          out += std::string(all.substr(eb, (eq == std::string_view::npos ? ee : eq + 1) - eb));
        }
        std::string specText;
        if (!ts_node_is_null(spec)) {
          // The spec's text after ':' with nested {expr} replaced by their values.
          uint32_t pos = ts_node_start_byte(spec) + 1;
          for (const Child& k : children(spec)) {
            if (kindOf(k.node) != NodeKind::FormatExpression) continue;
            specText += std::string(file().text().substr(pos, ts_node_start_byte(k.node) - pos));
            specText += str(eval(field(k.node, F.expression)));
            pos = ts_node_end_byte(k.node);
          }
          specText += std::string(file().text().substr(pos, ts_node_end_byte(spec) - pos));
        }
        std::string_view cv = ts_node_is_null(conv) ? std::string_view() : text(conv);
        if (cv == "!r" || cv == "!a" || (debug && cv.empty() && specText.empty())) {
          std::string r = repr(v);
          out += specText.empty() ? r : applyFormatSpec(*this, makeStr(r), specText);
        } else if (cv == "!s") {
          std::string r = str(v);
          out += specText.empty() ? r : applyFormatSpec(*this, makeStr(r), specText);
        } else {
          out += formatValue(v, specText);
        }
        break;
      }
      default: break;
    }
  }
  return out;
}

Value Evaluator::evalString(TSNode n) {
  // The prefix (f, r, b, u in any case) is the text before the first quote: the string_start
  // child's text without its quote, read without listing the children (a constant string seen
  // before is then found in the literal cache without touching its child list).
  bool fstr = false;
  for (char c : text(n)) {
    if (c == '"' || c == '\'') break;
    if ((c | 0x20) == 'f') fstr = true;
  }
  if (fstr) {
    bool isBytes = false;
    return makeStr(stringPiece(n, isBytes));
  }
  NodeKey key(n);
  auto it = constCache.find(key);
  if (it != constCache.end()) return it->second;
  bool isBytes = false;
  std::string piece = stringPiece(n, isBytes);
  Value v = isBytes ? makeBytes(latin1FromUtf8(piece)) : makeStr(std::move(piece));
  constCache.emplace(key, v);
  return v;
}

Value Evaluator::evalConcatenated(TSNode n) {
  NodeKey key(n);
  auto it = constCache.find(key);
  if (it != constCache.end()) return it->second;
  std::string out;
  bool constant = true, isBytes = false;
  for (TSNode s : namedChildren(n)) {
    auto ch = children(s);
    if (!ch.empty())
      for (char c : text(ch.front().node))
        if ((c | 0x20) == 'f') constant = false;
    out += stringPiece(s, isBytes);
  }
  Value v = isBytes ? makeBytes(latin1FromUtf8(out)) : makeStr(std::move(out));
  if (constant) constCache.emplace(key, v);
  return v;
}

}  // namespace tlens::interp
