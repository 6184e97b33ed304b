// Comprehensions: list, set, dict and generator expressions. Each gets its own scope (an Env
// searched before the frame's names) for its loop variables, as in Python 3. Generator
// expressions are evaluated eagerly into an iterator. In abstract mode, iterables that are not
// small and known run a bounded number of times and the result is Unknown of the right type.
#include "lang/interp/Machine.h"

namespace tlens::interp {

Value Machine::evalComprehension(TSNode n) {
  const Fields& F = fields();
  NodeKind kind = kindOf(n);
  TSNode body = field(n, F.body);
  std::vector<TSNode> clauses;
  for (TSNode c : namedChildren(n)) {
    NodeKind k = kindOf(c);
    if (k == NodeKind::ForInClause || k == NodeKind::IfClause) clauses.push_back(c);
  }
  auto env = std::make_shared<Env>();
  env->parent = closureForNewFunction();
  track(env);
  Frame& f = frame();
  f.comprehensions.push_back(env);
  struct Pop {
    Frame& f;
    ~Pop() { f.comprehensions.pop_back(); }
  } pop{f};

  std::vector<Value> items;
  std::shared_ptr<DictObj> dict = kind == NodeKind::DictionaryComprehension ? makeDict() : nullptr;
  bool imprecise = false;
  size_t exact = static_cast<size_t>(std::max(0, opts.abstractExactLoopLimit));

  std::function<void(size_t)> run = [&](size_t i) {
    if (i == clauses.size()) {
      if (dict) {
        Value k = eval(field(body, F.key));
        Value v = eval(field(body, F.value));
        if (isUnknown(k)) dict->imprecise = true;
        else dict->set(api, k, v);
      } else {
        items.push_back(eval(body));
      }
      return;
    }
    TSNode c = clauses[i];
    if (kindOf(c) == NodeKind::IfClause) {
      Truth t = branchTruth(eval(firstNamedChild(c)));
      if (t == Truth::Unknown) imprecise = true;
      if (t != Truth::False) run(i + 1);
      return;
    }
    TSNode left = field(c, F.left);
    std::vector<TSNode> rights;
    for (const Child& ch : children(c))
      if (ch.fieldId == F.right && ts_node_is_named(ch.node)) rights.push_back(ch.node);
    Value iterable;
    if (rights.size() == 1) {
      iterable = eval(rights[0]);
    } else {
      std::vector<Value> vals;
      for (TSNode r : rights) vals.push_back(eval(r));
      iterable = makeTuple(std::move(vals));
    }
    auto bindAndRun = [&](const Value& item) {
      {
        struct Target {
          Machine& m;
          Env* saved;
          Target(Machine& mm, Env* e) : m(mm), saved(mm.comprehensionTarget) { m.comprehensionTarget = e; }
          ~Target() { m.comprehensionTarget = saved; }
        } target(*this, env.get());
        assign(left, item);
      }
      run(i + 1);
    };
    if (approximating()) {
      if (auto known = knownItems(iterable, exact)) {
        for (const Value& v : *known) bindAndRun(v);
        return;
      }
      imprecise = true;
      Value it = getIter(iterable);
      for (int k = 0; k < opts.abstractLoopIterations; ++k) {
        Value v = next(it);
        if (!v) break;
        bindAndRun(v);
      }
      return;
    }
    if (auto* list = as<ListObj>(iterable)) {
      for (size_t k = 0; k < list->items.size(); ++k) bindAndRun(list->items[k]);
      return;
    }
    if (auto* range = as<RangeObj>(iterable)) {
      int64_t len = range->length();
      for (int64_t k = 0; k < len; ++k) bindAndRun(makeInt(range->at(k)));
      return;
    }
    Value it = getIter(iterable);
    for (;;) {
      frame().current = c;
      Value v = next(it);
      if (!v) break;
      bindAndRun(v);
    }
  };
  run(0);

  switch (kind) {
    case NodeKind::ListComprehension: return imprecise ? unknownOf(types.list) : makeList(std::move(items));
    case NodeKind::SetComprehension: {
      if (imprecise) return unknownOf(types.set);
      auto s = makeSet();
      for (const Value& v : items) {
        if (isUnknown(v)) s->imprecise = true;
        else s->add(api, v);
      }
      return s;
    }
    case NodeKind::DictionaryComprehension:
      if (imprecise) return unknownOf(types.dict);
      return dict;
    default: {
      if (imprecise) return unknownOf(types.generator);
      auto data = std::make_shared<std::vector<Value>>(std::move(items));
      auto pos = std::make_shared<size_t>(0);
      return makeIterator("generator", [data, pos]() -> Value {
        if (*pos >= data->size()) return nullptr;
        return (*data)[(*pos)++];
      });
    }
  }
}

}  // namespace tlens::interp
