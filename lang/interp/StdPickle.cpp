// pickle: a native unpickler for CPython's protocols 0-5 and a pickler (protocols 2-5) under a
// Python module that resolves globals. Reads what CPython writes: dicts, lists, tuples, sets, str,
// bytes, ints, floats, None/bool, Python 2 strings (`encoding='bytes'` or 'latin1'), instances of
// the program's classes, and numpy arrays as numpy pickles them (`_reconstruct` + `__setstate__`,
// protocol 5's `_frombuffer`, scalars). Writes pickles CPython and numpy load. Loading a file in
// abstract mode reads an Unknown and yields Unknown; dump's write is the file's.
#include <cmath>
#include <cstring>

#include "lang/interp/Bytes.h"
#include "lang/interp/Class.h"
#include "lang/interp/Imports.h"
#include "lang/interp/Format.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/Utf8.h"

namespace tlens::interp {
namespace {

struct Unpickler {
  Unpickler(Imports& machine, const std::string& data, Value fc, Value ec, std::string enc, std::string errs)
      : m(machine), d(data), findClass(std::move(fc)), errorClass(std::move(ec)), encoding(std::move(enc)), errors(std::move(errs)) {}
  Imports& m;
  const std::string& d;
  Value findClass, errorClass;
  std::string encoding, errors;
  size_t p = 0;
  std::vector<Value> stack;
  std::vector<size_t> marks;
  std::unordered_map<uint64_t, Value> memo;

  [[noreturn]] void fail(const std::string& msg) { m.raiseValue(m.call(errorClass, {makeStr(msg)}, {})); }
  void need(size_t n) {
    if (d.size() - p < n) fail("pickle data was truncated");
  }
  uint64_t le(size_t n) {
    need(n);
    uint64_t v = 0;
    for (size_t k = 0; k < n; ++k) v |= static_cast<uint64_t>(static_cast<unsigned char>(d[p + k])) << (8 * k);
    p += n;
    return v;
  }
  std::string take(uint64_t n) {
    if (n > d.size() - p) fail("pickle data was truncated");
    std::string s = d.substr(p, static_cast<size_t>(n));
    p += static_cast<size_t>(n);
    return s;
  }
  std::string line() {
    size_t e = d.find('\n', p);
    if (e == std::string::npos) fail("pickle data was truncated");
    std::string s = d.substr(p, e - p);
    p = e + 1;
    return s;
  }
  Value pop() {
    if (stack.empty() || (!marks.empty() && stack.size() <= marks.back())) fail("unpickling stack underflow");
    Value v = stack.back();
    stack.pop_back();
    return v;
  }
  Value& top() {
    if (stack.empty()) fail("unpickling stack underflow");
    return stack.back();
  }
  std::vector<Value> popMark() {
    if (marks.empty()) fail("could not find MARK");
    size_t k = marks.back();
    marks.pop_back();
    std::vector<Value> items(stack.begin() + static_cast<std::ptrdiff_t>(k), stack.end());
    stack.resize(k);
    return items;
  }
  Value memoGet(uint64_t i) {
    auto it = memo.find(i);
    if (it == memo.end()) fail("Memo value not found at index " + std::to_string(i));
    return it->second;
  }
  /// A Python 2 str: bytes with encoding='bytes', else decoded.
  Value py2str(std::string s) {
    if (encoding == "bytes") return makeBytes(std::move(s));
    return makeStr(decodeBytes(m, s, encoding, errors));
  }
  Value longFrom(const std::string& b) {
    if (b.empty()) return makeInt(0);
    if (b.size() > 8) m.raise(m.types.overflowError, "integer too large (tensorlens integers are 64-bit)");
    uint64_t v = 0;
    for (size_t k = 0; k < b.size(); ++k) v |= static_cast<uint64_t>(static_cast<unsigned char>(b[k])) << (8 * k);
    if (b.size() < 8 && (static_cast<unsigned char>(b.back()) & 0x80)) v |= ~uint64_t{0} << (8 * b.size());
    return makeInt(static_cast<int64_t>(v));
  }
  void setItem(const Value& target, const Value& k, const Value& v) {
    if (auto* dict = as<DictObj>(target)) dict->set(m.api, k, v);
    else m.setItem(target, k, v);
  }
  void build(const Value& state) {
    Value obj = top();
    if (Value hook = m.findAttr(obj, "_tlens_build")) {
      // numpy's ndarray placeholder: the array replaces it, in the memo too.
      Value arr = m.call(hook, {state}, {});
      for (auto& [k, v] : memo)
        if (v == obj) v = arr;
      stack.back() = arr;
      return;
    }
    if (Value setstate = m.findAttr(obj, "__setstate__")) {
      m.call(setstate, {state}, {});
      return;
    }
    Value dictState = state, slotState;
    if (auto* t = as<TupleObj>(state); t && t->items.size() == 2) {
      dictState = t->items[0];
      slotState = t->items[1];
    }
    for (const Value& s : {dictState, slotState}) {
      if (!s || isNone(s)) continue;
      auto* dd = as<DictObj>(s);
      if (!dd) fail("state is not a dictionary");
      for (const auto& e : dd->entries()) {
        const std::string* name = asString(e.key);
        if (!name) fail("attribute name must be a string");
        m.setAttr(obj, *name, e.value);
      }
    }
  }

