// struct: pack, unpack, unpack_from, iter_unpack, calcsize and Struct, with CPython's byte orders
// (@ native with alignment, = < > ! standard sizes) and codes x c b B ? h H i I l L q Q n N e f d s p.
// Pure functions: both modes run them on known values.
#include <cmath>
#include <cstring>

#include "lang/interp/Bytes.h"
#include "lang/interp/Class.h"
#include "lang/interp/Imports.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

struct Item {
  char code;
  size_t count;  ///< repeat count, or the length of s/p
  size_t size;
  size_t offset;
};

struct Layout {
  bool little = true, native = true;
  std::vector<Item> items;
  size_t size = 0;
  size_t values = 0;  ///< how many Python values pack takes / unpack gives
};

[[noreturn]] void structError(Imports& m, const std::string& msg) {
  auto mod = m.importModule("struct");
  Value cls = mod ? mod->get("error") : Value();
  if (cls) m.raiseValue(m.call(cls, {makeStr(msg)}, {}));
  m.raise("ValueError", msg);
}

size_t codeSize(char c, bool native) {
  switch (c) {
    case 'x': case 'c': case 'b': case 'B': case '?': case 's': case 'p': return 1;
    case 'h': case 'H': case 'e': return 2;
    case 'i': case 'I': case 'f': return 4;
    case 'l': case 'L': return native ? 8 : 4;
    case 'q': case 'Q': case 'd': return 8;
    case 'n': case 'N': case 'P': return 8;
    default: return 0;
  }
}

Layout parse(Imports& m, const std::string& fmt) {
  Layout l;
  size_t i = 0;
  if (!fmt.empty() && std::string("@=<>!").find(fmt[0]) != std::string::npos) {
    char o = fmt[0];
    l.native = o == '@';
    l.little = o == '@' || o == '=' || o == '<';
    i = 1;
  }
  while (i < fmt.size()) {
    char c = fmt[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      ++i;
      continue;
    }
    size_t count = 1;
    bool explicitCount = false;
    if (c >= '0' && c <= '9') {
      count = 0;
      while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') count = count * 10 + static_cast<size_t>(fmt[i++] - '0');
      explicitCount = true;
      if (i >= fmt.size()) structError(m, "repeat count given without format specifier");
      c = fmt[i];
    }
    ++i;
    if (!l.native && (c == 'n' || c == 'N' || c == 'P')) structError(m, "bad char in struct format");
    size_t sz = codeSize(c, l.native);
    if (sz == 0) structError(m, "bad char in struct format");
    if (l.native && c != 's' && c != 'p' && c != 'x' && c != 'c' && sz > 1) l.size = (l.size + sz - 1) / sz * sz;
    if (c == 's' || c == 'p') {
      l.items.push_back({c, explicitCount ? count : 1, 1, l.size});
      l.size += explicitCount ? count : 1;
      ++l.values;
      continue;
    }
    for (size_t k = 0; k < count; ++k) {
      l.items.push_back({c, 1, sz, l.size});
      l.size += sz;
      if (c != 'x') ++l.values;
    }
  }
  return l;
}

uint16_t toHalf(double d) {
  float f = static_cast<float>(d);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    if ((mant >> (shift - 1)) & 1) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  if (mant & 0x1000) ++half;
  return static_cast<uint16_t>(half);
}

double fromHalf(uint16_t h) {
  int exp = (h >> 10) & 0x1f;
  double mant = h & 0x3ff;
  double v = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(mant + 1024, exp - 25);
  return (h & 0x8000) ? -v : v;
}

void putInt(std::string& out, size_t at, uint64_t v, size_t n, bool little) {
  for (size_t k = 0; k < n; ++k) out[at + (little ? k : n - 1 - k)] = static_cast<char>((v >> (8 * k)) & 0xff);
}

uint64_t getInt(const std::string& d, size_t at, size_t n, bool little) {
  uint64_t v = 0;
  for (size_t k = 0; k < n; ++k) v |= static_cast<uint64_t>(static_cast<unsigned char>(d[at + (little ? k : n - 1 - k)])) << (8 * k);
  return v;
}

