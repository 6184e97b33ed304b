// Stepping back through Python lines: every statement of the user's files that starts under the
// debugger leaves an entry (where, in which function, and the innermost frame's names as it
// started). stepBack / reverseContinue at a Python stop show an earlier entry, next / stepIn /
// continue move forward through the entries to the live stop, which the program then runs on
// from: as with the graph run record (StepBack.cpp), nothing runs again and the program thread
// stays where it stopped. Only immutable scalars are recorded (None, bools, numbers, strings up
// to 4 KiB, ranges): the history never keeps an array, a tensor or a list alive. A name bound to
// another object shows the object bound to it now at module level, and is left out in a
// function's frame.
#include "dap/backend/Debugger.h"

#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "lang/interp/Interpreter.h"
#include "lang/interp/Objects.h"
#include "lang/syntax/SourceFile.h"

namespace tlens::dap {

namespace {

/// Values the history keeps: immutable and small, so that it never keeps memory alive.
bool recordable(const interp::Value& v) {
  if (!v) return true;
  switch (v->kind()) {
    case interp::Kind::None:
    case interp::Kind::Bool:
    case interp::Kind::Int:
    case interp::Kind::Float:
    case interp::Kind::Range:
    case interp::Kind::Slice:
    case interp::Kind::Ellipsis: return true;
    case interp::Kind::Str: return static_cast<const interp::StrObj&>(*v).value.size() <= 4096;
    default: return false;
  }
}

}  // namespace

void Debugger::recordLine(const interp::StatementEvent& e) {
  Impl& s = *impl_;
  Impl::PyLine& l = s.lines.next(s.droppedLines);
  l.file = &e.file;
  l.line = e.line;
  l.depth = e.depth;
  l.function.clear();
  if (e.depth > 1)
    if (interp::Frame* f = interp_->innermostUserFrame()) l.function = interp_->frameName(*f);
  l.names.clear();
  l.namesKept = e.locals.size() <= Impl::kMaxNames;
  if (l.namesKept)
    e.locals.forEach([&](const std::string& n, const interp::Value& v) { l.names.emplace_back(n, recordable(v) ? v : nullptr); });
}

bool Debugger::atPythonStop() const {
  const Impl& s = *impl_;
  return !s.postMortem && !s.atNode && !s.replayStep && !s.lines.empty();
}

void Debugger::showLine(std::optional<size_t> k) {
  Impl& s = *impl_;
  if (k && *k + 1 >= s.lines.size()) k.reset();  // the newest entry is the live stop
  s.replayLine = k;
  s.frames.clear();
  s.framesBuilt = false;
  s.refs.clear();
  replaying_ = k.has_value();
}

std::shared_ptr<interp::Env> lineScope(const Debugger::Impl::PyLine& l, const interp::Env* moduleNow) {
  if (!l.namesKept) return nullptr;
  auto env = std::make_shared<interp::Env>();
  for (const auto& [name, v] : l.names) {
    if (v) env->vars.set(name, v);
    else if (l.depth == 1 && moduleNow)
      if (interp::Value now = moduleNow->vars.get(name)) env->vars.set(name, now);
  }
  return env;
}

namespace {

std::string describeLine(const Debugger::Impl::PyLine& l) {
  return "line " + std::to_string(l.line) + " in " + (l.function.empty() ? std::string("<module>") : l.function);
}

}  // namespace

bool Debugger::lineMatches(size_t k, StopInfo& info) {
  const Impl::PyLine& l = impl_->lines[k];
  auto t = table();
  if (!t || t->files.empty()) return false;
  auto f = t->files.find(l.file->path());
  if (f == t->files.end()) return false;
  auto b = f->second.byLine.find(l.line);
  // Hit counts, conditions on live values and logpoints belong to live execution.
  if (b == f->second.byLine.end() || !b->second.logMessage.empty() || !b->second.condition.empty()) return false;
  info.reason = StopReason::Breakpoint;
  info.hitBreakpointIds = {b->second.id};
  return true;
}

StopInfo Debugger::stepBackLine(bool toBreakpoint) {
  Impl& s = *impl_;
  const size_t live = s.lines.size() - 1;
  const size_t cur = s.replayLine.value_or(live);
  std::string note;
  StopInfo info;
  info.reason = StopReason::Step;
  size_t target = 0;
  bool found = false;
  if (toBreakpoint) {
    for (size_t k = cur; k-- > 0;)
      if (lineMatches(k, info)) {
        target = k;
        found = true;
        break;
      }
  } else if (cur > 0) {
    target = cur - 1;
    found = true;
  }
  if (!found) {
    note = std::string(toBreakpoint ? "reverseContinue: no breakpoint matched; " : "stepBack: ") +
           (s.droppedLines > 0 ? "this is the oldest line the history keeps (the last " + std::to_string(Impl::kMaxLines) +
                                     " statements; " + std::to_string(s.droppedLines) + " earlier ones were let go)"
                               : "this is the first line the program ran");
  }
  showLine(target);
  info.description = describeLine(s.lines[target]) + (s.replayLine ? " (stepped back)" : "");
  info.text = note;
  s.stop = info;
  return info;
}

std::optional<StopInfo> Debugger::resumeLines(Step how) {
  std::optional<StopInfo> out;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (!s.replayLine) return;
    const size_t cur = *s.replayLine;
    StopInfo info;
    if (how == Step::Next || how == Step::In || how == Step::Out) {
      // Forward by one line (by frame depth for next and stepOut, as live stepping does).
      const int depth = s.lines[cur].depth;
      size_t k = cur + 1;
      while (k + 1 < s.lines.size() && ((how == Step::Next && s.lines[k].depth > depth) || (how == Step::Out && s.lines[k].depth >= depth)))
        ++k;
      showLine(k);
      info.reason = StopReason::Step;
    } else {
      size_t k = cur + 1;
      for (; k + 1 < s.lines.size(); ++k)
        if (lineMatches(k, info)) break;
      if (k + 1 >= s.lines.size()) {
        showLine(std::nullopt);  // the live point: the program goes on from here
        return;
      }
      showLine(k);
    }
    info.description = describeLine(s.lines[s.replayLine.value_or(s.lines.size() - 1)]) + (s.replayLine ? " (stepped back)" : "");
    s.stop = info;
    out = info;
  });
  return out;
}

}  // namespace tlens::dap
