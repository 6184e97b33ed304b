// The stop machinery: the program thread, breakpoints and stepping decisions, and the blocking
// loop in which the program thread serves the DAP thread's tasks while stopped.
#include "dap/backend/Debugger.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "dap/backend/PostMortem.h"
#include "engine/runtime/PrintSink.h"
#include "lang/pybridge/PyBridge.h"
#include "lang/interp/Interpreter.h"
#include "lang/syntax/SourceFile.h"
#include "lang/syntax/SourceText.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"

namespace tlens::dap {

using interp::Value;

std::string describeNode(const std::string& name, const std::string& op, const Device& d) {
  return name + " (" + op + ") on " + d.str();
}

namespace {

std::string readWholeFile(const std::string& path) {
  try {
    return lang::readSourceFile(path);
  } catch (const lang::SourceReadError& e) {
    throw DebuggerError(e.what());
  }
}

/// One sentence on why a NaN/Inf appeared, for ops whose singularities we know, from the
/// report's input summaries: "cross_entropy/Log produced -inf in 3 of 1000 elements because its
/// input softmax/Softmax:0 held 3 exact zeros (log(0) = -inf)". Empty when nothing explains it.
std::string explainNonFinite(const NumericsReport& r) {
  std::string what;
  int64_t count = 0;
  if (r.counts.negInf) what = "-inf", count = r.counts.negInf;
  else if (r.counts.posInf) what = "+inf", count = r.counts.posInf;
  else what = "nan", count = r.counts.nan;
  std::string head = r.node + " produced " + what + " in " + std::to_string(count) + " of " +
                     std::to_string(r.elements) + " elements";
  auto input = [&](size_t i) { return i < r.inputNames.size() ? r.inputNames[i] : "input " + std::to_string(i); };
  for (size_t i = 0; i < r.inputSummaries.size(); ++i) {
    const TensorSummary& s = r.inputSummaries[i];
    if (s.nan || s.posInf || s.negInf)
      return head + " because its input " + input(i) + " already held NaN/Inf (" + s.line() + ")";
  }
  const std::string& op = r.opType;
  const TensorSummary* in0 = r.inputSummaries.empty() ? nullptr : &r.inputSummaries[0];
  if ((op == "Log" || op == "Log1p") && in0 && in0->zero && what == "-inf")
    return head + " because its input " + input(0) + " held " + std::to_string(in0->zero) + " exact zeros (log(0) = -inf)";
  if ((op == "Log" || op == "Sqrt" || op == "Rsqrt") && in0 && in0->min < 0)
    return head + " because its input " + input(0) + " held negative values (min=" + std::to_string(in0->min) + ")";
  if ((op == "RealDiv" || op == "Div" || op == "FloorDiv") && r.inputSummaries.size() > 1 && r.inputSummaries[1].zero)
    return head + " because the divisor " + input(1) + " held " + std::to_string(r.inputSummaries[1].zero) + " zeros";
  if ((op == "Reciprocal" || op == "Rsqrt") && in0 && in0->zero)
    return head + " because its input " + input(0) + " held " + std::to_string(in0->zero) + " zeros";
  if (op == "Exp" && in0 && in0->max > 88)
    return head + " because its input " + input(0) + " reached " + std::to_string(in0->max) + " (exp overflows float32 past 88.7)";
  return head;
}

}  // namespace

Debugger::Debugger(DebuggerEvents& events) : events_(events), impl_(std::make_unique<Impl>()) {}

Debugger::~Debugger() { terminate(); }

// --- DAP thread ---------------------------------------------------------------------------------

void Debugger::launch(LaunchConfig config) {
  if (started()) throw DebuggerError("a program is already running");
  if (config.program.empty()) throw DebuggerError("launch: 'program' is required");
  if (!config.cwd.empty()) {
    std::error_code ec;
    std::filesystem::current_path(config.cwd, ec);
    if (ec) throw DebuggerError("cannot change to cwd '" + config.cwd + "': " + ec.message());
  }
  for (const auto& [k, v] : config.env) {
    if (v) ::setenv(k.c_str(), v->c_str(), 1);
    else ::unsetenv(k.c_str());
  }
  config.program = canonicalPath(config.program);
  std::string text = readWholeFile(config.program);
  auto file = std::make_shared<lang::SourceFile>(config.program, std::move(text));
  // A file that does not parse does not run (CPython refuses it too): launch fails and says why.
  if (std::string report = lang::syntaxErrorReport(*file); !report.empty()) {
    while (!report.empty() && report.back() == '\n') report.pop_back();
    throw DebuggerError("the program does not parse:\n" + report);
  }
  file_ = std::move(file);
  config_ = std::move(config);
  impl_->runCap = config_.runRecordBytes;
}

void Debugger::start() {
  if (!file_) throw DebuggerError("configurationDone before launch");
  if (started()) return;
  thread_ = std::thread([this] { runProgram(); });
}

void Debugger::terminate() {
  cancel_ = true;
  {
    std::lock_guard<std::mutex> lk(mu_);
    resume_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  // Python values die with the interpreter that made them, on this thread now that it is idle.
  impl_->clearStop();
  impl_->clearRun();
  runtime_.reset();
  interp_.reset();
}

void Debugger::relaunch(std::optional<LaunchConfig> config) {
  if (!file_) throw DebuggerError("restart before launch");
  LaunchConfig next = config ? std::move(*config) : config_;
  announceExit_ = false;
  terminate();
  announceExit_ = true;
  // A fresh run: everything but the breakpoints and the exception filters starts over.
  cancel_ = false;
  pause_ = false;
  cancelRequest_ = false;
  exited_ = false;
  replaying_ = false;
  {
    std::lock_guard<std::mutex> lk(mu_);
    stopped_ = false;
    resume_ = false;
    tasks_.clear();
  }
  seenVersion_ = ~0ull;
  cached_.reset();
  candidatesTable_ = nullptr;
  nodeCandidates_.clear();
  opCandidates_.clear();
  hits_.clear();
  conditionErrors_.clear();
  entryDone_ = false;
  evaluating_ = false;
  liveException_ = {};
  step_ = Step::Continue;
  stepNode_ = false;
  lastDepth_ = 1;
  oldValues_.clear();
  impl_ = std::make_unique<Impl>();
  launch(std::move(next));
  refreshLineTables();
  start();
}

void Debugger::refreshLineTables() {
  // The files may have been edited since the breakpoints were set (the usual reason to
  // restart): line tables are rebuilt from the text that will run, and each breakpoint moves to
  // the statement at or after its line.
  std::shared_ptr<const BreakpointTable> old;
  {
    std::lock_guard<std::mutex> lk(mu_);
    old = table_;
  }
  if (!old || old->files.empty()) return;
  auto t = std::make_shared<BreakpointTable>(*old);
  for (auto it = t->files.begin(); it != t->files.end();) {
    const std::string& path = it->first;
    FileBreakpoints& fb = it->second;
    try {
      std::string text = file_ && file_->path() == path ? file_->text() : readWholeFile(path);
      lang::SourceFile sf(path, std::move(text));
      fb.lines = std::make_shared<LineTable>(sf);
    } catch (const std::exception&) {
      ++it;  // unreadable now: keep what was resolved before
      continue;
    }
    std::unordered_map<int, LineBreakpoint> byLine;
    for (const auto& [line, bp] : fb.byLine)
      if (const int at = fb.lines->nextStatementLine(bp.line); at != 0 && !byLine.count(at)) {
        LineBreakpoint moved = bp;
        moved.line = at;
        byLine[at] = std::move(moved);
      }
    fb.byLine = std::move(byLine);
    if (fb.byLine.empty()) it = t->files.erase(it);
    else ++it;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    table_ = std::move(t);
  }
  tableVersion_.fetch_add(1, std::memory_order_release);
}

std::shared_ptr<const BreakpointTable> Debugger::table() {
  const uint64_t v = tableVersion_.load(std::memory_order_acquire);
  if (v != seenVersion_) {
    std::lock_guard<std::mutex> lk(mu_);
    cached_ = table_;
    seenVersion_ = v;
  }
  return cached_;
}

std::vector<BreakpointResult> Debugger::setLineBreakpoints(const std::string& rawPath,
                                                           const std::vector<LineBreakpointSpec>& specs) {
  static std::atomic<int> nextId{1};
  const std::string path = canonicalPath(rawPath);
  std::shared_ptr<const LineTable> lines;
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (table_) {
      auto f = table_->files.find(path);
      if (f != table_->files.end()) lines = f->second.lines;
    }
  }
  std::string error;
  if (!lines) {
    try {
      std::string text = file_ && file_->path() == path ? file_->text() : readWholeFile(path);
      lang::SourceFile sf(path, std::move(text));
      lines = std::make_shared<LineTable>(sf);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  FileBreakpoints fb;
  fb.lines = lines;
  std::vector<BreakpointResult> out;
  for (const LineBreakpointSpec& s : specs) {
    BreakpointResult r;
    r.id = nextId++;
    r.line = s.line;
    if (!lines) {
      r.message = error;
    } else if (int at = lines->nextStatementLine(s.line); at == 0) {
      r.message = "no code at or after line " + std::to_string(s.line);
    } else {
      r.verified = true;
      if (at != s.line) r.message = "moved to line " + std::to_string(at) + ", the next line with code";
      r.line = at;
      fb.byLine[at] = LineBreakpoint{r.id, at, s.condition, s.hitCondition, s.logMessage};
    }
    out.push_back(std::move(r));
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto t = std::make_shared<BreakpointTable>(table_ ? *table_ : BreakpointTable{});
    if (fb.byLine.empty()) t->files.erase(path);
    else t->files[path] = std::move(fb);
    table_ = std::move(t);
  }
  tableVersion_.fetch_add(1, std::memory_order_release);
  return out;
}

std::vector<BreakpointResult> Debugger::setFunctionBreakpoints(const std::vector<FunctionBreakpointSpec>& specs) {
  static std::atomic<int> nextId{100000};
  std::vector<FunctionBreakpoint> fbs;
  std::vector<BreakpointResult> out;
  for (const FunctionBreakpointSpec& s : specs) {
    BreakpointResult r;
    r.id = nextId++;
    FunctionBreakpoint f{r.id, s.name, std::nullopt, s.condition, s.hitCondition};
    if (s.name.find_first_of(".*+?[](){}|^$\\") != std::string::npos) {
      try {
        f.regex.emplace(s.name);
      } catch (const std::regex_error& e) {
        r.message = std::string("bad regex: ") + e.what();
      }
    }
    r.verified = r.message.empty() && !s.name.empty();
    if (r.verified) fbs.push_back(std::move(f));
    out.push_back(std::move(r));
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto t = std::make_shared<BreakpointTable>(table_ ? *table_ : BreakpointTable{});
    t->functions = std::move(fbs);
    table_ = std::move(t);
  }
  tableVersion_.fetch_add(1, std::memory_order_release);
  return out;
}

void Debugger::setExceptionFilters(const std::set<std::string>& filters) {
  std::lock_guard<std::mutex> lk(mu_);
  filters_ = filters;
}

std::set<std::string> Debugger::exceptionFilters() const {
  std::lock_guard<std::mutex> lk(mu_);
  return filters_;
}

std::vector<int> Debugger::breakpointLocations(const std::string& rawPath, int line, int endLine) {
  const std::string path = canonicalPath(rawPath);
  std::string text = file_ && file_->path() == path ? file_->text() : readWholeFile(path);
  lang::SourceFile sf(path, std::move(text));
  LineTable lines(sf);
  std::vector<int> out;
  // Clamped to the file: endLine 2^31-1 counted (and overflowed) through every int before.
  endLine = std::min(std::max(endLine, line), sf.lineCount() + 1);
  for (int l = line; l <= endLine; ++l)
    if (lines.isStatementStart(l)) out.push_back(l);
  return out;
}

std::optional<StopInfo> Debugger::resume(Step how) {
  cancelRequest_ = false;
  if (replaying_ && !impl_->replayStep) {
    // Stopped at a Python line reached by stepping back: forward through the line history first.
    if (std::optional<StopInfo> stop = resumeLines(how)) return stop;
  } else if (replaying_) {
    // Stopped at a node reached by stepping back: move forward through the record first.
    std::optional<StopInfo> stop;
    onProgramThread([&] {
      Impl& s = *impl_;
      if (!s.replayStep) return;
      const size_t cur = *s.replayStep;
      if (how == Step::Next || how == Step::In) {
        showStep(cur + 1);
        StopInfo info = s.stop;
        info.reason = StopReason::Step;
        info.hitBreakpointIds.clear();
        if (s.replayStep || s.atNode) info.description = describeNode(s.nodeName, s.opType, s.device);
        if (s.replayStep) info.description += " (replayed from the run record)";
        s.stop = info;
        stop = info;
        return;
      }
      for (size_t k = cur + 1; k < s.liveIndex; ++k) {
        showStep(k);
        StopInfo info;
        if (replayMatches(k, info)) {
          info.description = describeNode(s.nodeName, s.opType, s.device) + " (replayed from the run record)";
          s.stop = info;
          stop = info;
          return;
        }
      }
      showStep(s.liveIndex);  // the live point: the program goes on from here
    });
    if (stop) return stop;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (!stopped_) throw DebuggerError("the program is not stopped");
    if (impl_->postMortem) how = Step::Continue;
    step_ = how;
    stepDepth_ = lastDepth_;
    stepNode_ = false;
    if (impl_->atNode && how != Step::Continue) {
      // Inside a graph run: next/stepIn go to the next node; when the run ends (and for
      // stepOut) the next Python statement stops.
      stepNode_ = how != Step::Out;
      step_ = Step::In;
    }
    resume_ = true;
  }
  cv_.notify_all();
  return std::nullopt;
}

void Debugger::pause() {
  pause_ = true;
}

bool Debugger::isStopped() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stopped_;
}

void Debugger::onProgramThread(const std::function<void()>& fn) {
  std::packaged_task<void()> task(fn);
  std::future<void> done = task.get_future();
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (!stopped_) {
      if (!thread_.joinable()) throw DebuggerError("no program is running: launch one first");
      if (exited_) throw DebuggerError("the program has ended");
      throw DebuggerError("the program is running; pause it first");
    }
    tasks_.push_back([&task] { task(); });
  }
  cv_.notify_all();
  done.get();
}

std::optional<ExceptionDetails> Debugger::exceptionInfo() {
  std::optional<ExceptionDetails> out;
  onProgramThread([&] { out = impl_->exception; });
  return out;
}

// --- program thread -----------------------------------------------------------------------------

void Debugger::runProgram() {
  interp::InterpOptions io;
  io.argv = config_.args;
  io.workspaceRoots.push_back(std::filesystem::path(config_.program).parent_path().string());
  io.out = [this](std::string_view s) { events_.output("stdout", std::string(s)); };
  io.err = [this](std::string_view s) { events_.output("stderr", std::string(s)); };
  interp_ = std::make_unique<interp::Interpreter>(io);
  interp_->setStatementObserver(this);
  tf::TfOptions to;
  to.hooks = this;
  to.checkNumerics = config_.checkNumerics;
  to.devices = config_.devices;
  if (config_.mode == "graph") to.style = tf::ApiStyle::Graph;
  else to.style = tf::detectApiStyle(file_->text());
  to.functionsEagerly = config_.mode == "eager";
  to.execution = &tf::kernelExecution();
  runtime_ = tf::installTensorFlow(*interp_, to);
  pybridge::installPythonBridge(*interp_, *runtime_, {config_.python, config_.program});
  PrintSink previous = setPrintSink([this](const std::string& line) { events_.output("stderr", line + "\n"); });

  int status = interp::Interpreter::kExitInternal;
  try {
    status = interp_->run(file_);
    pybridge::finishPythonBridge(*interp_);  // open matplotlib figures become PNG files
  } catch (const std::exception& e) {
    events_.output("stderr", std::string("tlens: internal error: ") + e.what() + "\n");
  }
  setPrintSink(previous);
  if (status == interp::Interpreter::kExitError && !cancel_) postMortem(status);
  exited_ = true;
  if (announceExit_) events_.exited(status);
}

void Debugger::postMortem(int status) {
  const interp::Diagnostic* d = nullptr;
  for (const interp::Diagnostic& x : interp_->diagnostics())
    if (x.code == "uncaught-exception") d = &x;
  if (!d) return;
  std::optional<PostMortemStop> pm = postMortemStop(*d);
  if (!pm) return;
  // Stopped at its raise already, with the frames alive.
  if (!liveException_.empty() && liveException_.type == d->exception.type &&
      liveException_.message == d->exception.message)
    return;
  const std::set<std::string> filters = exceptionFilters();
  if (!filters.count(pm->filter) && !filters.count("uncaught")) return;
  impl_->clearStop();
  impl_->postMortem = true;
  impl_->traceback = std::move(pm->traceback);
  impl_->exception = std::move(pm->exception);
  stopHere(pm->stop, Where::Statement);
  impl_->postMortem = false;
}

void Debugger::onRaise(const interp::Value& exc, bool inTry) {
  if (evaluating_ || inTry || cancel_ || !interp_) return;
  const std::string type = interp_->typeName(exc);
  // Exceptions the runtime itself catches (iteration's end, hasattr/getattr's default) or that
  // end the program on purpose are left to the post-mortem stop, should they reach the top.
  if (type == "StopIteration" || type == "StopAsyncIteration" || type == "GeneratorExit" || type == "SystemExit" ||
      type == "KeyboardInterrupt" || type == "AttributeError")
    return;
  const std::set<std::string> filters = exceptionFilters();
  if (!filters.count("uncaught") && !filters.count("assert") && !filters.count("shape_error")) return;
  interp::ExceptionReport report = interp_->exceptionReport(exc);
  report.traceback.clear();
  const std::string summary = report.summary();
  const std::string kind = exceptionFilter(report);
  if (!filters.count(kind) && !filters.count("uncaught")) return;
  if (!interp_->innermostUserFrame()) return;
  impl_->clearStop();
  impl_->exception = ExceptionDetails{kind, summary, type, {}};
  liveException_ = std::move(report);
  StopInfo info;
  info.reason = StopReason::Exception;
  info.description = "Uncaught " + type + " (raised here)";
  info.text = summary;
  if (!stopHere(info, Where::Statement)) throw interp::InterpCancelled();
}

bool Debugger::stopHere(StopInfo info, Where where) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (cancel_) return false;
    impl_->stop = info;
    stopped_ = true;
    resume_ = false;
    step_ = Step::Continue;
    stepNode_ = false;
    pause_ = false;
  }
  events_.stopped(info);
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    cv_.wait(lk, [&] { return resume_ || !tasks_.empty(); });
    if (tasks_.empty()) break;
    std::function<void()> t = std::move(tasks_.front());
    tasks_.pop_front();
    lk.unlock();
    const bool was = evaluating_;
    evaluating_ = true;  // code run for the client never stops and is never recorded
    t();
    evaluating_ = was;
    lk.lock();
  }
  stopped_ = false;
  resume_ = false;
  lk.unlock();
  impl_->clearStop();
  replaying_ = false;
  if (!cancel_) events_.continued();
  return !cancel_;
}

