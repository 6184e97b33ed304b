// initialize, launch, attach, configurationDone, restart, disconnect, terminate.
#include "dap/session/DapSession.h"
#include "engine/runtime/Devices.h"

namespace tlens::dap {

using namespace proto;

LaunchConfig launchConfigFrom(const LaunchArguments& a) {
  LaunchConfig c;
  c.program = a.program;
  c.args = a.args;
  c.cwd = a.cwd.value_or("");
  c.env = a.env;
  c.stopOnEntry = a.stopOnEntry;
  c.mode = a.mode;
  c.python = a.python;
  c.checkNumerics = a.checkNumerics.value_or(true);
  c.devices.hideGpus = a.device && *a.device == "cpu";
  if (a.virtualGpus) c.devices.virtualGpus = static_cast<int>(*a.virtualGpus);
  if (a.runRecordMB) c.runRecordBytes = static_cast<size_t>(*a.runRecordMB) << 20;
  return c;
}

void registerLifecycleHandlers(DapSession& s, Dispatcher& d) {
  d.bind<InitializeArguments, Capabilities>("initialize", [&s](const InitializeArguments&, RequestContext& ctx) {
    Capabilities c;
    c.exceptionBreakpointFilters = DapSession::exceptionFilters();
    // The client sends its breakpoints after `initialized`, which follows this response.
    ctx.afterResponse.push_back([&s] { s.transport().event("initialized", nullptr); });
    return c;
  });

  d.bind<LaunchArguments, NoBody>("launch", [&s](const LaunchArguments& a, RequestContext&) {
    LaunchConfig c = launchConfigFrom(a);
    if (a.device && *a.device == "gpu" && !a.virtualGpus && machineDevices().gpuCount() == 0)
      s.output("console", "tlens: no GPU (" + gpuUnavailableReason() +
                              "); ops run on /cpu:0. \"virtualGpus\": N simulates N GPUs.\n");
    s.debugger().launch(std::move(c));
    return NoBody{};
  });

  // The program was started by `tlens run --listen PORT prog.py`, which waits for this request;
  // like launch, it runs once configurationDone arrives, so breakpoints set before it hold.
  d.bind<NoArguments, NoBody>("attach", [&s](const NoArguments&, RequestContext&) {
    if (!s.attachTarget())
      throw std::runtime_error(
          "nothing to attach to: start the program with `tlens run --listen PORT prog.py` and attach to "
          "that port (this adapter was started by `tlens dap`, which only launches)");
    s.debugger().launch(*s.attachTarget());
    return NoBody{};
  });

  d.bind<NoArguments, NoBody>("configurationDone", [&s](const NoArguments&, RequestContext& ctx) {
    ctx.afterResponse.push_back([&s] {
      try {
        s.debugger().start();
      } catch (const std::exception& e) {
        // No program to run (its launch failed, or none was sent): the session ends as a run
        // would, with `terminated`, and an adapter serving TCP stays up for the next session.
        s.output("console", std::string("tlens: ") + e.what() + "\n");
        s.transport().event("terminated", nullptr);
      }
    });
    return NoBody{};
  });

  // Stops the program, frees it and starts it again (with the new launch arguments when the
  // client sends them); breakpoints and exception filters stay. The old run sends no
  // exited/terminated events: the session goes on.
  d.bind<RestartArguments, NoBody>("restart", [&s](const RestartArguments& a, RequestContext&) {
    if (!s.debugger().started()) throw std::runtime_error("restart: no program was launched");
    std::optional<LaunchConfig> c;
    if (a.arguments) c = launchConfigFrom(*a.arguments);
    else if (s.attachTarget()) c = *s.attachTarget();
    s.debugger().relaunch(std::move(c));
    return NoBody{};
  });

  d.bind<DisconnectArguments, NoBody>("disconnect", [&s](const DisconnectArguments&, RequestContext&) {
    s.debugger().terminate();
    s.finish();
    return NoBody{};
  });

  d.bind<NoArguments, NoBody>("terminate", [&s](const NoArguments&, RequestContext&) {
    s.debugger().terminate();
    return NoBody{};
  });
}

}  // namespace tlens::dap
