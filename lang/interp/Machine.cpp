#include "lang/interp/Machine.h"
#include "lang/interp/SourceNames.h"

#include "lang/syntax/SourceText.h"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tlens::interp {
namespace {

thread_local Machine* tCurrent = nullptr;

/// The lowest address the interpreter lets its stack reach: the thread's stack bottom plus a
/// margin for native code that runs between two checks.
/// This thread's stack [low, low + size), asked once per thread: on the main thread glibc
/// answers pthread_getattr_np by reading /proc/self/maps, which costs more than a small analysis.
struct ThreadStack {
  uintptr_t low = 0;
  size_t size = 0;
};

const ThreadStack& threadStack() {
  thread_local ThreadStack stack = [] {
    ThreadStack s;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        s.low = reinterpret_cast<uintptr_t>(addr);
        s.size = size;
      }
      pthread_attr_destroy(&attr);
    }
    return s;
  }();
  return stack;
}

uintptr_t computeStackLimit() {
  char here;
  uintptr_t sp = reinterpret_cast<uintptr_t>(&here);
  const ThreadStack& t = threadStack();
  if (t.size > 0 && sp > t.low && sp - t.low <= t.size) {
    size_t margin = std::min<size_t>(256 * 1024, t.size / 4);
    return t.low + margin;
  }
  return sp > 768 * 1024 ? sp - 768 * 1024 : 0;  // unknown stack (a coroutine's): assume 1 MB
}

std::shared_ptr<const lang::SourceFile> readFromDisk(const std::string& path) {
  // Regular files within the size cap only: a module that is a FIFO or /dev/zero is not found.
  std::optional<std::string> text = lang::tryReadSourceFile(path);
  if (!text) return nullptr;
  return std::make_shared<lang::SourceFile>(path, std::move(*text));
}

}  // namespace

Machine* currentMachine() { return tCurrent; }
ObjectProtocol* currentProtocol() { return tCurrent; }

MachineScope::MachineScope(Machine* m) : prev_(tCurrent) {
  tCurrent = m;
  if (m && m->frames.empty()) m->stackLimit = computeStackLimit();
}
MachineScope::~MachineScope() { tCurrent = prev_; }

Accounting::Accounting(Interpreter& a, InterpOptions o) : api(a), opts(std::move(o)) {
  if (!opts.loadFile) opts.loadFile = readFromDisk;
}

CallStack& callStackOf(Interpreter& in) { return in.machine(); }
ObjectProtocol& protocolOf(Interpreter& in) { return in.machine(); }
Imports& importsOf(Interpreter& in) { return in.machine(); }

Machine::Machine(Interpreter& a, InterpOptions o) : Evaluator(a, std::move(o)) {
  MachineScope scope(this);
  installBuiltins();
}

Machine::~Machine() {
  MachineScope scope(this);
  // Suspended generators hold frames on their own stacks: unwind them while the machine lives.
  while (!liveGenerators.empty()) {
    GeneratorObj* g = *liveGenerators.begin();
    closeGenerator(*g);
    liveGenerators.erase(g);
  }
  // Break reference cycles: every tracked container forgets its contents.
  auto objects = std::move(tracked);
  auto envs = std::move(trackedEnvs);
  for (auto& w : envs)
    if (auto e = w.lock()) {
      e->vars.clear();
      e->parent.reset();
    }
  for (auto& w : objects)
    if (auto o = w.lock()) o->clearReferences();
  builtins.clear();
  modulesByName.clear();
  modulesByPath.clear();
  nativeTypes.clear();
  exceptionClasses.clear();
  types = Types{};
}

bool CallStack::approximating() const { return abstract() && !(frames.empty() ? false : frames.back()->trusted); }

std::string_view CallStack::text(TSNode n) const { return file().textOf(n); }

std::shared_ptr<const lang::SourceFile> Imports::keepFile(std::shared_ptr<const lang::SourceFile> f) {
  for (const auto& x : files)
    if (x == f) return f;
  files.push_back(f);
  return f;
}

void Accounting::checkBudget() {
  if (hasDeadline && std::chrono::steady_clock::now() > deadline) throw BudgetExceeded(true);
}

void CallStack::checkStack() {
  char here;
  if (reinterpret_cast<uintptr_t>(&here) < stackLimit)
    self().raise(self().types.recursionError, "maximum recursion depth exceeded (the native stack is nearly full)");
}

