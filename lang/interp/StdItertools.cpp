// itertools (lazy native iterators: count and cycle are infinite and fine with zip/islice),
// the native half of collections (OrderedDict, defaultdict) and typing (annotations only:
// subscripting a typing name gives the name back).
#include <algorithm>

#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

class TypingName : public NativeObject {
 public:
  explicit TypingName(std::string n) : name_(std::move(n)) {}
  std::string typeName() const override { return "_SpecialForm"; }
  std::string typeModule() const override { return "typing"; }
  std::string repr(Interpreter&) override { return "typing." + name_; }
  Value getItem(Interpreter&, const Value&) override { return shared_from_this(); }
  Value getAttr(Interpreter&, std::string_view n) override {
    if (n == "__name__") return makeStr(name_);
    return nullptr;
  }
  Value call(CallContext&) override { return shared_from_this(); }
  Value binaryOp(Interpreter&, BinOp op, const Value&, bool) override {
    return op == BinOp::Or ? shared_from_this() : nullptr;
  }

 private:
  std::string name_;
};

}  // namespace

std::shared_ptr<ModuleObj> makeItertoolsModule(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("itertools");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "count", "start=0, step=1", [mp](CallContext& c) -> Value {
    auto cur = std::make_shared<Value>(c.arg(0));
    Value step = c.arg(1);
    return makeIterator("count", [mp, cur, step]() -> Value {
      Value v = *cur;
      *cur = mp->binary(BinOp::Add, v, step);
      return v;
    });
  });
  defineNative(ns, "repeat", "object, times=None", [](CallContext& c) -> Value {
    Value v = c.arg(0);
    auto left = std::make_shared<int64_t>(isNone(c.arg(1)) ? -1 : c.toInt(c.arg(1)));
    return makeIterator("repeat", [v, left]() -> Value {
      if (*left == 0) return nullptr;
      if (*left > 0) --*left;
      return v;
    });
  });
  defineNative(ns, "cycle", "iterable, /", [mp](CallContext& c) -> Value {
    auto items = std::make_shared<std::vector<Value>>(mp->toList(c.arg(0)));
    auto i = std::make_shared<size_t>(0);
    return makeIterator("cycle", [items, i]() -> Value {
      if (items->empty()) return nullptr;
      return (*items)[(*i)++ % items->size()];
    });
  });
  defineRaw(ns, "chain", [mp](CallContext& c) -> Value {
    auto sources = std::make_shared<std::vector<Value>>(c.args);
    auto idx = std::make_shared<size_t>(0);
    auto cur = std::make_shared<Value>();
    return makeIterator("chain", [mp, sources, idx, cur]() -> Value {
      for (;;) {
        if (!*cur) {
          if (*idx >= sources->size()) return nullptr;
          *cur = mp->getIter((*sources)[(*idx)++]);
        }
        Value v = mp->next(*cur);
        if (v) return v;
        cur->reset();
      }
    });
  });
  defineRaw(ns, "islice", [mp](CallContext& c) -> Value {
    if (c.args.size() < 2) mp->typeError("islice expected at least 2 arguments");
    Value it = mp->getIter(c.args[0]);
    int64_t start = 0, stop = -1, step = 1;
    if (c.args.size() == 2) {
      stop = isNone(c.args[1]) ? -1 : c.toInt(c.args[1]);
    } else {
      start = isNone(c.args[1]) ? 0 : c.toInt(c.args[1]);
      stop = isNone(c.args[2]) ? -1 : c.toInt(c.args[2]);
      if (c.args.size() > 3 && !isNone(c.args[3])) step = c.toInt(c.args[3]);
    }
    auto pos = std::make_shared<int64_t>(0);
    auto nextWanted = std::make_shared<int64_t>(start);
    return makeIterator("islice", [mp, it, stop, step, pos, nextWanted]() -> Value {
      for (;;) {
        if (stop >= 0 && *nextWanted >= stop) return nullptr;
        Value v = mp->next(it);
        if (!v) return nullptr;
        if ((*pos)++ == *nextWanted) {
          *nextWanted += step;
          return v;
        }
      }
    });
  });
  defineRaw(ns, "zip_longest", [mp](CallContext& c) -> Value {
    Value fill = none();
    for (const auto& [k, v] : c.kwargs)
      if (k == "fillvalue") fill = v;
    std::vector<Value> its;
    for (const Value& a : c.args) its.push_back(mp->getIter(a));
    auto done = std::make_shared<std::vector<bool>>(its.size(), false);
    return makeIterator("zip_longest", [mp, its, fill, done]() -> Value {
      std::vector<Value> out;
      bool any = false;
      for (size_t k = 0; k < its.size(); ++k) {
        Value v = (*done)[k] ? nullptr : mp->next(its[k]);
        if (!v) {
          (*done)[k] = true;
          v = fill;
        } else {
          any = true;
        }
        out.push_back(v);
      }
      return any ? makeTuple(std::move(out)) : nullptr;
    });
  });
  // product, combinations and permutations are lazy, as in CPython: list(product(range(10**4),
  // range(10**4))) meets list's size cap instead of building every tuple first.
  defineRaw(ns, "product", [mp](CallContext& c) -> Value {
    int64_t repeat = 1;
    for (const auto& [k, v] : c.kwargs)
      if (k == "repeat") repeat = c.toInt(v);
    if (repeat < 0) mp->valueError("repeat argument cannot be negative");
    auto pools = std::make_shared<std::vector<std::vector<Value>>>();
    for (const Value& a : c.args) pools->push_back(mp->toList(a));
    const size_t width = pools->size() * static_cast<size_t>(repeat);
    mp->reserveSize(static_cast<double>(pools->size()) * static_cast<double>(repeat), mp->types.tuple);
    auto idx = std::make_shared<std::vector<size_t>>();
    auto state = std::make_shared<int>(0);  // 0: not started, 1: running, 2: done
    return makeIterator("product", [pools, idx, state, width]() -> Value {
      auto pool = [&](size_t k) -> const std::vector<Value>& { return (*pools)[k % pools->size()]; };
      if (*state == 2) return nullptr;
      if (*state == 0) {
        *state = 1;
        for (size_t k = 0; k < width; ++k)
          if (pool(k).empty()) {
            *state = 2;
            return nullptr;
          }
        idx->assign(width, 0);
      } else {
        size_t k = width;
        for (;;) {
          if (k == 0) {
            *state = 2;
            return nullptr;
          }
          --k;
          if (++(*idx)[k] < pool(k).size()) break;
          (*idx)[k] = 0;
        }
      }
      std::vector<Value> t;
      t.reserve(width);
      for (size_t k = 0; k < width; ++k) t.push_back(pool(k)[(*idx)[k]]);
      return makeTuple(std::move(t));
    });
  });
  defineNative(ns, "combinations", "iterable, r", [mp](CallContext& c) -> Value {
    auto pool = std::make_shared<std::vector<Value>>(mp->toList(c.arg(0)));
    int64_t r = c.toInt(c.arg(1));
    if (r < 0) mp->valueError("r must be non-negative");
    int64_t n = static_cast<int64_t>(pool->size());
    auto idx = std::make_shared<std::vector<int64_t>>();
    auto state = std::make_shared<int>(r > n ? 2 : 0);
    return makeIterator("combinations", [pool, idx, state, r, n]() -> Value {
      if (*state == 2) return nullptr;
      auto& ix = *idx;
      if (*state == 0) {
        *state = 1;
        for (int64_t i = 0; i < r; ++i) ix.push_back(i);
      } else {
        int64_t i = r - 1;
        while (i >= 0 && ix[static_cast<size_t>(i)] == i + n - r) --i;
        if (i < 0) {
          *state = 2;
          return nullptr;
        }
        ++ix[static_cast<size_t>(i)];
        for (int64_t j = i + 1; j < r; ++j) ix[static_cast<size_t>(j)] = ix[static_cast<size_t>(j - 1)] + 1;
      }
      std::vector<Value> t;
      for (int64_t i : ix) t.push_back((*pool)[static_cast<size_t>(i)]);
      return makeTuple(std::move(t));
    });
  });
  defineNative(ns, "permutations", "iterable, r=None", [mp](CallContext& c) -> Value {
    auto pool = std::make_shared<std::vector<Value>>(mp->toList(c.arg(0)));
    size_t n = pool->size();
    int64_t rr = isNone(c.arg(1)) ? static_cast<int64_t>(n) : c.toInt(c.arg(1));
    if (rr < 0) mp->valueError("r must be non-negative");
    size_t r = static_cast<size_t>(rr);
    // CPython's algorithm: indices and cycles.
    auto indices = std::make_shared<std::vector<size_t>>();
    auto cycles = std::make_shared<std::vector<size_t>>();
    auto state = std::make_shared<int>(r > n ? 2 : 0);
    return makeIterator("permutations", [pool, indices, cycles, state, n, r]() -> Value {
      if (*state == 2) return nullptr;
      auto& ix = *indices;
      auto& cy = *cycles;
      if (*state == 0) {
        *state = 1;
        for (size_t i = 0; i < n; ++i) ix.push_back(i);
        for (size_t i = 0; i < r; ++i) cy.push_back(n - i);
      } else {
        bool found = false;
        for (size_t i = r; i-- > 0;) {
          if (--cy[i] == 0) {
            std::rotate(ix.begin() + static_cast<ptrdiff_t>(i), ix.begin() + static_cast<ptrdiff_t>(i) + 1, ix.end());
            cy[i] = n - i;
          } else {
            std::swap(ix[i], ix[n - cy[i]]);
            found = true;
            break;
          }
        }
        if (!found || n == 0) {
          *state = 2;
          return nullptr;
        }
      }
      std::vector<Value> t;
      for (size_t i = 0; i < r; ++i) t.push_back((*pool)[ix[i]]);
      return makeTuple(std::move(t));
    });
  });
  defineNative(ns, "accumulate", "iterable, func=None, *, initial=None", [mp](CallContext& c) -> Value {
    Value it = mp->getIter(c.arg(0));
    Value fn = c.arg(1);
    auto acc = std::make_shared<Value>(isNone(c.arg(2)) ? nullptr : c.arg(2));
    auto first = std::make_shared<bool>(!isNone(c.arg(2)));
    return makeIterator("accumulate", [mp, it, fn, acc, first]() -> Value {
      if (*first) {
        *first = false;
        return *acc;
      }
      Value v = mp->next(it);
      if (!v) return nullptr;
      *acc = !*acc ? v : isNone(fn) ? mp->binary(BinOp::Add, *acc, v) : mp->call(fn, {*acc, v}, {});
      return *acc;
    });
  });
  auto whileFn = [mp](bool take) {
    return [mp, take](CallContext& c) -> Value {
      Value pred = c.arg(0), it = mp->getIter(c.arg(1));
      auto state = std::make_shared<bool>(false);  // take: stopped; drop: dropping done
      return makeIterator(take ? "takewhile" : "dropwhile", [mp, pred, it, state, take]() -> Value {
        for (;;) {
          if (take && *state) return nullptr;
          Value v = mp->next(it);
          if (!v) return nullptr;
          if (take) {
            if (mp->truth(mp->call(pred, {v}, {})) == Truth::True) return v;
            *state = true;
            return nullptr;
          }
          if (*state || mp->truth(mp->call(pred, {v}, {})) != Truth::True) {
            *state = true;
            return v;
          }
        }
      });
    };
  };
  defineNative(ns, "takewhile", "predicate, iterable, /", whileFn(true));
  defineNative(ns, "dropwhile", "predicate, iterable, /", whileFn(false));
  return mod;
}

