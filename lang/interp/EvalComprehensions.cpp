// Comprehensions: list, set, dict and generator expressions. Each gets its own scope (an Env
// searched before the frame's names) for its loop variables, as in Python 3. In concrete mode a
// generator expression is lazy, as in Python: its first iterable is evaluated where it is
// written, the rest runs on a coroutine (Generators.cpp) one item per next(), so
// `sum(i for i in range(10**8))` runs in constant memory and `next(i for i in count() if i > 5)`
// returns. In abstract mode, iterables that are not small and known run a bounded number of times
// and the result is Unknown of the right type. Results are bounded (Machine::fits): past the cap,
// abstract mode yields Unknown of the type and concrete mode raises MemoryError.
#include "lang/interp/Machine.h"

namespace tlens::interp {
namespace {

/// Thrown when an abstract comprehension's result passes the size cap: the result is Unknown.
struct TooLarge {};

/// While a comprehension's loop target is assigned, names bind in its scope (`env`), not the frame's.
struct ComprehensionTarget {
  Machine& m;
  Env* saved;
  ComprehensionTarget(Machine& mm, Env* e) : m(mm), saved(mm.comprehensionTarget) { m.comprehensionTarget = e; }
  ~ComprehensionTarget() { m.comprehensionTarget = saved; }
  ComprehensionTarget(const ComprehensionTarget&) = delete;
  ComprehensionTarget& operator=(const ComprehensionTarget&) = delete;
};

}  // namespace

void Evaluator::runClauses(const std::vector<TSNode>& clauses, size_t i, Env* env, const Value& first, bool& imprecise,
                         const std::function<void()>& emit) {
  if (i == clauses.size()) {
    emit();
    return;
  }
  const Fields& F = fields();
  TSNode c = clauses[i];
  if (kindOf(c) == NodeKind::IfClause) {
    Truth t = branchTruth(eval(firstNamedChild(c)));
    if (t == Truth::Unknown) imprecise = true;
    if (t != Truth::False) runClauses(clauses, i + 1, env, nullptr, imprecise, emit);
    return;
  }
  TSNode left = field(c, F.left);
  Value iterable = first;
  if (!iterable) {
    std::vector<TSNode> rights;
    for (const Child& ch : children(c))
      if (ch.fieldId == F.right && ts_node_is_named(ch.node)) rights.push_back(ch.node);
    if (rights.size() == 1) {
      iterable = eval(rights[0]);
    } else {
      std::vector<Value> vals;
      for (TSNode r : rights) vals.push_back(eval(r));
      iterable = makeTuple(std::move(vals));
    }
  }
  auto bindAndRun = [&](const Value& item) {
    {
      ComprehensionTarget target(self(), env);
      assign(left, item);
    }
    runClauses(clauses, i + 1, env, nullptr, imprecise, emit);
  };
  // An unknown iterable is approximated also in trusted (library) code: its items are not known,
  // so neither is the result's length (`TensorShape(unknown).as_list()` was a 2-item list).
  if (approximating() || isUnknown(iterable)) {
    size_t exact = static_cast<size_t>(std::max(0, opts.abstractExactLoopLimit));
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
  // The fast paths pull no items through next(), which polls; poll here (a stale analysis, a
  // debugger's pause or disconnect, Ctrl-C) and read the safety clock.
  auto pollEvery = [this](int64_t k) {
    if ((k & 1023) == 1023) {
      checkBudget();
      poll();
    }
  };
  if (auto* list = as<ListObj>(iterable)) {
    Value keep = iterable;
    for (size_t k = 0; k < list->items.size(); ++k) {
      pollEvery(static_cast<int64_t>(k));
      bindAndRun(list->items[k]);
    }
    return;
  }
  if (auto* range = as<RangeObj>(iterable)) {
    Value keep = iterable;
    int64_t len = range->length();
    for (int64_t k = 0; k < len; ++k) {
      pollEvery(k);
      bindAndRun(makeInt(range->at(k)));
    }
    return;
  }
  Value it = first ? first : getIter(iterable);
  for (;;) {
    frame().current = c;
    Value v = next(it);
    if (!v) break;
    bindAndRun(v);
  }
}

Value Evaluator::evalComprehension(TSNode n) {
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

  if (kind == NodeKind::GeneratorExpression && !abstract() && !clauses.empty() &&
      kindOf(clauses[0]) == NodeKind::ForInClause) {
    // The first iterable is evaluated (and iter() called on it) here, in the defining scope.
    std::vector<TSNode> rights;
    for (const Child& ch : children(clauses[0]))
      if (ch.fieldId == F.right && ts_node_is_named(ch.node)) rights.push_back(ch.node);
    Value iterable;
    if (rights.size() == 1) {
      iterable = eval(rights[0]);
    } else {
      std::vector<Value> vals;
      for (TSNode r : rights) vals.push_back(eval(r));
      iterable = makeTuple(std::move(vals));
    }
    auto data = std::make_shared<GenExprData>();
    data->firstIter = getIter(iterable);
    Frame& f = frame();
    data->frame.type = f.type;
    data->frame.name = "<genexpr>";
    data->frame.file = f.file;
    data->frame.locals = f.locals;
    data->frame.globals = f.globals;
    data->frame.closure = f.closure;
    data->frame.code = f.code;
    data->frame.function = f.function;
    data->frame.firstArg = f.firstArg;
    data->frame.trusted = f.trusted;
    data->frame.comprehensions = f.comprehensions;
    data->frame.comprehensions.push_back(env);
    data->frame.current = n;
    if (f.function) data->owner = f.function->shared_from_this();
    data->file = currentFileRef();
    data->node = n;
    data->env = env;
    auto g = std::make_shared<GeneratorObj>();
    g->expr = std::move(data);
    track(g);
    return g;
  }

  Frame& f = frame();
  f.comprehensions.push_back(env);
  struct Pop {
    Frame& f;
    ~Pop() { f.comprehensions.pop_back(); }
  } pop{f};

  std::vector<Value> items;
  std::shared_ptr<DictObj> dict = kind == NodeKind::DictionaryComprehension ? makeDict() : nullptr;
  bool imprecise = false;
  const std::shared_ptr<ClassObj>& cls = kind == NodeKind::ListComprehension   ? types.list
                                         : kind == NodeKind::SetComprehension  ? types.set
                                         : dict                                ? types.dict
                                                                               : types.generator;
  const size_t cap = static_cast<size_t>(abstract() ? kAbstractMaxSize : kMaxItems);
  auto emit = [&] {
    size_t size = dict ? dict->size() : items.size();
    if (size >= cap && !fits(static_cast<double>(size) + 1, cls == types.generator ? types.list : cls)) throw TooLarge{};
    if (dict) {
      Value k = eval(field(body, F.key));
      Value v = eval(field(body, F.value));
      if (isUnknown(k)) dict->imprecise = true;
      else dict->set(api, k, v);
    } else {
      items.push_back(eval(body));
    }
  };
  // Abstract mode, `[body for x in seq]` over a range, list or tuple of known length too long to
  // run item by item (the sliding windows of time-series code: `[s[i:i + 20] for i in
  // range(900)]`): the body runs once with x bound to the join of the items, and the list has
  // that many copies of its value, so np.array of it has its first dimension.
  Value firstIterable;
  if (kind == NodeKind::ListComprehension && approximating() && clauses.size() == 1 &&
      kindOf(clauses[0]) == NodeKind::ForInClause) {
    std::vector<TSNode> rights;
    for (const Child& ch : children(clauses[0]))
      if (ch.fieldId == F.right && ts_node_is_named(ch.node)) rights.push_back(ch.node);
    if (rights.size() == 1) {
      firstIterable = eval(rights[0]);
      const size_t exact = static_cast<size_t>(std::max(0, opts.abstractExactLoopLimit));
      size_t count = 0;
      Value joined;
      if (auto* range = as<RangeObj>(firstIterable)) {
        count = static_cast<size_t>(std::max<int64_t>(0, range->length()));
        if (count > exact) joined = unknownOf(types.int_);
      } else if (firstIterable->kind() == Kind::List || firstIterable->kind() == Kind::Tuple) {
        const std::vector<Value>& all = *asSequence(firstIterable);
        count = all.size();
        if (count > exact && count <= cap) {
          // Items of one class join to an Unknown of it (ints stay ints for numpy).
          std::shared_ptr<ClassObj> common = all.empty() ? nullptr : typeOf(all[0]);
          for (const Value& v : all) {
            joined = joined ? join(joined, v) : v;
            if (common && typeOf(v) != common) common = nullptr;
          }
          if (auto* u = as<UnknownObj>(joined); u && !u->type && common && !isUnknown(all[0])) joined = unknownOf(common);
        }
      }
      if (joined && count <= cap && fits(static_cast<double>(count), types.list)) {
        {
          ComprehensionTarget target(self(), env.get());
          assign(field(clauses[0], F.left), joined);
        }
        Value item = eval(body);
        return makeList(std::vector<Value>(count, item));
      }
    }
  }
  try {
    runClauses(clauses, 0, env.get(), firstIterable, imprecise, emit);
  } catch (TooLarge&) {
    imprecise = true;
  }

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

void Evaluator::runGenExpr(GeneratorObj& g) {
  std::shared_ptr<GenExprData> data = g.expr;  // kept while running
  Frame fr = data->frame;
  fr.generator = g.state.get();
  FramePush push(*this, fr);
  struct Depth {
    Machine& m;
    explicit Depth(Machine& mm) : m(mm) { ++m.callDepth; }
    ~Depth() { --m.callDepth; }
  } depth(self());
  const Fields& F = fields();
  TSNode body = field(data->node, F.body);
  std::vector<TSNode> clauses;
  for (TSNode c : namedChildren(data->node)) {
    NodeKind k = kindOf(c);
    if (k == NodeKind::ForInClause || k == NodeKind::IfClause) clauses.push_back(c);
  }
  bool imprecise = false;
  runClauses(clauses, 0, data->env.get(), data->firstIter, imprecise, [&] {
    Value v = eval(body);
    fr.current = data->node;
    yieldValue(fr.generator, std::move(v));
  });
}

}  // namespace tlens::interp