void Accounting::poll() {
  if (opts.interrupt && opts.interrupt->load(std::memory_order_relaxed) && !abstract()) {
    opts.interrupt->store(false, std::memory_order_relaxed);
    self().raiseValue(self().makeException(self().types.keyboardInterrupt, {}));
  }
  if (!abstract() && (++pollCount & 15) == 0) checkMemory();
  if (statementObserver) statementObserver->poll(api);
}

void Accounting::checkMemory() {
  if (!memoryLimit) {
    double limit = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    rlimit rl{};
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) limit = std::min(limit, static_cast<double>(rl.rlim_cur));
    memoryLimit = static_cast<size_t>(limit * 0.8);
  }
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  if (n != 2) return;
  const double bytes = static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (bytes <= static_cast<double>(memoryLimit)) return;
  char msg[160];
  std::snprintf(msg, sizeof msg, "the program uses %.1f GB, over tensorlens' limit of %.1f GB (80%% of the memory available)",
                bytes / 1e9, static_cast<double>(memoryLimit) / 1e9);
  self().raise("MemoryError", msg);
}

bool Accounting::fits(double n, const std::shared_ptr<ClassObj>& cls) {
  bool isStr = cls == self().types.str;
  if (abstract()) return n <= kAbstractMaxSize;
  if (n <= (isStr ? kMaxStrBytes : kMaxItems)) return true;
  char size[32];
  std::snprintf(size, sizeof size, "%.0f", n);
  self().raise("MemoryError", "cannot build a " + (cls ? cls->name : std::string("value")) + " of " + size +
                           (isStr ? " bytes" : " items") + " (tensorlens refuses values over " +
                           (isStr ? "1 GB" : "100 million items") + ")");
}

void CallStack::beforeStatement(TSNode stmt) {
  // Work, not time, bounds an analysis; tick() reads the clock (the safety limit) every 64 steps
  // (a statement is a few microseconds; reading the clock each time was 1.5% of an abstract run).
  if (opts.interrupt && opts.interrupt->load(std::memory_order_relaxed)) poll();
  tick();
  if (!statementObserver) return;
  Frame& f = frame();
  StatementEvent ev{*f.file, stmt, static_cast<int>(ts_node_start_point(stmt).row) + 1, static_cast<int>(frames.size()),
                    f.locals->vars, f.globals->vars, api};
  statementObserver->beforeStatement(ev);
}

SourceLocation CallStack::locationOf(const Frame& f) const {
  if (!f.file || ts_node_is_null(f.current)) {
    SourceLocation l;
    if (f.file) l.file = f.file->path();
    return l;
  }
  return f.file->locationOf(f.current);
}

std::vector<StackFrame> CallStack::callStack() const {
  std::vector<StackFrame> out;
  out.reserve(frames.size());
  for (const Frame* f : frames) out.push_back(StackFrame{f->name, locationOf(*f)});
  return out;
}

SourceLocation CallStack::innermostUserLocation() const {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if (!(*it)->file || !isLibraryPath((*it)->file->path())) return locationOf(**it);
  return {};
}

void Accounting::addDiagnostic(Diagnostic d) {
  if (diagnostics.size() >= 1000) return;
  diagnostics.push_back(std::move(d));
}

void CallStack::diagnose(Severity s, TSNode n, std::string message, std::string code) {
  Diagnostic d;
  d.severity = s;
  d.message = std::move(message);
  d.code = std::move(code);
  if (!frames.empty()) {
    d.file = file().path();
    if (!ts_node_is_null(n)) {
      TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
      d.start = {static_cast<int>(a.row), static_cast<int>(a.column)};
      d.end = {static_cast<int>(b.row), static_cast<int>(b.column)};
    }
  }
  addDiagnostic(std::move(d));
}

Value CallStack::unsupported(TSNode n, std::string_view what) {
  if (!frames.empty()) {
    auto key = std::make_pair(file().path(), ts_node_start_byte(n));
    if (unsupportedReported.insert(key).second)
      diagnose(Severity::Information, n, std::string(what) + " is not supported by tensorlens; its value is unknown",
               "unsupported");
  }
  return unknown();
}

void Accounting::write(std::string_view s, bool err) {
  if (abstract()) return;
  const auto& sink = err ? opts.err : opts.out;
  if (sink) sink(s);
}

