// list and tuple methods, and the stable merge sort behind list.sort and sorted(). A merge sort
// (not std::sort) because user __lt__ may be inconsistent, which must never crash.
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {

void sortValues(ObjectProtocol& m, std::vector<Value>& v, const Value& key, bool reverse) {
  std::vector<Value> keys;
  keys.reserve(v.size());
  for (const Value& x : v) keys.push_back(key ? m.call(key, {x}, {}) : x);
  std::vector<size_t> idx(v.size()), tmp(v.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  auto less = [&](size_t a, size_t b) {
    // reverse keeps stability: equal items stay in order.
    const Value& x = reverse ? keys[b] : keys[a];
    const Value& y = reverse ? keys[a] : keys[b];
    return m.truth(m.compare(CmpOp::Lt, x, y)) == Truth::True;
  };
  for (size_t width = 1; width < idx.size(); width *= 2) {
    for (size_t lo = 0; lo < idx.size(); lo += 2 * width) {
      size_t mid = std::min(lo + width, idx.size()), hi = std::min(lo + 2 * width, idx.size());
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = less(idx[j], idx[i]) ? idx[j++] : idx[i++];
      while (i < mid) tmp[k++] = idx[i++];
      while (j < hi) tmp[k++] = idx[j++];
    }
    std::swap(idx, tmp);
  }
  std::vector<Value> out;
  out.reserve(v.size());
  for (size_t i : idx) out.push_back(v[i]);
  v = std::move(out);
}

void installListMethods(ObjectProtocol& m) {
  ObjectProtocol* mp = &m;
  Namespace& d = m.types.list->dict;
  auto items = [](CallContext& c) -> std::vector<Value>& { return static_cast<ListObj*>(c.arg(0).get())->items; };

  defineNative(d, "append", "self, object, /", [items](CallContext& c) -> Value {
    items(c).push_back(c.arg(1));
    return none();
  });
  defineNative(d, "extend", "self, iterable, /", [items, mp](CallContext& c) -> Value {
    if (isUnknown(c.arg(1))) {
      if (mp->abstract()) throw StatementEffectsUnknown{};  // a list of unknown length now
      return none();
    }
    std::vector<Value> more = mp->toList(c.arg(1));
    mp->reserveSize(static_cast<double>(items(c).size()) + static_cast<double>(more.size()), mp->types.list);
    items(c).insert(items(c).end(), more.begin(), more.end());
    return none();
  });
  defineNative(d, "insert", "self, index, object, /", [items, mp](CallContext& c) -> Value {
    auto& v = items(c);
    int64_t n = static_cast<int64_t>(v.size());
    int64_t i = mp->toIndex(c.arg(1), "");
    if (i < 0) i = std::max<int64_t>(0, i + n);
    i = std::min(i, n);
    v.insert(v.begin() + i, c.arg(2));
    return none();
  });
  defineNative(d, "pop", "self, index=-1, /", [items, mp](CallContext& c) -> Value {
    auto& v = items(c);
    if (v.empty()) {
      if (mp->abstract()) return unknown();
      mp->raise(mp->types.indexError, "pop from empty list");
    }
    int64_t n = static_cast<int64_t>(v.size());
    int64_t i = mp->toIndex(c.arg(1), "");
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      if (mp->abstract()) return unknown();
      mp->raise(mp->types.indexError, "pop index out of range");
    }
    Value r = v[static_cast<size_t>(i)];
    v.erase(v.begin() + i);
    return r;
  });
  defineNative(d, "remove", "self, value, /", [items, mp](CallContext& c) -> Value {
    auto& v = items(c);
    for (size_t i = 0; i < v.size(); ++i)
      if (Value x = v[i]; mp->equal(x, c.arg(1)) == Truth::True && i < v.size()) {
        v.erase(v.begin() + static_cast<ptrdiff_t>(i));
        return none();
      }
    if (!mp->abstract()) mp->valueError("list.remove(x): x not in list");
    return none();
  });
  auto indexFn = [mp](const char* what) {
    return [mp, what](CallContext& c) -> Value {
      const auto& v = *asSequence(c.arg(0));
      int64_t n = static_cast<int64_t>(v.size());
      int64_t b = isNone(c.arg(2)) ? 0 : c.toInt(c.arg(2)), e = isNone(c.arg(3)) ? n : c.toInt(c.arg(3));
      if (b < 0) b = std::max<int64_t>(0, b + n);
      if (e < 0) e = std::max<int64_t>(0, e + n);
      for (int64_t i = b; i < std::min(e, static_cast<int64_t>(v.size())); ++i) {
        Value x = v[static_cast<size_t>(i)];
        Truth t = mp->equal(x, c.arg(1));
        if (t == Truth::True) return makeInt(i);
        if (t == Truth::Unknown) return unknownOf(mp->types.int_);
      }
      if (mp->abstract()) return unknownOf(mp->types.int_);
      mp->valueError(std::string(what) == "list" ? mp->repr(c.arg(1)) + " is not in list" : "tuple.index(x): x not in tuple");
    };
  };
  auto countFn = [mp](CallContext& c) -> Value {
    int64_t n = 0;
    const auto& v = *asSequence(c.arg(0));
    for (size_t i = 0; i < v.size(); ++i)
      if (Value x = v[i]; mp->equal(x, c.arg(1)) == Truth::True) ++n;
    return makeInt(n);
  };
  defineNative(d, "index", "self, value, start=None, stop=None, /", indexFn("list"));
  defineNative(d, "count", "self, value, /", countFn);
  defineNative(d, "reverse", "self", [items](CallContext& c) -> Value {
    std::reverse(items(c).begin(), items(c).end());
    return none();
  });
  defineNative(d, "sort", "self, *, key=None, reverse=False", [items, mp](CallContext& c) -> Value {
    std::vector<Value> v = items(c);
    sortValues(*mp, v, isNone(c.arg(1)) ? nullptr : c.arg(1), c.toBool(c.arg(2)));
    items(c) = std::move(v);
    return none();
  });
  defineNative(d, "copy", "self", [items](CallContext& c) -> Value { return makeList(items(c)); });
  defineNative(d, "clear", "self", [items](CallContext& c) -> Value {
    items(c).clear();
    return none();
  });

  Namespace& t = m.types.tuple->dict;
  defineNative(t, "index", "self, value, start=None, stop=None, /", indexFn("tuple"));
  defineNative(t, "count", "self, value, /", countFn);
}

}  // namespace tlens::interp
