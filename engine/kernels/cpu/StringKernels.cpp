// CPU kernels of the string ops (engine/ops/defs/StringOps.cpp): StringJoin, AsString,
// StringToNumber, StringLength, DecodeCSV, DecodeRaw. Errors read as TensorFlow's kernels word
// them (as_string_op.cc, string_to_number_op.cc, decode_csv_op.cc, decode_raw_op.cc).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "engine/core/Dispatch.h"
#include "engine/runtime/Kernel.h"

namespace tlens {

namespace {

void stringJoinKernel(KernelContext& c) {
  Tensor& out = c.allocateOutput(0);
  const std::string sep = c.getString("separator");
  const int64_t n = out.numElements();
  for (int64_t i = 0; i < n; ++i) {
    std::string s;
    for (size_t k = 0; k < c.numInputs(); ++k) {
      const Tensor& in = c.input(k);
      if (k) s += sep;
      s += in.strings()[in.numElements() == 1 && in.rank() == 0 ? 0 : i];
    }
    out.strings()[i] = std::move(s);
  }
}

/// printf's format as AsString builds it: %[fill width][.precision](d|lld|f|e|g).
std::string asStringFormat(const KernelContext& c, DType t) {
  std::string f = "%";
  const int64_t width = c.getInt("width", -1), precision = c.getInt("precision", -1);
  if (width > -1) f += c.getString("fill") + std::to_string(width);
  if (precision > -1) f += "." + std::to_string(precision);
  if (isFloating(t)) f += c.getBool("shortest") ? "g" : c.getBool("scientific") ? "e" : "f";
  else f += "lld";
  return f;
}

void asStringKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocateOutput(0);
  if (in.dtype() == DType::Bool) {
    for (int64_t i = 0; i < in.numElements(); ++i) out.strings()[i] = in.data<bool>()[i] ? "true" : "false";
    return;
  }
  const std::string fmt = asStringFormat(c, in.dtype());
  char buf[512];
  for (int64_t i = 0; i < in.numElements(); ++i) {
    int n = isFloating(in.dtype()) ? std::snprintf(buf, sizeof buf, fmt.c_str(), in.getDouble(i))
                                   : std::snprintf(buf, sizeof buf, fmt.c_str(), static_cast<long long>(in.getInt(i)));
    if (n < 0) c.fail("AsString: cannot format element " + std::to_string(i));
    if (static_cast<size_t>(n) >= sizeof buf) {  // a wide `width`
      std::string big(static_cast<size_t>(n) + 1, '\0');
      if (isFloating(in.dtype())) std::snprintf(big.data(), big.size(), fmt.c_str(), in.getDouble(i));
      else std::snprintf(big.data(), big.size(), fmt.c_str(), static_cast<long long>(in.getInt(i)));
      big.resize(static_cast<size_t>(n));
      out.strings()[i] = std::move(big);
    } else {
      out.strings()[i].assign(buf, static_cast<size_t>(n));
    }
  }
}

/// TensorFlow's safe_strto*: surrounding whitespace allowed, the rest must be the number.
std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool parseInt(std::string_view text, DType t, int64_t& v) {
  const std::string s(trimmed(text));
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  if (t == DType::Int32 && (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max())) return false;
  v = x;
  return true;
}

bool parseFloat(std::string_view text, DType t, double& v) {
  const std::string s(trimmed(text));
  if (s.empty()) return false;
  if (s.size() > 1 && (s[1] == 'x' || s[1] == 'X' || (s.size() > 2 && (s[2] == 'x' || s[2] == 'X')))) return false;
  char* end = nullptr;
  v = t == DType::Float32 ? static_cast<double>(std::strtof(s.c_str(), &end)) : std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

/// Element i of `out` (a numeric tensor) from `text`; false when it is no number of that dtype.
bool storeNumber(Tensor& out, int64_t i, std::string_view text) {
  const DType t = out.dtype();
  if (isFloating(t)) {
    double v = 0;
    if (!parseFloat(text, t, v)) return false;
    out.setDouble(i, v);
    return true;
  }
  int64_t v = 0;
  if (!parseInt(text, t, v)) return false;
  if (t == DType::Int32) out.data<int32_t>()[i] = static_cast<int32_t>(v);
  else out.data<int64_t>()[i] = v;
  return true;
}

void stringToNumberKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocateOutput(0);
  for (int64_t i = 0; i < in.numElements(); ++i)
    if (!storeNumber(out, i, in.strings()[i]))
      c.fail("StringToNumberOp could not correctly convert string: " + in.strings()[i]);
}

void stringLengthKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  Tensor& out = c.allocateOutput(0);
  const bool chars = c.getString("unit", "BYTE") == "UTF8_CHAR";
  for (int64_t i = 0; i < in.numElements(); ++i) {
    const std::string& s = in.strings()[i];
    const size_t n = chars ? static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }))
                           : s.size();
    out.data<int32_t>()[i] = static_cast<int32_t>(n);
  }
}