bool Debugger::shouldStop(const LineBreakpoint& bp, int /*frameHint*/) {
  if (!bp.condition.empty()) {
    try {
      if (!evaluateCondition(*interp_, *runtime_, *impl_, bp.condition, evaluating_)) return false;
    } catch (const DebuggerError& e) {
      // A condition that cannot be evaluated here (a graph tensor with no value yet, at graph
      // construction) does not stop; say why once per breakpoint.
      if (conditionErrors_.insert(bp.id).second)
        events_.output("console", "breakpoint condition '" + bp.condition + "' failed: " + e.what() + "\n");
      return false;
    }
  }
  const int64_t hits = ++hits_[bp.id];
  if (!hitConditionPasses(bp.hitCondition, hits)) return false;
  if (!bp.logMessage.empty()) {
    events_.output("console", interpolateLogMessage(*interp_, *runtime_, *impl_, bp.logMessage, evaluating_) + "\n");
    return false;
  }
  return true;
}

void Debugger::beforeStatement(const interp::StatementEvent& e) {
  if (evaluating_) {
    // A cancelled evaluate, or one past its time or memory cap.
    if (cancelRequest_ || impl_->evalOverCap()) throw interp::InterpCancelled();
    return;
  }
  if (cancel_) throw interp::InterpCancelled();
  const std::string& path = e.file.path();
  if (path.empty() || path[0] == '<') return;  // the embedded tensorflow/numpy library
  closeBindings();
  openBindings();
  recordLine(e);
  lastDepth_ = e.depth;
  StopInfo info;
  bool stop = false;
  if (!entryDone_) {
    entryDone_ = true;
    if (config_.stopOnEntry) {
      info.reason = StopReason::Entry;
      info.description = "entry";
      stop = true;
    }
  }
  if (!stop && pause_) {
    info.reason = StopReason::Pause;
    info.description = "paused";
    stop = true;
  }
  if (!stop && step_ != Step::Continue) {
    if (step_ == Step::In || (step_ == Step::Next && e.depth <= stepDepth_) ||
        (step_ == Step::Out && e.depth < stepDepth_)) {
      info.reason = StopReason::Step;
      info.description = "step";
      stop = true;
    }
  }
  auto t = table();
  if (t && !t->files.empty()) {
    auto f = t->files.find(path);
    if (f != t->files.end()) {
      auto b = f->second.byLine.find(e.line);
      if (b != f->second.byLine.end() && shouldStop(b->second, 0)) {
        info.reason = StopReason::Breakpoint;
        info.description = "breakpoint";
        info.hitBreakpointIds = {b->second.id};
        stop = true;
      }
    }
  }
  if (stop && !stopHere(info, Where::Statement)) throw interp::InterpCancelled();
}

