// re: Python regular expressions on Boost.Regex's Perl syntax, matched over code points
// (std::wstring is UTF-32 here), so positions are Python's. The pattern is translated first:
// (?P<name>...) -> (?<name>...), (?P=name) -> \k<name>, \Z -> \z, {,n} -> {0,n}, a '{' that opens
// no quantifier is a literal, (?a)/(?u)/(?L) are dropped; flags I, M, S, X map to Boost's
// options (^ and $ are not multi-line and . skips newlines unless asked, as in Python). Boost
// gives up on catastrophic backtracking (a RuntimeError here, where CPython would run for ever).
// Differences: \w, \d, \s and IGNORECASE know ASCII only. Abstract mode: unknown values, and
// subjects over 1,000 code points, give results of the right class without matching.
#include <boost/regex.hpp>

#include "lang/interp/Class.h"
#include "lang/interp/Imports.h"
#include "lang/interp/Format.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/Utf8.h"

namespace tlens::interp {
namespace {

constexpr int64_t kIgnoreCase = 2, kMultiline = 8, kDotAll = 16, kVerbose = 64;
constexpr size_t kAbstractLimit = 1000;

std::wstring widen(std::string_view s) {
  std::wstring out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out += static_cast<wchar_t>(cp);
    i += n;
  }
  return out;
}

std::string narrow(const wchar_t* b, const wchar_t* e) {
  std::string out;
  out.reserve(static_cast<size_t>(e - b));
  for (; b != e; ++b) appendUtf8(out, static_cast<uint32_t>(*b));
  return out;
}
std::string narrow(const std::wstring& s) { return narrow(s.data(), s.data() + s.size()); }

struct Translated {
  std::wstring pattern;
  int groups = 0;
  std::vector<std::pair<std::string, int>> names;
  std::string error;  ///< non-empty: the pattern is not valid Python
  size_t errorPos = 0;
};

/// Python's syntax to Boost's Perl syntax, counting groups and their names.
Translated translate(const std::wstring& p, bool multiline) {
  Translated t;
  std::wstring& o = t.pattern;
  bool inClass = false;
  std::vector<size_t> open;  // positions of the unclosed '('
  auto error = [&](const std::string& msg, size_t at) {
    if (t.error.empty()) {
      t.error = msg;
      t.errorPos = at;
    }
  };
  size_t n = p.size();
  auto isDigit = [](wchar_t c) { return c >= L'0' && c <= L'9'; };
  bool startOfSeq = true;  // a quantifier here has nothing to repeat
  for (size_t i = 0; i < n; ++i) {
    wchar_t c = p[i];
    bool wasStart = startOfSeq && !inClass;
    startOfSeq = false;
    if (c == L'\\') {
      if (i + 1 >= n) {
        t.error = "bad escape (end of pattern)";
        t.errorPos = i;
        return t;
      }
      wchar_t e = p[i + 1];
      if (e == L'Z' && !inClass) o += L"\\z";
      else if (e == L'u' || e == L'U') {
        size_t len = e == L'u' ? 4 : 8;
        o += L"\\x{" + p.substr(i + 2, len) + L"}";
        i += len;
      } else {
        o += c;
        o += e;
      }
      ++i;
      continue;
    }
    if (inClass) {
      if (c == L']' && !(o.size() && (o.back() == L'[' || (o.size() > 1 && o.back() == L'^' && o[o.size() - 2] == L'['))))
        inClass = false;
      else if (c == L'[') {  // a literal '[' in a Python class (Boost would read [: as POSIX)
        o += L"\\[";
        continue;
      }
      o += c;
      continue;
    }
    if (c == L'[') {
      inClass = true;
      o += c;
      if (i + 1 < n && p[i + 1] == L'^') o += p[++i];
      if (i + 1 < n && p[i + 1] == L']') {
        o += L"\\]";
        ++i;
      }
      continue;
    }
    if (c == L')') {
      if (open.empty()) {
        error("unbalanced parenthesis", i);
        return t;
      }
      open.pop_back();
    }
    if (c == L'|') startOfSeq = true;
    if ((c == L'*' || c == L'+' || c == L'?') && wasStart) {
      error("nothing to repeat", i);
      return t;
    }
    if (c == L'$' && !multiline) {
      o += L"(?=\\n?\\z)";
      continue;
    }
    if (c == L'(') {
      open.push_back(i);
      startOfSeq = true;
      if (i + 1 < n && p[i + 1] == L'?') {
        if (i + 2 < n && p[i + 2] == L'P') {
          if (i + 3 < n && p[i + 3] == L'<') {
            size_t close = p.find(L'>', i + 4);
            if (close == std::wstring::npos) {
              t.error = "missing >, unterminated name";
              t.errorPos = i + 4;
              return t;
            }
            std::wstring name = p.substr(i + 4, close - i - 4);
            t.names.emplace_back(narrow(name), ++t.groups);
            o += L"(?<" + name + L">";
            i = close;
            continue;
          }
          if (i + 3 < n && p[i + 3] == L'=') {
            size_t close = p.find(L')', i + 4);
            if (close == std::wstring::npos) {
              t.error = "missing ), unterminated name";
              t.errorPos = i + 4;
              return t;
            }
            o += L"\\k<" + p.substr(i + 4, close - i - 4) + L">";
            open.pop_back();
            i = close;
            continue;
          }
          t.error = "unknown extension ?P" + narrow(p.substr(i + 3, 1));
          t.errorPos = i + 1;
          return t;
        }
        if (i + 2 < n && p[i + 2] == L'<' && i + 3 < n && p[i + 3] != L'=' && p[i + 3] != L'!') {
          t.error = "unknown extension ?<" + narrow(p.substr(i + 3, 1));
          t.errorPos = i + 1;
          return t;
        }
        // Inline flags: drop a, L, u (Boost has no such modes).
        size_t j = i + 2;
        std::wstring flags;
        while (j < n && std::wstring(L"aiLmsux-").find(p[j]) != std::wstring::npos) flags += p[j++];
        if (!flags.empty() && j < n && (p[j] == L')' || p[j] == L':')) {
          std::wstring kept;
          for (wchar_t f : flags)
            if (f != L'a' && f != L'L' && f != L'u') kept += f;
          if (p[j] == L')') {
            open.pop_back();
            startOfSeq = wasStart;
          }
          if (p[j] == L')' && (kept.empty() || kept == L"-")) {
            i = j;
            continue;
          }
          o += L"(?" + kept + p[j];
          i = j;
          continue;
        }
        o += L"(?";
        ++i;
        continue;
      }
      ++t.groups;
      o += c;
      continue;
    }
    if (c == L'{') {
      size_t j = i + 1;
      while (j < n && isDigit(p[j])) ++j;
      bool lo = j > i + 1;
      bool ok = false;
      if (j < n && p[j] == L'}') ok = lo;
      else if (j < n && p[j] == L',') {
        size_t k = j + 1;
        while (k < n && isDigit(p[k])) ++k;
        ok = k < n && p[k] == L'}';
        if (ok && !lo) {
          o += L"{0";
          i = j - 1;
          continue;
        }
      }
      if (!ok) {
        o += L"\\{";
        continue;
      }
    }
    if (c == L'}' ) {
      // a '}' that closes no quantifier is literal in both; Boost accepts it as is.
    }
    o += c;
  }
  if (inClass) error("unterminated character set", p.rfind(L'['));
  if (!open.empty()) error("missing ), unterminated subpattern", open.back());
  return t;
}

class PatternObj;

class MatchObj : public NativeObject {
 public:
  std::shared_ptr<PatternObj> re;
  std::shared_ptr<std::wstring> text;
  Value string;  ///< the subject as given
  std::vector<std::pair<int64_t, int64_t>> spans;  ///< (-1, -1) for groups that did not match
  int64_t pos = 0, endpos = 0;