void Machine::execModuleBody(const std::shared_ptr<ModuleObj>& mod, const std::shared_ptr<const lang::SourceFile>& f,
                             bool trusted) {
  Frame fr;
  fr.type = Frame::ModuleFrame;
  fr.name = "<module>";
  fr.file = f.get();
  fr.locals = fr.globals = mod->globals;
  fr.trusted = trusted;
  FramePush push(*this, fr);
  bool isMain = mod == mainModule;
  lang::NamedChildren stmts = namedChildren(f->root());
  size_t from = isMain ? std::min(mainFrom, stmts.size()) : 0;
  size_t to = isMain ? std::min(mainTo, stmts.size()) : stmts.size();
  if (isMain && stoppedAtWorkBudget) {  // resume() of a prefix that stopped at the work budget
    unbindRest(stmts, from, to, *f);
    return;
  }
  for (size_t i = from; i < to; ++i) {
    TSNode s = stmts[i];
    try {
      exec(s, kindOfSymbol(stmts.child(i).symbol));
    } catch (PyError& e) {
      if (!abstract() || !isMain) throw;
      // Abstract analysis goes on after a statement that raised (Abstract.cpp): reported when the
      // user's code is responsible, and the names it binds become unknown.
      reportException(e.exc, s, *f);
      unbindStatement(s, *f);
    } catch (BudgetExceeded& b) {
      if (!isMain) throw;
      if (b.wallClock)
        diagnose(Severity::Information, s,
                 "analysis stopped here: the " + std::to_string(opts.timeBudgetMs) +
                     " ms safety time limit was hit before the work budget (this place depends on the machine's "
                     "speed); later values are unknown",
                 "time-limit");
      else
        diagnose(Severity::Information, s,
                 "analysis stopped here: work budget of " + std::to_string(opts.workBudget) +
                     " steps exceeded; later values are unknown",
                 "budget-exceeded");
      hasDeadline = false;  // the rest is cheap and must finish
      workLimit = 0;
      budgetHit = true;
      stoppedAtWorkBudget = !b.wallClock;
      unbindRest(stmts, i, to, *f);
      return;
    }
  }
}

void Machine::unbindRest(const lang::NamedChildren& stmts, size_t from, size_t to, const lang::SourceFile& f) {
  (void)stmts;  // the statements of `f`
  for (const std::string& n : namesUnboundAfterStop(f, from, to)) bindName(n, unknown());
}

int Machine::run(std::shared_ptr<const lang::SourceFile> f) { return runMain(std::move(f), 0, SIZE_MAX, true, true); }

int Machine::runPrefix(std::shared_ptr<const lang::SourceFile> f, size_t count) {
  return runMain(std::move(f), 0, count, true, false);
}

int Machine::resume(std::shared_ptr<const lang::SourceFile> f, size_t from) {
  if (!mainModule) return runMain(std::move(f), 0, SIZE_MAX, true, true);
  if (mainFile != f) prefixFile = mainFile;
  return runMain(std::move(f), from, SIZE_MAX, false, true);
}

