// Stepping back: the run record (Impl::run, one entry per output, and Impl::steps, one per node
// or eager op) keeps what this graph run computed, so stepBack and reverseContinue only change
// what the stop shows: no kernel runs again and the program thread stays where it stopped (the
// live point). next/stepIn from a replayed node move forward through the record; continue
// replays forward to the live point, stopping at breakpoints on the way, then runs live.
//
// The record keeps outputs up to a memory cap (LaunchConfig::runRecordBytes, 512 MiB unless the
// launch asks otherwise); a node whose outputs were let go cannot be shown, so a step back past
// the oldest kept node stops there and says so. At a Python stop, stepBack and reverseContinue
// go through the Python line history instead (LineHistory.cpp).
#include "dap/backend/Debugger.h"

#include "dap/backend/DebuggerImpl.h"
#include "dap/backend/Evaluate.h"
#include "lang/interp/Interpreter.h"

namespace tlens::dap {

namespace {

/// The first step whose outputs the record still holds (steps.size() when none).
size_t oldestKept(const Debugger::Impl& s) {
  size_t k = 0;
  while (k < s.steps.size() && s.steps[k].firstEntry < s.firstKept) ++k;
  return k;
}

std::string capText(const Debugger::Impl& s) {
  if (!s.inRun && s.cap() < s.runCap) return std::to_string(s.cap() >> 20) + " MiB of eager ops' outputs";
  return std::to_string(s.runCap >> 20) + " MiB (launch option runRecordMB)";
}

/// Where stepping back starts: the step shown now (the live one, recorded or not, when not
/// replaying). Throws when the program has ended.
size_t stepBackFrom(Debugger::Impl& s) {
  if (s.postMortem) throw DebuggerError("the program has ended: there is no run to step back through");
  if (!s.replayStep) s.liveIndex = s.liveRecorded && !s.steps.empty() ? s.steps.size() - 1 : s.steps.size();
  return s.replayStep.value_or(s.liveIndex);
}

}  // namespace

void Debugger::recordStep(const NodeEvent& e, size_t firstEntry) {
  Impl::NodeStep st;
  st.name = *e.name;
  st.op = e.op->type;
  st.device = e.device;
  st.node = e.node;
  st.firstEntry = firstEntry;
  st.numOutputs = e.outputs ? e.outputs->size() : 0;
  if (!e.node) {
    if (e.location) st.location = *e.location;  // (not the whole creation stack: too dear per op)
    if (e.inputs)
      for (const Tensor& t : *e.inputs) st.inputBuffers.push_back(t.raw());
  }
  impl_->steps.push_back(std::move(st));
}

void Debugger::showStep(size_t k) {
  Impl& s = *impl_;
  if (!s.replayStep) s.live = s.saveView();
  if (k >= s.liveIndex) {
    s.loadView(s.live);
    s.replayStep.reset();
    s.runLimit = SIZE_MAX;
    replaying_ = false;
    return;
  }
  const Impl::NodeStep& st = s.steps[k];
  Impl::NodeView v;
  v.stop = s.live.stop;
  v.atNode = true;
  v.node = st.node;
  v.nodeName = st.name;
  v.opType = st.op;
  v.device = st.device;
  v.location = st.node ? st.node->location : st.location;
  v.creation = st.node ? st.node->stack : st.stack;
  for (size_t o = 0; o < st.numOutputs; ++o) v.outputs.push_back(s.run[st.firstEntry + o].tensor);
  // Inputs: the latest recorded output of the same name (graph) or buffer (eager) before it.
  auto byName = [&](const std::string& name) {
    for (size_t j = st.firstEntry; j-- > 0;)
      if (s.run[j].name == name) return s.run[j].tensor;
    return Tensor();
  };
  auto byBuffer = [&](const void* p) {
    for (size_t j = st.firstEntry; p && j-- > 0;)
      if (s.run[j].tensor.valid() && s.run[j].tensor.raw() == p) return s.run[j].tensor;
    return Tensor();
  };
  if (st.node) {
    for (const Output& in : st.node->inputs) {
      v.inputNames.push_back(in.name());
      v.inputs.push_back(byName(in.name()));
    }
  } else {
    for (size_t i = 0; i < st.inputBuffers.size(); ++i) {
      v.inputNames.push_back("input:" + std::to_string(i));
      v.inputs.push_back(byBuffer(st.inputBuffers[i]));
    }
  }
  s.loadView(std::move(v));
  s.replayStep = k;
  s.runLimit = st.firstEntry + st.numOutputs;
  replaying_ = true;
}

bool Debugger::replayMatches(size_t k, StopInfo& info) {
  Impl& s = *impl_;
  const Impl::NodeStep& st = s.steps[k];
  auto t = table();
  auto conditionHolds = [&](const std::string& cond) {
    if (cond.empty()) return true;
    try {
      return evaluateCondition(*interp_, *runtime_, s, cond, evaluating_);
    } catch (const DebuggerError&) {
      return false;
    }
  };
  // Hit counts and logpoints belong to live execution: replaying neither counts nor logs.
  if (t && !t->empty()) {
    const SourceLocation& loc = st.node ? st.node->location : st.location;
    if (loc.known() && !t->files.empty())
      if (const LineBreakpoint* bp = t->find(loc.file, loc.line); bp && bp->logMessage.empty() && conditionHolds(bp->condition)) {
        info.reason = StopReason::Breakpoint;
        info.hitBreakpointIds = {bp->id};
        return true;
      }
    for (const FunctionBreakpoint& f : t->functions)
      if (f.matches(st.name, st.op) && conditionHolds(f.condition)) {
        info.reason = StopReason::FunctionBreakpoint;
        info.hitBreakpointIds = {f.id};
        return true;
      }
  }
  // A graph node that wrote a watched variable.
  if (st.node && !st.node->op->refInputs.empty()) {
    std::shared_ptr<const std::vector<Watch>> w;
    {
      std::lock_guard<std::mutex> lk(mu_);
      w = watches_;
    }
    if (w)
      for (int i : st.node->op->refInputs)
        for (const Watch& x : *w)
          if (static_cast<size_t>(i) < st.node->inputs.size() && st.node->inputs[static_cast<size_t>(i)].node->name == x.varName &&
              !x.notFinite) {
            info.reason = StopReason::DataBreakpoint;
            info.hitBreakpointIds = {x.id};
            return true;
          }
  }
  return false;
}

StopInfo Debugger::stepBack() {
  StopInfo out;
  std::string note;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (atPythonStop()) {  // a Python line: the previous line of the history (LineHistory.cpp)
      out = stepBackLine(false);
      note = out.text;
      return;
    }
    const size_t cur = stepBackFrom(s);
    if (s.steps.empty() || (cur == 0 && s.droppedSteps == 0 && s.firstKept == 0 && s.liveIndex == 0))
      throw DebuggerError("nothing to step back to: no node has run yet in this run");
    const size_t oldest = oldestKept(s);
    size_t target = cur == 0 ? 0 : cur - 1;
    if (cur <= oldest || target < oldest) {
      target = std::min(oldest, s.liveIndex);
      if (s.firstKept > 0 || s.droppedSteps > 0)
        note = "stepBack: this is the oldest node the run record keeps; the outputs of " +
               std::to_string(oldest + s.droppedSteps) + " earlier node(s) were let go (the record keeps " + capText(s) + ")";
      else
        note = "stepBack: this is the first node of the run";
    }
    showStep(target);
    out = s.stop;
    out.reason = StopReason::Step;
    out.hitBreakpointIds.clear();
    out.description = describeNode(s.nodeName, s.opType, s.device) + (s.replayStep ? " (stepped back)" : "");
    out.text = note;
    s.stop = out;
  });
  if (!note.empty()) events_.output("console", note + "\n");
  return out;
}