std::string pack(CallContext& c, const std::string& fmt, const std::vector<Value>& args) {
  Imports& m = importsOf(c.interp);
  Layout l = parse(m, fmt);
  if (args.size() != l.values)
    structError(m, "pack expected " + std::to_string(l.values) + " items for packing (got " + std::to_string(args.size()) + ")");
  std::string out(l.size, '\0');
  size_t a = 0;
  for (const Item& it : l.items) {
    if (it.code == 'x') continue;
    const Value& v = args[a++];
    if (isUnknown(v)) throw NeedsKnownValue{};
    switch (it.code) {
      case 's':
      case 'p': {
        const std::string* b = asBytes(v);
        if (!b) structError(m, std::string("argument for '") + it.code + "' must be a bytes object");
        std::string s = it.code == 'p' ? std::string(1, static_cast<char>(std::min<size_t>(b->size(), std::min<size_t>(it.count ? it.count - 1 : 0, 255)))) + *b : *b;
        std::memcpy(&out[it.offset], s.data(), std::min(s.size(), it.count));
        break;
      }
      case 'c': {
        const std::string* b = asBytes(v);
        if (!b || b->size() != 1) structError(m, "char format requires a bytes object of length 1");
        out[it.offset] = (*b)[0];
        break;
      }
      case '?': out[it.offset] = c.toBool(v) ? 1 : 0; break;
      case 'e': putInt(out, it.offset, toHalf(c.toDouble(v)), 2, l.little); break;
      case 'f': {
        float f = static_cast<float>(c.toDouble(v));
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        putInt(out, it.offset, bits, 4, l.little);
        break;
      }
      case 'd': {
        double dv = c.toDouble(v);
        uint64_t bits;
        std::memcpy(&bits, &dv, 8);
        putInt(out, it.offset, bits, 8, l.little);
        break;
      }
      default: {
        auto iv = v->kind() == Kind::Int || v->kind() == Kind::Bool ? asInt(v) : std::nullopt;
        if (!iv) {
          if (v->kind() == Kind::Native || v->kind() == Kind::Instance) iv = c.toInt(c.interp.call(m.types.int_, {v}));
          else structError(m, "required argument is not an integer");
        }
        bool isSigned = it.code == 'b' || it.code == 'h' || it.code == 'i' || it.code == 'l' || it.code == 'q' || it.code == 'n';
        size_t bits = it.size * 8;
        if (bits < 64) {
          int64_t lo = isSigned ? -(int64_t{1} << (bits - 1)) : 0;
          int64_t hi = isSigned ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
          if (*iv < lo || *iv > hi) {
            if (it.size == 1 && isSigned) structError(m, "byte format requires -128 <= number <= 127");
            if (it.size == 1) structError(m, "ubyte format requires 0 <= number <= 255");
            structError(m, std::string("'") + it.code + "' format requires " + std::to_string(lo) + " <= number <= " + std::to_string(hi));
          }
        } else if (!isSigned && *iv < 0) {
          structError(m, "argument out of range");
        }
        putInt(out, it.offset, static_cast<uint64_t>(*iv), it.size, l.little);
      }
    }
  }
  return out;
}

