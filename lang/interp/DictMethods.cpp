// dict and set methods. keys()/values()/items() return live views (re-iterable, sized, with
// `in`), printed like CPython's dict_keys([...]).
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

class DictView : public NativeObject {
 public:
  enum Which { Keys, Values, Items };
  DictView(ObjectProtocol* m, std::shared_ptr<DictObj> d, Which w) : m_(m), d_(std::move(d)), which_(w) {}
  std::string typeName() const override {
    return which_ == Keys ? "dict_keys" : which_ == Values ? "dict_values" : "dict_items";
  }
  std::vector<Value> items() const {
    std::vector<Value> out;
    d_->table.forEach([&](const HashTable::Entry& e) {
      out.push_back(which_ == Keys ? e.key : which_ == Values ? e.value : makeTuple({e.key, e.value}));
    });
    return out;
  }
  Value iter(Interpreter&) override { return makeList(items()); }
  std::optional<int64_t> len(Interpreter&) override { return static_cast<int64_t>(d_->size()); }
  Truth truthy(Interpreter&) override { return d_->size() ? Truth::True : Truth::False; }
  std::optional<Truth> contains(Interpreter& in, const Value& item) override {
    if (which_ == Keys) return m_->contains(d_, item);
    Truth res = Truth::False;
    for (const Value& v : items()) {
      Truth t = m_->equal(v, item);
      if (t == Truth::True) return t;
      if (t == Truth::Unknown) res = t;
    }
    return res;
  }
  std::string repr(Interpreter&) override { return typeName() + "(" + m_->repr(makeList(items())) + ")"; }
  Value compare(Interpreter&, CmpOp op, const Value& other, bool) override {
    if (op != CmpOp::Eq && op != CmpOp::Ne) return nullptr;
    auto* o = dynamic_cast<DictView*>(other.get());
    if (!o) return boolean(op == CmpOp::Ne);
    Truth t = m_->equal(makeList(items()), makeList(o->items()));
    return boolean((t == Truth::True) == (op == CmpOp::Eq));
  }

 private:
  ObjectProtocol* m_;
  std::shared_ptr<DictObj> d_;
  Which which_;
};

}  // namespace

