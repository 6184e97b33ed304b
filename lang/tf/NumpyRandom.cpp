// numpy.random's legacy RandomState: the generator (MT19937 seeded as numpy seeds it) and the
// native fills behind lang/tf/python/numpy.random.py. Each algorithm follows numpy 1.x's
// definition (random_sample's 53-bit doubles, the polar Box-Muller gauss with its cached second
// value, masked rejection for bounded integers, Fisher-Yates from the end for shuffle, cdf search
// for choice with p), so the same seed and the same calls give numpy's numbers. Abstract mode
// (the language server) draws nothing and allocates nothing: results are only typed.
//
// Built with -ffp-contract=off (lang/tf/CMakeLists.txt): a fused multiply-add in the Box-Muller
// step rounds differently from numpy's separate multiply and add.
#include "lang/tf/NumpyRandom.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "lang/tf/OpApply.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::tf {

using namespace interp;

// --- the generator ---------------------------------------------------------------------------

void NumpyMt19937::seed(uint32_t s) {
  mt_[0] = s;
  for (int i = 1; i < kN; ++i) mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  pos_ = kN;
  hasGauss_ = false;
  gauss_ = 0.0;
}

void NumpyMt19937::seedByArray(const std::vector<uint32_t>& key) {
  seed(19650218u);
  int i = 1;
  size_t j = 0;
  for (size_t k = std::max<size_t>(kN, key.size()); k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
    if (++i >= kN) mt_[0] = mt_[kN - 1], i = 1;
    if (++j >= key.size()) j = 0;
  }
  for (int k = kN - 1; k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
    if (++i >= kN) mt_[0] = mt_[kN - 1], i = 1;
  }
  mt_[0] = 0x80000000u;
  pos_ = kN;
}

void NumpyMt19937::seedRandomly() {
  std::random_device dev;
  std::vector<uint32_t> key(8);  // 256 bits of entropy
  for (uint32_t& w : key) w = dev();
  seedByArray(key);
}

void NumpyMt19937::setState(const State& s) {
  std::copy(s.words.begin(), s.words.begin() + kN, mt_);
  pos_ = s.pos;
  hasGauss_ = s.hasGauss;
  gauss_ = s.gauss;
}

void NumpyMt19937::generate() {
  constexpr int kM = 397;
  for (int k = 0; k < kN; ++k) {
    uint32_t y = (mt_[k] & 0x80000000u) | (mt_[(k + 1) % kN] & 0x7fffffffu);
    mt_[k] = mt_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
  }
  pos_ = 0;
}

uint32_t NumpyMt19937::next32() {
  if (pos_ >= kN) generate();
  uint32_t y = mt_[pos_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

double NumpyMt19937::gauss() {
  if (hasGauss_) {
    hasGauss_ = false;
    return gauss_;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * nextDouble() - 1.0;
    x2 = 2.0 * nextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2);
  gauss_ = f * x1;
  hasGauss_ = true;
  return f * x2;
}

uint64_t NumpyMt19937::interval(uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = max;
  for (int s : {1, 2, 4, 8, 16, 32}) mask |= mask >> s;
  uint64_t v;
  if (max <= 0xffffffffu) {
    while ((v = (next32() & mask)) > max) {
    }
  } else {
    while ((v = (next64() & mask)) > max) {
    }
  }
  return v;
}

// log(Gamma(x)) by Stirling's series, shifted up to x >= 7 (PTRS's acceptance test).
static double logGamma(double x) {
  static const double kA[10] = {8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
                                -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
                                6.410256410256410e-03,  -2.955065359477124e-02, 1.796443723688307e-01,
                                -1.39243221690590e+00};
  if (x == 1.0 || x == 2.0) return 0.0;
  int64_t n = x < 7.0 ? static_cast<int64_t>(7 - x) : 0;
  double x0 = x + static_cast<double>(n);
  double x2 = (1.0 / x0) * (1.0 / x0);
  double gl0 = kA[9];
  for (int k = 8; k >= 0; --k) {
    gl0 *= x2;
    gl0 += kA[k];
  }
  double gl = gl0 / x0 + 0.5 * 1.8378770664093453e+00 + (x0 - 0.5) * std::log(x0) - x0;
  if (x < 7.0)
    for (int64_t k = 1; k <= n; ++k) {
      gl -= std::log(x0 - 1.0);
      x0 -= 1.0;
    }
  return gl;
}

int64_t NumpyMt19937::poisson(double lam) {
  if (lam == 0) return 0;
  if (lam < 10) {
    double enlam = std::exp(-lam), prod = 1.0;
    int64_t x = 0;
    for (;;) {
      prod *= nextDouble();
      if (prod > enlam) ++x;
      else return x;
    }
  }
  double slam = std::sqrt(lam), loglam = std::log(lam);
  double b = 0.931 + 2.53 * slam;
  double a = -0.059 + 0.02483 * b;
  double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  double vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    double u = nextDouble() - 0.5;
    double v = nextDouble();
    double us = 0.5 - std::fabs(u);
    auto k = static_cast<int64_t>(std::floor((2 * a / us + b) * u + lam + 0.43));
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <=
        -lam + static_cast<double>(k) * loglam - logGamma(static_cast<double>(k + 1)))
      return k;
  }
}