/// decode_csv_op.cc's ExtractFields: RFC 4180 fields, quotes doubled inside quoted fields.
std::vector<std::string> csvFields(const KernelContext& c, std::string_view in, char delim, bool quotes) {
  std::vector<std::string> fields;
  if (in.empty()) return fields;
  size_t i = 0;
  while (i < in.size()) {
    if (in[i] == '\n' || in[i] == '\r') {
      ++i;
      continue;
    }
    const bool quoted = quotes && in[i] == '"';
    if (quoted) ++i;
    std::string field;
    if (!quoted) {
      while (i < in.size() && in[i] != delim) {
        if ((quotes && in[i] == '"') || in[i] == '\n' || in[i] == '\r')
          c.fail("Unquoted fields cannot have quotes/CRLFs inside");
        field += in[i++];
      }
      ++i;
    } else {
      while (i + 1 < in.size() && (in[i] != '"' || in[i + 1] != delim)) {
        if (in[i] != '"') {
          field += in[i++];
        } else {
          if (in[i + 1] != '"') c.fail("Quote inside a string has to be escaped by another quote");
          field += '"';
          i += 2;
        }
      }
      if (!(i < in.size() && in[i] == '"' && (i == in.size() - 1 || in[i + 1] == delim)))
        c.fail("Quoted field has to end with quote followed by delim or end");
      i += 2;
    }
    fields.push_back(std::move(field));
  }
  if (in.back() == delim) fields.emplace_back();
  return fields;
}

void decodeCsvKernel(KernelContext& c) {
  const Tensor& records = c.input(0);
  const size_t numFields = c.numInputs() - 1;
  const char delim = c.getString("field_delim", ",")[0];
  const bool quotes = c.getBool("use_quote_delim", true);
  const std::string na = c.getString("na_value");
  std::vector<Tensor*> outs;
  for (size_t f = 0; f < numFields; ++f) outs.push_back(&c.allocateOutput(f));
  for (int64_t r = 0; r < records.numElements(); ++r) {
    std::vector<std::string> fields = csvFields(c, records.strings()[r], delim, quotes);
    if (fields.size() != numFields)
      c.fail("Expect " + std::to_string(numFields) + " fields but have " + std::to_string(fields.size()) +
             " in record " + std::to_string(r));
    for (size_t f = 0; f < numFields; ++f) {
      Tensor& out = *outs[f];
      const Tensor& def = c.input(f + 1);
      if (fields[f].empty() || fields[f] == na) {
        if (def.numElements() != 1)
          c.fail("Field " + std::to_string(f) + " is required but missing in record " + std::to_string(r) + "!");
        if (out.dtype() == DType::String) out.strings()[r] = def.strings()[0];
        else if (isFloating(out.dtype())) out.setDouble(r, def.getDouble(0));
        else if (out.dtype() == DType::Int32) out.data<int32_t>()[r] = def.data<int32_t>()[0];
        else out.data<int64_t>()[r] = def.data<int64_t>()[0];
        continue;
      }
      if (out.dtype() == DType::String) {
        out.strings()[r] = fields[f];
      } else if (!storeNumber(out, r, fields[f])) {
        const std::string kind = out.dtype() == DType::Float32 ? "float" : out.dtype() == DType::Float64 ? "double"
                                                                                                         : std::string(dtypeName(out.dtype()));
        c.fail("Field " + std::to_string(f) + " in record " + std::to_string(r) + " is not a valid " + kind + ": " + fields[f]);
      }
    }
  }
}

void decodeRawKernel(KernelContext& c) {
  const Tensor& in = c.input(0);
  const DType t = c.getDType("out_type", DType::UInt8);
  const size_t size = dtypeSize(t);
  const int64_t n = in.numElements();
  const size_t len = n ? in.strings()[0].size() : 0;
  for (int64_t i = 1; i < n; ++i)
    if (in.strings()[i].size() != len)
      c.fail("DecodeRaw requires input strings to all be the same size, but element " + std::to_string(i) +
             " has size " + std::to_string(in.strings()[i].size()) + " != " + std::to_string(len));
  if (len % size)
    c.fail("Input to DecodeRaw has length " + std::to_string(len) + " that is not a multiple of " + std::to_string(size) +
           ", the size of " + std::string(dtypeName(t)));
  ConcreteShape shape = in.shape();
  shape.push_back(static_cast<int64_t>(len / size));
  Tensor& out = c.allocateOutput(0, shape, t);
  char* dst = static_cast<char*>(out.raw());
  const bool swap = !c.getBool("little_endian", true) && size > 1;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + static_cast<size_t>(i) * len, in.strings()[i].data(), len);
    if (swap)
      for (size_t k = 0; k < len; k += size) std::reverse(dst + static_cast<size_t>(i) * len + k, dst + static_cast<size_t>(i) * len + k + size);
  }
  if (t == DType::Bool)  // any nonzero byte is true
    for (int64_t i = 0; i < out.numElements(); ++i) out.data<bool>()[i] = reinterpret_cast<unsigned char*>(dst)[i] != 0;
}

}  // namespace

void registerCpuStringKernels(KernelRegistry& r) {
  r.add("StringJoin", Device::CPU, stringJoinKernel);
  r.add("AsString", Device::CPU, asStringKernel);
  r.add("StringToNumber", Device::CPU, stringToNumberKernel);
  r.add("StringLength", Device::CPU, stringLengthKernel);
  r.add("DecodeCSV", Device::CPU, decodeCsvKernel);
  r.add("DecodeRaw", Device::CPU, decodeRawKernel);
}

}  // namespace tlens
