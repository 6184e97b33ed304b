// setBreakpoints, setFunctionBreakpoints, setExceptionBreakpoints, breakpointLocations,
// dataBreakpointInfo, setDataBreakpoints.
#include <set>

#include "dap/session/DapSession.h"

namespace tlens::dap {

using namespace proto;

namespace {

proto::Breakpoint toProto(const BreakpointResult& r, const std::optional<Source>& src) {
  proto::Breakpoint b;
  b.id = r.id;
  b.verified = r.verified;
  if (!r.message.empty()) b.message = r.message;
  if (r.line > 0) b.line = r.line;
  b.source = src;
  return b;
}

}  // namespace

void registerBreakpointHandlers(DapSession& s, Dispatcher& d) {
  d.bind<SetBreakpointsArguments, BreakpointsBody>("setBreakpoints", [&s](const SetBreakpointsArguments& a, RequestContext&) {
    if (!a.source.path) throw std::invalid_argument("setBreakpoints: source.path is required");
    std::vector<LineBreakpointSpec> specs;
    for (const SourceBreakpoint& b : a.breakpoints)
      specs.push_back({b.line, b.condition.value_or(""), b.hitCondition.value_or(""), b.logMessage.value_or("")});
    BreakpointsBody body;
    for (const BreakpointResult& r : s.debugger().setLineBreakpoints(*a.source.path, specs))
      body.breakpoints.push_back(toProto(r, a.source));
    return body;
  });

  d.bind<SetFunctionBreakpointsArguments, BreakpointsBody>(
      "setFunctionBreakpoints", [&s](const SetFunctionBreakpointsArguments& a, RequestContext&) {
        std::vector<FunctionBreakpointSpec> specs;
        for (const proto::FunctionBreakpoint& b : a.breakpoints)
          specs.push_back({b.name, b.condition.value_or(""), b.hitCondition.value_or("")});
        BreakpointsBody body;
        for (const BreakpointResult& r : s.debugger().setFunctionBreakpoints(specs))
          body.breakpoints.push_back(toProto(r, std::nullopt));
        return body;
      });

  d.bind<SetExceptionBreakpointsArguments, NoBody>(
      "setExceptionBreakpoints", [&s](const SetExceptionBreakpointsArguments& a, RequestContext&) {
        std::set<std::string> known;
        for (const auto& f : DapSession::exceptionFilters()) known.insert(f.filter);
        for (const std::string& f : a.filters)
          if (!known.count(f)) throw std::invalid_argument("unknown exception filter '" + f + "'");
        s.debugger().setExceptionFilters(std::set<std::string>(a.filters.begin(), a.filters.end()));
        return NoBody{};
      });

  d.bind<DataBreakpointInfoArguments, DataBreakpointInfoBody>(
      "dataBreakpointInfo", [&s](const DataBreakpointInfoArguments& a, RequestContext&) {
        DataBreakpointTarget t = s.debugger().dataBreakpointInfo(a.variablesReference.value_or(0), a.name, a.frameId.value_or(-1));
        DataBreakpointInfoBody b;
        b.description = t.description;
        if (!t.dataId.empty()) {
          b.dataId = t.dataId;
          b.accessTypes = {"write"};
          b.canPersist = true;  // "var:NAME" means the same variable in the next session
        }
        return b;
      });

  d.bind<SetDataBreakpointsArguments, BreakpointsBody>(
      "setDataBreakpoints", [&s](const SetDataBreakpointsArguments& a, RequestContext&) {
        std::vector<DataBreakpointSpec> specs;
        for (const proto::DataBreakpoint& b : a.breakpoints)
          specs.push_back({b.dataId, b.accessType.value_or(""), b.condition.value_or(""), b.hitCondition.value_or("")});
        BreakpointsBody body;
        for (const BreakpointResult& r : s.debugger().setDataBreakpoints(specs)) body.breakpoints.push_back(toProto(r, std::nullopt));
        return body;
      });

  d.bind<BreakpointLocationsArguments, BreakpointLocationsBody>(
      "breakpointLocations", [&s](const BreakpointLocationsArguments& a, RequestContext&) {
        if (!a.source.path) throw std::invalid_argument("breakpointLocations: source.path is required");
        return BreakpointLocationsBody{s.debugger().breakpointLocations(*a.source.path, a.line, a.endLine.value_or(a.line))};
      });
}

}  // namespace tlens::dap
