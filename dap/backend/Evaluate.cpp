#include "dap/backend/Evaluate.h"

#include <unordered_map>

#include "lang/interp/Machine.h"
#include "lang/syntax/SourceFile.h"
#include "lang/tf/OpApply.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::dap {

using interp::Value;

interp::Frame* innermostUserFrame(interp::Interpreter& in) {
  auto& frames = in.machine().frames;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    const interp::Frame* f = *it;
    if (f->file && !f->file->path().empty() && f->file->path()[0] != '<') return *it;
  }
  return nullptr;
}

namespace {

/// Graph tensors bound in `env` whose values this run has computed, as eager tensors.
void bindComputed(tf::TfRuntime& rt, const interp::Namespace& ns,
                  const std::unordered_map<std::string, const tlens::Tensor*>& computed, interp::Env& into) {
  ns.forEach([&](const std::string& name, const Value& v) {
    auto* t = dynamic_cast<tf::TensorObj*>(v.get());
    if (!t || !t->isSymbolic() || !t->out.node || t->variable) return;
    auto c = computed.find(t->out.name());
    if (c == computed.end() || into.vars.contains(name)) return;
    into.vars.set(name, tf::concreteTensor(rt, rt.eager().wrap(*c->second), false));
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

}  // namespace

Value evaluateIn(interp::Interpreter& in, tf::TfRuntime& rt, const Debugger::Impl& impl, interp::Frame* base,
                 const std::string& source, bool allowStatements, std::shared_ptr<interp::Env> extra) {
  interp::Machine& m = in.machine();
  std::shared_ptr<const lang::SourceFile>& file = impl.parsed[source];
  if (!file) {
    file = std::make_shared<lang::SourceFile>("<debug>", source);
    m.keepFile(file);
  }
  if (!file->syntaxErrors().empty()) throw DebuggerError("invalid syntax: " + file->syntaxErrors().front().message);
  TSNode root = file->root();
  if (ts_node_named_child_count(root) != 1) throw DebuggerError("expected one expression");
  TSNode stmt = ts_node_named_child(root, 0);
  const bool isExpr = std::string_view(ts_node_type(stmt)) == "expression_statement" &&
                      ts_node_named_child_count(stmt) == 1 &&
                      std::string_view(ts_node_type(ts_node_named_child(stmt, 0))) != "assignment" &&
                      std::string_view(ts_node_type(ts_node_named_child(stmt, 0))) != "augmented_assignment";
  if (!isExpr && !allowStatements) throw DebuggerError("expected an expression");

  interp::Frame f;
  if (base) {
    f = *base;
  } else {
    auto main = in.mainModule();
    if (!main) throw DebuggerError("no frame to evaluate in");
    f.type = interp::Frame::ModuleFrame;
    f.name = "<module>";
    f.locals = f.globals = main->globals;
  }
  f.file = file.get();
  f.current = isExpr ? ts_node_named_child(stmt, 0) : stmt;
  f.generator = nullptr;

  // At a stop inside a graph run, graph tensors already computed stand for their values.
  if (impl.visible() || !impl.outputs.empty()) {
    std::unordered_map<std::string, const tlens::Tensor*> computed;
    for (size_t i = 0; i < impl.visible(); ++i)
      if (impl.run[i].tensor.valid()) computed[impl.run[i].name] = &impl.run[i].tensor;
    for (size_t i = 0; i < impl.outputs.size(); ++i)
      if (impl.outputs[i].valid()) computed[impl.nodeName + ":" + std::to_string(i)] = &impl.outputs[i];
    auto env = std::make_shared<interp::Env>();
    if (f.locals) bindComputed(rt, f.locals->vars, computed, *env);
    if (f.globals && f.globals != f.locals) bindComputed(rt, f.globals->vars, computed, *env);
    if (!env->vars.empty()) f.comprehensions.push_back(env);
  }
  if (extra) f.comprehensions.push_back(extra);

  interp::MachineScope scope(&m);
  interp::FramePush push(m, f);
  EagerScope eager(rt);
  try {
    if (isExpr) return m.eval(f.current);
    m.exec(stmt);
    return interp::none();
  } catch (const interp::PyError& e) {
    throw DebuggerError(m.exceptionSummary(e.exc));
  } catch (const EngineError& e) {
    throw DebuggerError(e.what());
  } catch (const interp::InterpCancelled&) {
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
  Value v = evaluateIn(in, rt, impl, innermostUserFrame(in), expr, false);
  try {
    return in.truth(v) == interp::Truth::True;
  } catch (const interp::PyError& e) {
    throw DebuggerError(in.machine().exceptionSummary(e.exc));
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
      Value v = evaluateIn(in, rt, impl, innermostUserFrame(in), expr, false);
      out += in.str(v);
    } catch (const DebuggerError& e) {
      out += std::string("<error: ") + e.what() + ">";
    } catch (const interp::PyError& e) {
      out += "<error: " + in.machine().exceptionSummary(e.exc) + ">";
    }
    i = end;
  }
  return out;
}

}  // namespace tlens::dap
