#include "engine/core/Tensor.h"

#include "engine/core/Convert.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "engine/core/Dispatch.h"

namespace tlens {

Tensor::Tensor(DType dtype, ConcreteShape shape, Allocator* alloc, const char* what)
    : dtype_(dtype), shape_(std::move(shape)) {
  numElements_ = 1;
  for (int64_t d : shape_) {
    if (d < 0) invalidArgument("Dimension " + std::to_string(d) + " must be >= 0 in shape " + concreteStr(shape_));
    if (d != 0 && numElements_ > std::numeric_limits<int64_t>::max() / d)
      throwError(ErrorCode::ResourceExhausted, "Tensor of shape " + concreteStr(shape_) + " has too many elements");
    numElements_ *= d;
  }
  if (dtype == DType::String) {  // host string storage, no Buffer
    strs_ = std::make_shared<std::vector<std::string>>(static_cast<size_t>(numElements_));
    return;
  }
  size_t bytes = static_cast<size_t>(numElements_) * dtypeSize(dtype);
  buf_ = std::make_shared<Buffer>(alloc ? alloc : cpuAllocator(), bytes, what);
}

namespace {

[[noreturn]] void notANumber(const char* what) {
  invalidArgument(std::string(what) + ": the elements of a string tensor are not numbers");
}

}  // namespace

Tensor Tensor::fromStrings(std::vector<std::string> v, ConcreteShape shape) {
  Tensor t(DType::String, std::move(shape));
  if (static_cast<size_t>(t.numElements()) != v.size())
    invalidArgument("fromStrings: " + std::to_string(v.size()) + " values for shape " + concreteStr(t.shape()));
  *t.strs_ = std::move(v);
  return t;
}

Tensor Tensor::filled(DType dtype, ConcreteShape shape, double value) {
  if (dtype == DType::String) notANumber("filled");
  Tensor t(dtype, std::move(shape));
  dispatchAll(dtype, [&](auto zero) {
    using T = decltype(zero);
    T v = static_cast<T>(value);
    T* p = t.data<T>();
    for (int64_t i = 0; i < t.numElements(); ++i) p[i] = v;
  });
  return t;
}

Device Tensor::device() const { return buf_ ? buf_->allocator()->device() : Device::cpu(); }

double Tensor::getDouble(int64_t i) const {
  if (strs_) notANumber("getDouble");
  return dispatchAll(dtype_, [&](auto zero) -> double {
    using T = decltype(zero);
    return static_cast<double>(data<T>()[i]);
  });
}

int64_t Tensor::getInt(int64_t i) const {
  if (strs_) notANumber("getInt");
  return dispatchAll(dtype_, [&](auto zero) -> int64_t {
    using T = decltype(zero);
    if constexpr (std::is_integral_v<T>) return static_cast<int64_t>(data<T>()[i]);  // exact
    const double d = static_cast<double>(data<T>()[i]);
    // NaN and values outside int64 give INT64_MIN, as x86's conversion (and so numpy) does,
    // instead of C++'s undefined behaviour.
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  });
}

void Tensor::setDouble(int64_t i, double v) {
  if (strs_) notANumber("setDouble");
  dispatchAll(dtype_, [&](auto zero) {
    using T = decltype(zero);
    data<T>()[i] = convertDouble<T>(v);
  });
}

std::vector<int64_t> Tensor::toInt64Vector() const {
  std::vector<int64_t> v(static_cast<size_t>(numElements_));
  for (int64_t i = 0; i < numElements_; ++i) v[static_cast<size_t>(i)] = getInt(i);
  return v;
}

std::vector<double> Tensor::toDoubleVector() const {
  std::vector<double> v(static_cast<size_t>(numElements_));
  for (int64_t i = 0; i < numElements_; ++i) v[static_cast<size_t>(i)] = getDouble(i);
  return v;
}

Tensor Tensor::reshaped(ConcreteShape shape) const {
  if (tlens::numElements(shape) != numElements_)
    invalidArgument("Cannot reshape a tensor with " + std::to_string(numElements_) +
                    " elements to shape " + concreteStr(shape));
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::clone() const {
  if (strs_) return fromStrings(*strs_, shape_);
  Allocator* a = buf_ ? buf_->allocator() : nullptr;
  Tensor t(dtype_, shape_, a);
  if (bytes()) a->copyWithin(t.raw(), raw(), bytes());
  return t;
}

bool Tensor::hostAccessible() const { return !buf_ || buf_->allocator()->hostAccessible(); }

Tensor Tensor::copyTo(Allocator* to, const char* what) const {
  Allocator* from = buf_ ? buf_->allocator() : nullptr;
  if (!valid() || from == to || strs_) return *this;  // strings stay on the host
  Tensor t(dtype_, shape_, to, what);
  size_t n = bytes();
  if (!n) return t;
  bool srcHost = from->hostAccessible(), dstHost = to->hostAccessible();
  if (srcHost && dstHost) std::memcpy(t.raw(), raw(), n);
  else if (srcHost) to->copyFromHost(t.raw(), raw(), n);
  else if (dstHost) from->copyToHost(t.raw(), raw(), n);
  else {  // device to another device: staged through the host
    std::vector<char> staging(n);
    from->copyToHost(staging.data(), raw(), n);
    to->copyFromHost(t.raw(), staging.data(), n);
  }
  return t;
}

Tensor Tensor::toHost() const { return hostAccessible() ? *this : copyTo(cpuAllocator()); }

Tensor Tensor::cast(DType to) const {
  if (to == dtype_) return *this;
  if (to == DType::String || strs_)
    throwError(ErrorCode::Unimplemented, "Cast " + std::string(dtypeName(dtype_)) + " to " +
                                             std::string(dtypeName(to)) + " is not supported");
  Tensor t(to, shape_);
  dispatchAll(dtype_, [&](auto zf) {
    using F = decltype(zf);
    dispatchAll(to, [&](auto zt) {
      using T = decltype(zt);
      const F* s = data<F>();
      T* d = t.data<T>();
      for (int64_t i = 0; i < numElements_; ++i) {
        if constexpr (std::is_same_v<T, bool>) {
          d[i] = static_cast<double>(s[i]) != 0.0;
        } else if constexpr (std::is_integral_v<T> && std::is_integral_v<F>) {
          d[i] = static_cast<T>(s[i]);  // modular, as numpy's astype (and exact for int64)
        } else {
          d[i] = convertDouble<T>(static_cast<double>(s[i]));  // engine/core/Convert.h
        }
      }
    });
  });
  return t;
}

namespace {

/// Python's repr of bytes: b'abc', b"it's", b'\\xff'.
void formatBytes(std::ostringstream& os, const std::string& s) {
  const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  os << 'b' << q;
  for (unsigned char ch : s) {
    if (ch == '\\' || ch == static_cast<unsigned char>(q)) os << '\\' << ch;
    else if (ch == '\n') os << "\\n";
    else if (ch == '\r') os << "\\r";
    else if (ch == '\t') os << "\\t";
    else if (ch < 32 || ch >= 127) {
      static const char* hex = "0123456789abcdef";
      os << "\\x" << hex[ch >> 4] << hex[ch & 15];
    } else os << ch;
  }
  os << q;
}

void formatElement(std::ostringstream& os, const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::String: formatBytes(os, t.strings()[i]); break;
    case DType::Bool: os << (t.data<bool>()[i] ? "True" : "False"); break;
    case DType::Int32: case DType::Int64: case DType::UInt8: os << t.getInt(i); break;
    default: {
      double v = t.getDouble(i);
      if (std::isnan(v)) os << "nan";
      else if (std::isinf(v)) os << (v > 0 ? "inf" : "-inf");
      else if (v == std::floor(v) && std::fabs(v) < 1e15) os << static_cast<int64_t>(v) << ".";
      else os << v;
    }
  }
}

void formatLevel(std::ostringstream& os, const Tensor& t, int dim, int64_t offset, int64_t stride,
                 int64_t maxPerDim, int indent) {
  const int64_t n = t.shape()[static_cast<size_t>(dim)];
  const bool last = dim == t.rank() - 1;
  const int64_t inner = stride / std::max<int64_t>(n, 1);
  os << "[";
  for (int64_t i = 0; i < n; ++i) {
    if (n > maxPerDim && i == maxPerDim / 2) {
      os << (last ? "... " : "...\n" + std::string(static_cast<size_t>(indent + 1), ' '));
      i = n - maxPerDim / 2;
    }
    if (last) formatElement(os, t, offset + i);
    else formatLevel(os, t, dim + 1, offset + i * inner, inner, maxPerDim, indent + 1);
    if (i + 1 < n) os << (last ? " " : "\n" + std::string(static_cast<size_t>(indent + 1), ' '));
  }
  os << "]";
}

}  // namespace

std::string Tensor::str(int64_t maxElements) const {
  if (!valid()) return "<invalid tensor>";
  std::ostringstream os;
  os.precision(6);
  if (rank() == 0) {
    formatElement(os, *this, 0);
    return os.str();
  }
  int64_t maxPerDim = numElements_ <= maxElements ? std::numeric_limits<int64_t>::max() : 6;
  formatLevel(os, *this, 0, 0, numElements_, maxPerDim, 0);
  return os.str();
}

std::string Tensor::typeStr() const { return std::string(dtypeName(dtype_)) + concreteStr(shape_); }

bool tensorsEqual(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.dtype() == DType::String) {
    for (int64_t i = 0; i < a.numElements(); ++i)
      if (a.strings()[i] != b.strings()[i]) return false;
    return true;
  }
  for (int64_t i = 0; i < a.numElements(); ++i) {
    double x = a.getDouble(i), y = b.getDouble(i);
    if (!(x == y || (std::isnan(x) && std::isnan(y)))) return false;
  }
  return true;
}

double maxRelativeError(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return std::numeric_limits<double>::infinity();
  if (a.dtype() == DType::String || b.dtype() == DType::String)
    return tensorsEqual(a, b) ? 0.0 : std::numeric_limits<double>::infinity();
  double worst = 0;
  for (int64_t i = 0; i < a.numElements(); ++i) {
    double x = a.getDouble(i), y = b.getDouble(i);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (std::isinf(x) && x == y) continue;
    double e = std::fabs(x - y) / std::max(1.0, std::fabs(y));
    if (!(e <= worst)) worst = e;  // NaN vs number makes worst NaN -> treat as inf below
  }
  return std::isnan(worst) ? std::numeric_limits<double>::infinity() : worst;
}

}  // namespace tlens