std::shared_ptr<ModuleObj> makeCollectionsNative(Interpreter& in) {
  ObjectProtocol& m = protocolOf(in);
  auto mod = makeModule("_collections");
  mod->set("OrderedDict", m.types.orderedDict);
  mod->set("defaultdict", m.types.defaultDict);
  return mod;
}

std::shared_ptr<ModuleObj> makeTypingModule(Interpreter& in) {
  auto mod = makeModule("typing");
  for (const char* n : {"Any", "List", "Dict", "Tuple", "Set", "FrozenSet", "Optional", "Union", "Callable", "Iterable",
                        "Iterator", "Sequence", "Mapping", "MutableMapping", "Type", "Generator", "Sized", "Hashable",
                        "NoReturn", "ClassVar", "Final", "Literal", "Deque", "DefaultDict", "Text", "AnyStr",
                        "Collection", "Container", "Awaitable", "Coroutine", "Protocol", "Generic", "IO", "TextIO"})
    mod->set(n, std::make_shared<TypingName>(n));
  mod->set("TYPE_CHECKING", boolean(false));
  mod->set("cast", NativeFunction::make("cast", "typ, val", [](CallContext& c) { return c.arg(1); }));
  mod->set("TypeVar", NativeFunction::make("TypeVar", "name, *constraints, **kwargs", [](CallContext& c) -> Value {
             return std::make_shared<TypingName>(c.toStr(c.arg(0)));
           }));
  auto identity = NativeFunction::make("overload", "f", [](CallContext& c) { return c.arg(0); });
  mod->set("overload", identity);
  mod->set("no_type_check", identity);
  mod->set("final", identity);
  mod->set("runtime_checkable", identity);
  return mod;
}

}  // namespace tlens::interp
