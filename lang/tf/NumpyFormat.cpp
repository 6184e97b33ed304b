#include "lang/tf/NumpyFormat.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "lang/interp/Bytes.h"
#include "lang/interp/Function.h"
#include "lang/interp/Interpreter.h"
#include "lang/interp/Module.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

namespace {

// --- Dragon4 (numpy/core/src/multiarray/dragon4.c) -------------------------------------------
// Steele & White's free-format printing with Burger & Dybvig's exponent estimate, over exact
// big integers, with numpy's cutoffs: `cutoffMax` ends the digits (precision), `cutoffMin` keeps
// them going past uniqueness (min_digits). Boundaries are inclusive for even mantissas.

/// An unsigned big integer in base 2^32 (little endian, no leading zero words).
class BigInt {
 public:
  static BigInt of(uint64_t v) {
    BigInt b;
    while (v) {
      b.w_.push_back(static_cast<uint32_t>(v));
      v >>= 32;
    }
    return b;
  }
  bool isZero() const { return w_.empty(); }
  void shiftLeft(int bits) {
    if (isZero() || bits <= 0) return;
    const size_t words = static_cast<size_t>(bits / 32);
    const int rest = bits % 32;
    if (rest) {
      uint32_t carry = 0;
      for (uint32_t& x : w_) {
        uint32_t next = x >> (32 - rest);
        x = (x << rest) | carry;
        carry = next;
      }
      if (carry) w_.push_back(carry);
    }
    w_.insert(w_.begin(), words, 0u);
  }
  void multiply(uint32_t m) {
    uint64_t carry = 0;
    for (uint32_t& x : w_) {
      uint64_t p = static_cast<uint64_t>(x) * m + carry;
      x = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry) w_.push_back(static_cast<uint32_t>(carry));
    trim();
  }
  void multiplyPow10(int n) {
    static const uint32_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
    for (; n >= 9; n -= 9) multiply(kPow10[9]);
    if (n > 0) multiply(kPow10[n]);
  }
  static int compare(const BigInt& a, const BigInt& b) {
    if (a.w_.size() != b.w_.size()) return a.w_.size() < b.w_.size() ? -1 : 1;
    for (size_t i = a.w_.size(); i-- > 0;)
      if (a.w_[i] != b.w_[i]) return a.w_[i] < b.w_[i] ? -1 : 1;
    return 0;
  }
  static BigInt sum(const BigInt& a, const BigInt& b) {
    BigInt r;
    const size_t n = std::max(a.w_.size(), b.w_.size());
    r.w_.resize(n);
    uint64_t carry = 0;
    for (size_t i = 0; i < n; ++i) {
      uint64_t s = carry + (i < a.w_.size() ? a.w_[i] : 0) + (i < b.w_.size() ? b.w_[i] : 0);
      r.w_[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
    }
    if (carry) r.w_.push_back(static_cast<uint32_t>(carry));
    return r;
  }
  /// *this -= b, with *this >= b.
  void subtract(const BigInt& b) {
    int64_t borrow = 0;
    for (size_t i = 0; i < w_.size(); ++i) {
      int64_t d = static_cast<int64_t>(w_[i]) - borrow - (i < b.w_.size() ? b.w_[i] : 0);
      borrow = d < 0;
      w_[i] = static_cast<uint32_t>(d + (borrow ? (int64_t{1} << 32) : 0));
    }
    trim();
  }
  /// The quotient *this / d (at most 9 here), leaving the remainder in *this.
  uint32_t divideSmallQuotient(const BigInt& d) {
    uint32_t q = 0;
    while (compare(*this, d) >= 0) {
      subtract(d);
      ++q;
    }
    return q;
  }

 private:
  void trim() {
    while (!w_.empty() && w_.back() == 0) w_.pop_back();
  }
  std::vector<uint32_t> w_;
};

/// A finite binary float as numpy's Dragon4 sees it: value = mantissa * 2^exponent.
struct FloatParts {
  uint64_t mantissa = 0;
  int exponent = 0;
  int mantissaBit = 0;
  bool unequalMargins = false;
  bool negative = false;
};

int log2Floor(uint64_t v) { return 63 - __builtin_clzll(v); }

FloatParts decompose(double x, DType dtype) {
  FloatParts p;
  uint64_t frac;
  int biased, fracBits, bias;
  if (dtype == DType::Float16) {
    uint16_t bits = floatToHalfBits(static_cast<float>(x));
    p.negative = bits >> 15;
    frac = bits & 0x3ffu;
    biased = (bits >> 10) & 0x1f;
    fracBits = 10;
    bias = 15;
  } else if (dtype == DType::Float32) {
    float f = static_cast<float>(x);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    p.negative = bits >> 31;
    frac = bits & 0x7fffffu;
    biased = static_cast<int>((bits >> 23) & 0xff);
    fracBits = 23;
    bias = 127;
  } else {
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    p.negative = bits >> 63;
    frac = bits & ((uint64_t{1} << 52) - 1);
    biased = static_cast<int>((bits >> 52) & 0x7ff);
    fracBits = 52;
    bias = 1023;
  }
  if (biased != 0) {
    p.mantissa = frac | (uint64_t{1} << fracBits);
    p.exponent = biased - bias - fracBits;
    p.mantissaBit = fracBits;
    p.unequalMargins = biased != 1 && frac == 0;
  } else {
    p.mantissa = frac;
    p.exponent = 1 - bias - fracBits;
    p.mantissaBit = frac ? log2Floor(frac) : 0;
  }
  return p;
}

enum class Cutoff { TotalLength, FractionLength };
enum class Trim { None, Zeros, LeaveOneZero, DptZeros };  // 'k', '.', '0', '-'

Trim trimOf(char c) {
  switch (c) {
    case '.': return Trim::Zeros;
    case '0': return Trim::LeaveOneZero;
    case '-': return Trim::DptZeros;
    default: return Trim::None;
  }
}

struct Digits {
  std::string digits;
  int exponent = 0;  ///< decimal exponent of the first digit
};

Digits dragon4(const FloatParts& p, bool unique, Cutoff mode, int cutoffMax, int cutoffMin) {
  if (p.mantissa == 0) return {"0", 0};
  const bool isEven = (p.mantissa & 1) == 0;
  BigInt value = BigInt::of(p.mantissa), scale, marginLow;
  const int e = p.exponent;
  if (p.unequalMargins) {
    if (e > 0) {
      value.shiftLeft(e + 2);
      scale = BigInt::of(4);
      marginLow = BigInt::of(1);
      marginLow.shiftLeft(e);
    } else {
      value.shiftLeft(2);
      scale = BigInt::of(1);
      scale.shiftLeft(-e + 2);
      marginLow = BigInt::of(1);
    }
  } else {
    if (e > 0) {
      value.shiftLeft(e + 1);
      scale = BigInt::of(2);
      marginLow = BigInt::of(1);
      marginLow.shiftLeft(e);
    } else {
      value.shiftLeft(1);
      scale = BigInt::of(1);
      scale.shiftLeft(-e + 1);
      marginLow = BigInt::of(1);
    }
  }
  auto marginHigh = [&] {
    if (!p.unequalMargins) return marginLow;
    BigInt h = marginLow;
    h.shiftLeft(1);
    return h;
  };

  const double log10_2 = 0.30102999566398119521373889472449;
  int digitExponent = static_cast<int>(std::ceil(static_cast<double>(p.mantissaBit + e) * log10_2 - 0.69));
  // A value below the fractional cutoff starts at the cutoff digit (and rounds there).
  if (cutoffMax >= 0 && mode == Cutoff::FractionLength && digitExponent <= -cutoffMax) digitExponent = -cutoffMax + 1;
  if (digitExponent > 0) {
    scale.multiplyPow10(digitExponent);
  } else if (digitExponent < 0) {
    value.multiplyPow10(-digitExponent);
    marginLow.multiplyPow10(-digitExponent);
  }
  if (BigInt::compare(value, scale) >= 0) {
    digitExponent += 1;
  } else {
    value.multiply(10);
    marginLow.multiply(10);
  }

  int cutoffMaxExponent = digitExponent - 16384;
  if (cutoffMax >= 0) {
    int desired = mode == Cutoff::TotalLength ? digitExponent - cutoffMax : -cutoffMax;
    cutoffMaxExponent = std::max(cutoffMaxExponent, desired);
  }
  int cutoffMinExponent = digitExponent;
  if (cutoffMin >= 0) {
    int desired = mode == Cutoff::TotalLength ? digitExponent - cutoffMin : -cutoffMin;
    cutoffMinExponent = std::min(cutoffMinExponent, desired);
  }

  Digits out;
  out.exponent = digitExponent - 1;
  bool low = false, high = false;
  uint32_t digit;
  for (;;) {
    digitExponent -= 1;
    digit = value.divideSmallQuotient(scale);
    if (unique) {
      BigInt valueHigh = BigInt::sum(value, marginHigh());
      int cmp = BigInt::compare(value, marginLow);
      low = isEven ? cmp <= 0 : cmp < 0;
      cmp = BigInt::compare(valueHigh, scale);
      high = isEven ? cmp >= 0 : cmp > 0;
      if (((low || high) && digitExponent <= cutoffMinExponent) || digitExponent == cutoffMaxExponent) break;
    } else if (value.isZero() || digitExponent == cutoffMaxExponent) {
      break;
    }
    out.digits.push_back(static_cast<char>('0' + digit));
    value.multiply(10);
    if (unique) marginLow.multiply(10);
  }

  bool roundDown = low;
  if (low == high) {  // both directions legal (or neither): round to the closest, ties to even
    BigInt twice = value;
    twice.shiftLeft(1);
    int cmp = BigInt::compare(twice, scale);
    roundDown = cmp < 0;
    if (cmp == 0) roundDown = (digit & 1) == 0;
  }
  if (roundDown) {
    out.digits.push_back(static_cast<char>('0' + digit));
  } else if (digit == 9) {
    // Carry into the previous digits; all nines become a 1 at the next exponent.
    for (;;) {
      if (out.digits.empty()) {
        out.digits = "1";
        out.exponent += 1;
        break;
      }
      char last = out.digits.back();
      out.digits.pop_back();
      if (last != '9') {
        out.digits.push_back(static_cast<char>(last + 1));
        break;
      }
    }
  } else {
    out.digits.push_back(static_cast<char>('0' + digit + 1));
  }
  return out;
}

std::string nonFinite(double x, bool sign) {
  if (std::isnan(x)) return "nan";
  return std::string(x < 0 ? "-" : sign ? "+" : "") + "inf";
}

std::string positional(double x, DType dtype, bool unique, Cutoff mode, int precision, int minDigits, Trim trim,
                       bool sign, int digitsLeft, int digitsRight) {
  if (!std::isfinite(x)) return nonFinite(x, sign);
  FloatParts p = decompose(x, dtype);
  std::string out;
  int hasSign = 0;
  if (p.negative || sign) {
    out += p.negative ? '-' : '+';
    hasSign = 1;
  }
  Digits d = dragon4(p, unique, mode, precision, minDigits);
  const int numDigits = static_cast<int>(d.digits.size());
  int numWhole, numFraction = 0;
  if (d.exponent >= 0) {
    numWhole = d.exponent + 1;
    if (numDigits <= numWhole) {
      out += d.digits;
      out.append(static_cast<size_t>(numWhole - numDigits), '0');
    } else {
      out += d.digits.substr(0, static_cast<size_t>(numWhole));
      out += '.';
      out += d.digits.substr(static_cast<size_t>(numWhole));
      numFraction = numDigits - numWhole;
    }
  } else {
    const int zeros = -(d.exponent + 1);
    out += "0.";
    out.append(static_cast<size_t>(zeros), '0');
    out += d.digits;
    numFraction = zeros + numDigits;
    numWhole = 1;
  }
  if (trim != Trim::DptZeros && numFraction == 0) out += '.';
  const int add = unique ? minDigits : precision;
  int desired = add < 0 ? 0 : add;
  if (mode == Cutoff::TotalLength) desired = add - numWhole;
  if (trim == Trim::LeaveOneZero) {
    if (numFraction == 0) {
      out += '0';
      ++numFraction;
    }
  } else if (trim == Trim::None && desired > numFraction) {
    out.append(static_cast<size_t>(desired - numFraction), '0');
    numFraction = desired;
  }
  if (trim != Trim::None && numFraction > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --numFraction;
    }
    if (out.back() == '.') {
      if (trim == Trim::LeaveOneZero) {
        out += '0';
        ++numFraction;
      } else if (trim == Trim::DptZeros) {
        out.pop_back();
      }
    }
  }
  if (digitsRight >= numFraction) {
    if (trim == Trim::DptZeros && numFraction == 0) out += ' ';
    out.append(static_cast<size_t>(digitsRight - numFraction), ' ');
  }
  if (digitsLeft > numWhole + hasSign) out.insert(0, static_cast<size_t>(digitsLeft - numWhole - hasSign), ' ');
  return out;
}

std::string scientific(double x, DType dtype, bool unique, int precision, int minDigits, Trim trim, bool sign,
                       int digitsLeft, int expDigits) {
  if (!std::isfinite(x)) return nonFinite(x, sign);
  FloatParts p = decompose(x, dtype);
  std::string out;
  const bool hasSign = p.negative || sign;
  const int leftChars = 1 + (hasSign ? 1 : 0);
  if (digitsLeft > leftChars) out.append(static_cast<size_t>(digitsLeft - leftChars), ' ');
  if (hasSign) out += p.negative ? '-' : '+';
  Digits d = dragon4(p, unique, Cutoff::TotalLength, precision < 0 ? -1 : precision + 1, minDigits < 0 ? -1 : minDigits + 1);
  out += d.digits[0];
  int numFraction = static_cast<int>(d.digits.size()) - 1;
  if (numFraction > 0) {
    out += '.';
    out += d.digits.substr(1);
  }
  if (trim != Trim::DptZeros && numFraction == 0) out += '.';
  int add = unique ? minDigits : precision;
  add = add < 0 ? 0 : add;
  if (trim == Trim::LeaveOneZero) {
    if (numFraction == 0) {
      out += '0';
      ++numFraction;
    }
  } else if (trim == Trim::None && add > numFraction) {
    out.append(static_cast<size_t>(add - numFraction), '0');
    numFraction = add;
  }
  if (trim != Trim::None && numFraction > 0) {
    while (out.back() == '0') {
      out.pop_back();
      --numFraction;
    }
    if (trim == Trim::LeaveOneZero && out.back() == '.') {
      out += '0';
      ++numFraction;
    }
  }
  if (expDigits > 5) expDigits = 5;
  if (expDigits < 0) expDigits = 2;
  int ex = d.exponent;
  out += 'e';
  out += ex >= 0 ? '+' : '-';
  std::string digits = std::to_string(ex < 0 ? -ex : ex);
  if (static_cast<int>(digits.size()) < expDigits) digits.insert(0, static_cast<size_t>(expDigits) - digits.size(), '0');
  return out + digits;
}

// --- arrayprint.py ---------------------------------------------------------------------------

bool isFloatDType(DType t) { return t == DType::Float16 || t == DType::Float32 || t == DType::Float64; }

/// max / min computed in the array's own precision (float16 divides in float and rounds back).
double ratioInDType(double a, double b, DType t) {
  if (t == DType::Float64) return a / b;
  float r = static_cast<float>(a) / static_cast<float>(b);
  if (t == DType::Float16) return static_cast<double>(halfBitsToFloat(floatToHalfBits(r)));
  return r;
}

/// numpy's FloatingFormat: one layout (positional or scientific, padding, digits) for all the
/// values an array prints.
class FloatingFormat {
 public:
  FloatingFormat(const std::vector<double>& data, DType dtype, const NumpyPrintOptions& o)
      : dtype_(dtype), floatmode_(o.floatmode), suppress_(o.suppress), sign_(o.sign), nanstr_(o.nanstr), infstr_(o.infstr) {
    precision_ = floatmode_ == "unique" ? -1 : o.precision;
    fill(data);
  }