namespace {

int64_t binomialInversion(NumpyMt19937& mt, int64_t n, double p) {
  double q = 1.0 - p;
  double qn = std::exp(static_cast<double>(n) * std::log(q));
  double np = static_cast<double>(n) * p;
  auto bound = static_cast<int64_t>(std::min(static_cast<double>(n), np + 10.0 * std::sqrt(np * q + 1)));
  int64_t x = 0;
  double px = qn, u = mt.nextDouble();
  while (u > px) {
    ++x;
    if (x > bound) {
      x = 0;
      px = qn;
      u = mt.nextDouble();
    } else {
      u -= px;
      px = (static_cast<double>(n - x + 1) * p * px) / (static_cast<double>(x) * q);
    }
  }
  return x;
}

// Stirling's correction terms of BTPE's final acceptance test.
double btpeTerm(double v) {
  double v2 = v * v;
  return (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v / 166320.;
}

int64_t binomialBtpe(NumpyMt19937& mt, int64_t n, double p) {
  const double dn = static_cast<double>(n);
  const double r = std::min(p, 1.0 - p), q = 1.0 - r;
  const double fm = dn * r + r;
  const auto m = static_cast<int64_t>(std::floor(fm));
  const double dm = static_cast<double>(m);
  const double p1 = std::floor(2.195 * std::sqrt(dn * r * q) - 4.6 * q) + 0.5;
  const double xm = dm + 0.5, xl = xm - p1, xr = xm + p1;
  const double c = 0.134 + 20.5 / (15.3 + dm);
  double a = (fm - xl) / (fm - xl * r);
  const double laml = a * (1.0 + a / 2.0);
  a = (xr - fm) / (xr * q);
  const double lamr = a * (1.0 + a / 2.0);
  const double p2 = p1 * (1.0 + 2.0 * c), p3 = p2 + c / laml, p4 = p3 + c / lamr;
  const double nrq = dn * r * q;
  int64_t y;
  for (;;) {
    double u = mt.nextDouble() * p4;
    double v = mt.nextDouble();
    if (u <= p1) {  // the triangular centre: accepted at once
      y = static_cast<int64_t>(std::floor(xm - p1 * v + u));
      break;
    }
    if (u <= p2) {  // the parallelograms
      double x = xl + (u - p1) / c;
      v = v * c + 1.0 - std::fabs(dm - x + 0.5) / p1;
      if (v > 1.0) continue;
      y = static_cast<int64_t>(std::floor(x));
    } else if (u <= p3) {  // the left exponential tail
      y = static_cast<int64_t>(std::floor(xl + std::log(v) / laml));
      if (y < 0 || v == 0.0) continue;
      v = v * (u - p2) * laml;
    } else {  // the right exponential tail
      y = static_cast<int64_t>(std::floor(xr - std::log(v) / lamr));
      if (y > n || v == 0.0) continue;
      v = v * (u - p3) * lamr;
    }
    int64_t k = y > m ? y - m : m - y;
    if (!(k > 20 && static_cast<double>(k) < nrq / 2.0 - 1)) {
      // Explicit evaluation of f(y) / f(m).
      double s = r / q, aa = s * (dn + 1), f = 1.0;
      if (m < y)
        for (int64_t i = m + 1; i <= y; ++i) f *= (aa / static_cast<double>(i) - s);
      else if (m > y)
        for (int64_t i = y + 1; i <= m; ++i) f /= (aa / static_cast<double>(i) - s);
      if (v > f) continue;
      break;
    }
    // Squeezing with the normal approximation, then the final test with Stirling's formula.
    double dk = static_cast<double>(k);
    double rho = (dk / nrq) * ((dk * (dk / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    double t = -dk * dk / (2 * nrq);
    double lv = std::log(v);
    if (lv < t - rho) break;
    if (lv > t + rho) continue;
    double dy = static_cast<double>(y);
    double x1 = dy + 1, f1 = dm + 1, z = dn + 1 - dm, w = dn - dy + 1;
    if (lv > xm * std::log(f1 / x1) + (dn - dm + 0.5) * std::log(z / w) + (dy - dm) * std::log(w * r / (x1 * q)) +
                 btpeTerm(f1) + btpeTerm(z) + btpeTerm(x1) + btpeTerm(w))
      continue;
    break;
  }
  return p > 0.5 ? n - y : y;
}

}  // namespace

int64_t NumpyMt19937::binomial(int64_t n, double p) {
  if (n == 0 || p == 0.0) return 0;
  if (p <= 0.5) return p * static_cast<double>(n) <= 30.0 ? binomialInversion(*this, n, p) : binomialBtpe(*this, n, p);
  double q = 1.0 - p;
  return q * static_cast<double>(n) <= 30.0 ? n - binomialInversion(*this, n, q) : binomialBtpe(*this, n, p);
}

// --- the Python side -------------------------------------------------------------------------

namespace {

/// A RandomState's generator, held by the Python RandomState object.
class MtStateObj : public NativeObject {
 public:
  std::string typeName() const override { return "MT19937"; }
  std::string typeModule() const override { return "numpy.random"; }
  bool isCallable() const override { return false; }
  NumpyMt19937 mt;
};

constexpr const char* kOpType = "numpy.random";

NumpyMt19937& stateArg(CallContext& c) {
  auto* s = dynamic_cast<MtStateObj*>(c.arg(0).get());
  if (!s) c.typeError("_nprandom: the first argument must be a generator state");
  return s->mt;
}

/// numpy's `size`: None (a scalar), an int, or a sequence of ints. Dims that abstract mode does
/// not know are unknown.
std::optional<Shape> sizeArg(CallContext& c, const Value& v) {
  if (isNone(v)) return std::nullopt;
  if (isUnknown(v)) return Shape::unknownRank();
  std::vector<Value> items;
  if (asInt(v) || dynamic_cast<TensorObj*>(v.get())) items = {v};
  else items = c.toList(v);
  std::vector<Dim> dims;
  for (const Value& d : items) {
    if (isUnknown(d)) {
      dims.push_back(Dim::unknown());
      continue;
    }
    int64_t n = 0;
    try {
      n = c.toInt(d);
    } catch (const NeedsKnownValue&) {
      dims.push_back(Dim::unknown());
      continue;
    }
    if (n < 0) c.valueError("negative dimensions are not allowed");
    dims.push_back(Dim::known(n));
  }
  return Shape(std::move(dims));
}

std::shared_ptr<ClassObj> pyType(CallContext& c, bool isFloat) {
  return c.interp.builtinClass(isFloat ? "float" : "int");
}

/// Fills an array of `shape` (or one scalar for size None) with `draw(i)`: a Python float or int
/// for a scalar (numpy returns those), an ndarray of `dtype` otherwise; typed only in abstract mode.
template <typename Draw>
Value fill(CallContext& c, TfRuntime& rt, const std::optional<Shape>& shape, DType dtype, bool pythonScalar,
           Draw draw) {
  if (rt.abstract()) {
    if (!shape && pythonScalar) return unknownOf(pyType(c, isFloating(dtype)));
    return abstractTensor(rt, TensorType(dtype, shape ? *shape : Shape::fromConcrete({})), true, kOpType);
  }
  if (!shape && pythonScalar) return isFloating(dtype) ? makeFloat(draw()) : makeInt(static_cast<int64_t>(draw()));
  ConcreteShape dims;
  if (shape)
    for (const Dim& d : shape->dims()) dims.push_back(d.size);
  checkArrayAllocation(c.interp, dims, dtype);
  Tensor t(dtype, dims);
  int64_t n = t.numElements();
  switch (dtype) {
    case DType::Float64: {
      double* p = t.data<double>();
      for (int64_t i = 0; i < n; ++i) p[i] = draw();
      break;
    }
    case DType::Int64: {
      int64_t* p = t.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<int64_t>(draw());
      break;
    }
    case DType::Int32: {
      int32_t* p = t.data<int32_t>();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<int32_t>(draw());
      break;
    }
    case DType::UInt8: {
      uint8_t* p = t.data<uint8_t>();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(draw());
      break;
    }
    default:
      for (int64_t i = 0; i < n; ++i) t.setDouble(i, static_cast<double>(draw()));
  }
  return concreteTensor(rt, rt.wrap(std::move(t)), true, kOpType);
}

[[noreturn]] void seedRangeError(CallContext& c) { c.valueError("Seed must be between 0 and 2**32 - 1"); }

/// RandomState.seed(seed): an int in [0, 2**32 - 1] (or an integer array of one element) seeds
/// as init_genrand; a 1-d sequence of such ints as init_by_array; None from the OS.
void seedFrom(CallContext& c, NumpyMt19937& mt, const Value& s) {
  if (isNone(s)) return c.interp.mode() == Mode::Abstract ? void() : mt.seedRandomly();
  if (isUnknown(s)) throw NeedsKnownValue{};
  auto checked = [&](int64_t v) -> uint32_t {
    if (v < 0 || v > 0xffffffffLL) seedRangeError(c);
    return static_cast<uint32_t>(v);
  };
  if (auto i = asInt(s)) return mt.seed(checked(*i));
  std::vector<int64_t> words;
  if (auto* t = dynamic_cast<TensorObj*>(s.get())) {
    if (t->form != TensorObj::Form::Concrete) throw NeedsKnownValue{};
    Tensor v = t->hostValue();
    if (isFloating(v.dtype()))
      c.typeError("Cannot cast " + std::string(v.numElements() == 1 ? "scalar" : "array data") + " from dtype('" +
                  std::string(dtypeName(v.dtype())) + "') to dtype('int64') according to the rule 'safe'");
    if (v.numElements() == 1) return mt.seed(checked(v.getInt(0)));
    if (v.rank() != 1) c.valueError("Seed array must be 1-d");
    words = v.toInt64Vector();
  } else if (s->kind() == Kind::Float) {
    c.typeError("Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'");
  } else {
    for (const Value& e : c.toList(s)) {
      if (isUnknown(e)) throw NeedsKnownValue{};
      if (e->kind() == Kind::Float)
        c.typeError("Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
      if (asSequence(e)) c.valueError("Seed array must be 1-d");
      words.push_back(c.toInt(e));
    }
  }
  if (words.empty()) c.valueError("Seed must be non-empty");
  std::vector<uint32_t> key;
  for (int64_t w : words) key.push_back(checked(w));
  mt.seedByArray(key);
}

/// The bounds of an integer dtype, for randint's checks.
std::pair<int64_t, int64_t> dtypeBounds(DType t) {
  switch (t) {
    case DType::Int32: return {INT32_MIN, INT32_MAX};
    case DType::UInt8: return {0, 255};
    case DType::Bool: return {0, 1};
    default: return {INT64_MIN, INT64_MAX};
  }
}

/// Legacy randint's draws for [low, high): masked rejection on 32-bit draws (64-bit ones for
/// ranges over 2**32); uint8 and bool take their bits from one buffered 32-bit draw as numpy does.
struct BoundedDraw {
  NumpyMt19937* mt;
  int64_t low;
  uint64_t rng;  // high - low - 1
  DType dtype;
  uint64_t mask = 0;
  uint32_t buf = 0;
  int bcnt = 0;

  BoundedDraw(NumpyMt19937& m, int64_t lo, uint64_t r, DType t) : mt(&m), low(lo), rng(r), dtype(t) {
    mask = rng;
    for (int s : {1, 2, 4, 8, 16, 32}) mask |= mask >> s;
  }
  uint32_t bufferedBits(int width) {
    if (bcnt == 0) {
      buf = mt->next32();
      bcnt = 32 / width - 1;
    } else {
      buf >>= width;
      --bcnt;
    }
    return buf;
  }
  int64_t operator()() {
    if (rng == 0) return low;
    if (dtype == DType::Bool) return low + static_cast<int64_t>(bufferedBits(1) & 1u);
    if (dtype == DType::UInt8) {
      uint64_t v;
      while ((v = (bufferedBits(8) & 0xffu & mask)) > rng) {
      }
      return low + static_cast<int64_t>(v);
    }
    return static_cast<int64_t>(static_cast<uint64_t>(low) + mt->interval(rng));
  }
};

/// Ascending cumulative sums of `p`, normalised by the last one (numpy's cdf for choice).
std::vector<double> cdfOf(const std::vector<double>& p) {
  std::vector<double> cdf(p.size());
  double acc = 0;
  for (size_t i = 0; i < p.size(); ++i) cdf[i] = acc += p[i];
  double last = cdf.empty() ? 1.0 : cdf.back();
  for (double& x : cdf) x /= last;
  return cdf;
}

int64_t searchRight(const std::vector<double>& cdf, double u) {
  return std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
}

/// Swaps rows i and j of a host tensor (row = everything below the first dim).
void swapRows(Tensor& t, int64_t i, int64_t j) {
  size_t row = t.bytes() / static_cast<size_t>(t.dim(0));
  auto* base = static_cast<unsigned char*>(t.raw());
  std::swap_ranges(base + i * row, base + (i + 1) * row, base + j * row);
}

/// Fisher-Yates from the last element, as numpy's legacy shuffle: for i = n-1 .. 1, swap i with
/// interval(i).
template <typename Swap>
void shuffleIndices(NumpyMt19937& mt, int64_t n, Swap swap) {
  for (int64_t i = n - 1; i > 0; --i) {
    int64_t j = static_cast<int64_t>(mt.interval(static_cast<uint64_t>(i)));
    if (i != j) swap(i, j);
  }
}

std::shared_ptr<TensorObj> ndarrayArg(const Value& v) {
  auto t = std::dynamic_pointer_cast<TensorObj>(v);
  return t && t->ndarray ? t : nullptr;
}

using Fn = std::function<Value(CallContext&, TfRuntime&)>;

}  // namespace

void registerNumpyRandomModule(Interpreter& interp, const std::shared_ptr<TfRuntime>& rtp) {
  TfRuntime* rtRaw = rtp.get();
  interp.modules().add("_nprandom", [rtRaw](Interpreter&) {
    auto m = makeModule("_nprandom");
    auto def = [&](const char* name, const char* sig, Fn fn) {
      TfRuntime* r = rtRaw;
      auto f = NativeFunction::make(name, sig, [r, fn](CallContext& c) { return fn(c, *r); });
      f->module = "_nprandom";
      m->set(name, f);
    };

    // A new generator, seeded from the OS (RandomState() before any seed()).
    def("state", "", [](CallContext&, TfRuntime& rt) -> Value {
      auto s = std::make_shared<MtStateObj>();
      if (!rt.abstract()) s->mt.seedRandomly();  // abstract mode never draws
      return s;
    });
    def("seed", "state, seed=None", [](CallContext& c, TfRuntime&) -> Value {
      seedFrom(c, stateArg(c), c.arg(1));
      return none();
    });
    // get_state(): ('MT19937', the 624 words (int64 here: the engine has no uint32), pos,
    // has_gauss, cached_gaussian), as numpy's legacy tuple.
    def("get_state", "state", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937::State st = stateArg(c).state();
      std::vector<int64_t> words(st.words.begin(), st.words.end());
      Value keys = rt.abstract() ? Value(abstractTensor(rt, TensorType(DType::Int64, Shape::fromConcrete({NumpyMt19937::kN})), true))
                                 : Value(constantTensor(rt, Tensor::fromVector(words), true));
      return makeTuple({makeStr("MT19937"), keys, makeInt(st.pos), makeInt(st.hasGauss ? 1 : 0), makeFloat(st.gauss)});
    });
    def("set_state", "state, value", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      if (rt.abstract()) return none();
      std::vector<Value> items = c.toList(c.arg(1));
      if (items.size() < 3 || c.toStr(items[0]) != "MT19937")
        c.valueError("set_state can only be used with legacy MT19937 state instances.");
      Tensor keys = toTensor(rt, items[1], DType::Int64, true)->hostValue();
      if (keys.numElements() != NumpyMt19937::kN) c.valueError("state must be 624 elements");
      NumpyMt19937::State st;
      for (int64_t w : keys.toInt64Vector()) st.words.push_back(static_cast<uint32_t>(w));
      st.pos = static_cast<int>(c.toInt(items[2]));
      st.hasGauss = items.size() > 3 && c.toInt(items[3]) != 0;
      st.gauss = items.size() > 4 ? c.toDouble(items[4]) : 0.0;
      mt.setState(st);
      return none();
    });
    // random_sample(size): doubles in [0, 1).
    def("random", "state, size=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      return fill(c, rt, sizeArg(c, c.arg(1)), DType::Float64, true, [&] { return mt.nextDouble(); });
    });
    // standard_normal(size): the legacy gauss.
    def("gauss", "state, size=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      return fill(c, rt, sizeArg(c, c.arg(1)), DType::Float64, true, [&] { return mt.gauss(); });
    });
    // standard_exponential(size): -log(1 - u).
    def("exponential", "state, size=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      return fill(c, rt, sizeArg(c, c.arg(1)), DType::Float64, true, [&] { return -std::log(1.0 - mt.nextDouble()); });
    });
    // poisson(lam, size) and binomial(n, p, size) for scalar parameters: numpy's int64 ('l').
    def("poisson", "state, lam, size=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      auto shape = sizeArg(c, c.arg("size"));
      if (rt.abstract()) return fill(c, rt, shape, DType::Int64, true, [] { return 0; });
      double lam = c.toDouble(c.arg("lam"));
      if (lam < 0) c.valueError("lam < 0");
      if (std::isnan(lam)) c.valueError("lam value is nan");
      if (lam > 9.223372006484771e18) c.valueError("lam value too large");
      return fill(c, rt, shape, DType::Int64, true, [&] { return mt.poisson(lam); });
    });
    def("binomial", "state, n, p, size=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      auto shape = sizeArg(c, c.arg("size"));
      if (rt.abstract()) return fill(c, rt, shape, DType::Int64, true, [] { return 0; });
      int64_t n = c.toInt(c.arg("n"));
      double p = c.toDouble(c.arg("p"));
      if (n < 0) c.valueError("n < 0");
      if (p < 0) c.valueError("p < 0");
      if (p > 1) c.valueError("p > 1");
      if (std::isnan(p)) c.valueError("p is nan");
      return fill(c, rt, shape, DType::Int64, true, [&] { return mt.binomial(n, p); });
    });
    // randint(low, high, size, dtype) for scalar bounds, high exclusive. dtype None: numpy's
    // default int (a Python int when size is None); a dtype: that dtype (a 0-d array for None).
    def("randint", "state, low, high, size=None, dtype=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      bool pythonInt = c.isNone("dtype");
      DType dt = DType::Int64;
      if (!pythonInt) {
        auto* d = dynamic_cast<DTypeObj*>(c.arg("dtype").get());
        if (!d) c.typeError("randint: dtype must be a numpy dtype");
        dt = d->dtype;
        if (!isInteger(dt) && dt != DType::Bool) c.typeError("Unsupported dtype " + std::string(dtypeName(dt)) + " for randint");
      }
      auto shape = sizeArg(c, c.arg("size"));
      if (rt.abstract() && (isUnknown(c.arg("low")) || isUnknown(c.arg("high"))))
        return fill(c, rt, shape, dt, pythonInt, [] { return 0; });
      int64_t low = c.toInt(c.arg("low")), high = c.toInt(c.arg("high"));
      auto [lo, hi] = dtypeBounds(dt);
      std::string name(dtypeName(dt));
      if (low < lo) c.valueError("low is out of bounds for " + name);
      if (high - 1 > hi || (high == INT64_MIN)) c.valueError("high is out of bounds for " + name);
      if (low >= high) c.valueError("low >= high");
      BoundedDraw draw(mt, low, static_cast<uint64_t>(high) - static_cast<uint64_t>(low) - 1, dt);
      return fill(c, rt, shape, dt, pythonInt, [&] { return draw(); });
    });
    // One draw in [0, max]: shuffle's step, for Python sequences shuffled in Python.
    def("interval", "state, max", [](CallContext& c, TfRuntime&) -> Value {
      NumpyMt19937& mt = stateArg(c);
      return makeInt(static_cast<int64_t>(mt.interval(static_cast<uint64_t>(c.toInt(c.arg(1))))));
    });
    // shuffle(x) in place: an ndarray's rows or a list's items.
    def("shuffle", "state, x", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      const Value& x = c.arg(1);
      if (rt.abstract()) return none();
      if (auto* l = as<ListObj>(x)) {
        c.interp.beforeChange(x);
        shuffleIndices(mt, static_cast<int64_t>(l->items.size()), [&](int64_t i, int64_t j) { std::swap(l->items[i], l->items[j]); });
        return none();
      }
      auto t = ndarrayArg(x);
      if (!t) c.typeError("shuffle: '" + c.interp.typeName(x) + "' object does not support item assignment");
      if (t->form != TensorObj::Form::Concrete) return none();
      if (t->type.shape.rank() == 0) c.typeError("len() of unsized object");
      c.interp.beforeChange(x);
      Tensor& v = t->value.tensor;
      if (!v.uniquelyOwned() || !v.hostAccessible()) v = v.toHost().clone();
      if (v.numElements() > 0) shuffleIndices(mt, v.dim(0), [&](int64_t i, int64_t j) { swapRows(v, i, j); });
      return none();
    });
    // permutation(x): a shuffled copy of an ndarray (rows), or of arange(n) for an int.
    def("permutation", "state, x", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      const Value& x = c.arg(1);
      if (isUnknown(x)) {
        if (!rt.abstract()) throw NeedsKnownValue{};
        return abstractTensor(rt, TensorType(DType::Int64, Shape({Dim::unknown()})), true, kOpType);
      }
      if (auto n = asInt(x)) {
        if (*n < 0) c.valueError("negative dimensions are not allowed");
        if (rt.abstract()) return abstractTensor(rt, TensorType(DType::Int64, Shape::fromConcrete({*n})), true, kOpType);
        Tensor t(DType::Int64, {*n});
        int64_t* p = t.data<int64_t>();
        for (int64_t i = 0; i < *n; ++i) p[i] = i;
        shuffleIndices(mt, *n, [&](int64_t i, int64_t j) { std::swap(p[i], p[j]); });
        return concreteTensor(rt, rt.wrap(std::move(t)), true, kOpType);
      }
      auto t = ndarrayArg(x);
      if (!t) c.typeError("permutation: x must be an integer or an array");
      if (t->type.shape.rankKnown() && t->type.shape.rank() == 0) c.interp.raise("IndexError", "x must be an integer or at least 1-dimensional");
      if (rt.abstract() || t->form != TensorObj::Form::Concrete) return abstractTensor(rt, t->type, true, kOpType);
      Tensor v = t->hostValue().clone();
      if (v.numElements() > 0) shuffleIndices(mt, v.dim(0), [&](int64_t i, int64_t j) { swapRows(v, i, j); });
      return concreteTensor(rt, rt.wrap(std::move(v)), true, kOpType);
    });
    // choice's indices into a population of `n`: a Python int for size None, else an int64 array.
    def("choice", "state, n, size=None, replace=True, p=None", [](CallContext& c, TfRuntime& rt) -> Value {
      NumpyMt19937& mt = stateArg(c);
      auto shape = sizeArg(c, c.arg("size"));
      if (rt.abstract()) return fill(c, rt, shape, DType::Int64, true, [] { return 0; });
      int64_t n = c.toInt(c.arg("n"));
      int64_t count = 1;
      if (shape)
        for (const Dim& d : shape->dims()) count *= d.size;
      if (n <= 0 && count != 0) c.valueError("a must be greater than 0 unless no samples are taken");
      bool replace = c.toBool(c.arg("replace"));
      std::vector<double> p;
      bool hasP = !c.isNone("p");
      if (hasP) {
        auto pt = toTensor(rt, c.arg("p"), DType::Float64, true);
        Tensor pv = pt->hostValue();
        if (pv.rank() != 1) c.valueError("'p' must be 1-dimensional");
        if (pv.numElements() != n) c.valueError("'a' and 'p' must have same size");
        p = pv.toDoubleVector();
        double sum = 0, comp = 0;  // Kahan, as numpy checks the sum
        for (double x : p) {
          double y = x - comp, t = sum + y;
          comp = (t - sum) - y;
          sum = t;
        }
        if (std::isnan(sum)) c.valueError("probabilities contain NaN");
        for (double x : p)
          if (x < 0) c.valueError("probabilities are not non-negative");
        if (std::fabs(sum - 1.0) > std::sqrt(2.220446049250313e-16)) c.valueError("probabilities do not sum to 1");
      }
      std::vector<int64_t> idx;
      if (replace) {
        if (hasP) {
          std::vector<double> cdf = cdfOf(p);
          for (int64_t i = 0; i < count; ++i) idx.push_back(searchRight(cdf, mt.nextDouble()));
        } else {
          for (int64_t i = 0; i < count; ++i) idx.push_back(static_cast<int64_t>(mt.interval(static_cast<uint64_t>(n - 1))));
        }
      } else {
        if (count > n) c.valueError("Cannot take a larger sample than population when 'replace=False'");
        if (hasP) {
          if (std::count_if(p.begin(), p.end(), [](double x) { return x > 0; }) < count)
            c.valueError("Fewer non-zero entries in p than size");
          // numpy's loop: draw the missing count, zero the found ones' p, keep each new index's
          // first occurrence in draw order.
          while (static_cast<int64_t>(idx.size()) < count) {
            std::vector<double> u(static_cast<size_t>(count) - idx.size());
            for (double& x : u) x = mt.nextDouble();
            for (int64_t f : idx) p[static_cast<size_t>(f)] = 0;
            std::vector<double> cdf = cdfOf(p);
            std::vector<int64_t> fresh;
            for (double x : u) {
              int64_t k = searchRight(cdf, x);
              if (std::find(fresh.begin(), fresh.end(), k) == fresh.end()) fresh.push_back(k);
            }
            idx.insert(idx.end(), fresh.begin(), fresh.end());
          }
        } else {
          std::vector<int64_t> perm(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
          shuffleIndices(mt, n, [&](int64_t i, int64_t j) { std::swap(perm[i], perm[j]); });
          idx.assign(perm.begin(), perm.begin() + count);
        }
      }
      size_t k = 0;
      return fill(c, rt, shape, DType::Int64, true, [&] { return idx[k++]; });
    });
    return m;
  });
}

}  // namespace tlens::tf
