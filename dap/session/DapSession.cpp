#include "dap/session/DapSession.h"

namespace tlens::dap {

DapSession::DapSession(protocol::Channel& channel)
    : channel_(channel), transport_(channel), dispatcher_(transport_), debugger_(std::make_unique<Debugger>(*this)) {
  registerLifecycleHandlers(*this, dispatcher_);
  registerBreakpointHandlers(*this, dispatcher_);
  registerInspectHandlers(*this, dispatcher_);
  registerExecutionHandlers(*this, dispatcher_);
  registerEvaluateHandlers(*this, dispatcher_);
}

DapSession::~DapSession() { debugger_->terminate(); }

std::vector<proto::ExceptionBreakpointsFilter> DapSession::exceptionFilters() {
  return {
      {"nan_inf", "NaN/Inf", "Stop at the first node whose output holds NaN or Inf (check-numerics)", true},
      {"shape_error", "Shape errors", "Runtime shape/dtype errors (post mortem)", false},
      {"assert", "Assertions", "tf.Assert, tf.debugging.assert_*, Python assert (post mortem)", false},
      {"uncaught", "Uncaught exceptions", "Any uncaught exception (post mortem)", false},
  };
}

void DapSession::run() {
  channel_.onError = [this](const std::string& m) {
    transport_.event("output", proto::OutputEvent{"console", "tlens dap: framing error: " + m + "\n"});
  };
  while (!done_) {
    std::optional<std::string> body = channel_.read();
    if (!body) break;
    dispatcher_.handle(*body);
  }
  debugger_->terminate();
}

void DapSession::stopped(const StopInfo& s) {
  proto::StoppedEvent e;
  switch (s.reason) {
    case StopReason::Entry: e.reason = "entry"; break;
    case StopReason::Breakpoint: e.reason = "breakpoint"; break;
    case StopReason::FunctionBreakpoint: e.reason = "function breakpoint"; break;
    case StopReason::Step: e.reason = "step"; break;
    case StopReason::Pause: e.reason = "pause"; break;
    case StopReason::Exception: e.reason = "exception"; break;
  }
  if (!s.description.empty()) e.description = s.description;
  if (!s.text.empty()) e.text = s.text;
  e.hitBreakpointIds = s.hitBreakpointIds;
  transport_.event("stopped", e);
}

void DapSession::output(const std::string& category, const std::string& text) {
  transport_.event("output", proto::OutputEvent{category, text});
}

void DapSession::exited(int code) {
  transport_.event("exited", proto::ExitedEvent{code});
  transport_.event("terminated", nullptr);
}

}  // namespace tlens::dap