void Debugger::openBindings() {
  Impl& s = *impl_;
  s.pendingOpen = false;
  if (!runtime_ || s.bindings.size() >= Impl::kMaxBindings) return;
  s.pendingSizes.clear();
  for (const auto& g : runtime_->graphs()) s.pendingSizes.push_back(g->size());
  s.pendingEnvs.clear();
  for (const interp::Frame* f : interp_->userFrames()) {
    interp::FrameView v = interp_->view(*f);
    s.pendingEnvs.emplace_back(std::move(v.locals), std::move(v.globals));
  }
  s.pendingOpen = true;
}

void Debugger::closeBindings() {
  Impl& s = *impl_;
  if (!s.pendingOpen || !runtime_) return;
  s.pendingOpen = false;
  const auto& graphs = runtime_->graphs();
  std::vector<Impl::BuiltRange> grown;
  for (size_t i = 0; i < graphs.size(); ++i) {
    const size_t before = i < s.pendingSizes.size() ? s.pendingSizes[i] : 0;
    if (graphs[i]->size() > before)
      grown.push_back(Impl::BuiltRange{graphs[i].get(), static_cast<int>(before), static_cast<int>(graphs[i]->size()),
                                       s.bindings.size()});
  }
  if (grown.empty()) return;
  // Copies, not the live scopes: a later statement may rebind a name (x = layer(x)); the node
  // shows what its statement saw (and bound: `pre` of `pre = tf.matmul(...)` is there too).
  Impl::Bindings b;
  auto copy = [](const interp::Env& from) {
    auto env = std::make_shared<interp::Env>();
    from.vars.forEach([&](const std::string& n, const Value& v) { env->vars.set(n, v); });
    return env;
  };
  std::shared_ptr<interp::Env> lastGlobals, globalsCopy;  // frames of one module share a copy
  for (const auto& [locals, globals] : s.pendingEnvs) {
    Impl::FrameNames names;
    if (globals) {
      if (globals != lastGlobals) globalsCopy = copy(*globals), lastGlobals = globals;
      names.globals = globalsCopy;
    }
    if (locals && locals != globals) names.locals = copy(*locals);
    b.frames.push_back(std::move(names));
  }
  s.bindings.push_back(std::move(b));
  for (const Impl::BuiltRange& r : grown) s.built.push_back(r);
}

