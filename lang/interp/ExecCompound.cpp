// Compound statements: if, while, for, try, with.
//
// Abstract mode adds three behaviours:
// - An `if` (or `elif`) whose condition is unknown runs both branches from the same bindings and
//   joins the results (execBranches). A branch that returns, breaks or raises is dead; the other
//   one continues. Returns from dead branches are joined into the function's result.
// - Loops over known iterables of at most InterpOptions::abstractExactLoopLimit items run
//   exactly. Others (unknown trip counts, `while True`, long ranges) run the body at most
//   abstractLoopIterations times (a long known sequence: first with its first item, then with
//   the join of its items), then the variables the loop changed are joined with their values
//   before the loop (the loop may have run any number of times).
// - try: after running as usual, except handlers that did not run are analysed too.
#include "lang/interp/Evaluator.h"
#include "lang/interp/SourceNames.h"

namespace tlens::interp {

Truth Evaluator::branchTruth(const Value& v) {
  Truth t = truth(v);
  if (t == Truth::Unknown && !abstract())
    raise(types.runtimeError, "cannot decide a condition on an unknown value (an unsupported construct produced it)");
  return t;
}

Flow Evaluator::execBranches(const std::function<Flow()>& a, const std::function<Flow()>& b) {
  Frame& f = frame();
  Namespace before = f.locals->vars;
  Value retBefore = f.returnValue;
  struct Result {
    Flow flow = Flow::Normal;
    bool raised = false;
    Value exc;
    Namespace after;
    Value ret;
  };
  auto runOne = [&](const std::function<Flow()>& fn) {
    Result r;
    f.returnValue = retBefore;
    try {
      r.flow = fn();
    } catch (PyError& e) {
      r.raised = true;
      r.exc = e.exc;
    }
    r.ret = f.returnValue;
    r.after = f.locals->vars;
    return r;
  };
  Result ra = runOne(a);
  f.locals->vars = before;
  Result rb = runOne(b);
  bool aLive = !ra.raised && ra.flow == Flow::Normal;
  bool bLive = !rb.raised && rb.flow == Flow::Normal;
  auto abandon = [&](const Result& r) {
    if (!r.raised && r.flow == Flow::Return && r.ret) f.abstractReturns.push_back(r.ret);
  };
  f.returnValue = retBefore;
  if (aLive && bLive) {
    joinInto(ra.after, rb.after);
    f.locals->vars = std::move(ra.after);
    return Flow::Normal;
  }
  if (aLive) {
    abandon(rb);
    f.locals->vars = std::move(ra.after);
    return Flow::Normal;
  }
  if (bLive) {
    abandon(ra);
    f.locals->vars = std::move(rb.after);
    return Flow::Normal;
  }
  if (ra.raised && rb.raised) {
    f.locals->vars = std::move(ra.after);
    throw PyError(ra.exc);
  }
  if (ra.raised) {
    f.locals->vars = std::move(rb.after);
    f.returnValue = rb.ret;
    return rb.flow;
  }
  if (rb.raised) {
    f.locals->vars = std::move(ra.after);
    f.returnValue = ra.ret;
    return ra.flow;
  }
  joinInto(ra.after, rb.after);
  f.locals->vars = std::move(ra.after);
  if (ra.flow == Flow::Return && rb.flow == Flow::Return) {
    f.returnValue = join(ra.ret, rb.ret);
    return Flow::Return;
  }
  if (ra.flow == Flow::Return) {
    abandon(ra);
    return rb.flow;
  }
  if (rb.flow == Flow::Return) {
    abandon(rb);
    return ra.flow;
  }
  return ra.flow;
}

// ---- if ------------------------------------------------------------------------------------------

Flow Evaluator::execAlternatives(const std::vector<TSNode>& alts, size_t i) {
  if (i >= alts.size()) return Flow::Normal;
  TSNode alt = alts[i];
  const Fields& F = fields();
  if (kindOf(alt) == NodeKind::ElseClause) return execBlock(field(alt, F.body));
  frame().current = alt;
  auto ch = children(alt);
  Truth t = branchTruth(eval(fieldChild(ch, F.condition)));
  if (t == Truth::True) return execBlock(fieldIn(ch, F.consequence));
  if (t == Truth::False) return execAlternatives(alts, i + 1);
  TSNode body = fieldIn(ch, F.consequence);
  return execBranches([&] { return execBlock(body); }, [&] { return execAlternatives(alts, i + 1); });
}

Flow Evaluator::execIf(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  Truth t = branchTruth(eval(fieldChild(ch, F.condition)));
  TSNode body = fieldIn(ch, F.consequence);
  if (t == Truth::True) return execBlock(body);
  std::vector<TSNode> alts;
  for (const Child& c : ch)
    if (c.fieldId == F.alternative) alts.push_back(c.node);
  if (t == Truth::False) return execAlternatives(alts, 0);
  return execBranches([&] { return execBlock(body); }, [&] { return execAlternatives(alts, 0); });
}

// ---- loops ---------------------------------------------------------------------------------------

Evaluator::ListLengths Evaluator::listLengths(const Namespace& ns) {
  ListLengths out;
  ns.forEach([&](const std::string&, const Value& v) {
    if (v && v->kind() == Kind::List) out.emplace_back(v.get(), static_cast<const ListObj*>(v.get())->items.size());
  });
  return out;
}

void Evaluator::joinLoopBindings(const Namespace& before, const ListLengths& lengths) {
  Namespace& now = frame().locals->vars;
  before.forEach([&](const std::string& name, const Value& old) {
    Value* cur = now.find(name);
    if (!cur) return;
    if (cur->get() != old.get()) {
      *cur = join(old, *cur);
      return;
    }
    if (old->kind() != Kind::List) return;
    for (const auto& [obj, n] : lengths)
      if (obj == old.get()) {
        if (static_cast<const ListObj*>(obj)->items.size() != n) *cur = unknownLike(old);
        break;
      }
  });
}

Flow Evaluator::execWhile(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  TSNode cond = fieldIn(ch, F.condition), body = fieldIn(ch, F.body), alt = fieldIn(ch, F.alternative);
  if (!approximating()) {
    int64_t guard = 0;
    for (;;) {
      frame().current = n;
      Truth t = truth(eval(cond));
      if (t == Truth::Unknown) {
        if (!abstract()) branchTruth(unknown());
        return Flow::Normal;
      }
      if (t == Truth::False) break;
      Flow f = execBlock(body);
      if (f == Flow::Break) return Flow::Normal;
      if (f == Flow::Return) return f;
      if (abstract() && ++guard > 1000000) return Flow::Normal;
    }
    return ts_node_is_null(alt) ? Flow::Normal : execBlock(field(alt, F.body));
  }
  Namespace before = frame().locals->vars;
  const ListLengths lengths = listLengths(before);
  // `while True:` has no trip count to discover: bound it like an unknown condition.
  std::string_view condText = text(unparen(cond));
  bool forever = condText == "True" || condText == "1";
  int limit = forever ? opts.abstractLoopIterations : opts.abstractExactLoopLimit;
  int iters = 0;
  bool imprecise = false, broke = false;
  for (;;) {
    frame().current = n;
    Truth t = truth(eval(cond));
    if (t == Truth::False) break;
    if (t == Truth::Unknown && !imprecise) {
      imprecise = true;
      limit = std::min(limit, iters + opts.abstractLoopIterations);
    }
    if (iters >= limit) {
      imprecise = true;
      break;
    }
    Flow f = execBlock(body);
    ++iters;
    if (f == Flow::Break) {
      broke = true;
      break;
    }
    if (f == Flow::Return) return f;
  }
  if (imprecise) joinLoopBindings(before, lengths);
  if (!broke && !ts_node_is_null(alt)) return execBlock(field(alt, F.body));
  return Flow::Normal;
}

Flow Evaluator::execFor(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  TSNode left = fieldIn(ch, F.left), right = fieldIn(ch, F.right), body = fieldIn(ch, F.body),
         alt = fieldIn(ch, F.alternative);
  if (ts_node_child_count(n) > 0 && std::string_view(ts_node_type(ts_node_child(n, 0))) == "async") {
    unsupported(n, "async for");
    return Flow::Normal;
  }
  Value iterable = eval(right);
  auto runBody = [&](const Value& item, bool& stop) -> Flow {
    frame().current = left;
    assign(left, item);
    Flow f = execBlock(body);
    if (f == Flow::Break) {
      stop = true;
      return Flow::Break;
    }
    if (f == Flow::Return) {
      stop = true;
      return f;
    }
    return Flow::Normal;
  };
  auto finish = [&](Flow f) -> Flow {
    if (f == Flow::Return) return f;
    if (f == Flow::Break) return Flow::Normal;
    return ts_node_is_null(alt) ? Flow::Normal : execBlock(field(alt, F.body));
  };

  if (!approximating()) {
    bool stop = false;
    Flow f = Flow::Normal;
    if (auto* list = as<ListObj>(iterable)) {
      for (size_t i = 0; i < list->items.size() && !stop; ++i) f = runBody(list->items[i], stop);
    } else if (auto* range = as<RangeObj>(iterable)) {
      int64_t len = range->length();
      for (int64_t i = 0; i < len && !stop; ++i) f = runBody(makeInt(range->at(i)), stop);
    } else if (auto* tup = as<TupleObj>(iterable)) {
      for (size_t i = 0; i < tup->items.size() && !stop; ++i) f = runBody(tup->items[i], stop);
    } else {
      Value it = getIter(iterable);
      while (!stop) {
        frame().current = right;  // the iterator may run code (generators, __next__)
        Value v = next(it);
        if (!v) break;
        f = runBody(v, stop);
      }
    }
    return finish(f);
  }

  // Abstract mode.
  size_t exact = static_cast<size_t>(std::max(0, opts.abstractExactLoopLimit));
  if (auto items = knownItems(iterable, exact)) {
    bool stop = false;
    Flow f = Flow::Normal;
    for (size_t i = 0; i < items->size() && !stop; ++i) f = runBody((*items)[i], stop);
    return finish(f);
  }
  Namespace before = frame().locals->vars;
  const ListLengths lengths = listLengths(before);
  bool stop = false, imprecise = true;
  Flow f = Flow::Normal;
  if (isUnknown(iterable) || iterable->kind() == Kind::Native) {
    Value it = getIter(iterable);
    for (int k = 0; k < opts.abstractLoopIterations && !stop; ++k) {
      Value v = next(it);
      if (!v) break;
      f = runBody(v, stop);
    }
  } else if (auto many = knownItems(iterable, 1000000)) {
    // A long known sequence: the first iteration runs with the first item (it is the one a
    // program fails on first: `X[i:i + batch_size]` has the batch's shape there), the others
    // see the join of the items.
    Value elem;
    size_t n2 = std::min<size_t>(many->size(), 256);
    for (size_t i = 0; i < n2; ++i) elem = i == 0 ? (*many)[0] : join(elem, (*many)[i]);
    if (!elem) imprecise = false;
    if (elem) f = runBody((*many)[0], stop);
    for (int k = 1; elem && k < opts.abstractLoopIterations && !stop; ++k) f = runBody(elem, stop);
  } else {
    // Iterators, generators and user iterables: pull items one by one, exactly while few. An
    // iterator over data the analysis cannot count (a tf.data iterator) says how many of its
    // items stand for all of them (`_tlens_representative`): after those the loop is imprecise.
    Value it = getIter(iterable);
    imprecise = false;
    size_t limit = exact;
    if (auto* inst = as<InstanceObj>(it))
      if (const Value* r = inst->dict.find("_tlens_representative"))
        if (auto n = asInt(*r); n && *n >= 0) limit = std::min(limit, static_cast<size_t>(*n));
    for (size_t k = 0; !stop; ++k) {
      frame().current = right;
      Value v = next(it);
      if (!v) break;
      if (k >= limit) {
        imprecise = true;
        break;
      }
      f = runBody(v, stop);
    }
  }
  if (imprecise) joinLoopBindings(before, lengths);
  return finish(f);
}

// ---- try -----------------------------------------------------------------------------------------

Flow Evaluator::execTry(TSNode n) {
  const Fields& F = fields();
  TSNode body = field(n, F.body);
  std::vector<TSNode> handlers;
  TSNode elseClause{}, finallyClause{};
  for (TSNode c : namedChildren(n)) {
    switch (kindOf(c)) {
      case NodeKind::ExceptClause: handlers.push_back(c); break;
      case NodeKind::ExceptGroupClause: unsupported(c, "except*"); break;
      case NodeKind::ElseClause: elseClause = c; break;
      case NodeKind::FinallyClause: finallyClause = c; break;
      default: break;
    }
  }
  auto handlerParts = [&](TSNode h, TSNode& typeExpr, TSNode& alias, TSNode& block) {
    typeExpr = field(h, F.value);
    alias = field(h, F.alias);
    if (!ts_node_is_null(typeExpr) && kindOf(typeExpr) == NodeKind::AsPattern) {
      alias = field(typeExpr, F.alias);
      typeExpr = firstNamedChild(typeExpr);
    }
    block = TSNode{};
    for (TSNode c : namedChildren(h))
      if (kindOf(c) == NodeKind::Block) block = c;
  };

  Flow flow = Flow::Normal;
  Value pending;  // exception to re-raise after finally
  std::vector<bool> ran(handlers.size(), false);
  bool bodyOk = false;
  try {
    // Exceptions in the body must reach the handlers: abstract mode does not go on after a
    // failed statement inside it (recoverFrom).
    struct InTry {
      int& depth;
      int& userDepth;
      bool on, user;
      ~InTry() {
        if (on) --depth;
        if (user) --userDepth;
      }
    } inTry{tryDepth, userTryDepth, !handlers.empty(), !handlers.empty() && !isLibraryPath(file().path())};
    if (inTry.on) ++tryDepth;
    if (inTry.user) ++userTryDepth;
    flow = execBlock(body);
    bodyOk = true;
  } catch (PyError& e) {
    Value exc = e.exc;
    bool handled = false;
    for (size_t i = 0; i < handlers.size() && !handled; ++i) {
      TSNode typeExpr, alias, block;
      handlerParts(handlers[i], typeExpr, alias, block);
      frame().current = handlers[i];
      if (!ts_node_is_null(typeExpr) && !exceptionMatches(exc, eval(typeExpr))) continue;
      handled = true;
      ran[i] = true;
      Value saved = frame().handling;
      frame().handling = exc;
      if (!ts_node_is_null(alias)) assign(alias, exc);
      try {
        flow = execBlock(block);
      } catch (PyError& e2) {
        pending = e2.exc;
      }
      frame().handling = saved;
      if (!ts_node_is_null(alias)) {
        std::vector<std::string> names;
        targetNames(alias, file(), names);
        for (const auto& nm : names) frame().locals->vars.erase(nm);
      }
    }
    if (!handled) pending = exc;
  }
  if (bodyOk && flow == Flow::Normal && !ts_node_is_null(elseClause)) {
    try {
      flow = execBlock(field(elseClause, F.body));
    } catch (PyError& e) {
      if (ts_node_is_null(finallyClause)) throw;
      pending = e.exc;
    }
  }
  if (approximating() && !pending) {
    // Analyse the handlers that did not run, as if their exception had happened.
    for (size_t i = 0; i < handlers.size(); ++i) {
      if (ran[i]) continue;
      TSNode typeExpr, alias, block;
      handlerParts(handlers[i], typeExpr, alias, block);
      Namespace before = frame().locals->vars;
      Value savedRet = frame().returnValue;
      try {
        if (!ts_node_is_null(alias)) {
          Value cls = ts_node_is_null(typeExpr) ? nullptr : eval(typeExpr);
          auto* c = as<ClassObj>(cls);
          assign(alias, c && c->isException ? makeException(std::static_pointer_cast<ClassObj>(cls), {}) : unknown());
        }
        Flow hf = execBlock(block);
        if (hf == Flow::Return && frame().returnValue) frame().abstractReturns.push_back(frame().returnValue);
      } catch (PyError&) {
      }
      frame().returnValue = savedRet;
      Namespace after = std::move(frame().locals->vars);
      Namespace joined = before;
      joinInto(joined, after);
      frame().locals->vars = std::move(joined);
    }
  }
  if (!ts_node_is_null(finallyClause)) {
    TSNode fblock{};
    for (TSNode c : namedChildren(finallyClause))
      if (kindOf(c) == NodeKind::Block) fblock = c;
    Value savedRet = frame().returnValue;
    Flow ff = execBlock(fblock);
    if (ff != Flow::Normal) return ff;  // return/break in finally discards the exception
    frame().returnValue = savedRet;
  }
  if (pending) throw PyError(pending);
  return flow;
}

// ---- with ----------------------------------------------------------------------------------------

Flow Evaluator::execWith(TSNode n) {
  const Fields& F = fields();
  if (ts_node_child_count(n) > 0 && std::string_view(ts_node_type(ts_node_child(n, 0))) == "async") {
    unsupported(n, "async with");
    return Flow::Normal;
  }
  std::vector<TSNode> items;
  for (TSNode c : namedChildren(n))
    if (kindOf(c) == NodeKind::WithClause)
      for (TSNode i : namedChildren(c))
        if (kindOf(i) == NodeKind::WithItem) items.push_back(i);
  return execWithItems(items, 0, field(n, F.body));
}

Flow Evaluator::execWithItems(const std::vector<TSNode>& items, size_t i, TSNode body) {
  if (i >= items.size()) return execBlock(body);
  const Fields& F = fields();
  TSNode value = field(items[i], F.value);
  TSNode target{};
  if (kindOf(value) == NodeKind::AsPattern) {
    target = field(value, F.alias);
    value = firstNamedChild(value);
  }
  Value mgr = eval(value);
  frame().current = items[i];
  Value entered = enter(mgr);
  if (!ts_node_is_null(target)) assign(target, entered);
  Flow f;
  try {
    f = execWithItems(items, i + 1, body);
  } catch (PyError& e) {
    Value exc = e.exc;
    if (exit(mgr, exc)) return Flow::Normal;
    throw;
  }
  exit(mgr, nullptr);
  return f;
}

}  // namespace tlens::interp