  std::string operator()(double x) const {
    if (!std::isfinite(x)) {
      std::string ret;
      if (std::isnan(x)) ret = (sign_ == '+' ? "+" : "") + nanstr_;
      else ret = (x < 0 ? "-" : sign_ == '+' ? "+" : "") + infstr_;
      int pad = padLeft_ + padRight_ + 1 - static_cast<int>(ret.size());
      return std::string(static_cast<size_t>(std::max(pad, 0)), ' ') + ret;
    }
    if (expFormat_) return scientific(x, dtype_, unique_, precision_, minDigits_, trim_, sign_ == '+', padLeft_, expSize_);
    return positional(x, dtype_, unique_, Cutoff::FractionLength, precision_, minDigits_, trim_, sign_ == '+', padLeft_, padRight_);
  }

 private:
  void fill(const std::vector<double>& data) {
    std::vector<double> finite;
    for (double x : data)
      if (std::isfinite(x)) finite.push_back(x);
    double maxVal = 0, minVal = 0;
    bool any = false;
    for (double x : finite) {
      if (x == 0) continue;
      double a = std::fabs(x);
      if (!any) maxVal = minVal = a;
      maxVal = std::max(maxVal, a);
      minVal = std::min(minVal, a);
      any = true;
    }
    if (any && (maxVal >= 1e8 || (!suppress_ && (minVal < 0.0001 || ratioInDType(maxVal, minVal, dtype_) > 1000.))))
      expFormat_ = true;

    if (finite.empty()) {
      padLeft_ = padRight_ = 0;
      trim_ = Trim::Zeros;
      expSize_ = -1;
      unique_ = true;
      minDigits_ = -1;
    } else if (expFormat_) {
      Trim trim = Trim::Zeros;
      unique_ = true;
      if (floatmode_ == "fixed") trim = Trim::None, unique_ = false;
      int maxInt = 0, maxFrac = 0, maxExp = 0;
      for (double x : finite) {
        std::string s = scientific(x, dtype_, unique_, precision_, -1, trim, sign_ == '+', -1, -1);
        size_t ePos = s.find('e'), dot = s.find('.');
        maxExp = std::max(maxExp, static_cast<int>(s.size() - ePos - 1));
        maxInt = std::max(maxInt, static_cast<int>(dot));
        maxFrac = std::max(maxFrac, static_cast<int>(ePos - dot - 1));
      }
      expSize_ = maxExp - 1;
      trim_ = Trim::None;
      precision_ = maxFrac;
      minDigits_ = precision_;
      padLeft_ = maxInt;
      padRight_ = expSize_ + 2 + precision_;
    } else {
      Trim trim = Trim::Zeros;
      unique_ = true;
      if (floatmode_ == "fixed") trim = Trim::None, unique_ = false;
      int maxInt = 0, maxFrac = 0;
      for (double x : finite) {
        std::string s = positional(x, dtype_, unique_, Cutoff::FractionLength, precision_, -1, trim, sign_ == '+', -1, -1);
        size_t dot = s.find('.');
        maxInt = std::max(maxInt, static_cast<int>(dot));
        maxFrac = std::max(maxFrac, static_cast<int>(s.size() - dot - 1));
      }
      padLeft_ = maxInt;
      padRight_ = maxFrac;
      expSize_ = -1;
      if (floatmode_ == "fixed" || floatmode_ == "maxprec_equal") {
        precision_ = minDigits_ = padRight_;
        trim_ = Trim::None;
      } else {
        trim_ = Trim::Zeros;
        minDigits_ = 0;
      }
    }
    if (sign_ == ' ' && std::none_of(finite.begin(), finite.end(), [](double x) { return std::signbit(x); })) padLeft_ += 1;
    if (data.size() != finite.size()) {
      bool negInf = sign_ != '-' || std::any_of(data.begin(), data.end(), [](double x) { return std::isinf(x) && x < 0; });
      int offset = padRight_ + 1;
      padLeft_ = std::max({padLeft_, static_cast<int>(nanstr_.size()) - offset,
                           static_cast<int>(infstr_.size()) + (negInf ? 1 : 0) - offset});
    }
  }