void Debugger::poll(interp::Interpreter&) {
  if (evaluating_) {
    if (cancelRequest_) throw interp::InterpCancelled();
    return;
  }
  if (cancel_) throw interp::InterpCancelled();
  if (!pause_) return;
  StopInfo info;
  info.reason = StopReason::Pause;
  info.description = "paused";
  if (!stopHere(info, Where::Statement)) throw interp::InterpCancelled();
}

void Debugger::runStarted(const std::vector<const Node*>&) {
  if (evaluating_) return;
  closeBindings();  // the statement calling sess.run may have built nodes (an initializer)
  impl_->clearRun();
  impl_->inRun = true;
  impl_->ranNodes.clear();
  impl_->numerics.clear();
}

void Debugger::runFinished(bool) {
  if (evaluating_) return;
  impl_->inRun = false;
  impl_->clearRun();
  stepNode_ = false;
}

HookAction Debugger::beforeNode(const NodeEvent& e) {
  if (evaluating_) return cancelRequest_ || impl_->evalOverCap() ? HookAction::Cancel : HookAction::Continue;
  if (cancel_) return HookAction::Cancel;
  if (!oldValues_.empty()) oldValues_.clear();  // left by an op that failed
  if (anyWatches_.load(std::memory_order_relaxed) && !e.op->refInputs.empty() && e.varNames && e.resources) {
    // Holding the old value makes the kernel's update copy (copy on write): the old value stays.
    std::shared_ptr<const std::vector<Watch>> w;
    {
      std::lock_guard<std::mutex> lk(mu_);
      w = watches_;
    }
    for (const std::string& name : *e.varNames) {
      if (name.empty() || !w) continue;
      for (const Watch& x : *w)
        if (x.varName == name) {
          Tensor* v = e.resources->variable(name);
          oldValues_.emplace_back(name, v ? *v : Tensor());
          break;
        }
    }
  }
  return HookAction::Continue;
}

