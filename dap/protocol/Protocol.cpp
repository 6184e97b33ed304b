#include "dap/protocol/Protocol.h"

#include <limits>
#include <stdexcept>

namespace tlens::dap::proto {

namespace {

template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

template <class T>
void get(const json& j, const char* key, std::optional<T>& v) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) v = it->get<T>();
}

template <class T>
void get(const json& j, const char* key, T& v) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) v = it->get<T>();
}

/// A line number: an integer in 0..INT_MAX (0: clients with linesStartAt1 false). get<int>() would wrap 2^40 to 0 silently
/// (a breakpoint on line 2^40 became line 1), so anything else is refused.
int lineNumber(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > std::numeric_limits<int>::max())
    throw std::out_of_range(std::string("'") + key + "' must be a line number in 0.." +
                            std::to_string(std::numeric_limits<int>::max()) + ", not " + v.dump());
  return static_cast<int>(v.get<int64_t>());
}

}  // namespace

void to_json(json& j, const Source& s) {
  j = json::object();
  put(j, "name", s.name);
  put(j, "path", s.path);
}
void from_json(const json& j, Source& s) {
  get(j, "name", s.name);
  get(j, "path", s.path);
}

void to_json(json& j, const Breakpoint& b) {
  j = json{{"verified", b.verified}};
  put(j, "id", b.id);
  put(j, "message", b.message);
  put(j, "source", b.source);
  put(j, "line", b.line);
}

void to_json(json& j, const ExceptionBreakpointsFilter& f) {
  j = json{{"filter", f.filter}, {"label", f.label}, {"default", f.defaultValue}};
  put(j, "description", f.description);
}

void to_json(json& j, const Capabilities& c) {
  j = json{{"supportsConfigurationDoneRequest", c.supportsConfigurationDoneRequest},
           {"supportsFunctionBreakpoints", c.supportsFunctionBreakpoints},
           {"supportsConditionalBreakpoints", c.supportsConditionalBreakpoints},
           {"supportsHitConditionalBreakpoints", c.supportsHitConditionalBreakpoints},
           {"supportsEvaluateForHovers", c.supportsEvaluateForHovers},
           {"supportsLogPoints", c.supportsLogPoints},
           {"supportsExceptionInfoRequest", c.supportsExceptionInfoRequest},
           {"supportsTerminateRequest", c.supportsTerminateRequest},
           {"supportsBreakpointLocationsRequest", c.supportsBreakpointLocationsRequest},
           {"supportsDelayedStackTraceLoading", c.supportsDelayedStackTraceLoading},
           {"supportsSetVariable", c.supportsSetVariable},
           {"supportsCompletionsRequest", c.supportsCompletionsRequest},
           {"supportsStepBack", c.supportsStepBack},
           {"supportsDataBreakpoints", c.supportsDataBreakpoints},
           {"supportsRestartRequest", c.supportsRestartRequest},
           {"supportsCancelRequest", c.supportsCancelRequest},
           {"supportsValueFormattingOptions", c.supportsValueFormattingOptions},
           {"exceptionBreakpointFilters", c.exceptionBreakpointFilters}};
}

void to_json(json& j, const StackFrame& f) {
  j = json{{"id", f.id}, {"name", f.name}, {"line", f.line}, {"column", f.column}};
  put(j, "source", f.source);
  put(j, "endLine", f.endLine);
  put(j, "endColumn", f.endColumn);
  put(j, "presentationHint", f.presentationHint);
}

void to_json(json& j, const Scope& s) {
  j = json{{"name", s.name}, {"variablesReference", s.variablesReference}, {"expensive", s.expensive}};
  put(j, "presentationHint", s.presentationHint);
  put(j, "namedVariables", s.namedVariables);
}

void to_json(json& j, const Variable& v) {
  j = json{{"name", v.name}, {"value", v.value}, {"variablesReference", v.variablesReference}};
  put(j, "type", v.type);
  put(j, "evaluateName", v.evaluateName);
  put(j, "namedVariables", v.namedVariables);
  put(j, "indexedVariables", v.indexedVariables);
}

void to_json(json& j, const Thread& t) { j = json{{"id", t.id}, {"name", t.name}}; }

void from_json(const json& j, InitializeArguments& a) {
  get(j, "clientID", a.clientID);
  a.adapterID = j.at("adapterID").get<std::string>();
  get(j, "linesStartAt1", a.linesStartAt1);
  get(j, "columnsStartAt1", a.columnsStartAt1);
}

