// DapSession: one debugging session over one Channel. The DAP thread (run()) reads requests and
// answers them through the Dispatcher; the handlers (dap/session/handlers/, one file per group of
// requests) translate between protocol types and the Debugger's typed API. Events raised on the
// program thread (stopped, output, exited) are written from there: Channel::write is thread-safe.
#pragma once

#include <atomic>
#include <memory>
#include <optional>

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

  // DebuggerEvents (program thread)
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
};

// One registration function per handler file.
void registerLifecycleHandlers(DapSession& s, proto::Dispatcher& d);
void registerBreakpointHandlers(DapSession& s, proto::Dispatcher& d);
void registerInspectHandlers(DapSession& s, proto::Dispatcher& d);
void registerExecutionHandlers(DapSession& s, proto::Dispatcher& d);
void registerEvaluateHandlers(DapSession& s, proto::Dispatcher& d);

}  // namespace tlens::dap