void Debugger::captureNode(const NodeEvent& e) {
  Impl& s = *impl_;
  s.atNode = true;
  s.node = e.node;
  s.nodeName = *e.name;
  s.opType = e.op->type;
  s.device = e.device;
  s.location = e.location ? *e.location : SourceLocation{};
  s.creation = e.stack ? *e.stack : std::vector<StackFrame>{};
  s.inputNames.clear();
  if (e.inputs) {
    for (size_t k = 0; k < e.inputs->size(); ++k)
      s.inputNames.push_back(e.node && k < e.node->inputs.size() ? e.node->inputs[k].name() : "input:" + std::to_string(k));
    // Inspection reads elements on the host: tensors in CUDA memory are copied (a no-op for the
    // CPU and virtual GPUs).
    s.inputs.clear();
    for (const Tensor& t : *e.inputs) s.inputs.push_back(t.toHost());
  }
  if (e.outputs) {
    s.outputs.clear();
    for (const Tensor& t : *e.outputs) s.outputs.push_back(t.toHost());
  }
}

const Debugger::Candidates& Debugger::candidatesFor(const NodeEvent& e, const BreakpointTable& t, Candidates& scratch) {
  if (candidatesTable_ != &t) {
    nodeCandidates_.clear();
    opCandidates_.clear();
    candidatesTable_ = &t;
  }
  auto functions = [&](std::vector<const FunctionBreakpoint*>& out) {
    for (const FunctionBreakpoint& f : t.functions)
      if (f.matches(*e.name, e.op->type)) out.push_back(&f);
  };
  if (e.node) {
    // A node's name, op and location never change: match once per breakpoint table.
    auto [it, fresh] = nodeCandidates_.try_emplace(e.node);
    Candidates& c = it->second;
    if (fresh || c.name != e.node->name) {
      c = Candidates{};
      c.name = e.node->name;
      if (e.location && e.location->known() && !t.files.empty()) c.line = t.find(e.location->file, e.location->line);
      functions(c.functions);
    }
    return c;
  }
  // Eager ops: the name is the op type (cached); the location is the running statement's.
  scratch = Candidates{};
  auto [it, fresh] = opCandidates_.try_emplace(*e.name);
  if (fresh) functions(it->second);
  scratch.functions = it->second;
  if (e.location && e.location->known() && !t.files.empty()) scratch.line = t.find(e.location->file, e.location->line);
  return scratch;
}

