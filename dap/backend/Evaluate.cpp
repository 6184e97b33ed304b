#include "dap/backend/Evaluate.h"

#include <unordered_map>

#include "engine/core/Allocator.h"
#include "engine/core/HeapUsage.h"
#include "lang/interp/Interpreter.h"
#include "lang/syntax/SourceFile.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::dap {

using interp::Value;

namespace {

/// Graph tensors whose values this run has: computed (the run record and the node stopped at)
/// or fed, by tensor name.
std::unordered_map<std::string, const tlens::Tensor*> computedTensors(const Debugger::Impl& impl) {
  std::unordered_map<std::string, const tlens::Tensor*> computed;
  for (const auto& [name, t] : impl.feeds) computed[name] = &t;
  for (size_t i = 0; i < impl.visible(); ++i)
    if (impl.run[i].tensor.valid()) computed[impl.run[i].name] = &impl.run[i].tensor;
  for (size_t i = 0; i < impl.outputs.size(); ++i)
    if (impl.outputs[i].valid()) computed[impl.nodeName + ":" + std::to_string(i)] = &impl.outputs[i];
  return computed;
}

/// The value this run has for a graph tensor or graph variable, as an eager tensor; null when
/// it has none (not a graph tensor, or not computed yet).
Value runValue(tf::TfRuntime& rt, const Debugger::Impl& impl,
               const std::unordered_map<std::string, const tlens::Tensor*>& computed, const Value& v) {
  auto* t = dynamic_cast<tf::TensorObj*>(v.get());
  if (!t || !t->isSymbolic() || !t->out.node) return nullptr;
  if (t->variable) {
    // Only at a node stop: at a Python stop `w` stays the variable (w.assign works on it).
    if (!impl.atNode || !impl.resources || t->varName.empty()) return nullptr;
    const tlens::Tensor* cur = impl.resources->variable(t->varName);
    if (!cur || !cur->valid()) return nullptr;
    return tf::concreteTensor(rt, rt.wrap(cur->toHost()), false);
  }
  auto c = computed.find(t->out.name());
  if (c == computed.end()) return nullptr;
  return tf::concreteTensor(rt, rt.wrap(*c->second), false);
}

/// Graph tensors bound in `ns` whose values this run has, as eager tensors.
void bindComputed(tf::TfRuntime& rt, const Debugger::Impl& impl, const interp::Namespace& ns,
                  const std::unordered_map<std::string, const tlens::Tensor*>& computed, interp::Env& into) {
  ns.forEach([&](const std::string& name, const Value& v) {
    if (into.vars.contains(name)) return;
    if (Value r = runValue(rt, impl, computed, v)) into.vars.set(name, r);
  });
}

constexpr const char* kFrozen =
    "a graph tensor here has no value (not computed yet in this run): the debugger computes on this run's "
    "values and never adds nodes to the program's graph";

/// Pops the eager-evaluation graph marker on every exit, and keeps the program's graphs frozen
/// meanwhile: an op on a graph tensor with no value (at graph construction, or a node this run
/// has not reached) is refused instead of adding a node, taking a name or entering a scope.
struct EagerScope {
  explicit EagerScope(tf::TfRuntime& rt) : rt(rt) {
    rt.pushGraph(nullptr);
    for (const auto& g : rt.graphs())
      if (!g->frozen()) {
        g->freeze(kFrozen);
        frozen.push_back(g.get());
      }
  }
  ~EagerScope() {
    for (Graph* g : frozen) g->freeze(nullptr);
    rt.popGraph();
  }
  tf::TfRuntime& rt;
  std::vector<Graph*> frozen;
};

/// The caps of one evaluation: a deadline, a heap budget (checked between statements and ops)
/// and a limit on the CPU allocator, so one huge tensor is refused before it is allocated.
struct EvalCaps {
  explicit EvalCaps(const Debugger::Impl& impl) : impl(impl) {
    if (impl.evalDepth++ > 0) return;
    outer = true;
    impl.evalStopped.clear();
    impl.evalTicks = 0;
    impl.evalDeadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(Debugger::Impl::kEvalTimeMs);
    impl.evalHeapStart = heapBytesInUse();
    Allocator* a = cpuAllocator();
    oldLimit = a->limit();
    const size_t cap = a->bytesInUse() + Debugger::Impl::kEvalBytes;
    if (oldLimit == 0 || cap < oldLimit) a->setLimit(cap);
  }
  ~EvalCaps() {
    --impl.evalDepth;
    if (outer) cpuAllocator()->setLimit(oldLimit);
  }
  const Debugger::Impl& impl;
  bool outer = false;
  size_t oldLimit = 0;
};

std::string capsMessage(const std::string& why) {
  return "evaluation stopped: " + why + "; the program is unchanged and the session goes on";
}

}  // namespace

