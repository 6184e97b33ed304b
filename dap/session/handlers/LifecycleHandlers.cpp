// initialize, launch, attach, configurationDone, disconnect, terminate.
#include "dap/session/DapSession.h"

namespace tlens::dap {

using namespace proto;

void registerLifecycleHandlers(DapSession& s, Dispatcher& d) {
  d.bind<InitializeArguments, Capabilities>("initialize", [&s](const InitializeArguments&, RequestContext& ctx) {
    Capabilities c;
    c.exceptionBreakpointFilters = DapSession::exceptionFilters();
    // The client sends its breakpoints after `initialized`, which follows this response.
    ctx.afterResponse.push_back([&s] { s.transport().event("initialized", nullptr); });
    return c;
  });

  d.bind<LaunchArguments, NoBody>("launch", [&s](const LaunchArguments& a, RequestContext&) {
    LaunchConfig c;
    c.program = a.program;
    c.args = a.args;
    c.cwd = a.cwd.value_or("");
    c.env = a.env;
    c.stopOnEntry = a.stopOnEntry;
    c.mode = a.mode;
    c.checkNumerics = a.checkNumerics.value_or(true);
    if (a.device && *a.device == "gpu")
      s.output("console", "tlens: no CUDA backend in this build; running on /cpu:0\n");
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
    ctx.afterResponse.push_back([&s] { s.debugger().start(); });
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