Value unpack(CallContext& c, const std::string& fmt, const std::string& data, size_t offset, bool exact) {
  Imports& m = importsOf(c.interp);
  Layout l = parse(m, fmt);
  if (exact ? data.size() != l.size : data.size() < offset + l.size)
    structError(m, exact ? "unpack requires a buffer of " + std::to_string(l.size) + " bytes"
                         : "unpack_from requires a buffer of at least " + std::to_string(offset + l.size) + " bytes for unpacking " +
                               std::to_string(l.size) + " bytes at offset " + std::to_string(offset) + " (actual buffer size is " +
                               std::to_string(data.size()) + ")");
  std::vector<Value> out;
  for (const Item& it : l.items) {
    size_t at = offset + it.offset;
    switch (it.code) {
      case 'x': break;
      case 's': out.push_back(makeBytes(data.substr(at, it.count))); break;
      case 'p': {
        size_t n = std::min<size_t>(static_cast<unsigned char>(data[at]), it.count ? it.count - 1 : 0);
        out.push_back(makeBytes(data.substr(at + 1, n)));
        break;
      }
      case 'c': out.push_back(makeBytes(data.substr(at, 1))); break;
      case '?': out.push_back(boolean(data[at] != 0)); break;
      case 'e': out.push_back(makeFloat(fromHalf(static_cast<uint16_t>(getInt(data, at, 2, l.little))))); break;
      case 'f': {
        uint32_t bits = static_cast<uint32_t>(getInt(data, at, 4, l.little));
        float f;
        std::memcpy(&f, &bits, 4);
        out.push_back(makeFloat(f));
        break;
      }
      case 'd': {
        uint64_t bits = getInt(data, at, 8, l.little);
        double dv;
        std::memcpy(&dv, &bits, 8);
        out.push_back(makeFloat(dv));
        break;
      }
      default: {
        uint64_t u = getInt(data, at, it.size, l.little);
        bool isSigned = it.code == 'b' || it.code == 'h' || it.code == 'i' || it.code == 'l' || it.code == 'q' || it.code == 'n';
        if (isSigned && it.size < 8 && (u >> (it.size * 8 - 1)) & 1) u |= ~uint64_t{0} << (it.size * 8);
        if (!isSigned && it.size == 8 && (u >> 63)) m.raise(m.types.overflowError, "integer too large (tensorlens integers are 64-bit)");
        out.push_back(makeInt(static_cast<int64_t>(u)));
      }
    }
  }
  return makeTuple(std::move(out));
}

std::string bytesOf(CallContext& c, const Value& v) {
  if (const std::string* b = asBytes(v)) return *b;
  if (isUnknown(v)) throw NeedsKnownValue{};
  c.typeError("a bytes-like object is required, not '" + importsOf(c.interp).typeName(v) + "'");
}

std::shared_ptr<ModuleObj> makeStructNative(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("_struct");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "pack", "format, args", [](CallContext& c) -> Value {
    return makeBytes(pack(c, c.toStr(c.arg(0)), c.toList(c.arg(1))));
  });
  defineNative(ns, "unpack", "format, buffer, offset, exact", [](CallContext& c) -> Value {
    int64_t off = c.toInt(c.arg(2));
    std::string d = bytesOf(c, c.arg(1));
    if (off < 0) off += static_cast<int64_t>(d.size());
    if (off < 0) c.interp.raise("ValueError", "offset out of range");
    return unpack(c, c.toStr(c.arg(0)), d, static_cast<size_t>(off), c.toBool(c.arg(3)));
  });
  defineNative(ns, "calcsize", "format", [mp](CallContext& c) -> Value {
    return makeInt(static_cast<int64_t>(parse(*mp, c.toStr(c.arg(0))).size));
  });
  return mod;
}

const char* kStruct = R"PY(
import _struct


class error(Exception):
    pass


def pack(fmt, *args):
    return _struct.pack(fmt, args)


def pack_into(fmt, buffer, offset, *args):
    data = _struct.pack(fmt, args)
    buffer[offset:offset + len(data)] = data


def unpack(fmt, buffer):
    return _struct.unpack(fmt, buffer, 0, True)


def unpack_from(fmt, buffer, offset=0):
    return _struct.unpack(fmt, buffer, offset, False)


def calcsize(fmt):
    return _struct.calcsize(fmt)


def iter_unpack(fmt, buffer):
    n = calcsize(fmt)
    if n == 0 or len(buffer) % n:
        raise error('iterative unpacking requires a buffer of a multiple of %d bytes' % n)
    return iter([_struct.unpack(fmt, buffer, i, False) for i in range(0, len(buffer), n)])


class Struct:
    def __init__(self, format):
        self.format = format
        self.size = calcsize(format)

    def pack(self, *args):
        return _struct.pack(self.format, args)

    def unpack(self, buffer):
        return _struct.unpack(self.format, buffer, 0, True)

    def unpack_from(self, buffer, offset=0):
        return _struct.unpack(self.format, buffer, offset, False)

    def iter_unpack(self, buffer):
        return iter_unpack(self.format, buffer)
)PY";

}  // namespace

void registerStructModule(ModuleRegistry& r) {
  r.add("_struct", makeStructNative);
  r.addSource("struct", kStruct);
}

}  // namespace tlens::interp
