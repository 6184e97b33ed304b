// continue, next, stepIn, stepOut, pause, stepBack, reverseContinue. A move inside the run
// record (stepping back, or forward again through it) ends at once: its stopped event follows
// the response.
#include "dap/session/DapSession.h"

namespace tlens::dap {

using namespace proto;

namespace {

void announce(DapSession& s, RequestContext& ctx, std::optional<StopInfo> stop) {
  if (stop) ctx.afterResponse.push_back([&s, info = *stop] { s.stopped(info); });
}

}  // namespace

void registerExecutionHandlers(DapSession& s, Dispatcher& d) {
  d.bind<ThreadArguments, ContinueBody>("continue", [&s](const ThreadArguments&, RequestContext& ctx) {
    announce(s, ctx, s.debugger().resume(Step::Continue));
    return ContinueBody{};
  });
  d.bind<ThreadArguments, NoBody>("next", [&s](const ThreadArguments&, RequestContext& ctx) {
    announce(s, ctx, s.debugger().resume(Step::Next));
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("stepIn", [&s](const ThreadArguments&, RequestContext& ctx) {
    announce(s, ctx, s.debugger().resume(Step::In));
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("stepOut", [&s](const ThreadArguments&, RequestContext& ctx) {
    announce(s, ctx, s.debugger().resume(Step::Out));
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("pause", [&s](const ThreadArguments&, RequestContext&) {
    s.debugger().pause();
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("stepBack", [&s](const ThreadArguments&, RequestContext& ctx) {
    announce(s, ctx, s.debugger().stepBack());
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("reverseContinue", [&s](const ThreadArguments&, RequestContext& ctx) {
    announce(s, ctx, s.debugger().reverseContinue());
    return NoBody{};
  });
}

}  // namespace tlens::dap
