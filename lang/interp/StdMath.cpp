// The math module.
#include <cmath>
#include <numeric>

#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {

std::shared_ptr<ModuleObj> makeMathModule(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("math");
  Namespace& ns = mod->globals->vars;
  ns.set("pi", makeFloat(M_PI));
  ns.set("e", makeFloat(M_E));
  ns.set("tau", makeFloat(2 * M_PI));
  ns.set("inf", makeFloat(INFINITY));
  ns.set("nan", makeFloat(NAN));
  auto domain = [mp]() -> Value { mp->valueError("math domain error"); };
  auto range = [mp](double r) -> Value {
    if (std::isinf(r)) mp->raise(mp->types.overflowError, "math range error");
    return makeFloat(r);
  };
  auto unaryFn = [&](const char* name, double (*f)(double), bool (*ok)(double)) {
    defineNative(ns, name, "x, /", [f, ok, domain, range](CallContext& c) -> Value {
      double x = c.toDouble(c.arg(0));
      if (ok && !ok(x)) return domain();
      double r = f(x);
      if (std::isnan(r) && !std::isnan(x)) return domain();
      if (std::isinf(r) && std::isfinite(x)) return range(r);
      return makeFloat(r);
    });
  };
  unaryFn("sqrt", std::sqrt, [](double x) { return x >= 0 || std::isnan(x); });
  unaryFn("exp", std::exp, nullptr);
  unaryFn("expm1", std::expm1, nullptr);
  unaryFn("log2", std::log2, [](double x) { return x > 0 || std::isnan(x); });
  unaryFn("log10", std::log10, [](double x) { return x > 0 || std::isnan(x); });
  unaryFn("log1p", std::log1p, [](double x) { return x > -1 || std::isnan(x); });
  unaryFn("sin", std::sin, nullptr);
  unaryFn("cos", std::cos, nullptr);
  unaryFn("tan", std::tan, nullptr);
  unaryFn("asin", std::asin, [](double x) { return std::fabs(x) <= 1 || std::isnan(x); });
  unaryFn("acos", std::acos, [](double x) { return std::fabs(x) <= 1 || std::isnan(x); });
  unaryFn("atan", std::atan, nullptr);
  unaryFn("sinh", std::sinh, nullptr);
  unaryFn("cosh", std::cosh, nullptr);
  unaryFn("tanh", std::tanh, nullptr);
  unaryFn("asinh", std::asinh, nullptr);
  unaryFn("atanh", std::atanh, [](double x) { return std::fabs(x) < 1 || std::isnan(x); });
  unaryFn("fabs", std::fabs, nullptr);
  unaryFn("erf", std::erf, nullptr);
  unaryFn("erfc", std::erfc, nullptr);
  unaryFn("gamma", std::tgamma, nullptr);
  unaryFn("lgamma", std::lgamma, nullptr);
  defineNative(ns, "degrees", "x, /", [](CallContext& c) { return makeFloat(c.toDouble(c.arg(0)) * 180.0 / M_PI); });
  defineNative(ns, "radians", "x, /", [](CallContext& c) { return makeFloat(c.toDouble(c.arg(0)) * M_PI / 180.0); });
  defineNative(ns, "log", "x, base=None, /", [domain](CallContext& c) -> Value {
    double x = c.toDouble(c.arg(0));
    if (x <= 0) return domain();
    double r = std::log(x);
    if (!isNone(c.arg(1))) {
      double b = c.toDouble(c.arg(1));
      if (b <= 0 || b == 1) return domain();
      r /= std::log(b);
    }
    return makeFloat(r);
  });
  auto rounding = [mp](const char* name, double (*f)(double)) {
    return NativeFunction::make(name, "x, /", [mp, f, name](CallContext& c) -> Value {
      const Value& x = c.arg(0);
      if (auto i = asInt(x); i && x->kind() != Kind::Float) return makeInt(*i);
      if (x->kind() == Kind::Instance) {
        std::string d = std::string("__") + name + "__";
        if (Value r = mp->callDunder(x, d, {})) return r;
      }
      double v = c.toDouble(x);
      if (std::isnan(v)) mp->valueError("cannot convert float NaN to integer");
      if (std::isinf(v)) mp->raise(mp->types.overflowError, "cannot convert float infinity to integer");
      return makeInt(static_cast<int64_t>(f(v)));
    });
  };
  ns.set("floor", rounding("floor", std::floor));
  ns.set("ceil", rounding("ceil", std::ceil));
  ns.set("trunc", rounding("trunc", std::trunc));
  defineNative(ns, "pow", "x, y, /", [domain, range](CallContext& c) -> Value {
    double x = c.toDouble(c.arg(0)), y = c.toDouble(c.arg(1));
    if (x < 0 && y != std::floor(y)) return domain();
    if (x == 0 && y < 0) return domain();
    double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) return range(r);
    return makeFloat(r);
  });
  defineNative(ns, "atan2", "y, x, /", [](CallContext& c) { return makeFloat(std::atan2(c.toDouble(c.arg(0)), c.toDouble(c.arg(1)))); });
  defineNative(ns, "copysign", "x, y, /", [](CallContext& c) { return makeFloat(std::copysign(c.toDouble(c.arg(0)), c.toDouble(c.arg(1)))); });
  defineNative(ns, "fmod", "x, y, /", [domain](CallContext& c) -> Value {
    double y = c.toDouble(c.arg(1));
    if (y == 0) return domain();
    return makeFloat(std::fmod(c.toDouble(c.arg(0)), y));
  });
  defineNative(ns, "modf", "x, /", [](CallContext& c) -> Value {
    double ip;
    double fp = std::modf(c.toDouble(c.arg(0)), &ip);
    return makeTuple({makeFloat(fp), makeFloat(ip)});
  });
  defineRaw(ns, "hypot", [](CallContext& c) -> Value {
    double s = 0;
    for (const Value& v : c.args) {
      double d = c.toDouble(v);
      s += d * d;
    }
    return makeFloat(std::sqrt(s));
  });
  defineNative(ns, "isnan", "x, /", [](CallContext& c) { return boolean(std::isnan(c.toDouble(c.arg(0)))); });
  defineNative(ns, "isinf", "x, /", [](CallContext& c) { return boolean(std::isinf(c.toDouble(c.arg(0)))); });
  defineNative(ns, "isfinite", "x, /", [](CallContext& c) { return boolean(std::isfinite(c.toDouble(c.arg(0)))); });
  defineNative(ns, "isclose", "a, b, *, rel_tol=1e-09, abs_tol=0.0", [](CallContext& c) -> Value {
    double a = c.toDouble(c.arg(0)), b = c.toDouble(c.arg(1));
    double rt = c.toDouble(c.arg(2)), at = c.toDouble(c.arg(3));
    if (a == b) return boolean(true);
    if (std::isinf(a) || std::isinf(b)) return boolean(false);
    double d = std::fabs(a - b);
    return boolean(d <= std::fabs(rt * b) || d <= std::fabs(rt * a) || d <= at);
  });
  defineRaw(ns, "gcd", [](CallContext& c) -> Value {
    int64_t g = 0;
    for (const Value& v : c.args) g = std::gcd(g, c.toInt(v));
    return makeInt(g < 0 ? -g : g);
  });
  defineRaw(ns, "lcm", [](CallContext& c) -> Value {
    int64_t l = 1;
    for (const Value& v : c.args) {
      int64_t x = c.toInt(v);
      if (x == 0) return makeInt(0);
      l = std::lcm(l, x);
    }
    return makeInt(l < 0 ? -l : l);
  });
  defineNative(ns, "factorial", "n, /", [mp](CallContext& c) -> Value {
    int64_t n = c.toInt(c.arg(0));
    if (n < 0) mp->valueError("factorial() not defined for negative values");
    int64_t r = 1;
    for (int64_t i = 2; i <= n; ++i)
      if (__builtin_mul_overflow(r, i, &r)) mp->raise(mp->types.overflowError, "integer overflow (tensorlens integers are 64-bit)");
    return makeInt(r);
  });
  defineNative(ns, "comb", "n, k, /", [mp](CallContext& c) -> Value {
    int64_t n = c.toInt(c.arg(0)), k = c.toInt(c.arg(1));
    if (n < 0 || k < 0) mp->valueError("n must be a non-negative integer");
    if (k > n) return makeInt(0);
    k = std::min(k, n - k);
    __int128 r = 1;
    for (int64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return makeInt(static_cast<int64_t>(r));
  });
  defineNative(ns, "prod", "iterable, /, *, start=1", [mp](CallContext& c) -> Value {
    Value acc = c.arg(1);
    for (const Value& v : c.toList(c.arg(0))) acc = mp->binary(BinOp::Mul, acc, v);
    return acc;
  });
  defineNative(ns, "fsum", "iterable, /", [](CallContext& c) -> Value {
    // Neumaier summation: close to CPython's exact fsum for ordinary inputs.
    double s = 0, comp = 0;
    for (const Value& v : c.toList(c.arg(0))) {
      double x = c.toDouble(v), t = s + x;
      comp += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
      s = t;
    }
    return makeFloat(s + comp);
  });
  return mod;
}

}  // namespace tlens::interp