bool Debugger::Impl::evalOverCap() const {
  if (evalDepth == 0) return false;  // not evaluating an expression (a repr for a variables view)
  if (!evalStopped.empty()) return true;
  // The clock and the heap are read every 16th check: both cost more than a statement.
  if ((evalTicks++ & 15) != 0) return false;
  if (std::chrono::steady_clock::now() > evalDeadline) {
    evalStopped = capsMessage("it ran past the debugger's time cap for evaluations (" +
                              std::to_string(kEvalTimeMs / 1000) + " s)");
    return true;
  }
  const size_t heap = heapBytesInUse();
  if (heap > evalHeapStart && heap - evalHeapStart > kEvalBytes) {
    evalStopped = capsMessage("it allocated more than the debugger's memory cap for evaluations (" +
                              formatBytes(kEvalBytes) + ")");
    return true;
  }
  return false;
}

std::shared_ptr<interp::Env> creationScope(tf::TfRuntime& rt, const Debugger::Impl& impl,
                                           const Debugger::Impl::FrameNames& names, bool localsOnly) {
  const auto computed = computedTensors(impl);
  auto env = std::make_shared<interp::Env>();
  auto add = [&](const interp::Env& from) {
    from.vars.forEach([&](const std::string& name, const Value& v) {
      Value r = runValue(rt, impl, computed, v);
      env->vars.set(name, r ? r : v);
    });
  };
  if (!localsOnly && names.globals) add(*names.globals);
  if (names.locals) add(*names.locals);
  return env;
}

const Debugger::Impl::FrameNames* frameBindings(const Debugger::Impl& impl, int frameId) {
  if (frameId < 0 || frameId >= static_cast<int>(impl.frames.size())) return nullptr;
  const FrameInfo& fi = impl.frames[static_cast<size_t>(frameId)];
  if (fi.creationIndex < 0) return nullptr;
  const Debugger::Impl::Bindings* b = impl.bindingsFor(impl.node);
  if (!b || b->frames.empty()) return nullptr;
  // The creation stack and the recorded frames are the same user frames; align their ends.
  const int shift = static_cast<int>(b->frames.size()) - static_cast<int>(impl.creation.size());
  const int k = fi.creationIndex + shift;
  if (k < 0 || k >= static_cast<int>(b->frames.size())) return nullptr;
  return &b->frames[static_cast<size_t>(k)];
}