  Value run() {
    if (d.empty()) m.raise(m.types.eofError, "Ran out of input");
    while (true) {
      if (p >= d.size()) m.raise(m.types.eofError, "Ran out of input");
      unsigned char op = static_cast<unsigned char>(d[p++]);
      switch (op) {
        case 0x80: need(1); if (static_cast<unsigned char>(d[p]) > 5) m.valueError("unsupported pickle protocol: " + std::to_string(static_cast<unsigned char>(d[p]))); ++p; break;
        case 0x95: le(8); break;  // FRAME
        case '.': {
          Value v = pop();
          return makeTuple({v, makeInt(static_cast<int64_t>(p))});
        }
        case '(': marks.push_back(stack.size()); break;
        case ')': stack.push_back(makeTuple()); break;
        case ']': stack.push_back(makeList()); break;
        case '}': stack.push_back(makeDict()); break;
        case 0x8f: stack.push_back(makeSet()); break;
        case 0x85: case 0x86: case 0x87: {
          size_t n = op - 0x84u;
          if (stack.size() < n) fail("unpickling stack underflow");
          std::vector<Value> items(stack.end() - static_cast<std::ptrdiff_t>(n), stack.end());
          stack.resize(stack.size() - n);
          stack.push_back(makeTuple(std::move(items)));
          break;
        }
        case 't': stack.push_back(makeTuple(popMark())); break;
        case 'l': stack.push_back(makeList(popMark())); break;
        case 'd': {
          auto items = popMark();
          auto dict = makeDict();
          for (size_t k = 0; k + 1 < items.size(); k += 2) dict->set(m.api, items[k], items[k + 1]);
          stack.push_back(dict);
          break;
        }
        case 0x91: {
          auto s = makeSet();
          for (const Value& v : popMark()) s->add(m.api, v);
          s->frozen = true;
          stack.push_back(s);
          break;
        }
        case 'a': {
          Value v = pop();
          if (auto* l = as<ListObj>(top())) l->items.push_back(v);
          else m.callMethod(top(), "append", {v});
          break;
        }
        case 'e': {
          auto items = popMark();
          if (auto* l = as<ListObj>(top())) l->items.insert(l->items.end(), items.begin(), items.end());
          else m.callMethod(top(), "extend", {makeList(std::move(items))});
          break;
        }
        case 's': {
          Value v = pop(), k = pop();
          setItem(top(), k, v);
          break;
        }
        case 'u': {
          auto items = popMark();
          for (size_t k = 0; k + 1 < items.size(); k += 2) setItem(top(), items[k], items[k + 1]);
          break;
        }
        case 0x90: {
          auto items = popMark();
          auto* s = as<SetObj>(top());
          for (const Value& v : items) {
            if (s) s->add(m.api, v);
            else m.callMethod(top(), "add", {v});
          }
          break;
        }
        case 'J': stack.push_back(makeInt(static_cast<int32_t>(le(4)))); break;
        case 'K': stack.push_back(makeInt(static_cast<int64_t>(le(1)))); break;
        case 'M': stack.push_back(makeInt(static_cast<int64_t>(le(2)))); break;
        case 0x8a: stack.push_back(longFrom(take(le(1)))); break;
        case 0x8b: stack.push_back(longFrom(take(le(4)))); break;
        case 'I': {
          std::string s = line();
          if (s == "01") stack.push_back(boolean(true));
          else if (s == "00") stack.push_back(boolean(false));
          else stack.push_back(makeInt(std::stoll(s)));
          break;
        }
        case 'L': {
          std::string s = line();
          if (!s.empty() && s.back() == 'L') s.pop_back();
          stack.push_back(makeInt(std::stoll(s)));
          break;
        }
        case 'G': {
          uint64_t bits = 0;
          need(8);
          for (int k = 0; k < 8; ++k) bits = (bits << 8) | static_cast<unsigned char>(d[p + static_cast<size_t>(k)]);
          p += 8;
          double v;
          std::memcpy(&v, &bits, 8);
          stack.push_back(makeFloat(v));
          break;
        }
        case 'F': stack.push_back(makeFloat(std::strtod(line().c_str(), nullptr))); break;
        case 'X': stack.push_back(makeStr(decodeBytes(m, take(le(4)), "utf-8", "surrogatepass"))); break;
        case 0x8c: stack.push_back(makeStr(decodeBytes(m, take(le(1)), "utf-8", "surrogatepass"))); break;
        case 0x8d: stack.push_back(makeStr(decodeBytes(m, take(le(8)), "utf-8", "surrogatepass"))); break;
        case 'V': stack.push_back(makeStr(rawUnicodeEscape(line()))); break;
        case 'B': stack.push_back(makeBytes(take(le(4)))); break;
        case 'C': stack.push_back(makeBytes(take(le(1)))); break;
        case 0x8e: stack.push_back(makeBytes(take(le(8)))); break;
        case 0x96: stack.push_back(makeBytes(take(le(8)), true)); break;
        case 'T': {
          int32_t n = static_cast<int32_t>(le(4));
          if (n < 0) fail("BINSTRING pickle has negative byte count");
          stack.push_back(py2str(take(static_cast<uint64_t>(n))));
          break;
        }
        case 'U': stack.push_back(py2str(take(le(1)))); break;
        case 'S': stack.push_back(py2str(quotedString(line()))); break;
        case 'N': stack.push_back(none()); break;
        case 0x88: stack.push_back(boolean(true)); break;
        case 0x89: stack.push_back(boolean(false)); break;
        case 'p': memo[std::stoull(line())] = top(); break;
        case 'q': memo[le(1)] = top(); break;
        case 'r': memo[le(4)] = top(); break;
        case 0x94: memo[memo.size()] = top(); break;
        case 'g': stack.push_back(memoGet(std::stoull(line()))); break;
        case 'h': stack.push_back(memoGet(le(1))); break;
        case 'j': stack.push_back(memoGet(le(4))); break;
        case 'c': {
          std::string mod = line(), name = line();
          stack.push_back(m.call(findClass, {makeStr(mod), makeStr(name)}, {}));
          break;
        }
        case 0x93: {
          Value name = pop(), mod = pop();
          stack.push_back(m.call(findClass, {mod, name}, {}));
          break;
        }
        case 'R': {
          Value args = pop(), fn = pop();
          auto* t = as<TupleObj>(args);
          if (!t) fail("REDUCE arguments must be a tuple");
          stack.push_back(m.call(fn, t->items, {}));
          break;
        }
        case 0x81: {
          Value args = pop(), cls = pop();
          auto* t = as<TupleObj>(args);
          if (!t) fail("NEWOBJ expected an arg tuple");
          std::vector<Value> a{cls};
          a.insert(a.end(), t->items.begin(), t->items.end());
          stack.push_back(m.callMethod(cls, "__new__", std::move(a)));
          break;
        }
        case 0x92: {
          Value kw = pop(), args = pop(), cls = pop();
          auto* t = as<TupleObj>(args);
          if (!t) fail("NEWOBJ_EX args argument must be a tuple");
          std::vector<Value> a{cls};
          a.insert(a.end(), t->items.begin(), t->items.end());
          KwArgs kwargs;
          if (auto* dd = as<DictObj>(kw))
            for (const auto& e : dd->entries())
              if (const std::string* k = asString(e.key)) kwargs.emplace_back(*k, e.value);
          stack.push_back(m.call(m.getAttr(cls, "__new__"), std::move(a), std::move(kwargs)));
          break;
        }
        case 'b': build(pop()); break;
        case '0': pop(); break;
        case '1': popMark(); break;
        case '2': stack.push_back(top()); break;
        case 'P': case 'Q': fail("A load persistent id instruction was encountered, but no persistent_load function was specified.");
        case 0x97: case 0x98: fail("pickle stream refers to out-of-band data but no *buffers* argument was given");
        case 0x82: case 0x83: case 0x84: fail("tensorlens: pickle extension codes (copyreg.add_extension) are not supported");
        case 'i': case 'o': fail("tensorlens: Python 2 old-style class instances (INST/OBJ) are not supported");
        default: {
          std::string key = op >= 32 && op < 127 ? std::string(1, static_cast<char>(op)) : bytesRepr(std::string(1, static_cast<char>(op))).substr(1);
          if (op >= 32 && op < 127) key = "'" + key + "'";
          fail("invalid load key, " + key + ".");
        }
      }
    }
  }