void from_json(const json& j, LaunchArguments& a) {
  get(j, "runRecordMB", a.runRecordMB);
  if (a.runRecordMB && (*a.runRecordMB < 1 || *a.runRecordMB > (int64_t{1} << 20)))
    throw std::invalid_argument("runRecordMB must be between 1 and 1048576");
  a.program = j.at("program").get<std::string>();
  get(j, "args", a.args);
  get(j, "cwd", a.cwd);
  if (auto e = j.find("env"); e != j.end() && !e->is_null()) {
    if (!e->is_object()) throw std::invalid_argument("env must be an object of variable names to strings (or null)");
    for (const auto& [name, value] : e->items()) {
      if (name.empty() || name.find('=') != std::string::npos)
        throw std::invalid_argument("env: '" + name + "' is not a valid variable name");
      if (value.is_null()) a.env[name] = std::nullopt;  // removes the variable
      else if (value.is_string()) a.env[name] = value.get<std::string>();
      else
        throw std::invalid_argument("env: the value of '" + name + "' must be a string, or null to remove it, not " +
                                    std::string(value.type_name()));
    }
  }
  get(j, "stopOnEntry", a.stopOnEntry);
  get(j, "mode", a.mode);
  if (a.mode != "auto" && a.mode != "eager" && a.mode != "graph")
    throw std::invalid_argument("mode must be 'auto', 'eager' or 'graph', not '" + a.mode + "'");
  get(j, "python", a.python);
  if (a.python.empty()) throw std::invalid_argument("python must name a Python interpreter");
  get(j, "device", a.device);
  if (a.device && *a.device != "cpu" && *a.device != "gpu")
    throw std::invalid_argument("device must be 'cpu' or 'gpu', not '" + *a.device + "'");
  get(j, "virtualGpus", a.virtualGpus);
  if (a.virtualGpus && (*a.virtualGpus < 0 || *a.virtualGpus > 64))
    throw std::invalid_argument("virtualGpus must be from 0 to 64");
  get(j, "checkNumerics", a.checkNumerics);
  get(j, "noDebug", a.noDebug);
}

void from_json(const json& j, SourceBreakpoint& b) {
  b.line = lineNumber(j, "line");
  get(j, "column", b.column);
  get(j, "condition", b.condition);
  get(j, "hitCondition", b.hitCondition);
  get(j, "logMessage", b.logMessage);
}

void from_json(const json& j, SetBreakpointsArguments& a) {
  a.source = j.at("source").get<Source>();
  get(j, "breakpoints", a.breakpoints);
}

void from_json(const json& j, FunctionBreakpoint& b) {
  b.name = j.at("name").get<std::string>();
  get(j, "condition", b.condition);
  get(j, "hitCondition", b.hitCondition);
}

void from_json(const json& j, SetFunctionBreakpointsArguments& a) {
  a.breakpoints = j.at("breakpoints").get<std::vector<FunctionBreakpoint>>();
}

void from_json(const json& j, SetExceptionBreakpointsArguments& a) {
  a.filters = j.at("filters").get<std::vector<std::string>>();
}

void from_json(const json& j, BreakpointLocationsArguments& a) {
  a.source = j.at("source").get<Source>();
  a.line = lineNumber(j, "line");
  if (j.contains("endLine") && !j["endLine"].is_null()) a.endLine = lineNumber(j, "endLine");
}

void from_json(const json& j, ValueFormat& f) { get(j, "hex", f.hex); }

void from_json(const json& j, DataBreakpointInfoArguments& a) {
  get(j, "variablesReference", a.variablesReference);
  a.name = j.at("name").get<std::string>();
  get(j, "frameId", a.frameId);
}

void from_json(const json& j, DataBreakpoint& b) {
  b.dataId = j.at("dataId").get<std::string>();
  get(j, "accessType", b.accessType);
  get(j, "condition", b.condition);
  get(j, "hitCondition", b.hitCondition);
}

void from_json(const json& j, SetDataBreakpointsArguments& a) {
  a.breakpoints = j.at("breakpoints").get<std::vector<DataBreakpoint>>();
}

void from_json(const json& j, RestartArguments& a) {
  // A client that restarts a session it attached to sends the attach configuration (no
  // program): that restarts the attach target.
  auto it = j.find("arguments");
  if (it != j.end() && it->is_object() && it->contains("program")) a.arguments = it->get<LaunchArguments>();
}

void from_json(const json& j, CancelArguments& a) {
  get(j, "requestId", a.requestId);
  get(j, "progressId", a.progressId);
}

