// tensorlens/graph: the graphs the running program has built so far, as `tlens graph --format
// json` prints them (protocol/GraphJson, the one serializer), plus per node `ran` and `numerics`
// and the top-level `stopped` node. Answered while stopped, from the program thread.
#include "dap/session/DapSession.h"
#include "protocol/GraphJson.h"

namespace tlens::dap {

using namespace proto;

void registerGraphHandlers(DapSession& s, Dispatcher& d) {
  d.bind<NoArguments, json>("tensorlens/graph", [&s](const NoArguments&, RequestContext&) {
    json body;
    s.debugger().withGraphs([&](const GraphState& g) {
      protocol::GraphRunState run;
      run.ran.insert(g.ran.begin(), g.ran.end());
      for (const auto& [node, what] : g.numerics) run.numerics.emplace(node, what);
      run.stopped = g.stopped;
      body = protocol::graphsToJson(g.graphs, &run);
    });
    return body;
  });
}

}  // namespace tlens::dap