  std::string quotedString(std::string s) {
    if (s.size() < 2 || (s[0] != '\'' && s[0] != '"') || s.back() != s[0]) fail("the STRING opcode argument must be quoted");
    s = s.substr(1, s.size() - 2);
    std::string out;
    for (size_t k = 0; k < s.size(); ++k) {
      if (s[k] != '\\' || k + 1 >= s.size()) {
        out += s[k];
        continue;
      }
      char e = s[++k];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'x':
          if (k + 2 < s.size() + 0) {
            out += static_cast<char>(std::stoi(s.substr(k + 1, 2), nullptr, 16));
            k += 2;
          }
          break;
        default: out += '\\'; out += e;
      }
    }
    return out;
  }

  std::string rawUnicodeEscape(const std::string& s) {
    std::string out;
    for (size_t k = 0; k < s.size(); ++k) {
      if (s[k] == '\\' && k + 1 < s.size() && (s[k + 1] == 'u' || s[k + 1] == 'U')) {
        size_t n = s[k + 1] == 'u' ? 4 : 8;
        if (k + 2 + n <= s.size()) {
          uint32_t cp = static_cast<uint32_t>(std::stoul(s.substr(k + 2, n), nullptr, 16));
          appendUtf8(out, cp);
          k += 1 + n;
          continue;
        }
      }
      appendUtf8(out, static_cast<unsigned char>(s[k]));
    }
    return out;
  }
};

struct Pickler {
  Pickler(Imports& machine, int proto, Value rn, Value ec)
      : m(machine), protocol(proto), reduceNumpy(std::move(rn)), errorClass(std::move(ec)) {}
  Imports& m;
  int protocol;
  Value reduceNumpy, errorClass;
  std::string out;
  std::unordered_map<const Object*, uint32_t> memo;
  std::vector<Value> keep;  ///< values memoized by address stay alive

