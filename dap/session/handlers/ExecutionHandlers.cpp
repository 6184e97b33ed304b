// continue, next, stepIn, stepOut, pause.
#include "dap/session/DapSession.h"

namespace tlens::dap {

using namespace proto;

void registerExecutionHandlers(DapSession& s, Dispatcher& d) {
  d.bind<ThreadArguments, ContinueBody>("continue", [&s](const ThreadArguments&, RequestContext&) {
    s.debugger().resume(Step::Continue);
    return ContinueBody{};
  });
  d.bind<ThreadArguments, NoBody>("next", [&s](const ThreadArguments&, RequestContext&) {
    s.debugger().resume(Step::Next);
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("stepIn", [&s](const ThreadArguments&, RequestContext&) {
    s.debugger().resume(Step::In);
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("stepOut", [&s](const ThreadArguments&, RequestContext&) {
    s.debugger().resume(Step::Out);
    return NoBody{};
  });
  d.bind<ThreadArguments, NoBody>("pause", [&s](const ThreadArguments&, RequestContext&) {
    s.debugger().pause();
    return NoBody{};
  });
}

}  // namespace tlens::dap
