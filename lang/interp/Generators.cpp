// Generators: each started generator runs its body on a Coroutine. `yield` detaches the
// generator's Python frames from the machine's frame stack and suspends; resuming puts them back
// on top of the resumer's frames, so call stacks and tracebacks read as in CPython. Closing a
// suspended generator (close(), garbage, the interpreter going away) unwinds its C++ stack with
// GeneratorClose, running no Python code; an explicit close() raises GeneratorExit at the yield
// instead, so `finally` blocks run as in Python. Abstract mode stops a generator after 64 values.
#include "lang/interp/Machine.h"

namespace tlens::interp {

GeneratorObj::GeneratorObj() : Object(kKind) {}

GeneratorObj::~GeneratorObj() {
  if (state && state->machine && state->coroutine && state->coroutine->started() && !state->coroutine->finished())
    state->machine->closeGenerator(*this);
}

void GeneratorObj::clearReferences() {
  function.reset();
  env.reset();
  expr.reset();
}

Value Evaluator::resumeGenerator(GeneratorObj& g, const Value& sent) {
  if (!g.state) {
    g.state = std::make_unique<GeneratorState>();
    g.state->machine = &self();
    GeneratorObj* gp = &g;
    g.state->coroutine = std::make_unique<Coroutine>([this, gp] {
      try {
        if (gp->expr) {
          runGenExpr(*gp);
        } else {
          auto f = std::static_pointer_cast<FunctionObj>(gp->function);
          runFunctionBody(*f, gp->env, gp->state.get());
        }
      } catch (GeneratorClose&) {
      } catch (PyError& e) {
        // close() raised GeneratorExit at the yield: finishing with it is a clean close.
        if (!gp->state->pythonClose || !exceptionMatches(e.exc, exceptionClass("GeneratorExit"))) throw;
      }
    });
  }
  GeneratorState& st = *g.state;
  Coroutine& co = *st.coroutine;
  if (co.finished()) return nullptr;
  if (co.running()) valueError("generator already executing");
  if (!co.started() && sent && !isNone(sent) && !st.closing) typeError("can't send non-None value to a just-started generator");
  if (!g.function && !g.expr) return nullptr;  // cleared by the interpreter going away
  liveGenerators.insert(&g);
  st.base = frames.size();
  st.baseCallDepth = callDepth;
  frames.insert(frames.end(), st.savedFrames.begin(), st.savedFrames.end());
  st.savedFrames.clear();
  callDepth += st.savedCallDepth;
  st.sent = sent ? sent : none();
  st.yielded = nullptr;
  struct Restore {
    Machine& m;
    GeneratorObj& g;
    GeneratorState& st;
    uintptr_t limit;
    Env* target;
    ~Restore() {
      m.stackLimit = limit;
      m.comprehensionTarget = target;
      if (st.coroutine->finished()) {
        if (m.frames.size() > st.base) m.frames.resize(st.base);
        m.callDepth = st.baseCallDepth;
        m.liveGenerators.erase(&g);
      }
    }
  } restore{self(), g, st, stackLimit, comprehensionTarget};
  comprehensionTarget = nullptr;
  stackLimit = co.stackLow() + 64 * 1024;
  co.resume();
  return co.finished() ? nullptr : st.yielded;
}

void Evaluator::closeGeneratorPython(GeneratorObj& g) {
  GeneratorState* st = g.state.get();
  if (!st || !st->coroutine->started() || st->coroutine->finished()) return;
  st->closing = true;
  st->pythonClose = true;
  Value v = resumeGenerator(g, none());
  st->pythonClose = false;
  if (v) {
    closeGenerator(g);
    raise(types.runtimeError, "generator ignored GeneratorExit");
  }
}

void Evaluator::closeGenerator(GeneratorObj& g) {
  GeneratorState* st = g.state.get();
  if (!st || !st->coroutine->started() || st->coroutine->finished() || st->coroutine->running()) {
    liveGenerators.erase(&g);
    return;
  }
  st->closing = true;
  try {
    MachineScope scope(&self());
    resumeGenerator(g, none());
  } catch (...) {
  }
  liveGenerators.erase(&g);
}

Value Evaluator::yieldValue(GeneratorState* st, Value x) {
  if (abstract() && st->count >= 64) throw GeneratorClose{};
  ++st->count;
  st->yielded = std::move(x);
  st->savedFrames.assign(frames.begin() + static_cast<ptrdiff_t>(st->base), frames.end());
  frames.resize(st->base);
  st->savedCallDepth = callDepth - st->baseCallDepth;
  callDepth = st->baseCallDepth;
  st->coroutine->suspend();
  if (st->closing) {
    if (!st->pythonClose) throw GeneratorClose{};
    st->closing = false;
    raiseValue(makeException(exceptionClass("GeneratorExit"), {}));
  }
  return st->sent ? st->sent : none();
}

Value Evaluator::evalYield(TSNode n) {
  Frame& f = frame();
  GeneratorState* st = f.generator;
  if (!st) return unsupported(n, "yield outside a generator function");
  bool from = false;
  for (const Child& c : children(n))
    if (!ts_node_is_named(c.node) && std::string_view(ts_node_type(c.node)) == "from") from = true;
  TSNode e = firstNamedChild(n);
  Value v = ts_node_is_null(e) ? none() : eval(e);
  auto yieldOne = [&](Value x) -> Value { return yieldValue(st, std::move(x)); };
  if (!from) return yieldOne(v);
  if (isUnknown(v)) {
    yieldOne(unknown());
    return unknown();
  }
  if (auto* sub = as<GeneratorObj>(v)) {
    Value keep = v;
    for (;;) {
      Value x = resumeGenerator(*sub, none());
      if (!x) break;
      yieldOne(x);
    }
    return none();
  }
  Value it = getIter(v);
  for (;;) {
    Value x = next(it);
    if (!x) break;
    yieldOne(x);
  }
  return none();
}

}  // namespace tlens::interp