  [[noreturn]] void fail(const std::string& msg) { m.raiseValue(m.call(errorClass, {makeStr(msg)}, {})); }
  void u32(uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
  }
  void put(const Value& v) {
    uint32_t i = static_cast<uint32_t>(memo.size());
    memo[v.get()] = i;
    keep.push_back(v);
    if (i < 256) {
      out += 'q';
      out += static_cast<char>(i);
    } else {
      out += 'r';
      u32(i);
    }
  }
  bool get(const Value& v) {
    auto it = memo.find(v.get());
    if (it == memo.end()) return false;
    if (it->second < 256) {
      out += 'h';
      out += static_cast<char>(it->second);
    } else {
      out += 'j';
      u32(it->second);
    }
    return true;
  }
  void global(const std::string& mod, const std::string& name) { out += "c" + mod + "\n" + name + "\n"; }
  void str(const std::string& s) {
    if (protocol >= 4 && s.size() < 256) {
      out += '\x8c';
      out += static_cast<char>(s.size());
    } else {
      out += 'X';
      u32(static_cast<uint32_t>(s.size()));
    }
    out += s;
  }
  void bytes(const std::string& b) {
    if (protocol < 3) {
      // Python 2's way: _codecs.encode(<latin-1 text>, 'latin1')
      global("_codecs", "encode");
      std::string text;
      for (unsigned char ch : b) appendUtf8(text, ch);
      str(text);
      str("latin1");
      out += "\x86R";
      return;
    }
    if (b.size() < 256) {
      out += 'C';
      out += static_cast<char>(b.size());
    } else {
      out += 'B';
      u32(static_cast<uint32_t>(b.size()));
    }
    out += b;
  }
  void integer(int64_t v) {
    if (v >= 0 && v < 256) {
      out += 'K';
      out += static_cast<char>(v);
    } else if (v >= 0 && v < 65536) {
      out += 'M';
      out += static_cast<char>(v & 0xff);
      out += static_cast<char>(v >> 8);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      out += 'J';
      u32(static_cast<uint32_t>(static_cast<int32_t>(v)));
    } else {
      std::string b;
      uint64_t u = static_cast<uint64_t>(v);
      for (int k = 0; k < 8; ++k) b += static_cast<char>((u >> (8 * k)) & 0xff);
      // shortest two's complement
      while (b.size() > 1 && ((b.back() == 0 && !(b[b.size() - 2] & 0x80)) || (b.back() == '\xff' && (b[b.size() - 2] & 0x80)))) b.pop_back();
      out += '\x8a';
      out += static_cast<char>(b.size());
      out += b;
    }
  }
  void items(const std::vector<Value>& xs, char op) {
    for (size_t k = 0; k < xs.size(); k += 1000) {
      out += '(';
      for (size_t j = k; j < xs.size() && j < k + 1000; ++j) value(xs[j]);
      out += op;
    }
  }
  void numpyArray(const Value& v) {
    Value state = m.call(reduceNumpy, {v}, {});
    auto* t = as<TupleObj>(state);
    if (!t || t->items.size() != 3) fail("tensorlens: could not read the array's bytes");
    const std::string* raw = asBytes(t->items[0]);
    const std::string* descr = asString(t->items[1]);
    auto* shape = as<TupleObj>(t->items[2]);
    if (!raw || !descr || !shape) fail("tensorlens: could not read the array's bytes");
    auto dtype = [&] {
      global("numpy", "dtype");
      str(descr->substr(1));
      out += "\x89\x88\x87R(K\x03";
      str(descr->substr(0, 1));
      out += std::string("NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb", 17);
    };
    if (shape->items.empty()) {  // a numpy scalar
      global("numpy.core.multiarray", "scalar");
      dtype();
      bytes(*raw);
      out += "\x86R";
      return;
    }
    global("numpy.core.multiarray", "_reconstruct");
    global("numpy", "ndarray");
    out += std::string("K\x00\x85", 3);
    bytes("b");
    out += "\x87R(K\x01";
    value(t->items[2]);
    dtype();
    out += '\x89';
    bytes(*raw);
    out += "tb";
    put(v);
  }

