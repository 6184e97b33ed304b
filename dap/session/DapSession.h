// DapSession: one debugging session over one Channel. The DAP thread (run()) reads requests and
// answers them through the Dispatcher; the handlers (dap/session/handlers/, one file per group of
// requests) translate between protocol types and the Debugger's typed API. Events raised on the
// program thread (stopped, output, exited) are written from there: Channel::write is thread-safe.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "dap/backend/Debugger.h"
#include "dap/protocol/Dispatcher.h"
#include "dap/protocol/Protocol.h"
#include "protocol/Channel.h"

namespace tlens::dap {

class DapSession : public DebuggerEvents {
 public:
  explicit DapSession(protocol::Channel& channel);
  ~DapSession() override;

  /// Serves requests until `disconnect` or the end of the stream; the program is stopped and
  /// its thread joined before it returns.
  void run();

  Debugger& debugger() { return *debugger_; }
  /// `tlens run --listen`: the program this session's `attach` request starts. Without one,
  /// `attach` is refused with a message saying how to start a program to attach to.
  void setAttachTarget(LaunchConfig c) { attachTarget_ = std::move(c); }
  const std::optional<LaunchConfig>& attachTarget() const { return attachTarget_; }
  proto::Transport& transport() { return transport_; }
  /// Ends run() after the current request.
  void finish() { done_ = true; }
  /// The exception filters the initialize response advertises.
  static std::vector<proto::ExceptionBreakpointsFilter> exceptionFilters();

  /// `cancel`: a request not started yet is answered "cancelled" when its turn comes; the
  /// request being served is interrupted (Debugger::cancelRequest). Returns false when the
  /// request is neither (already answered, or unknown).
  bool cancel(int requestId);

  /// `tlens dap` over stdio: the protocol writes to a private copy of stdout and fd 1 is a pipe
  /// whose read end is `fd`. What anything else writes to fd 1 (C code of a library in the
  /// embedded Python, a child process of os.system) arrives here and goes to the client as
  /// `output` events (stdout), in order with the program's own output, instead of corrupting the
  /// protocol's frames.
  void forwardOutputFrom(int fd);

  // DebuggerEvents (program thread; stopped also from handlers, after their response)
  void stopped(const StopInfo& s) override;
  void output(const std::string& category, const std::string& text) override;
  void exited(int code) override;

 private:
  protocol::Channel& channel_;
  proto::Transport transport_;
  proto::Dispatcher dispatcher_;
  std::unique_ptr<Debugger> debugger_;
  std::atomic<bool> done_{false};
  std::optional<LaunchConfig> attachTarget_;

  // A reader thread queues requests so that `cancel` is answered while another request runs.
  void readLoop();
  std::thread reader_;
  std::mutex qmu_;
  std::condition_variable qcv_;
  static constexpr int kFramingError = -1000000;  ///< a queue entry that reports a broken header
  std::deque<std::pair<int, std::string>> queue_;  ///< (seq, body)
  bool eof_ = false;
  int inFlight_ = -1;
  std::set<int> cancelled_;

  // forwardOutputFrom (ForwardedOutput.cpp)
  void drainForwarded();
  int forwardFd_ = -1;
  std::thread forwarder_;
  std::mutex forwardMu_;
  std::atomic<bool> forwardStop_{false};
  std::string forwardPartial_;  ///< an incomplete UTF-8 sequence held for the next read
};

// One registration function per handler file.
void registerLifecycleHandlers(DapSession& s, proto::Dispatcher& d);
void registerBreakpointHandlers(DapSession& s, proto::Dispatcher& d);
void registerInspectHandlers(DapSession& s, proto::Dispatcher& d);
void registerExecutionHandlers(DapSession& s, proto::Dispatcher& d);
void registerEvaluateHandlers(DapSession& s, proto::Dispatcher& d);
void registerGraphHandlers(DapSession& s, proto::Dispatcher& d);

/// The backend's launch configuration from launch (or restart) arguments.
LaunchConfig launchConfigFrom(const proto::LaunchArguments& a);

}  // namespace tlens::dap