void to_json(json& j, const DataBreakpointInfoBody& b) {
  j = json{{"description", b.description}, {"accessTypes", b.accessTypes}};
  j["dataId"] = b.dataId ? json(*b.dataId) : json(nullptr);
  if (b.canPersist) j["canPersist"] = true;
}

void from_json(const json& j, ThreadArguments& a) { a.threadId = j.at("threadId").get<int>(); }

void from_json(const json& j, StackTraceArguments& a) {
  a.threadId = j.at("threadId").get<int>();
  get(j, "startFrame", a.startFrame);
  get(j, "levels", a.levels);
}

void from_json(const json& j, ScopesArguments& a) { a.frameId = j.at("frameId").get<int>(); }

void from_json(const json& j, VariablesArguments& a) {
  a.variablesReference = j.at("variablesReference").get<int>();
  get(j, "filter", a.filter);
  get(j, "start", a.start);
  get(j, "count", a.count);
  get(j, "format", a.format);
}

void from_json(const json& j, EvaluateArguments& a) {
  a.expression = j.at("expression").get<std::string>();
  get(j, "frameId", a.frameId);
  get(j, "context", a.context);
  get(j, "format", a.format);
}

void from_json(const json& j, SetVariableArguments& a) {
  a.variablesReference = j.at("variablesReference").get<int>();
  a.name = j.at("name").get<std::string>();
  a.value = j.at("value").get<std::string>();
}

void to_json(json& j, const SetVariableBody& b) {
  j = json{{"value", b.value}, {"variablesReference", b.variablesReference}};
  put(j, "type", b.type);
  put(j, "namedVariables", b.namedVariables);
  put(j, "indexedVariables", b.indexedVariables);
}

void from_json(const json& j, CompletionsArguments& a) {
  get(j, "frameId", a.frameId);
  a.text = j.at("text").get<std::string>();
  a.column = j.at("column").get<int>();
}

void to_json(json& j, const CompletionsBody& b) {
  j = json{{"targets", json::array()}};
  for (const std::string& l : b.labels) j["targets"].push_back(json{{"label", l}});
}

void from_json(const json& j, ExceptionInfoArguments& a) { a.threadId = j.at("threadId").get<int>(); }

void from_json(const json& j, DisconnectArguments& a) {
  get(j, "restart", a.restart);
  get(j, "terminateDebuggee", a.terminateDebuggee);
}

void to_json(json& j, const BreakpointsBody& b) { j = json{{"breakpoints", b.breakpoints}}; }

void to_json(json& j, const BreakpointLocationsBody& b) {
  j = json{{"breakpoints", json::array()}};
  for (int l : b.lines) j["breakpoints"].push_back(json{{"line", l}});
}

void to_json(json& j, const ThreadsBody& b) { j = json{{"threads", b.threads}}; }

void to_json(json& j, const StackTraceBody& b) {
  j = json{{"stackFrames", b.stackFrames}};
  put(j, "totalFrames", b.totalFrames);
}

void to_json(json& j, const ScopesBody& b) { j = json{{"scopes", b.scopes}}; }

void to_json(json& j, const VariablesBody& b) { j = json{{"variables", b.variables}}; }

void to_json(json& j, const ContinueBody& b) { j = json{{"allThreadsContinued", b.allThreadsContinued}}; }

void to_json(json& j, const EvaluateBody& b) {
  j = json{{"result", b.result}, {"variablesReference", b.variablesReference}};
  put(j, "type", b.type);
  put(j, "namedVariables", b.namedVariables);
  put(j, "indexedVariables", b.indexedVariables);
}

void to_json(json& j, const ExceptionInfoBody& b) {
  j = json{{"exceptionId", b.exceptionId}, {"breakMode", b.breakMode}};
  put(j, "description", b.description);
  if (b.details) {
    json d = json::object();
    put(d, "message", b.details->message);
    put(d, "typeName", b.details->typeName);
    put(d, "stackTrace", b.details->stackTrace);
    j["details"] = d;
  }
}

void to_json(json& j, const StoppedEvent& e) {
  j = json{{"reason", e.reason}, {"threadId", e.threadId}, {"allThreadsStopped", e.allThreadsStopped}};
  put(j, "description", e.description);
  put(j, "text", e.text);
  if (!e.hitBreakpointIds.empty()) j["hitBreakpointIds"] = e.hitBreakpointIds;
}

void to_json(json& j, const OutputEvent& e) { j = json{{"category", e.category}, {"output", e.output}}; }

void to_json(json& j, const ExitedEvent& e) { j = json{{"exitCode", e.exitCode}}; }

}  // namespace tlens::dap::proto