  void value(const Value& v) {
    m.checkStack();
    switch (v->kind()) {
      case Kind::None: out += 'N'; return;
      case Kind::Bool: out += *asInt(v) ? '\x88' : '\x89'; return;
      case Kind::Int: integer(*asInt(v)); return;
      case Kind::Float: {
        double dv = *asDouble(v);
        uint64_t bits;
        std::memcpy(&bits, &dv, 8);
        out += 'G';
        for (int k = 7; k >= 0; --k) out += static_cast<char>((bits >> (8 * k)) & 0xff);
        return;
      }
      case Kind::Str: str(static_cast<StrObj*>(v.get())->value); return;
      case Kind::Unknown: throw NeedsKnownValue{};
      case Kind::Tuple: {
        const auto& xs = static_cast<TupleObj*>(v.get())->items;
        if (xs.empty()) {
          out += ')';
          return;
        }
        if (get(v)) return;
        if (xs.size() <= 3) {
          for (const Value& x : xs) value(x);
          out += static_cast<char>(0x84 + xs.size());
        } else {
          out += '(';
          for (const Value& x : xs) value(x);
          out += 't';
        }
        put(v);
        return;
      }
      case Kind::List: {
        if (get(v)) return;
        out += ']';
        put(v);
        auto xs = static_cast<ListObj*>(v.get())->items;
        if (!xs.empty()) items(xs, 'e');
        return;
      }
      case Kind::Dict: {
        if (get(v)) return;
        auto* d = static_cast<DictObj*>(v.get());
        if (d->imprecise) throw NeedsKnownValue{};
        if (d->cls && d->cls->name == "OrderedDict") {
          global("collections", "OrderedDict");
          out += ")R";
        } else {
          out += '}';
        }
        put(v);
        std::vector<Value> kv;
        for (const auto& e : d->entries()) {
          kv.push_back(e.key);
          kv.push_back(e.value);
        }
        if (!kv.empty()) items(kv, 'u');
        return;
      }
      case Kind::Set: {
        if (get(v)) return;
        auto* s = static_cast<SetObj*>(v.get());
        std::vector<Value> xs = s->items();
        if (protocol >= 4 && !s->frozen) {
          out += '\x8f';
          put(v);
          if (!xs.empty()) items(xs, '\x90');
          return;
        }
        global("builtins", s->frozen ? "frozenset" : "set");
        value(makeList(xs));
        out += "\x85R";
        put(v);
        return;
      }
      case Kind::Native: {
        auto* n = static_cast<NativeObject*>(v.get());
        if (const std::string* b = asBytes(v)) {
          if (n->typeName() == "bytearray") {
            global("builtins", "bytearray");
            bytes(*b);
            out += "\x85R";
          } else {
            bytes(*b);
          }
          return;
        }
        if (n->typeModule() == "numpy" && reduceNumpy && !isNone(reduceNumpy)) {
          if (get(v)) return;
          numpyArray(v);
          return;
        }
        break;
      }
      case Kind::Instance: {
        if (asException(v)) break;
        auto* inst = static_cast<InstanceObj*>(v.get());
        if (inst->cls->isBuiltin || inst->cls->module.empty()) break;
        if (get(v)) return;
        global(inst->cls->module, inst->cls->qualname.empty() ? inst->cls->name : inst->cls->qualname);
        out += ")\x81";
        put(v);
        Value state;
        Value getstate = m.findAttr(v, "__getstate__");
        auto* bound = as<BoundMethodObj>(getstate);
        if (bound && bound->function->kind() == Kind::Function) {
          state = m.call(getstate, {}, {});
        } else {
          auto dict = makeDict();
          inst->dict.forEach([&](const std::string& k, const Value& x) { dict->setStr(k, x); });
          if (dict->size() == 0) return;
          state = dict;
        }
        value(state);
        out += 'b';
        return;
      }
      case Kind::Class: {
        auto* c = static_cast<ClassObj*>(v.get());
        global(c->module, c->name);
        return;
      }
      case Kind::Function: {
        auto* f = static_cast<FunctionObj*>(v.get());
        if (f->name == "<lambda>") fail("Can't pickle <function <lambda>>: attribute lookup <lambda> on " + f->module + " failed");
        global(f->module, f->qualname);
        return;
      }
      default: break;
    }
    fail("cannot pickle '" + m.typeName(v) + "' object");
  }
};

std::shared_ptr<ModuleObj> makePickleNative(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("_tlens_pickle");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "loads", "data, find_class, encoding, errors, error_class", [mp](CallContext& c) -> Value {
    const std::string* data = asBytes(c.arg(0));
    if (!data) {
      if (isUnknown(c.arg(0))) throw NeedsKnownValue{};
      c.typeError("a bytes-like object is required, not '" + mp->typeName(c.arg(0)) + "'");
    }
    Unpickler u(*mp, *data, c.arg(1), c.arg(4), c.toStr(c.arg(2)), c.toStr(c.arg(3)));
    return u.run();
  });
  defineNative(ns, "dumps", "obj, protocol, reduce_numpy, error_class", [mp](CallContext& c) -> Value {
    Pickler p(*mp, static_cast<int>(c.toInt(c.arg(1))), c.arg(2), c.arg(3));
    if (p.protocol < 0 || p.protocol > 5) p.protocol = 5;
    if (p.protocol < 2) c.valueError("tensorlens: pickle writes protocols 2 to 5");
    p.out += '\x80';
    p.out += static_cast<char>(p.protocol);
    p.value(c.arg(0));
    p.out += '.';
    return makeBytes(std::move(p.out));
  });
  defineNative(ns, "builtin", "name", [mp](CallContext& c) -> Value {
    std::string n = c.toStr(c.arg(0));
    if (n == "unicode") n = "str";
    if (n == "xrange") n = "range";
    if (n == "long") n = "int";
    Value v = mp->builtins.get(n);
    if (!v) mp->raise(mp->types.attributeError, "Can't get attribute '" + n + "' on <module 'builtins' (built-in)>");
    return v;
  });
  defineNative(ns, "find_global", "module, name", [mp](CallContext& c) -> Value {
    std::string mod = c.toStr(c.arg(0)), name = c.toStr(c.arg(1));
    std::shared_ptr<ModuleObj> module = mod == "__main__" ? mp->mainModule : mp->importModule(mod);
    if (!module) mp->raise(mp->types.moduleNotFoundError, "No module named " + reprString(mod));
    Value v = module;
    size_t start = 0;
    while (true) {
      size_t dot = name.find('.', start);
      std::string part = name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      v = mp->findAttr(v, part);
      if (!v) mp->raise(mp->types.attributeError, "Can't get attribute " + reprString(name) + " on <module " + reprString(mod) + ">");
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return v;
  });
  return mod;
}

const char* kPickle = R"PY(
import _tlens_pickle as _pickle

HIGHEST_PROTOCOL = 5
DEFAULT_PROTOCOL = 4


class PickleError(Exception):
    pass


class PicklingError(PickleError):
    pass


class UnpicklingError(PickleError):
    pass


class _NdarrayType:
    pass


class _Dtype:
    # numpy.dtype as pickled: dtype('f4', False, True) then __setstate__((3, '<', ...)).
    def __init__(self, name, align=False, copy=True):
        if isinstance(name, bytes):
            name = name.decode('latin1')
        self.name = name
        self.order = '|' if name[-1:] == '1' or name[:1] == 'b' else '<'