int Machine::runMain(std::shared_ptr<const lang::SourceFile> f, size_t from, size_t to, bool begin, bool finish) {
  MachineScope scope(this);
  keepFile(f);
  mainFile = f;
  mainFrom = from;
  mainTo = to;
  // A resumed prefix that stopped at the work budget stays stopped (execModuleBody).
  if (begin || !stoppedAtWorkBudget) {
    budgetHit = false;
    stoppedAtWorkBudget = false;
  }
  if (finish)
    for (const auto& e : f->syntaxErrors()) {
      Diagnostic d;
      d.severity = Severity::Error;
      d.file = f->path();
      d.start = e.start;
      d.end = e.end;
      d.message = e.message;
      d.code = "syntax-error";
      addDiagnostic(std::move(d));
    }
  if (begin) {
    mainModule = makeModule("__main__");
    mainModule->file = f->path();
    mainModule->set("__file__", makeStr(f->path()));
    modulesByName["__main__"] = mainModule;
  }
  // The work count goes on from a prefix into its resume(): a continued run stops where a run
  // from the beginning would. The clock's safety limit restarts with each call.
  if (begin) work = 0;
  workLimit = abstract() ? opts.workBudget : 0;
  if (abstract() && opts.timeBudgetMs > 0) {
    hasDeadline = true;
    deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts.timeBudgetMs);
  }
  int status = 0;
  try {
    try {
      execModuleBody(mainModule, f, false);
    } catch (PyError& e) {
      ExceptionObj* ex = asException(e.exc);
      if (ex && ex->cls->isSubclassOf(types.systemExit.get())) {
        Value code = ex->dict.get("code");
        if (!code || isNone(code)) status = 0;
        else if (auto i = asInt(code)) status = static_cast<int>(*i);
        else {
          write(str(code) + "\n", true);
          status = 1;
        }
      } else {
        std::string tb = formatTraceback(e.exc);
        if (opts.err) opts.err(tb);
        Diagnostic d;
        d.severity = abstract() ? Severity::Warning : Severity::Error;
        d.code = "uncaught-exception";
        d.exception = exceptionReport(e.exc);
        d.message = d.exception.summary();
        if (ex && !ex->traceback.empty()) {
          const TraceEntry& t = ex->traceback.back();
          d.file = t.file;
          d.start = {t.line - 1, t.column - 1};
          d.end = {t.line - 1, t.column - 1 + static_cast<int>(t.source.size())};
          for (size_t i = 0; i + 1 < ex->traceback.size(); ++i) {
            const TraceEntry& o = ex->traceback[i];
            d.related.push_back({o.file, {o.line - 1, o.column - 1}, {o.line - 1, o.column - 1}, "called from " + o.function});
          }
        } else {
          d.file = f->path();
        }
        addDiagnostic(std::move(d));
        status = Interpreter::kExitError;
      }
    } catch (BudgetExceeded&) {
      status = 0;
      budgetHit = true;
    }
    if (finish && abstract() && opts.analyzeUncalledFunctions) {
      work = 0;
      workLimit = opts.workBudget;
      if (opts.timeBudgetMs > 0) {
        hasDeadline = true;
        deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts.timeBudgetMs);
      }
      analyzeUncalled();
    }
  } catch (InterpCancelled&) {
    status = Interpreter::kExitCancelled;
  } catch (std::exception& e) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.file = f->path();
    d.message = std::string("internal error in tensorlens: ") + e.what();
    d.code = "internal-error";
    addDiagnostic(std::move(d));
    status = Interpreter::kExitInternal;
  } catch (...) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.file = f->path();
    d.message = "internal error in tensorlens";
    d.code = "internal-error";
    addDiagnostic(std::move(d));
    status = Interpreter::kExitInternal;
  }
  hasDeadline = false;
  workLimit = 0;
  frames.clear();
  callDepth = 0;
  evalDepth = 0;
  mainFrom = 0;
  mainTo = SIZE_MAX;
  return status;
}

void Machine::analyzeUncalled() {
  // Functions defined while analysing may add more; index-based on purpose.
  try {
    for (size_t i = 0; i < definedFunctions.size(); ++i) {
      auto f = definedFunctions[i].lock();
      if (!f || !f->code || f->code->isLambda) continue;
      if (executedCodes.count(f->code.get())) continue;
      if (f->code->file != mainFile && (!prefixFile || f->code->file != prefixFile)) continue;
      const lang::SourceFile& file = *f->code->file;
      std::vector<Value> args;
      KwArgs kwargs;
      auto owner = f->ownerClass.lock();
      bool skipFirst = false;
      Value first;
      if (owner) {
        Value entry = owner->dict.get(f->name);
        if (is<StaticMethodObj>(entry)) {
        } else if (is<ClassMethodObj>(entry)) {
          first = owner;
          skipFirst = true;
        } else {
          auto inst = std::make_shared<InstanceObj>(owner);
          track(inst);
          first = inst;
          skipFirst = true;
        }
      }
      bool firstDone = false;
      for (const Param& p : f->sig.params) {
        if (p.kind == ParamKind::PositionalOnly || p.kind == ParamKind::Normal) {
          if (skipFirst && !firstDone) {
            args.push_back(first);
            firstDone = true;
          } else {
            // A default of None marks an optional argument that callers pass (Keras hands
            // `logs` to a callback's on_epoch_end): unknown, so no false error comes from None.
            // Other defaults are kept for the shapes they give (`units=128`).
            args.push_back(p.defaultValue && !isNone(p.defaultValue) ? p.defaultValue : unknown());
          }
        } else if (p.kind == ParamKind::KeywordOnly && (!p.defaultValue || isNone(p.defaultValue))) {
          kwargs.emplace_back(p.name, unknown());
        }
      }
      try {
        Frame fr;
        fr.type = Frame::ModuleFrame;
        fr.name = "<module>";
        fr.file = &file;
        fr.locals = fr.globals = f->globals;
        FramePush push(*this, fr);
        Value r = callFunction(f, std::move(args), std::move(kwargs));
        if (auto* g = as<GeneratorObj>(r))
          for (int k = 0; k < opts.abstractLoopIterations && resumeGenerator(*g, none()); ++k) {
          }
      } catch (PyError& e) {
        reportException(e.exc, f->code->node, file);
      }
    }
  } catch (BudgetExceeded&) {
  }
}

}  // namespace tlens::interp