  std::string typeName() const override { return "Match"; }
  std::string typeModule() const override { return "re"; }
  Value getAttr(Interpreter& in, std::string_view name) override;
  Value getItem(Interpreter& in, const Value& key) override { return group(in, key); }
  std::string repr(Interpreter& in) override {
    return "<re.Match object; span=(" + std::to_string(spans[0].first) + ", " + std::to_string(spans[0].second) +
           "), match=" + in.repr(groupValue(0)) + ">";
  }
  bool isCallable() const override { return false; }

  Value groupValue(size_t i) const {
    if (spans[i].first < 0) return none();
    return makeStr(narrow(text->data() + spans[i].first, text->data() + spans[i].second));
  }
  size_t index(Interpreter& in, const Value& key);
  Value group(Interpreter& in, const Value& key) { return groupValue(index(in, key)); }
};

class PatternObj : public NativeObject {
 public:
  std::string source;
  int64_t flags = 0;
  Translated tr;
  boost::wregex rx;

  std::string typeName() const override { return "Pattern"; }
  std::string typeModule() const override { return "re"; }
  Value getAttr(Interpreter& in, std::string_view name) override;
  std::string repr(Interpreter& in) override {
    std::string r = "re.compile(" + reprString(source);
    std::vector<std::string> names;
    if (flags & kIgnoreCase) names.push_back("re.IGNORECASE");
    if (flags & kMultiline) names.push_back("re.MULTILINE");
    if (flags & kDotAll) names.push_back("re.DOTALL");
    if (flags & kVerbose) names.push_back("re.VERBOSE");
    for (size_t i = 0; i < names.size(); ++i) r += (i ? "|" : ", ") + names[i];
    return r + ")";
  }
  std::optional<int64_t> hash(Interpreter&) override { return static_cast<int64_t>(std::hash<std::string>()(source) ^ flags); }
  bool isCallable() const override { return false; }

