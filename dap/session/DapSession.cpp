#include "dap/session/DapSession.h"

#include "lang/pybridge/PyBridge.h"

namespace tlens::dap {
namespace {

// The session whose client hears the last events when a C extension of the embedded Python
// crashes the process (one program runs per process at a time).
std::atomic<proto::Transport*> fatalTransport{nullptr};

void onFatalSignal(int sig, const char* pythonStack, size_t size) {
  if (proto::Transport* t = fatalTransport.load()) t->lastWords(pythonStack, size, 128 + sig);
}

}  // namespace

DapSession::DapSession(protocol::Channel& channel)
    : channel_(channel), transport_(channel), dispatcher_(transport_), debugger_(std::make_unique<Debugger>(*this)) {
  registerLifecycleHandlers(*this, dispatcher_);
  registerBreakpointHandlers(*this, dispatcher_);
  registerInspectHandlers(*this, dispatcher_);
  registerExecutionHandlers(*this, dispatcher_);
  registerEvaluateHandlers(*this, dispatcher_);
  registerGraphHandlers(*this, dispatcher_);
  fatalTransport.store(&transport_);
  pybridge::setFatalSignalHook(onFatalSignal);
}

DapSession::~DapSession() {
  proto::Transport* mine = &transport_;
  fatalTransport.compare_exchange_strong(mine, nullptr);
  if (forwarder_.joinable()) {
    forwardStop_ = true;
    forwarder_.join();
  }
  debugger_->terminate();
  // The session is over: stop reading (close() unblocks the reader) and wait for the reader.
  if (reader_.joinable()) {
    channel_.close();
    reader_.join();
  }
}

std::vector<proto::ExceptionBreakpointsFilter> DapSession::exceptionFilters() {
  return {
      {"nan_inf", "NaN/Inf", "Stop at the first node whose output holds NaN or Inf (check-numerics)", true},
      {"shape_error", "Shape errors", "Shape/dtype errors, at the raise when no try can catch them (else post mortem)", false},
      {"assert", "Assertions", "tf.Assert, tf.debugging.assert_*, Python assert, at the raise when no try can catch them (else post mortem)", false},
      {"uncaught", "Uncaught exceptions", "Any uncaught exception, at the raise when no try can catch it (else post mortem)", false},
  };
}

void DapSession::run() {
  // Framing errors are found by the reader; they are reported in stream order, between the
  // responses to the requests around them.
  channel_.onError = [this](const std::string& m) {
    std::lock_guard<std::mutex> lk(qmu_);
    queue_.emplace_back(kFramingError, m);
    qcv_.notify_all();
  };
  reader_ = std::thread([this] { readLoop(); });
  while (!done_) {
    std::pair<int, std::string> next;
    {
      std::unique_lock<std::mutex> lk(qmu_);
      qcv_.wait(lk, [&] { return !queue_.empty() || eof_; });
      if (queue_.empty()) break;
      next = std::move(queue_.front());
      queue_.pop_front();
      if (next.first == kFramingError) {
        lk.unlock();
        transport_.event("output", proto::OutputEvent{"console", "tlens dap: framing error: " + next.second + "\n"});
        continue;
      }
      if (cancelled_.erase(next.first)) {
        lk.unlock();
        transport_.respond(next.first, proto::Dispatcher::peek(next.second).command, false, nullptr, "cancelled");
        continue;
      }
      inFlight_ = next.first;
    }
    debugger_->clearCancel();
    dispatcher_.handle(next.second);
    std::lock_guard<std::mutex> lk(qmu_);
    inFlight_ = -1;
  }
  debugger_->terminate();
}

void DapSession::readLoop() {
  while (std::optional<std::string> body = channel_.read()) {
    proto::Dispatcher::Peeked p = proto::Dispatcher::peek(*body);
    if (p.command == "cancel") {
      // Answered here, at once: the request it cancels may be running on the DAP thread.
      try {
        proto::CancelArguments a = p.arguments.is_null() ? proto::CancelArguments{} : p.arguments.get<proto::CancelArguments>();
        if (a.requestId) cancel(*a.requestId);
        transport_.respond(p.seq, "cancel", true, nullptr);
      } catch (const std::exception& e) {
        transport_.respond(p.seq, "cancel", false, nullptr, std::string("invalid arguments for 'cancel': ") + e.what());
      }
      continue;
    }
    std::lock_guard<std::mutex> lk(qmu_);
    // Ending or restarting the session interrupts a request still running (a hung evaluate
    // would otherwise keep the session from ever reading it).
    if ((p.command == "disconnect" || p.command == "terminate" || p.command == "restart") && inFlight_ >= 0)
      debugger_->cancelRequest();
    queue_.emplace_back(p.seq, std::move(*body));
    qcv_.notify_all();
  }
  std::lock_guard<std::mutex> lk(qmu_);
  eof_ = true;
  qcv_.notify_all();
}

bool DapSession::cancel(int requestId) {
  std::lock_guard<std::mutex> lk(qmu_);
  if (requestId == inFlight_) {
    debugger_->cancelRequest();
    return true;
  }
  for (const auto& [seq, body] : queue_)
    if (seq == requestId) {
      cancelled_.insert(seq);
      return true;
    }
  return false;
}

void DapSession::stopped(const StopInfo& s) {
  proto::StoppedEvent e;
  switch (s.reason) {
    case StopReason::Entry: e.reason = "entry"; break;
    case StopReason::Breakpoint: e.reason = "breakpoint"; break;
    case StopReason::FunctionBreakpoint: e.reason = "function breakpoint"; break;
    case StopReason::DataBreakpoint: e.reason = "data breakpoint"; break;
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
  drainForwarded();  // what a child process wrote before this comes first
  transport_.event("output", proto::OutputEvent{category, text});
}

void DapSession::exited(int code) {
  drainForwarded();
  transport_.event("exited", proto::ExitedEvent{code});
  transport_.event("terminated", nullptr);
}

}  // namespace tlens::dap
