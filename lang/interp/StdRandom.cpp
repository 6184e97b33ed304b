// The random module, on a 64-bit Mersenne Twister seeded from InterpOptions::randomSeed (runs are
// reproducible; the stream differs from CPython's).
#include <cmath>

#include "lang/interp/Machine.h"

namespace tlens::interp {

std::shared_ptr<ModuleObj> makeRandomModule(Interpreter& in) {
  Machine* mp = &in.machine();
  auto mod = makeModule("random");
  Namespace& ns = mod->globals->vars;
  auto uniform01 = [mp]() { return std::uniform_real_distribution<double>(0.0, 1.0)(mp->rng); };
  auto below = [mp](int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(mp->rng); };
  defineNative(ns, "seed", "a=None, version=2", [mp](CallContext& c) -> Value {
    const Value& a = c.arg(0);
    uint64_t s = mp->opts.randomSeed;
    if (auto i = asInt(a)) s = static_cast<uint64_t>(*i);
    else if (!isNone(a) && !isUnknown(a)) s = static_cast<uint64_t>(mp->hash(a));
    mp->rng.seed(s);
    return none();
  });
  defineNative(ns, "random", "", [uniform01](CallContext&) { return makeFloat(uniform01()); });
  defineNative(ns, "uniform", "a, b", [uniform01](CallContext& c) -> Value {
    double a = c.toDouble(c.arg(0)), b = c.toDouble(c.arg(1));
    return makeFloat(a + (b - a) * uniform01());
  });
  defineNative(ns, "randint", "a, b", [mp, below](CallContext& c) -> Value {
    int64_t a = c.toInt(c.arg(0)), b = c.toInt(c.arg(1));
    if (b < a) mp->valueError("empty range for randrange() (" + std::to_string(a) + ", " + std::to_string(b + 1) + ")");
    return makeInt(a + below(b - a + 1));
  });
  defineNative(ns, "randrange", "start, stop=None, step=1", [mp, below](CallContext& c) -> Value {
    int64_t a = c.toInt(c.arg(0)), b = 0, st = c.toInt(c.arg(2));
    if (isNone(c.arg(1))) {
      b = a;
      a = 0;
    } else {
      b = c.toInt(c.arg(1));
    }
    if (st == 0) mp->valueError("zero step for randrange()");
    int64_t n = st > 0 ? (b - a + st - 1) / st : (a - b - st - 1) / (-st);
    if (n <= 0) mp->valueError("empty range for randrange()");
    return makeInt(a + st * below(n));
  });
  defineNative(ns, "choice", "seq", [mp, below](CallContext& c) -> Value {
    std::vector<Value> items = c.toList(c.arg(0));
    if (items.empty()) mp->raise(mp->types.indexError, "Cannot choose from an empty sequence");
    return items[static_cast<size_t>(below(static_cast<int64_t>(items.size())))];
  });
  defineNative(ns, "shuffle", "x", [below](CallContext& c) -> Value {
    auto* l = as<ListObj>(c.arg(0));
    if (!l) {
      if (isUnknown(c.arg(0))) return none();
      c.typeError("shuffle() argument must be a list");
    }
    for (size_t i = l->items.size(); i > 1; --i) std::swap(l->items[i - 1], l->items[static_cast<size_t>(below(static_cast<int64_t>(i)))]);
    return none();
  });
  defineNative(ns, "sample", "population, k", [mp, below](CallContext& c) -> Value {
    std::vector<Value> items = c.toList(c.arg(0));
    int64_t k = c.toInt(c.arg(1));
    if (k < 0 || k > static_cast<int64_t>(items.size())) mp->valueError("Sample larger than population or is negative");
    for (int64_t i = 0; i < k; ++i) {
      size_t j = static_cast<size_t>(i + below(static_cast<int64_t>(items.size()) - i));
      std::swap(items[static_cast<size_t>(i)], items[j]);
    }
    items.resize(static_cast<size_t>(k));
    return makeList(std::move(items));
  });
  auto gauss = [mp](CallContext& c) -> Value {
    double mu = c.toDouble(c.arg(0)), sigma = c.toDouble(c.arg(1));
    return makeFloat(std::normal_distribution<double>(mu, sigma)(mp->rng));
  };
  defineNative(ns, "gauss", "mu=0.0, sigma=1.0", gauss);
  defineNative(ns, "normalvariate", "mu=0.0, sigma=1.0", gauss);
  return mod;
}

}  // namespace tlens::interp