  enum class How { Search, Match, Full };
  /// One match in text[pos, endpos); null when none.
  std::shared_ptr<MatchObj> find(Imports& m, const std::shared_ptr<std::wstring>& text, const Value& subject, size_t pos,
                                 size_t endpos, How how, bool notNullAtStart);
  /// Every match, Python's rules for empty matches; `limit` 0 = all.
  std::vector<std::shared_ptr<MatchObj>> all(Imports& m, const std::shared_ptr<std::wstring>& text, const Value& subject,
                                             size_t pos, size_t endpos, size_t limit);
};

size_t MatchObj::index(Interpreter& in, const Value& key) {
  if (const std::string* s = asString(key)) {
    for (const auto& [name, i] : re->tr.names)
      if (name == *s) return static_cast<size_t>(i);
    in.raise("IndexError", "no such group");
  }
  auto i = asInt(key);
  if (!i || *i < 0 || static_cast<size_t>(*i) >= spans.size()) in.raise("IndexError", "no such group");
  return static_cast<size_t>(*i);
}

std::shared_ptr<MatchObj> PatternObj::find(Imports& m, const std::shared_ptr<std::wstring>& text, const Value& subject, size_t pos,
                                           size_t endpos, How how, bool notNullAtStart) {
  const wchar_t* base = text->data();
  const wchar_t* b = base + pos;
  const wchar_t* e = base + endpos;
  boost::match_results<const wchar_t*> mr;
  auto fl = boost::match_default;
  if (pos > 0) fl |= boost::match_prev_avail;
  if (endpos < text->size()) fl |= boost::match_not_eol | boost::match_not_eob;
  if (notNullAtStart) fl |= boost::match_not_null | boost::match_continuous;
  bool found = false;
  try {
    if (how == How::Full) found = boost::regex_match(b, e, mr, rx, fl);
    else found = boost::regex_search(b, e, mr, rx, how == How::Match ? fl | boost::match_continuous : fl, base);
  } catch (const std::runtime_error& err) {
    m.raise(m.types.runtimeError, std::string("tensorlens: the regular expression is too costly to match on this input (") + err.what() + ")");
  }
  if (!found) return nullptr;
  auto r = std::make_shared<MatchObj>();
  r->re = std::static_pointer_cast<PatternObj>(shared_from_this());
  r->text = text;
  r->string = subject;
  r->pos = static_cast<int64_t>(pos);
  r->endpos = static_cast<int64_t>(endpos);
  for (size_t i = 0; i <= static_cast<size_t>(tr.groups); ++i) {
    if (i < mr.size() && mr[i].matched) r->spans.emplace_back(mr[i].first - base, mr[i].second - base);
    else r->spans.emplace_back(-1, -1);
  }
  return r;
}

std::vector<std::shared_ptr<MatchObj>> PatternObj::all(Imports& m, const std::shared_ptr<std::wstring>& text, const Value& subject,
                                                       size_t pos, size_t endpos, size_t limit) {
  std::vector<std::shared_ptr<MatchObj>> out;
  bool prevEmpty = false;
  while (pos <= endpos && (limit == 0 || out.size() < limit)) {
    std::shared_ptr<MatchObj> r;
    if (prevEmpty) {
      r = find(m, text, subject, pos, endpos, How::Search, true);
      if (!r) {
        if (pos >= endpos) break;
        ++pos;
        r = find(m, text, subject, pos, endpos, How::Search, false);
      }
    } else {
      r = find(m, text, subject, pos, endpos, How::Search, false);
    }
    if (!r) break;
    out.push_back(r);
    prevEmpty = r->spans[0].first == r->spans[0].second;
    pos = static_cast<size_t>(r->spans[0].second);
  }
  return out;
}

/// The subject of a match call as code points, with pos/endpos clamped; nullopt when unknown or,
/// in abstract mode, too long.
struct Subject {
  std::shared_ptr<std::wstring> text;
  size_t pos = 0, endpos = 0;
};
std::optional<Subject> subjectOf(CallContext& c, const Value& s, const Value& posV, const Value& endV) {
  Imports& m = importsOf(c.interp);
  const std::string* str = asString(s);
  if (!str) {
    if (isUnknown(s)) return std::nullopt;
    c.typeError("expected string or bytes-like object, got '" + m.typeName(s) + "'");
  }
  if (m.abstract() && str->size() > kAbstractLimit) return std::nullopt;
  Subject out;
  out.text = std::make_shared<std::wstring>(widen(*str));
  int64_t n = static_cast<int64_t>(out.text->size());
  int64_t p = posV && !isNone(posV) ? c.toInt(posV) : 0;
  int64_t e = endV && !isNone(endV) ? c.toInt(endV) : n;
  p = std::clamp<int64_t>(p, 0, n);
  e = std::clamp<int64_t>(e, p, n);
  out.pos = static_cast<size_t>(p);
  out.endpos = static_cast<size_t>(e);
  return out;
}

/// The replacement for one match: a template with \1, \g<name>, \n ... or a function's result.
std::string expand(Imports& m, MatchObj& mo, const std::wstring& tmpl, const Value& errorClass) {
  std::string out;
  auto bad = [&](const std::string& msg) { m.raiseValue(m.call(errorClass, {makeStr(msg)}, {})); };
  auto groupText = [&](size_t g) {
    if (g >= mo.spans.size()) bad("invalid group reference " + std::to_string(g));
    if (mo.spans[g].first >= 0) out += narrow(mo.text->data() + mo.spans[g].first, mo.text->data() + mo.spans[g].second);
  };
  for (size_t i = 0; i < tmpl.size(); ++i) {
    wchar_t c = tmpl[i];
    if (c != L'\\' || i + 1 >= tmpl.size()) {
      out += narrow(&tmpl[i], &tmpl[i] + 1);
      continue;
    }
    wchar_t e = tmpl[++i];
    if (e >= L'0' && e <= L'9') {
      size_t g = static_cast<size_t>(e - L'0');
      if (i + 1 < tmpl.size() && tmpl[i + 1] >= L'0' && tmpl[i + 1] <= L'9' && g * 10 + static_cast<size_t>(tmpl[i + 1] - L'0') < 100) {
        g = g * 10 + static_cast<size_t>(tmpl[++i] - L'0');
      }
      groupText(g);
      continue;
    }
    if (e == L'g') {
      size_t close = tmpl.find(L'>', i);
      if (i + 1 >= tmpl.size() || tmpl[i + 1] != L'<' || close == std::wstring::npos) bad("missing <");
      std::string name = narrow(tmpl.substr(i + 2, close - i - 2));
      i = close;
      bool numeric = !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
      if (numeric) {
        groupText(static_cast<size_t>(std::stoul(name)));
        continue;
      }
      bool found = false;
      for (const auto& [n, g] : mo.re->tr.names)
        if (n == name) {
          groupText(static_cast<size_t>(g));
          found = true;
        }
      if (!found) m.raise(m.types.indexError, "unknown group name '" + name + "'");
      continue;
    }
    switch (e) {
      case L'n': out += '\n'; break;
      case L't': out += '\t'; break;
      case L'r': out += '\r'; break;
      case L'f': out += '\f'; break;
      case L'v': out += '\v'; break;
      case L'a': out += '\a'; break;
      case L'b': out += '\b'; break;
      case L'\\': out += '\\'; break;
      default:
        if ((e >= L'a' && e <= L'z') || (e >= L'A' && e <= L'Z')) bad("bad escape \\" + narrow(&e, &e + 1) + " at position " + std::to_string(i - 1));
        out += '\\';
        out += narrow(&e, &e + 1);
    }
  }
  return out;
}

Value errorClassOf(Imports& m) {
  auto mod = m.importModule("re");
  return mod ? mod->get("error") : Value(m.types.valueError);
}

Value subn(CallContext& c, PatternObj& p, const Value& repl, const Value& subject, int64_t count, bool withCount) {
  Imports& m = importsOf(c.interp);
  auto s = subjectOf(c, subject, nullptr, nullptr);
  if (!s) return withCount ? unknownOf(m.types.tuple) : unknownOf(m.types.str);
  bool callable = !asString(repl);
  if (callable && isUnknown(repl)) return withCount ? unknownOf(m.types.tuple) : unknownOf(m.types.str);
  std::wstring tmpl = callable ? std::wstring() : widen(*asString(repl));
  Value err = errorClassOf(m);
  auto matches = p.all(m, s->text, subject, 0, s->text->size(), count > 0 ? static_cast<size_t>(count) : 0);
  std::string out;
  size_t last = 0;
  for (auto& mo : matches) {
    out += narrow(s->text->data() + last, s->text->data() + mo->spans[0].first);
    if (callable) {
      Value r = m.call(repl, {mo}, {});
      if (isUnknown(r)) return withCount ? unknownOf(m.types.tuple) : unknownOf(m.types.str);
      const std::string* rs = asString(r);
      if (!rs) c.typeError("expected str instance, " + m.typeName(r) + " found");
      out += *rs;
    } else {
      out += expand(m, *mo, tmpl, err);
    }
    last = static_cast<size_t>(mo->spans[0].second);
  }
  out += narrow(s->text->data() + last, s->text->data() + s->text->size());
  if (withCount) return makeTuple({makeStr(out), makeInt(static_cast<int64_t>(matches.size()))});
  return makeStr(out);
}

Value matchList(Imports& m, const MatchObj& mo) {
  std::vector<Value> groups;
  for (size_t i = 1; i < mo.spans.size(); ++i) groups.push_back(mo.spans[i].first < 0 ? makeStr("") : mo.groupValue(i));
  if (groups.empty()) return mo.groupValue(0);
  if (groups.size() == 1) return groups[0];
  return makeTuple(std::move(groups));
}

Value PatternObj::getAttr(Interpreter& in, std::string_view name) {
  Imports* mp = &importsOf(in);
  auto self = std::static_pointer_cast<PatternObj>(shared_from_this());
  if (name == "pattern") return makeStr(source);
  if (name == "flags") return makeInt(flags | 32);
  if (name == "groups") return makeInt(tr.groups);
  if (name == "groupindex") {
    auto d = makeDict();
    for (const auto& [n, i] : tr.names) d->setStr(n, makeInt(i));
    return d;
  }
  auto finder = [&](const char* n, How how) -> Value {
    return NativeFunction::make(n, "string, pos=0, endpos=None", [self, mp, how](CallContext& c) -> Value {
      auto s = subjectOf(c, c.arg(0), c.arg(1), c.arg(2));
      if (!s) return unknown();
      auto r = self->find(*mp, s->text, c.arg(0), s->pos, s->endpos, how, false);
      return r ? Value(r) : none();
    });
  };
  if (name == "search") return finder("search", How::Search);
  if (name == "match") return finder("match", How::Match);
  if (name == "fullmatch") return finder("fullmatch", How::Full);
  if (name == "findall")
    return NativeFunction::make("findall", "string, pos=0, endpos=None", [self, mp](CallContext& c) -> Value {
      auto s = subjectOf(c, c.arg(0), c.arg(1), c.arg(2));
      if (!s) return unknownOf(mp->types.list);
      std::vector<Value> out;
      for (auto& mo : self->all(*mp, s->text, c.arg(0), s->pos, s->endpos, 0)) out.push_back(matchList(*mp, *mo));
      return makeList(std::move(out));
    });
  if (name == "finditer")
    return NativeFunction::make("finditer", "string, pos=0, endpos=None", [self, mp](CallContext& c) -> Value {
      auto s = subjectOf(c, c.arg(0), c.arg(1), c.arg(2));
      if (!s) return unknownOf(mp->types.iterator);
      auto ms = std::make_shared<std::vector<std::shared_ptr<MatchObj>>>(self->all(*mp, s->text, c.arg(0), s->pos, s->endpos, 0));
      auto i = std::make_shared<size_t>(0);
      return makeIterator("callable_iterator", [ms, i]() -> Value { return *i < ms->size() ? Value((*ms)[(*i)++]) : nullptr; });
    });
  if (name == "sub" || name == "subn") {
    bool withCount = name == "subn";
    return NativeFunction::make(std::string(name), "repl, string, count=0", [self, withCount](CallContext& c) -> Value {
      return subn(c, *self, c.arg(0), c.arg(1), c.toInt(c.arg(2)), withCount);
    });
  }
  if (name == "split")
    return NativeFunction::make("split", "string, maxsplit=0", [self, mp](CallContext& c) -> Value {
      auto s = subjectOf(c, c.arg(0), nullptr, nullptr);
      if (!s) return unknownOf(mp->types.list);
      int64_t max = c.toInt(c.arg(1));
      std::vector<Value> out;
      size_t last = 0;
      for (auto& mo : self->all(*mp, s->text, c.arg(0), 0, s->text->size(), max > 0 ? static_cast<size_t>(max) : 0)) {
        out.push_back(makeStr(narrow(s->text->data() + last, s->text->data() + mo->spans[0].first)));
        for (size_t g = 1; g < mo->spans.size(); ++g) out.push_back(mo->groupValue(g));
        last = static_cast<size_t>(mo->spans[0].second);
      }
      out.push_back(makeStr(narrow(s->text->data() + last, s->text->data() + s->text->size())));
      return makeList(std::move(out));
    });
  return nullptr;
}

Value MatchObj::getAttr(Interpreter& in, std::string_view name) {
  auto self = std::static_pointer_cast<MatchObj>(shared_from_this());
  Imports* mp = &importsOf(in);
  if (name == "string") return string;
  if (name == "re") return re;
  if (name == "pos") return makeInt(pos);
  if (name == "endpos") return makeInt(endpos);
  if (name == "lastindex" || name == "lastgroup") {
    // the last group to close: the matched group with the greatest end, the outermost on ties
    int best = -1;
    for (size_t i = 1; i < spans.size(); ++i)
      if (spans[i].first >= 0 && (best < 0 || spans[i].second > spans[static_cast<size_t>(best)].second)) best = static_cast<int>(i);
    if (best < 0) return none();
    if (name == "lastindex") return makeInt(best);
    for (const auto& [n, i] : re->tr.names)
      if (i == best) return makeStr(n);
    return none();
  }
  if (name == "group")
    return NativeFunction::makeRaw("group", [self](CallContext& c) -> Value {
      if (c.args.empty()) return self->groupValue(0);
      if (c.args.size() == 1) return self->group(c.interp, c.args[0]);
      std::vector<Value> out;
      for (const Value& a : c.args) out.push_back(self->group(c.interp, a));
      return makeTuple(std::move(out));
    });
  if (name == "groups")
    return NativeFunction::make("groups", "default=None", [self](CallContext& c) -> Value {
      std::vector<Value> out;
      for (size_t i = 1; i < self->spans.size(); ++i) out.push_back(self->spans[i].first < 0 ? c.arg(0) : self->groupValue(i));
      return makeTuple(std::move(out));
    });
  if (name == "groupdict")
    return NativeFunction::make("groupdict", "default=None", [self](CallContext& c) -> Value {
      auto d = makeDict();
      for (const auto& [n, i] : self->re->tr.names)
        d->setStr(n, self->spans[static_cast<size_t>(i)].first < 0 ? c.arg(0) : self->groupValue(static_cast<size_t>(i)));
      return d;
    });
  auto position = [&](const char* n, int which) -> Value {
    return NativeFunction::make(n, "group=0", [self, which](CallContext& c) -> Value {
      auto sp = self->spans[self->index(c.interp, c.arg(0))];
      if (which == 0) return makeInt(sp.first);
      if (which == 1) return makeInt(sp.second);
      return makeTuple({makeInt(sp.first), makeInt(sp.second)});
    });
  };
  if (name == "start") return position("start", 0);
  if (name == "end") return position("end", 1);
  if (name == "span") return position("span", 2);
  if (name == "expand")
    return NativeFunction::make("expand", "template", [self, mp](CallContext& c) -> Value {
      return makeStr(expand(*mp, *self, widen(c.toStr(c.arg(0))), errorClassOf(*mp)));
    });
  return nullptr;
}

std::shared_ptr<ModuleObj> makeReNative(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("_re");
  defineNative(mod->globals->vars, "compile", "pattern, flags, error_class", [mp](CallContext& c) -> Value {
    std::string src = c.toStr(c.arg(0));
    int64_t flags = c.toInt(c.arg(1));
    auto p = std::make_shared<PatternObj>();
    p->source = src;
    p->flags = flags & (kIgnoreCase | kMultiline | kDotAll | kVerbose | 4 | 256);
    std::wstring wide = widen(src);
    bool multiline = (flags & kMultiline) || src.find("(?m") != std::string::npos || src.find("(?im") != std::string::npos ||
                     src.find("(?sm") != std::string::npos;
    p->tr = translate(wide, multiline);
    auto fail = [&](const std::string& msg, size_t pos) {
      mp->raiseValue(mp->call(c.arg(2), {makeStr(msg), makeStr(src), makeInt(static_cast<int64_t>(pos))}, {}));
    };
    if (!p->tr.error.empty()) fail(p->tr.error, p->tr.errorPos);
    namespace rc = boost::regex_constants;
    unsigned opts = rc::perl;
    if (flags & kIgnoreCase) opts |= rc::icase;
    if (!(flags & kMultiline)) opts |= rc::no_mod_m;
    opts |= (flags & kDotAll) ? rc::mod_s : rc::no_mod_s;
    if (flags & kVerbose) opts |= rc::mod_x;
    try {
      p->rx.assign(p->tr.pattern, static_cast<boost::wregex::flag_type>(opts));
    } catch (const boost::regex_error& e) {
      fail(e.what(), static_cast<size_t>(std::max<std::ptrdiff_t>(0, e.position())));
    }
    return p;
  });
  return mod;
}

const char* kRe = R"PY(
import _re

A = ASCII = 256
I = IGNORECASE = 2
L = LOCALE = 4
M = MULTILINE = 8
S = DOTALL = 16
U = UNICODE = 32
X = VERBOSE = 64
NOFLAG = 0


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        self.pattern = pattern
        self.pos = pos
        if pattern is not None and pos is not None:
            msg = '%s at position %d' % (msg, pos)
        Exception.__init__(self, msg)


PatternError = error
_cache = {}


def compile(pattern, flags=0):
    if not isinstance(pattern, str):
        if hasattr(pattern, 'pattern') and hasattr(pattern, 'groupindex'):
            return pattern
        raise TypeError('first argument must be string or compiled pattern')
    key = (pattern, flags)
    p = _cache.get(key)
    if p is None:
        if len(_cache) > 512:
            _cache.clear()
        p = _re.compile(pattern, flags, error)
        _cache[key] = p
    return p


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_special = frozenset('()[]{}?*+-|^$\\.&~# \t\n\r\v\f')


def escape(pattern):
    return ''.join('\\' + ch if ch in _special else ch for ch in pattern)


def purge():
    _cache.clear()
)PY";

}  // namespace

void registerReModule(ModuleRegistry& r) {
  r.add("_re", makeReNative);
  r.addSource("re", kRe);
}

}  // namespace tlens::interp
