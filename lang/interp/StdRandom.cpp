// The random module, on a 64-bit Mersenne Twister seeded from InterpOptions::randomSeed (runs are
// reproducible; the stream differs from CPython's). `random.Random` instances have generators of
// their own with the same methods; Random() without a seed draws one from the module's generator.
#include <algorithm>
#include <cmath>

#include "lang/interp/Class.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {

namespace {

using Rng = std::mt19937_64;
using RngOf = std::function<Rng&(CallContext&)>;

/// The seed `a` asks for; None (or Unknown): `dflt()`.
uint64_t seedOf(ObjectProtocol* mp, CallContext& c, const std::function<uint64_t()>& dflt) {
  const Value& a = c.arg("a");
  if (auto i = asInt(a)) return static_cast<uint64_t>(*i);
  if (!isNone(a) && !isUnknown(a)) return static_cast<uint64_t>(mp->hash(a));
  return dflt();
}

/// The generator functions: the module's (`method` false) or Random's methods (a `self` first).
void defineGenerators(ObjectProtocol* mp, Namespace& ns, RngOf rngOf, bool method) {
  auto sig = [method](std::string s) { return !method ? s : s.empty() ? std::string("self") : "self, " + s; };
  auto uniform01 = [rngOf](CallContext& c) { return std::uniform_real_distribution<double>(0.0, 1.0)(rngOf(c)); };
  auto below = [rngOf](CallContext& c, int64_t n) { return std::uniform_int_distribution<int64_t>(0, n - 1)(rngOf(c)); };
  defineNative(ns, "random", sig(""), [uniform01](CallContext& c) { return makeFloat(uniform01(c)); });
  defineNative(ns, "uniform", sig("a, b"), [uniform01](CallContext& c) -> Value {
    double a = c.toDouble(c.arg("a")), b = c.toDouble(c.arg("b"));
    return makeFloat(a + (b - a) * uniform01(c));
  });
  defineNative(ns, "randint", sig("a, b"), [mp, below](CallContext& c) -> Value {
    int64_t a = c.toInt(c.arg("a")), b = c.toInt(c.arg("b"));
    if (b < a) mp->valueError("empty range for randrange() (" + std::to_string(a) + ", " + std::to_string(b + 1) + ")");
    return makeInt(a + below(c, b - a + 1));
  });
  defineNative(ns, "randrange", sig("start, stop=None, step=1"), [mp, below](CallContext& c) -> Value {
    int64_t a = c.toInt(c.arg("start")), b = 0, st = c.toInt(c.arg("step"));
    if (c.isNone("stop")) {
      b = a;
      a = 0;
    } else {
      b = c.toInt(c.arg("stop"));
    }
    if (st == 0) mp->valueError("zero step for randrange()");
    int64_t n = st > 0 ? (b - a + st - 1) / st : (a - b - st - 1) / (-st);
    if (n <= 0) mp->valueError("empty range for randrange()");
    return makeInt(a + st * below(c, n));
  });
  defineNative(ns, "choice", sig("seq"), [mp, below](CallContext& c) -> Value {
    std::vector<Value> items = c.toList(c.arg("seq"));
    if (items.empty()) mp->raise(mp->types.indexError, "Cannot choose from an empty sequence");
    return items[static_cast<size_t>(below(c, static_cast<int64_t>(items.size())))];
  });
  defineNative(ns, "shuffle", sig("x"), [below](CallContext& c) -> Value {
    auto* l = as<ListObj>(c.arg("x"));
    if (!l) {
      if (isUnknown(c.arg("x"))) return none();
      c.typeError("shuffle() argument must be a list");
    }
    for (size_t i = l->items.size(); i > 1; --i) std::swap(l->items[i - 1], l->items[static_cast<size_t>(below(c, static_cast<int64_t>(i)))]);
    return none();
  });
  defineNative(ns, "sample", sig("population, k"), [mp, below](CallContext& c) -> Value {
    std::vector<Value> items = c.toList(c.arg("population"));
    int64_t k = c.toInt(c.arg("k"));
    if (k < 0 || k > static_cast<int64_t>(items.size())) mp->valueError("Sample larger than population or is negative");
    for (int64_t i = 0; i < k; ++i) {
      size_t j = static_cast<size_t>(i + below(c, static_cast<int64_t>(items.size()) - i));
      std::swap(items[static_cast<size_t>(i)], items[j]);
    }
    items.resize(static_cast<size_t>(k));
    return makeList(std::move(items));
  });
  defineNative(ns, "choices", sig("population, weights=None, *, cum_weights=None, k=1"), [mp, uniform01, below](CallContext& c) -> Value {
    std::vector<Value> items = c.toList(c.arg("population"));
    int64_t k = c.toInt(c.arg("k"));
    std::vector<double> cum;
    if (!c.isNone("cum_weights")) {
      for (const Value& w : c.toList(c.arg("cum_weights"))) cum.push_back(c.toDouble(w));
    } else if (!c.isNone("weights")) {
      double acc = 0;
      for (const Value& w : c.toList(c.arg("weights"))) cum.push_back(acc += c.toDouble(w));
    }
    if (!cum.empty() && cum.size() != items.size()) mp->valueError("The number of weights does not match the population");
    if (items.empty()) mp->raise(mp->types.indexError, "Cannot choose from an empty population");
    std::vector<Value> out;
    for (int64_t i = 0; i < k; ++i) {
      size_t j = 0;
      if (cum.empty()) {
        j = static_cast<size_t>(below(c, static_cast<int64_t>(items.size())));
      } else {
        j = static_cast<size_t>(std::upper_bound(cum.begin(), cum.end(), uniform01(c) * cum.back()) - cum.begin());
        j = std::min(j, items.size() - 1);
      }
      out.push_back(items[j]);
    }
    return makeList(std::move(out));
  });
  auto gauss = [rngOf](CallContext& c) -> Value {
    double mu = c.toDouble(c.arg("mu")), sigma = c.toDouble(c.arg("sigma"));
    return makeFloat(std::normal_distribution<double>(mu, sigma)(rngOf(c)));
  };
  defineNative(ns, "gauss", sig("mu=0.0, sigma=1.0"), gauss);
  defineNative(ns, "normalvariate", sig("mu=0.0, sigma=1.0"), gauss);
}

}  // namespace