bool Debugger::nodeMatches(const NodeEvent& e, const Candidates& c, const BreakpointTable& t, StopInfo& info) {
  if (const LineBreakpoint* bp = c.line) {
    // An eager op of the statement stopped at as Python is not a second stop; a replayed
    // tf.function node (created on another line than the one running) is.
    bool sameStatement = false;
    if (!e.node) {
      if (interp::Frame* f = interp_->innermostUserFrame()) {
        const SourceLocation here = interp_->view(*f).location;
        const FileBreakpoints& fb = t.files.at(e.location->file);
        sameStatement = here.file == e.location->file && fb.lines->statementOf(here.line) == bp->line;
      }
    }
    if (!sameStatement && shouldStop(*bp, 0)) {
      info.reason = StopReason::Breakpoint;
      info.hitBreakpointIds = {bp->id};
      return true;
    }
  }
  for (const FunctionBreakpoint* f : c.functions) {
    LineBreakpoint asLine{f->id, 0, f->condition, f->hitCondition, {}};
    if (shouldStop(asLine, 0)) {
      info.reason = StopReason::FunctionBreakpoint;
      info.hitBreakpointIds = {f->id};
      return true;
    }
  }
  return false;
}

HookAction Debugger::afterNode(const NodeEvent& e) {
  if (evaluating_) return cancelRequest_ || impl_->evalOverCap() ? HookAction::Cancel : HookAction::Continue;
  if (cancel_) return HookAction::Cancel;
  Impl& s = *impl_;
  if (e.node && s.inRun) {
    s.ranNodes.push_back(e.node);
    if (e.resources) s.resources = e.resources;
    // Feeds: what the placeholders' consumers received (names at node stops show them).
    if (e.inputs)
      for (size_t k = 0; k < e.node->inputs.size() && k < e.inputs->size(); ++k) {
        const Output& in = e.node->inputs[k];
        if (in.node && in.node->op->type.rfind("Placeholder", 0) == 0 && (*e.inputs)[k].valid() &&
            !s.feeds.count(in.name()))
          s.feeds.emplace(in.name(), (*e.inputs)[k].toHost());
      }
  }
  bool recorded = false;
  if (e.outputs && (s.inRun || !e.node)) {
    if (!e.node && s.run.size() >= 1000) s.trimRun(500);
    const size_t first = s.run.size();
    // Outputs that share a buffer with a variable (updates) or an input (Identity of a variable
    // read) are not kept: holding them would make the next in-place variable update copy.
    const bool updatesVariable = !e.op->refInputs.empty();
    for (size_t i = 0; i < e.outputs->size(); ++i) {
      const Tensor& t = (*e.outputs)[i];
      const bool alias = updatesVariable || (e.inputs && sharesBufferWith(t, *e.inputs));
      s.record(Impl::RunEntry{*e.name + ":" + std::to_string(i), e.op->type, e.device, alias ? Tensor() : t.toHost(), e.node});
    }
    recordStep(e, first);
    recorded = true;
  }
  StopInfo info;
  bool stop = false;
  if (!oldValues_.empty()) {
    stop = watchedWrite(e, info);
    oldValues_.clear();
  }
  if (!stop && pause_) {
    info.reason = StopReason::Pause;
    stop = true;
  } else if (!stop && stepNode_) {
    info.reason = StopReason::Step;
    stop = true;
  }
  // Only a node some breakpoint could match is looked at further (most are not).
  std::shared_ptr<const BreakpointTable> t = table();
  Candidates scratch;
  const Candidates* cand = t && !t->empty() ? &candidatesFor(e, *t, scratch) : nullptr;
  if (!stop && (!cand || cand->empty())) return HookAction::Continue;
  // Conditions read the node's values: capture before matching.
  captureNode(e);
  if (!stop) stop = nodeMatches(e, *cand, *t, info);
  if (!stop) {
    s.atNode = false;
    return HookAction::Continue;
  }
  if (info.description.empty()) info.description = describeNode(*e.name, e.op->type, e.device);
  s.liveRecorded = recorded;
  return stopHere(info, Where::Node) ? HookAction::Continue : HookAction::Cancel;
}

HookAction Debugger::nonFinite(const NodeEvent& e, const NumericsReport& r) {
  if (evaluating_) return HookAction::Continue;
  if (!exceptionFilters().count("nan_inf")) return HookAction::Continue;
  if (e.node) {
    impl_->numerics[e.node] = r.counts.nan ? "nan" : "inf";
    if (impl_->inRun) impl_->ranNodes.push_back(e.node);  // its kernel ran; afterNode will not come
  }
  captureNode(e);
  impl_->exception = ExceptionDetails{"nan_inf", explainNonFinite(r) + "\n" + r.message(), "NaN/Inf", {}};
  StopInfo info;
  info.reason = StopReason::Exception;
  info.description = "NaN/Inf in " + describeNode(*e.name, e.op->type, e.device);
  info.text = explainNonFinite(r);
  stopHere(info, Where::Node);
  // Continuing raises the error the program would get without a debugger.
  return HookAction::Cancel;
}

}  // namespace tlens::dap