StopInfo Debugger::reverseContinue() {
  StopInfo out;
  std::string note;
  onProgramThread([&] {
    Impl& s = *impl_;
    if (atPythonStop()) {
      out = stepBackLine(true);
      note = out.text;
      return;
    }
    const size_t cur = stepBackFrom(s);
    if (s.steps.empty() || s.liveIndex == 0) throw DebuggerError("nothing to step back to: no node has run yet in this run");
    const size_t oldest = oldestKept(s);
    for (size_t k = cur; k-- > oldest;) {
      showStep(k);
      StopInfo info;
      if (replayMatches(k, info)) {
        info.description = describeNode(s.nodeName, s.opType, s.device) + " (stepped back)";
        s.stop = info;
        out = info;
        return;
      }
    }
    showStep(std::min(oldest, s.liveIndex));
    if (s.firstKept > 0 || s.droppedSteps > 0)
      note = "reverseContinue: no breakpoint matched; stopped at the oldest node the run record keeps (it keeps " + capText(s) + ")";
    else
      note = "reverseContinue: no breakpoint matched; stopped at the first node of the run";
    out.reason = StopReason::Step;
    out.description = describeNode(s.nodeName, s.opType, s.device) + (s.replayStep ? " (stepped back)" : "");
    out.text = note;
    s.stop = out;
  });
  if (!note.empty()) events_.output("console", note + "\n");
  return out;
}

}  // namespace tlens::dap