std::shared_ptr<ModuleObj> makeRandomModule(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("random");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "seed", "a=None, version=2", [mp](CallContext& c) -> Value {
    mp->rng.seed(seedOf(mp, c, [mp] { return mp->opts.randomSeed; }));
    return none();
  });
  defineGenerators(mp, ns, [mp](CallContext&) -> Rng& { return mp->rng; }, false);

  // random.Random: the instance's generator lives in InstanceObj::native (made on first use when
  // a subclass's __init__ did not call Random.__init__).
  auto cls = makeClass("Random", {mp->types.object}, "random");
  auto rngOf = [mp](CallContext& c) -> Rng& {
    auto* self = as<InstanceObj>(c.self());
    if (!self) c.typeError(std::string(c.name) + "() needs a random.Random instance");
    if (!self->native) self->native = std::make_shared<Rng>(mp->rng());
    return *static_cast<Rng*>(self->native.get());
  };
  auto reseed = [mp](CallContext& c) -> Value {
    auto* self = as<InstanceObj>(c.self());
    if (!self) c.typeError(std::string(c.name) + "() needs a random.Random instance");
    self->native = std::make_shared<Rng>(seedOf(mp, c, [mp] { return mp->rng(); }));
    return none();
  };
  defineNative(cls->dict, "__init__", "self, a=None", reseed);
  defineNative(cls->dict, "seed", "self, a=None, version=2", reseed);
  defineGenerators(mp, cls->dict, rngOf, true);
  ns.set("Random", cls);
  return mod;
}

}  // namespace tlens::interp