void installDictMethods(ObjectProtocol& m) {
  ObjectProtocol* mp = &m;
  Namespace& d = m.types.dict->dict;
  auto dict = [](CallContext& c) { return std::static_pointer_cast<DictObj>(c.arg(0)); };

  defineNative(d, "keys", "self", [mp, dict](CallContext& c) -> Value { return std::make_shared<DictView>(mp, dict(c), DictView::Keys); });
  defineNative(d, "values", "self", [mp, dict](CallContext& c) -> Value { return std::make_shared<DictView>(mp, dict(c), DictView::Values); });
  defineNative(d, "items", "self", [mp, dict](CallContext& c) -> Value { return std::make_shared<DictView>(mp, dict(c), DictView::Items); });
  defineNative(d, "get", "self, key, default=None, /", [mp, dict](CallContext& c) -> Value {
    auto dd = dict(c);
    if (isUnknown(c.arg(1))) return unknown();
    Value v = dd->get(c.interp, c.arg(1));
    if (v) return v;
    return dd->imprecise ? mp->join(c.arg(2), unknown()) : c.arg(2);
  });
  defineRaw(d, "pop", [mp](CallContext& c) -> Value {
    if (c.args.size() < 2 || c.args.size() > 3) mp->typeError("pop expected at least 1 argument, got 0");
    auto dd = std::static_pointer_cast<DictObj>(c.args[0]);
    if (isUnknown(c.args[1])) return unknown();
    Value v = dd->get(c.interp, c.args[1]);
    if (v) {
      dd->erase(c.interp, c.args[1]);
      return v;
    }
    if (c.args.size() == 3) return c.args[2];
    if (mp->abstract()) return unknown();
    mp->raiseValue(mp->makeException(mp->types.keyError, {c.args[1]}));
  });
  defineNative(d, "popitem", "self", [mp, dict](CallContext& c) -> Value {
    auto dd = dict(c);
    auto entries = dd->entries();
    if (entries.empty()) {
      if (mp->abstract()) return unknownOf(mp->types.tuple);
      mp->raise(mp->types.keyError, "popitem(): dictionary is empty");
    }
    auto e = entries.back();
    dd->erase(c.interp, e.key);
    return makeTuple({e.key, e.value});
  });
  defineNative(d, "setdefault", "self, key, default=None, /", [dict](CallContext& c) -> Value {
    auto dd = dict(c);
    if (isUnknown(c.arg(1))) {
      dd->imprecise = true;
      return unknown();
    }
    Value v = dd->get(c.interp, c.arg(1));
    if (v) return v;
    dd->set(c.interp, c.arg(1), c.arg(2));
    return c.arg(2);
  });
  defineRaw(d, "update", [mp](CallContext& c) -> Value {
    auto dd = std::static_pointer_cast<DictObj>(c.args.at(0));
    if (c.args.size() > 1) {
      const Value& src = c.args[1];
      if (isUnknown(src)) dd->imprecise = true;
      else if (auto* sd = as<DictObj>(src)) {
        for (const auto& e : sd->entries()) dd->set(c.interp, e.key, e.value);
        if (sd->imprecise) dd->imprecise = true;
      } else if (src->kind() == Kind::Instance && mp->findAttr(src, "keys")) {
        for (const Value& k : mp->toList(mp->callMethod(src, "keys", {}))) dd->set(c.interp, k, mp->getItem(src, k));
      } else {
        for (const Value& item : mp->toList(src)) {
          std::vector<Value> kv = mp->toList(item);
          if (kv.size() != 2) mp->valueError("dictionary update sequence element has length " + std::to_string(kv.size()) + "; 2 is required");
          dd->set(c.interp, kv[0], kv[1]);
        }
      }
    }
    for (const auto& [k, v] : c.kwargs) dd->setStr(k, v);
    return none();
  });
  defineNative(d, "copy", "self", [dict](CallContext& c) -> Value {
    auto src = dict(c);
    auto out = makeDict();
    out->table = src->table;
    out->cls = src->cls;
    out->defaultFactory = src->defaultFactory;
    out->imprecise = src->imprecise;
    return out;
  });
  defineNative(d, "clear", "self", [dict](CallContext& c) -> Value {
    auto dd = dict(c);
    dd->table.clear();
    dd->imprecise = false;
    dd->syncMirror();
    return none();
  });
  auto fromkeys = NativeFunction::make("fromkeys", "cls, iterable, value=None, /", [mp](CallContext& c) -> Value {
    auto out = makeDict();
    auto cls = asShared<ClassObj>(c.arg(0));
    if (cls && cls != mp->types.dict) out->cls = cls;
    for (const Value& k : mp->toList(c.arg(1))) out->set(c.interp, k, c.arg(2));
    return out;
  });
  d.set("fromkeys", std::make_shared<ClassMethodObj>(fromkeys));
  defineNative(m.types.orderedDict->dict, "move_to_end", "self, key, last=True", [mp, dict](CallContext& c) -> Value {
    auto dd = dict(c);
    Value v = dd->get(c.interp, c.arg(1));
    if (!v) mp->raiseValue(mp->makeException(mp->types.keyError, {c.arg(1)}));
    std::vector<HashTable::Entry> entries = dd->entries();
    dd->table.clear();
    bool last = c.toBool(c.arg(2));
    if (!last) dd->set(c.interp, c.arg(1), v);
    for (const auto& e : entries)
      if (mp->equal(e.key, c.arg(1)) != Truth::True) dd->set(c.interp, e.key, e.value);
    if (last) dd->set(c.interp, c.arg(1), v);
    return none();
  });

  // set
  Namespace& s = m.types.set->dict;
  auto set = [](CallContext& c) { return std::static_pointer_cast<SetObj>(c.arg(0)); };
  defineNative(s, "add", "self, elem, /", [set](CallContext& c) -> Value {
    if (isUnknown(c.arg(1))) set(c)->imprecise = true;
    else set(c)->add(c.interp, c.arg(1));
    return none();
  });
  defineNative(s, "remove", "self, elem, /", [set, mp](CallContext& c) -> Value {
    if (!set(c)->discard(c.interp, c.arg(1)) && !mp->abstract()) mp->raiseValue(mp->makeException(mp->types.keyError, {c.arg(1)}));
    return none();
  });
  defineNative(s, "discard", "self, elem, /", [set](CallContext& c) -> Value {
    set(c)->discard(c.interp, c.arg(1));
    return none();
  });
  defineNative(s, "pop", "self", [set, mp](CallContext& c) -> Value {
    auto st = set(c);
    auto items = st->items();
    if (items.empty()) {
      if (mp->abstract()) return unknown();
      mp->raise(mp->types.keyError, "pop from an empty set");
    }
    st->discard(c.interp, items.front());
    return items.front();
  });
  defineNative(s, "clear", "self", [set](CallContext& c) -> Value {
    set(c)->table.clear();
    return none();
  });
  auto copySet = [](const SetObj& src) {
    auto out = makeSet();
    out->table = src.table;
    out->frozen = src.frozen;
    out->imprecise = src.imprecise;
    return out;
  };
  defineNative(s, "copy", "self", [set, copySet](CallContext& c) -> Value { return copySet(*set(c)); });
  defineRaw(s, "update", [mp](CallContext& c) -> Value {
    auto st = std::static_pointer_cast<SetObj>(c.args.at(0));
    for (size_t i = 1; i < c.args.size(); ++i)
      for (const Value& v : mp->toList(c.args[i])) st->add(c.interp, v);
    return none();
  });
  auto setOp = [mp, copySet](BinOp op) {
    return [mp, op, copySet](CallContext& c) -> Value {
      Value acc = copySet(*static_cast<SetObj*>(c.args.at(0).get()));
      for (size_t i = 1; i < c.args.size(); ++i) {
        auto other = makeSet();
        for (const Value& v : mp->toList(c.args[i])) other->add(c.interp, v);
        acc = mp->binary(op, acc, other);
      }
      return acc;
    };
  };
  defineRaw(s, "union", setOp(BinOp::Or));
  defineRaw(s, "intersection", setOp(BinOp::And));
  defineRaw(s, "difference", setOp(BinOp::Sub));
  defineRaw(s, "symmetric_difference", setOp(BinOp::Xor));
  auto setCompare = [mp](CmpOp op, bool disjoint) {
    return [mp, op, disjoint](CallContext& c) -> Value {
      auto other = makeSet();
      for (const Value& v : mp->toList(c.arg(1))) other->add(c.interp, v);
      if (disjoint) {
        for (const Value& v : static_cast<SetObj*>(c.arg(0).get())->items())
          if (other->contains(c.interp, v)) return boolean(false);
        return boolean(true);
      }
      return mp->compare(op, c.arg(0), other);
    };
  };
  defineNative(s, "issubset", "self, other, /", setCompare(CmpOp::Le, false));
  defineNative(s, "issuperset", "self, other, /", setCompare(CmpOp::Ge, false));
  defineNative(s, "isdisjoint", "self, other, /", setCompare(CmpOp::Eq, true));
  defineRaw(s, "intersection_update", [mp](CallContext& c) -> Value {
    auto st = std::static_pointer_cast<SetObj>(c.args.at(0));
    for (size_t i = 1; i < c.args.size(); ++i) {
      auto other = makeSet();
      for (const Value& v : mp->toList(c.args[i])) other->add(c.interp, v);
      for (const Value& v : st->items())
        if (!other->contains(c.interp, v)) st->discard(c.interp, v);
    }
    return none();
  });
  defineRaw(s, "difference_update", [mp](CallContext& c) -> Value {
    auto st = std::static_pointer_cast<SetObj>(c.args.at(0));
    for (size_t i = 1; i < c.args.size(); ++i)
      for (const Value& v : mp->toList(c.args[i])) st->discard(c.interp, v);
    return none();
  });
  // frozenset shares the non-mutating methods.
  Namespace& f = m.types.frozenset->dict;
  for (const char* n : {"copy", "union", "intersection", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint"})
    f.set(n, s.get(n));
}

}  // namespace tlens::interp