    def __setstate__(self, state):
        order = state[1]
        if isinstance(order, bytes):
            order = order.decode('latin1')
        if order in ('<', '>', '|'):
            self.order = order

    def _descr(self):
        return self.order + self.name


class _NdarrayPlaceholder:
    # numpy.core.multiarray._reconstruct's result until BUILD gives its state.
    def _tlens_build(self, state):
        if len(state) == 5:
            shape, dtype, fortran, raw = state[1], state[2], state[3], state[4]
        else:
            shape, dtype, fortran, raw = state
        import numpy
        return numpy._from_pickle(raw, dtype._descr(), shape, fortran)


def _reconstruct(subtype, shape, dtype):
    return _NdarrayPlaceholder()


def _scalar(dtype, raw=None):
    import numpy
    return numpy._from_pickle(raw, dtype._descr(), ())


def _frombuffer(buf, dtype, shape, order):
    import numpy
    return numpy._from_pickle(bytes(buf), dtype._descr(), shape, order == 'F')


def _codecs_encode(obj, encoding='utf-8', errors='strict'):
    return obj.encode(encoding, errors)


def _reconstructor(cls, base, state):
    return object.__new__(cls)


_GLOBALS = {
    ('numpy', 'ndarray'): _NdarrayType,
    ('numpy', 'dtype'): _Dtype,
    ('_codecs', 'encode'): _codecs_encode,
    ('copy_reg', '_reconstructor'): _reconstructor,
    ('copyreg', '_reconstructor'): _reconstructor,
}
for _m in ('numpy.core.multiarray', 'numpy._core.multiarray'):
    _GLOBALS[(_m, '_reconstruct')] = _reconstruct
    _GLOBALS[(_m, 'scalar')] = _scalar
for _m in ('numpy.core.numeric', 'numpy._core.numeric'):
    _GLOBALS[(_m, '_frombuffer')] = _frombuffer


def _find_class(module, name):
    f = _GLOBALS.get((module, name))
    if f is not None:
        return f
    if module in ('builtins', '__builtin__'):
        return _pickle.builtin(name)
    if module == 'collections' and name == 'OrderedDict':
        import collections
        return collections.OrderedDict
    return _pickle.find_global(module, name)


def _reduce_numpy(a):
    import numpy
    return numpy._pickle_state(a)


def dumps(obj, protocol=None, *, fix_imports=True, buffer_callback=None):
    if protocol is None:
        protocol = DEFAULT_PROTOCOL
    return _pickle.dumps(obj, protocol, _reduce_numpy, PicklingError)


def dump(obj, file, protocol=None, *, fix_imports=True, buffer_callback=None):
    file.write(dumps(obj, protocol))


def loads(data, *, fix_imports=True, encoding='ASCII', errors='strict', buffers=None):
    return _pickle.loads(data, _find_class, encoding, errors, UnpicklingError)[0]


def load(file, *, fix_imports=True, encoding='ASCII', errors='strict', buffers=None):
    start = file.tell() if hasattr(file, 'tell') else 0
    data = file.read()
    obj, end = _pickle.loads(data, _find_class, encoding, errors, UnpicklingError)
    if end < len(data) and hasattr(file, 'seek'):
        file.seek(start + end)
    return obj


class Pickler:
    def __init__(self, file, protocol=None, *, fix_imports=True, buffer_callback=None):
        self._file = file
        self._protocol = protocol

    def dump(self, obj):
        dump(obj, self._file, self._protocol)


class Unpickler:
    def __init__(self, file, *, fix_imports=True, encoding='ASCII', errors='strict', buffers=None):
        self._file = file
        self._encoding = encoding
        self._errors = errors

    def find_class(self, module, name):
        return _find_class(module, name)

    def load(self):
        return load(self._file, encoding=self._encoding, errors=self._errors)
)PY";

}  // namespace

void registerPickleModule(ModuleRegistry& r) {
  r.add("_tlens_pickle", makePickleNative);
  r.addSource("pickle", kPickle);
  // cPickle (Python 2) and _pickle (CPython 3's accelerator, `import _pickle as cPickle` in
  // ported code): pickle's functions and classes.
  const char* kAlias = "from pickle import *\nfrom pickle import dumps, loads, dump, load, HIGHEST_PROTOCOL\n";
  r.addSource("cPickle", kAlias);
  r.addSource("_pickle", kAlias);
}

}  // namespace tlens::interp