  DType dtype_;
  std::string floatmode_;
  bool suppress_;
  char sign_;
  std::string nanstr_, infstr_;
  int precision_;
  bool expFormat_ = false, unique_ = true;
  int padLeft_ = 0, padRight_ = 0, expSize_ = -1, minDigits_ = -1;
  Trim trim_ = Trim::Zeros;
};

/// Row-major positions of an array: element i of `shape` at `index`.
struct Layout {
  explicit Layout(const ConcreteShape& s) : shape(s), strides(s.size(), 1) {
    for (size_t i = s.size(); i-- > 1;) strides[i - 1] = strides[i] * s[i];
  }
  ConcreteShape shape;
  std::vector<int64_t> strides;
};

/// The flat indices _leading_trailing keeps: every axis cut to its first and last `edge` items
/// when longer than 2 * edge.
void cornerIndices(const Layout& l, int edge, size_t axis, int64_t base, std::vector<int64_t>& out) {
  if (axis == l.shape.size()) {
    out.push_back(base);
    return;
  }
  const int64_t n = l.shape[axis];
  auto visit = [&](int64_t i) { cornerIndices(l, edge, axis + 1, base + i * l.strides[axis], out); };
  if (n > 2 * static_cast<int64_t>(edge)) {
    for (int64_t i = 0; i < edge; ++i) visit(i);
    for (int64_t i = n - edge; i < n; ++i) visit(i);
  } else {
    for (int64_t i = 0; i < n; ++i) visit(i);
  }
}

std::string rstrip(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

void extendLine(std::string& s, std::string& line, const std::string& word, int lineWidth, const std::string& nextLinePrefix) {
  bool needsWrap = static_cast<int>(line.size() + word.size()) > lineWidth;
  if (line.size() <= nextLinePrefix.size()) needsWrap = false;
  if (needsWrap) {
    s += rstrip(line) + "\n";
    line = nextLinePrefix;
  }
  line += word;
}

class ArrayFormatter {
 public:
  ArrayFormatter(const Tensor& a, std::function<std::string(int64_t)> fmt, std::string separator, int edgeItems,
                 bool summarise)
      : a_(a), layout_(a.shape()), fmt_(std::move(fmt)), sep_(std::move(separator)), edge_(edgeItems), summarise_(summarise) {}

  std::string run(const std::string& nextLinePrefix, int lineWidth) { return recurse(0, 0, nextLinePrefix, lineWidth); }

 private:
  std::string recurse(size_t axis, int64_t base, const std::string& hanging, int width) {
    const size_t ndim = layout_.shape.size();
    if (axis == ndim) return fmt_(base);
    const size_t axesLeft = ndim - axis;
    const std::string nextHanging = hanging + " ";
    const int nextWidth = width - 1;
    const int64_t n = layout_.shape[axis];
    const int64_t stride = layout_.strides[axis];
    const bool showSummary = summarise_ && 2 * static_cast<int64_t>(edge_) < n;
    const int64_t leading = showSummary ? edge_ : 0;
    const int64_t trailing = showSummary ? edge_ : n;
    std::string s;
    if (axesLeft == 1) {
      const int elemWidth = width - std::max(static_cast<int>(rstrip(sep_).size()), 1);
      std::string line = hanging;
      for (int64_t i = 0; i < leading; ++i) {
        extendLine(s, line, recurse(axis + 1, base + i * stride, nextHanging, nextWidth), elemWidth, hanging);
        line += sep_;
      }
      if (showSummary) {
        extendLine(s, line, "...", elemWidth, hanging);
        line += sep_;
      }
      for (int64_t i = trailing; i > 1; --i) {
        extendLine(s, line, recurse(axis + 1, base + (n - i) * stride, nextHanging, nextWidth), elemWidth, hanging);
        line += sep_;
      }
      extendLine(s, line, recurse(axis + 1, base + (n - 1) * stride, nextHanging, nextWidth), elemWidth, hanging);
      s += line;
    } else {
      const std::string lineSep = rstrip(sep_) + std::string(axesLeft - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        s += hanging + recurse(axis + 1, base + i * stride, nextHanging, nextWidth) + lineSep;
      if (showSummary) s += hanging + "..." + lineSep;
      for (int64_t i = trailing; i > 1; --i)
        s += hanging + recurse(axis + 1, base + (n - i) * stride, nextHanging, nextWidth) + lineSep;
      s += hanging + recurse(axis + 1, base + (n - 1) * stride, nextHanging, nextWidth);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }

  const Tensor& a_;
  Layout layout_;
  std::function<std::string(int64_t)> fmt_;
  std::string sep_;
  int edge_;
  bool summarise_;
};

/// Python's repr of a str held as UTF-8: 'abc', "it's", '\n'.
std::string pyStrRepr(const std::string& s) {
  const bool dq = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char q = dq ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char ch : s) {
    if (ch == '\\' || ch == static_cast<unsigned char>(q)) {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch < 32 || ch == 127) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[ch >> 4];
      out += hex[ch & 15];
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + q;
}

/// _get_format_function: the element formatter for `data` (the values that will print).
std::function<std::string(int64_t)> formatFunction(const Tensor& a, const std::vector<int64_t>& shown,
                                                   const NumpyPrintOptions& o, char strKind) {
  const DType dt = a.dtype();
  if (dt == DType::String) {  // repr of each element, unpadded, as numpy prints str/bytes/objects
    if (strKind == 'U') return [&a](int64_t i) { return pyStrRepr(a.strings()[i]); };
    return [&a](int64_t i) { return interp::bytesRepr(a.strings()[i]); };
  }
  if (dt == DType::Bool) {
    if (o.boolFormatter) return [&a, f = o.boolFormatter](int64_t i) { return f(a, i); };
    const std::string trueStr = a.rank() == 0 ? "True" : " True";
    return [&a, trueStr](int64_t i) { return a.getDouble(i) != 0 ? trueStr : std::string("False"); };
  }
  if (isFloatDType(dt)) {
    if (o.floatFormatter) return [&a, f = o.floatFormatter](int64_t i) { return f(a, i); };
    std::vector<double> data;
    data.reserve(shown.size());
    for (int64_t i : shown) data.push_back(a.getDouble(i));
    auto ff = std::make_shared<FloatingFormat>(data, dt, o);
    return [&a, ff](int64_t i) { return (*ff)(a.getDouble(i)); };
  }
  if (o.intFormatter) return [&a, f = o.intFormatter](int64_t i) { return f(a, i); };
  size_t width = 0;
  if (!shown.empty()) {
    int64_t mx = a.getInt(shown[0]), mn = mx;
    for (int64_t i : shown) {
      mx = std::max(mx, a.getInt(i));
      mn = std::min(mn, a.getInt(i));
    }
    width = std::max(std::to_string(mx).size(), std::to_string(mn).size());
  }
  return [&a, width](int64_t i) {
    std::string s = std::to_string(a.getInt(i));
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
  };
}

std::string shapeTupleRepr(const ConcreteShape& s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string formatFloatPositional(double x, DType dtype, int precision, bool unique, bool fractional, char trim, bool sign,
                                  int padLeft, int padRight, int minDigits) {
  return positional(x, dtype, unique, fractional ? Cutoff::FractionLength : Cutoff::TotalLength, precision, minDigits,
                    trimOf(trim), sign, padLeft, padRight);
}

std::string formatFloatScientific(double x, DType dtype, int precision, bool unique, char trim, bool sign, int padLeft,
                                  int expDigits, int minDigits) {
  return scientific(x, dtype, unique, precision, minDigits, trimOf(trim), sign, padLeft, expDigits);
}

std::string numpyArray2String(const Tensor& a, const NumpyPrintOptions& o, std::string_view separator, std::string_view prefix,
                              std::string_view suffix, char strKind) {
  const int lineWidth = o.linewidth - static_cast<int>(suffix.size());
  if (a.numElements() == 0) return "[]";
  const bool summarise = static_cast<double>(a.numElements()) > o.threshold;
  Layout layout(a.shape());
  std::vector<int64_t> shown;
  if (summarise) {
    cornerIndices(layout, o.edgeitems, 0, 0, shown);
  } else {
    shown.resize(static_cast<size_t>(a.numElements()));
    for (int64_t i = 0; i < a.numElements(); ++i) shown[static_cast<size_t>(i)] = i;
  }
  ArrayFormatter f(a, formatFunction(a, shown, o, strKind), std::string(separator), o.edgeitems, summarise);
  return f.run(" " + std::string(prefix.size(), ' '), lineWidth);
}

std::string numpyArrayStr(const Tensor& a, const NumpyPrintOptions& o, char strKind) {
  if (a.rank() == 0) return numpyScalarRepr(a, strKind);
  return numpyArray2String(a, o, " ", "", "", strKind);
}

std::string numpyStringDTypeName(const Tensor& t, char strKind) {
  if (strKind != 'U' && strKind != 'S') return "object";
  size_t width = 1;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    const std::string& e = t.strings()[i];
    // '<U': code points (UTF-8 lead bytes); '|S': bytes.
    size_t n = strKind == 'S' ? e.size()
                              : static_cast<size_t>(std::count_if(e.begin(), e.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
    width = std::max(width, n);
  }
  return std::string(strKind == 'U' ? "<U" : "|S") + std::to_string(width);
}

std::string numpyArrayRepr(const Tensor& a, const NumpyPrintOptions& o, char strKind) {
  const DType dt = a.dtype();
  const bool skipDType = (dt == DType::Float64 || dt == DType::Int64 || dt == DType::Bool) && a.numElements() > 0;
  const std::string prefix = "array(";
  const std::string suffix = skipDType ? ")" : ",";
  std::string lst;
  if (a.numElements() > 0 || (a.rank() == 1 && a.shape()[0] == 0)) lst = numpyArray2String(a, o, ", ", prefix, suffix, strKind);
  else lst = "[], shape=" + shapeTupleRepr(a.shape());
  std::string s = prefix + lst + suffix;
  if (skipDType) return s;
  const std::string dtypeStr =
      "dtype=" + (dt == DType::String ? strKind == 'U' || strKind == 'S' ? "'" + numpyStringDTypeName(a, strKind) + "'" : std::string("object")
                                      : std::string(dtypeName(dt))) + ")";
  const size_t nl = s.rfind('\n');
  const size_t lastLineLen = s.size() - (nl == std::string::npos ? 0 : nl + 1);
  if (static_cast<int>(lastLineLen + dtypeStr.size() + 1) > o.linewidth) return s + "\n" + std::string(prefix.size(), ' ') + dtypeStr;
  return s + " " + dtypeStr;
}

std::string numpyScalarRepr(const Tensor& t, char strKind) {
  const DType dt = t.dtype();
  if (dt == DType::String) return strKind == 'U' ? pyStrRepr(t.strings()[0]) : interp::bytesRepr(t.strings()[0]);
  if (dt == DType::Bool) return t.getDouble(0) != 0 ? "True" : "False";
  if (!isFloatDType(dt)) return std::to_string(t.getInt(0));
  const double x = t.getDouble(0);
  const double a = std::fabs(x);
  // numpy's scalar repr: positional between 1e-4 and 1e16, else scientific.
  if (!std::isfinite(x) || a == 0 || (static_cast<long double>(a) >= 1e-4L && a < 1e16))
    return positional(x, dt, true, Cutoff::TotalLength, -1, -1, Trim::LeaveOneZero, false, -1, -1);
  return scientific(x, dt, true, -1, -1, Trim::DptZeros, false, -1, -1);
}

// --- the _tlens natives behind numpy's printing functions ------------------------------------

namespace {

using namespace interp;

bool hasParam(const CallContext& c, std::string_view name) { return c.sig && c.sig->indexOf(name) >= 0; }

/// The host value of a concrete tensor argument; Unknown (abstract mode, graph tensors) makes the
/// call's result unknown.
Tensor hostArray(CallContext& c, TfRuntime& rt, const Value& v) {
  auto t = toTensor(rt, v, DType::Invalid, true);
  if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
  return t->hostValue();
}

/// Element i of `t` as the numpy scalar a formatter receives.
Value elementScalar(TfRuntime& rt, const Tensor& t, int64_t i) {
  Tensor s(t.dtype(), {});
  const size_t size = dtypeSize(t.dtype());
  std::memcpy(s.data<uint8_t>(), t.data<uint8_t>() + static_cast<size_t>(i) * size, size);
  return concreteTensor(rt, EagerValue{s}, true);
}

void setFormatter(CallContext& c, TfRuntime& rt, NumpyPrintOptions& o, const Value& formatter) {
  o.boolFormatter = o.intFormatter = o.floatFormatter = nullptr;
  o.formatterValue = formatter;
  if (!formatter || isNone(formatter)) return;
  auto* d = dynamic_cast<DictObj*>(formatter.get());
  if (!d) c.typeError("formatter must be a dict of callables");
  auto get = [&](const char* key) -> Value {
    Value v = d->getStr(key);
    return v && !isNone(v) ? v : nullptr;
  };
  auto pick = [](std::initializer_list<Value> vs) -> Value {
    for (const Value& v : vs)
      if (v) return v;
    return nullptr;
  };
  TfRuntime* r = &rt;
  auto make = [r](const Value& fn) -> NumpyPrintOptions::ElementFormatter {
    if (!fn) return nullptr;
    return [r, fn](const Tensor& t, int64_t i) {
      Interpreter& in = r->interp();
      return in.str(in.call(fn, {elementScalar(*r, t, i)}));
    };
  };
  Value all = get("all");
  o.boolFormatter = make(pick({get("bool"), all}));
  o.intFormatter = make(pick({get("int"), get("int_kind"), all}));
  o.floatFormatter = make(pick({get("float"), get("float_kind"), all}));
}

/// _make_options_dict: the arguments given (not None) override `o`, with numpy's checks.
void readOptions(CallContext& c, TfRuntime& rt, NumpyPrintOptions& o) {
  auto given = [&](const char* name) { return hasParam(c, name) && !c.isNone(name); };
  if (given("floatmode")) {
    std::string m = c.interp.str(c.arg("floatmode"));
    if (m != "fixed" && m != "unique" && m != "maxprec" && m != "maxprec_equal")
      c.valueError("floatmode option must be one of \"fixed\", \"unique\", \"maxprec\", \"maxprec_equal\"");
    o.floatmode = m;
  }
  if (given("sign")) {
    const std::string* s = asString(c.arg("sign"));
    if (!s || (*s != "-" && *s != "+" && *s != " ")) c.valueError("sign option must be one of ' ', '+', or '-'");
    o.sign = (*s)[0];
  }
  if (given("threshold")) {
    const Value& v = c.arg("threshold");
    std::optional<double> d = asDouble(v);
    if (!d) {
      auto* t = dynamic_cast<TensorObj*>(v.get());
      if (!t || t->form != TensorObj::Form::Concrete || t->type.shape.rank() != 0) c.typeError("threshold must be numeric");
      d = t->hostValue().getDouble(0);
    }
    if (std::isnan(*d)) c.valueError("threshold must be non-NAN, try sys.maxsize for untruncated representation");
    o.threshold = *d;
    o.thresholdValue = v;
  }
  if (given("precision")) {
    const Value& v = c.arg("precision");
    std::optional<int64_t> p;
    if (v->kind() == Kind::Int || v->kind() == Kind::Bool) p = asInt(v);
    else if (auto* t = dynamic_cast<TensorObj*>(v.get()); t && t->form == TensorObj::Form::Concrete && isInteger(t->type.dtype) && t->type.shape.rank() == 0)
      p = t->hostValue().getInt(0);
    if (!p) c.typeError("precision must be an integer");
    if (*p < 0) c.valueError("precision must be >= 0");
    o.precision = static_cast<int>(*p);
  }
  if (given("edgeitems")) o.edgeitems = static_cast<int>(c.toInt(c.arg("edgeitems")));
  for (const char* name : {"linewidth", "max_line_width"})
    if (given(name)) o.linewidth = static_cast<int>(c.toInt(c.arg(name)));
  for (const char* name : {"suppress", "suppress_small"})
    if (given(name)) o.suppress = c.toBool(c.arg(name));
  if (given("nanstr")) o.nanstr = c.interp.str(c.arg("nanstr"));
  if (given("infstr")) o.infstr = c.interp.str(c.arg("infstr"));
  if (given("formatter")) setFormatter(c, rt, o, c.arg("formatter"));
  if (given("legacy")) o.legacyValue = c.arg("legacy");
}

}  // namespace

void addNumpyFormatFunctions(interp::ModuleObj& m, TfRuntime& rt) {
  TfRuntime* r = &rt;
  auto def = [&](const char* name, const char* sig, std::function<Value(CallContext&, TfRuntime&)> fn) {
    auto f = NativeFunction::make(name, sig, [r, fn](CallContext& c) { return fn(c, *r); });
    f->module = "_tlens";
    m.set(name, f);
  };

  def("set_printoptions",
      "precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None, infstr=None, "
      "formatter=None, sign=None, floatmode=None, legacy=None",
      [](CallContext& c, TfRuntime& rt) -> Value {
        NumpyPrintOptions o = rt.printOptions;
        readOptions(c, rt, o);
        if (c.isNone("formatter")) setFormatter(c, rt, o, none());  // the formatter is always reset
        rt.printOptions = std::move(o);
        return none();
      });

  def("get_printoptions", "", [](CallContext&, TfRuntime& rt) -> Value {
    const NumpyPrintOptions& o = rt.printOptions;
    auto d = makeDict();
    d->setStr("edgeitems", makeInt(o.edgeitems));
    d->setStr("threshold", o.thresholdValue ? o.thresholdValue : makeInt(static_cast<int64_t>(o.threshold)));
    d->setStr("floatmode", makeStr(o.floatmode));
    d->setStr("precision", makeInt(o.precision));
    d->setStr("suppress", boolean(o.suppress));
    d->setStr("linewidth", makeInt(o.linewidth));
    d->setStr("nanstr", makeStr(o.nanstr));
    d->setStr("infstr", makeStr(o.infstr));
    d->setStr("sign", makeStr(std::string(1, o.sign)));
    d->setStr("formatter", o.formatterValue ? o.formatterValue : none());
    d->setStr("legacy", o.legacyValue ? o.legacyValue : boolean(false));
    return d;
  });

  def("array2string",
      "a, max_line_width=None, precision=None, suppress_small=None, separator=' ', prefix='', formatter=None, "
      "threshold=None, edgeitems=None, sign=None, floatmode=None, suffix='', legacy=None",
      [](CallContext& c, TfRuntime& rt) -> Value {
        Tensor a = hostArray(c, rt, c.arg("a"));
        NumpyPrintOptions o = rt.printOptions;
        readOptions(c, rt, o);
        // A 0-d array prints as its one element (numpy formats it with the array's formatter).
        return makeStr(numpyArray2String(a, o, c.interp.str(c.arg("separator")), c.interp.str(c.arg("prefix")),
                                         c.interp.str(c.arg("suffix"))));
      });

  def("array_str", "a, max_line_width=None, precision=None, suppress_small=None", [](CallContext& c, TfRuntime& rt) -> Value {
    Tensor a = hostArray(c, rt, c.arg("a"));
    NumpyPrintOptions o = rt.printOptions;
    readOptions(c, rt, o);
    return makeStr(numpyArrayStr(a, o));
  });

  def("array_repr", "arr, max_line_width=None, precision=None, suppress_small=None", [](CallContext& c, TfRuntime& rt) -> Value {
    Tensor a = hostArray(c, rt, c.arg("arr"));
    NumpyPrintOptions o = rt.printOptions;
    readOptions(c, rt, o);
    return makeStr(numpyArrayRepr(a, o));
  });

  auto floatArg = [](CallContext& c, TfRuntime& rt, const Value& v, DType& dt) -> double {
    if (auto* t = dynamic_cast<TensorObj*>(v.get())) {
      if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
      Tensor h = t->hostValue();
      if (h.numElements() != 1) c.typeError("only size-1 arrays can be formatted");
      dt = isFloating(h.dtype()) ? h.dtype() : DType::Float64;
      return h.getDouble(0);
    }
    dt = DType::Float64;
    return c.toDouble(v);
  };
  auto optInt = [](CallContext& c, const char* name) -> int {
    if (c.isNone(name)) return -1;
    int64_t v = c.toInt(c.arg(name));
    if (v < 0) c.valueError(std::string(name) + " must be >= 0");
    return static_cast<int>(v);
  };
  auto trimArg = [](CallContext& c) -> char {
    std::string t = c.interp.str(c.arg("trim"));
    if (t != "k" && t != "." && t != "0" && t != "-") c.valueError("trim must be one of 'k', '.', '0', '-'");
    return t[0];
  };

  def("format_float_positional",
      "x, precision=None, unique=True, fractional=True, trim='k', sign=False, pad_left=None, pad_right=None, min_digits=None",
      [=](CallContext& c, TfRuntime& rt) -> Value {
        DType dt;
        double x = floatArg(c, rt, c.arg("x"), dt);
        int precision = optInt(c, "precision");
        bool unique = c.toBool(c.arg("unique")), fractional = c.toBool(c.arg("fractional"));
        if (!unique && precision < 0) c.valueError("precision must be provided when unique is False");
        if (!fractional && precision == 0) c.valueError("precision must be greater than 0 if fractional=False");
        int minDigits = optInt(c, "min_digits");
        if (minDigits > 0 && precision > 0 && minDigits > precision) c.valueError("min_digits must be less than or equal to precision");
        return makeStr(formatFloatPositional(x, dt, precision, unique, fractional, trimArg(c), c.toBool(c.arg("sign")),
                                             optInt(c, "pad_left"), optInt(c, "pad_right"), minDigits));
      });

  def("format_float_scientific",
      "x, precision=None, unique=True, trim='k', sign=False, pad_left=None, exp_digits=None, min_digits=None",
      [=](CallContext& c, TfRuntime& rt) -> Value {
        DType dt;
        double x = floatArg(c, rt, c.arg("x"), dt);
        int precision = optInt(c, "precision");
        bool unique = c.toBool(c.arg("unique"));
        if (!unique && precision < 0) c.valueError("precision must be provided when unique is False");
        int minDigits = optInt(c, "min_digits");
        if (minDigits > 0 && precision > 0 && minDigits > precision) c.valueError("min_digits must be less than or equal to precision");
        return makeStr(formatFloatScientific(x, dt, precision, unique, trimArg(c), c.toBool(c.arg("sign")),
                                             optInt(c, "pad_left"), optInt(c, "exp_digits"), minDigits));
      });
}

}  // namespace tlens::tf