Value evaluateIn(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl, interp::Frame* base,
                 const std::string& source, bool allowStatements, std::shared_ptr<interp::Env> extra,
                 const Debugger::Impl::FrameNames* bindings) {
  std::shared_ptr<const lang::SourceFile>& file = impl.parsed[source];
  if (!file) file = std::make_shared<lang::SourceFile>("<debug>", source);
  if (!file->syntaxErrors().empty()) throw DebuggerError("invalid syntax: " + file->syntaxErrors().front().message);
  TSNode root = file->root();
  if (ts_node_named_child_count(root) != 1) throw DebuggerError("expected one expression");
  TSNode stmt = ts_node_named_child(root, 0);
  const bool isExpr = std::string_view(ts_node_type(stmt)) == "expression_statement" &&
                      ts_node_named_child_count(stmt) == 1 &&
                      std::string_view(ts_node_type(ts_node_named_child(stmt, 0))) != "assignment" &&
                      std::string_view(ts_node_type(ts_node_named_child(stmt, 0))) != "augmented_assignment";
  if (!isExpr && !allowStatements) throw DebuggerError("expected an expression");

  if (!base && !in.mainModule()) throw DebuggerError("no frame to evaluate in");
  std::vector<std::shared_ptr<interp::Env>> scopes;

  // At a stop inside a graph run, graph tensors already computed (or fed) stand for their
  // values, graph variables for their current values.
  const bool hasRunValues = impl.visible() || !impl.outputs.empty() || !impl.feeds.empty() || (impl.atNode && impl.resources);
  if (hasRunValues) {
    const auto computed = computedTensors(impl);
    auto env = std::make_shared<interp::Env>();
    const interp::FrameView v = base ? in.view(*base) : interp::FrameView{};
    std::shared_ptr<interp::Env> locals = base ? v.locals : in.mainModule()->globals;
    std::shared_ptr<interp::Env> globals = base ? v.globals : locals;
    if (locals) bindComputed(rt, impl, locals->vars, computed, *env);
    if (globals && globals != locals) bindComputed(rt, impl, globals->vars, computed, *env);
    if (!env->vars.empty()) scopes.push_back(env);
  }
  // A node or construction frame: the names its creating statement saw, with this run's values.
  if (bindings) scopes.push_back(creationScope(rt, impl, *bindings, false));
  if (extra) scopes.push_back(extra);

  EagerScope eager(rt);
  EvalCaps caps(impl);
  try {
    return in.evaluateAt(base, file, isExpr ? ts_node_named_child(stmt, 0) : stmt, isExpr, scopes);
  } catch (const interp::PyError& e) {
    if (!impl.evalStopped.empty()) throw DebuggerError(impl.evalStopped);
    std::string summary = in.exceptionSummary(e.exc);
    if (summary.find("ResourceExhaustedError") != std::string::npos)
      summary = capsMessage(std::string("it needs more memory than the debugger allows an evaluation (") +
                            formatBytes(Debugger::Impl::kEvalBytes) + "): " + summary);
    throw DebuggerError(summary);
  } catch (const EngineError& e) {
    if (!impl.evalStopped.empty()) throw DebuggerError(impl.evalStopped);
    if (e.code() == ErrorCode::ResourceExhausted)
      throw DebuggerError(capsMessage(std::string("it needs more memory than the debugger allows an evaluation (") +
                                      formatBytes(Debugger::Impl::kEvalBytes) + "): " + e.what()));
    throw DebuggerError(e.what());
  } catch (const interp::InterpCancelled&) {
    if (!impl.evalStopped.empty()) throw DebuggerError(impl.evalStopped);
    throw DebuggerError("cancelled");
  } catch (const DebuggerError&) {
    throw;
  } catch (const std::exception& e) {
    throw DebuggerError(e.what());
  }
}

namespace {

struct Flag {
  explicit Flag(bool& b) : b(b), was(b) { b = true; }
  ~Flag() { b = was; }
  bool& b;
  bool was;
};

}  // namespace

bool evaluateCondition(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl,
                       const std::string& expr, bool& evaluating) {
  Flag f(evaluating);
  Value v = evaluateIn(in, rt, impl, in.innermostUserFrame(), expr, false);
  try {
    return in.truth(v) == interp::Truth::True;
  } catch (const interp::PyError& e) {
    throw DebuggerError(in.exceptionSummary(e.exc));
  } catch (const std::exception& e) {
    throw DebuggerError(e.what());
  }
}

std::string interpolateLogMessage(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl,
                                  const std::string& message, bool& evaluating) {
  Flag f(evaluating);
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (c == '{' && i + 1 < message.size() && message[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    if (c == '}' && i + 1 < message.size() && message[i + 1] == '}') {
      out += '}';
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    size_t end = message.find('}', i + 1);
    if (end == std::string::npos) {
      out += message.substr(i);
      break;
    }
    const std::string expr = message.substr(i + 1, end - i - 1);
    try {
      Value v = evaluateIn(in, rt, impl, in.innermostUserFrame(), expr, false);
      out += in.str(v);
    } catch (const DebuggerError& e) {
      out += std::string("<error: ") + e.what() + ">";
    } catch (const interp::PyError& e) {
      out += "<error: " + in.exceptionSummary(e.exc) + ">";
    }
    i = end;
  }
  return out;
}

}  // namespace tlens::dap
