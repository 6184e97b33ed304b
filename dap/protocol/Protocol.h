// Protocol: the Debug Adapter Protocol's types that tlens uses, spelled as on the wire. Argument
// structs are only parsed (from_json: required fields with at(), so a missing one is an error
// response), bodies are only serialised (to_json: empty optionals are omitted). Comments quote
// the specification. Only dap/protocol and the handlers know JSON.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tlens::dap::proto {

using json = nlohmann::json;

// --- common types -------------------------------------------------------------------------------

struct Source {
  /// The short name of the source.
  std::optional<std::string> name;
  /// The path of the source to be shown in the UI.
  std::optional<std::string> path;
};
void to_json(json& j, const Source& s);
void from_json(const json& j, Source& s);

struct Breakpoint {
  std::optional<int> id;
  /// If true, the breakpoint could be set (but not necessarily at the desired location).
  bool verified = false;
  /// A message about the state of the breakpoint.
  std::optional<std::string> message;
  std::optional<Source> source;
  /// The start line of the actual range covered by the breakpoint.
  std::optional<int> line;
};
void to_json(json& j, const Breakpoint& b);

struct ExceptionBreakpointsFilter {
  std::string filter;
  std::string label;
  std::optional<std::string> description;
  bool defaultValue = false;  ///< wire name: "default"
};
void to_json(json& j, const ExceptionBreakpointsFilter& f);

struct Capabilities {
  bool supportsConfigurationDoneRequest = true;
  bool supportsFunctionBreakpoints = true;
  bool supportsConditionalBreakpoints = true;
  bool supportsHitConditionalBreakpoints = true;
  bool supportsEvaluateForHovers = true;
  bool supportsLogPoints = true;
  bool supportsExceptionInfoRequest = true;
  bool supportsTerminateRequest = true;
  bool supportsBreakpointLocationsRequest = true;
  bool supportsDelayedStackTraceLoading = true;
  bool supportsSetVariable = true;
  bool supportsCompletionsRequest = true;
  bool supportsStepBack = true;
  bool supportsDataBreakpoints = true;
  bool supportsRestartRequest = true;
  bool supportsCancelRequest = true;
  bool supportsValueFormattingOptions = true;
  std::vector<ExceptionBreakpointsFilter> exceptionBreakpointFilters;
};
void to_json(json& j, const Capabilities& c);

struct StackFrame {
  /// An identifier for the stack frame, unique across all threads.
  int id = 0;
  std::string name;
  std::optional<Source> source;
  int line = 0;
  int column = 0;
  std::optional<int> endLine;
  std::optional<int> endColumn;
  /// 'normal' | 'label' | 'subtle'
  std::optional<std::string> presentationHint;
};
void to_json(json& j, const StackFrame& f);

struct Scope {
  std::string name;
  /// 'arguments' | 'locals' | 'registers'
  std::optional<std::string> presentationHint;
  int variablesReference = 0;
  std::optional<int64_t> namedVariables;
  bool expensive = false;
};
void to_json(json& j, const Scope& s);

struct Variable {
  std::string name;
  std::string value;
  std::optional<std::string> type;
  std::optional<std::string> evaluateName;
  /// If > 0, its children can be retrieved by passing it to the variables request.
  int variablesReference = 0;
  std::optional<int64_t> namedVariables;
  std::optional<int64_t> indexedVariables;
};
void to_json(json& j, const Variable& v);

struct Thread {
  int id = 1;
  std::string name;
};
void to_json(json& j, const Thread& t);

// --- request arguments ----------------------------------------------------------------------

struct InitializeArguments {
  std::optional<std::string> clientID;
  std::string adapterID;
  bool linesStartAt1 = true;
  bool columnsStartAt1 = true;
};
void from_json(const json& j, InitializeArguments& a);

struct LaunchArguments {
  std::string program;
  std::vector<std::string> args;
  std::optional<std::string> cwd;
  /// Variables to set; a null value (nullopt) removes the variable (launch.json semantics).
  std::map<std::string, std::optional<std::string>> env;
  bool stopOnEntry = false;
  /// tlens: 'auto' | 'eager' | 'graph'.
  std::string mode = "auto";
  /// tlens: the Python whose modules the program may import when tensorlens does not model them.
  std::string python = "python3";
  /// tlens: 'cpu' hides the machine's GPUs; 'gpu' (the default) uses them.
  std::optional<std::string> device;
  /// tlens: N virtual GPUs (host memory) instead of the machine's, as `tlens run --virtual-gpus N`.
  std::optional<int64_t> virtualGpus;
  std::optional<bool> checkNumerics;
  bool noDebug = false;
  /// tlens: MiB of node outputs the run record keeps (Run scope, stepping back); default 512.
  std::optional<int64_t> runRecordMB;
};
void from_json(const json& j, LaunchArguments& a);

struct SourceBreakpoint {
  int line = 0;
  std::optional<int> column;
  std::optional<std::string> condition;
  std::optional<std::string> hitCondition;
  std::optional<std::string> logMessage;
};
void from_json(const json& j, SourceBreakpoint& b);

struct SetBreakpointsArguments {
  Source source;
  std::vector<SourceBreakpoint> breakpoints;
};
void from_json(const json& j, SetBreakpointsArguments& a);

struct FunctionBreakpoint {
  std::string name;
  std::optional<std::string> condition;
  std::optional<std::string> hitCondition;
};
void from_json(const json& j, FunctionBreakpoint& b);

struct SetFunctionBreakpointsArguments {
  std::vector<FunctionBreakpoint> breakpoints;
};
void from_json(const json& j, SetFunctionBreakpointsArguments& a);

struct SetExceptionBreakpointsArguments {
  std::vector<std::string> filters;
};
void from_json(const json& j, SetExceptionBreakpointsArguments& a);

struct BreakpointLocationsArguments {
  Source source;
  int line = 0;
  std::optional<int> endLine;
};
void from_json(const json& j, BreakpointLocationsArguments& a);

/// Provides formatting information for a value.
struct ValueFormat {
  /// Display the value in hex.
  std::optional<bool> hex;
};
void from_json(const json& j, ValueFormat& f);

struct ThreadArguments {  ///< continue, next, stepIn, stepOut, pause, stepBack, reverseContinue
  int threadId = 1;
};
void from_json(const json& j, ThreadArguments& a);

struct StackTraceArguments {
  int threadId = 1;
  std::optional<int> startFrame;
  std::optional<int> levels;
};
void from_json(const json& j, StackTraceArguments& a);

struct ScopesArguments {
  int frameId = 0;
};
void from_json(const json& j, ScopesArguments& a);

struct VariablesArguments {
  int variablesReference = 0;
  /// 'indexed' | 'named'
  std::optional<std::string> filter;
  std::optional<int64_t> start;
  std::optional<int64_t> count;
  std::optional<ValueFormat> format;
};
void from_json(const json& j, VariablesArguments& a);

struct EvaluateArguments {
  std::string expression;
  std::optional<int> frameId;
  /// 'watch' | 'repl' | 'hover' | 'clipboard' | ...
  std::optional<std::string> context;
  std::optional<ValueFormat> format;
};
void from_json(const json& j, EvaluateArguments& a);

struct SetVariableArguments {
  /// The reference of the variable container.
  int variablesReference = 0;
  /// The name of the variable in the container.
  std::string name;
  /// The value of the variable (an expression).
  std::string value;
};
void from_json(const json& j, SetVariableArguments& a);

struct CompletionsArguments {
  std::optional<int> frameId;
  /// One or more source lines. Typically this is the text users have typed into the debug
  /// console before they asked for completion.
  std::string text;
  /// The position within `text` for which to determine the completion proposals.
  int column = 1;
};
void from_json(const json& j, CompletionsArguments& a);

struct ExceptionInfoArguments {
  int threadId = 1;
};
void from_json(const json& j, ExceptionInfoArguments& a);

struct DisconnectArguments {
  std::optional<bool> restart;
  std::optional<bool> terminateDebuggee;
};
void from_json(const json& j, DisconnectArguments& a);

struct DataBreakpointInfoArguments {
  /// Reference to the variable container if the data breakpoint is requested for a child of
  /// the container; without it, `name` is an expression.
  std::optional<int> variablesReference;
  std::string name;
  std::optional<int> frameId;
};
void from_json(const json& j, DataBreakpointInfoArguments& a);

struct DataBreakpoint {
  /// An id representing the data. This id is returned from the `dataBreakpointInfo` request.
  std::string dataId;
  /// 'read' | 'write' | 'readWrite'
  std::optional<std::string> accessType;
  std::optional<std::string> condition;
  std::optional<std::string> hitCondition;
};
void from_json(const json& j, DataBreakpoint& b);

struct SetDataBreakpointsArguments {
  std::vector<DataBreakpoint> breakpoints;
};
void from_json(const json& j, SetDataBreakpointsArguments& a);

struct RestartArguments {
  /// The latest version of the `launch` or `attach` configuration.
  std::optional<LaunchArguments> arguments;
};
void from_json(const json& j, RestartArguments& a);

struct CancelArguments {
  std::optional<int> requestId;
  std::optional<std::string> progressId;
};
void from_json(const json& j, CancelArguments& a);

/// Requests without arguments (threads, configurationDone, terminate).
struct NoArguments {};
inline void from_json(const json&, NoArguments&) {}

// --- response bodies ------------------------------------------------------------------------

struct NoBody {};
inline void to_json(json& j, const NoBody&) { j = nullptr; }

struct BreakpointsBody {
  std::vector<Breakpoint> breakpoints;
};
void to_json(json& j, const BreakpointsBody& b);

struct DataBreakpointInfoBody {
  /// An identifier for the data on which a data breakpoint can be registered; null if none.
  std::optional<std::string> dataId;
  std::string description;
  std::vector<std::string> accessTypes;
  /// Whether the breakpoint can persist across sessions (a variable's name does).
  bool canPersist = false;
};
void to_json(json& j, const DataBreakpointInfoBody& b);

struct BreakpointLocationsBody {
  std::vector<int> lines;
};
void to_json(json& j, const BreakpointLocationsBody& b);

struct ThreadsBody {
  std::vector<Thread> threads;
};
void to_json(json& j, const ThreadsBody& b);

struct StackTraceBody {
  std::vector<StackFrame> stackFrames;
  std::optional<int> totalFrames;
};
void to_json(json& j, const StackTraceBody& b);

struct ScopesBody {
  std::vector<Scope> scopes;
};
void to_json(json& j, const ScopesBody& b);

struct VariablesBody {
  std::vector<Variable> variables;
};
void to_json(json& j, const VariablesBody& b);

struct SetVariableBody {
  std::string value;
  std::optional<std::string> type;
  int variablesReference = 0;
  std::optional<int64_t> namedVariables;
  std::optional<int64_t> indexedVariables;
};
void to_json(json& j, const SetVariableBody& b);

struct CompletionsBody {
  std::vector<std::string> labels;  ///< serialised as targets: [{label}]
};
void to_json(json& j, const CompletionsBody& b);

struct ContinueBody {
  bool allThreadsContinued = true;
};
void to_json(json& j, const ContinueBody& b);

struct EvaluateBody {
  std::string result;
  std::optional<std::string> type;
  int variablesReference = 0;
  std::optional<int64_t> namedVariables;
  std::optional<int64_t> indexedVariables;
};
void to_json(json& j, const EvaluateBody& b);

struct ExceptionDetails {
  std::optional<std::string> message;
  std::optional<std::string> typeName;
  std::optional<std::string> stackTrace;
};

struct ExceptionInfoBody {
  std::string exceptionId;
  std::optional<std::string> description;
  /// 'never' | 'always' | 'unhandled' | 'userUnhandled'
  std::string breakMode = "always";
  std::optional<ExceptionDetails> details;
};
void to_json(json& j, const ExceptionInfoBody& b);

// --- events ---------------------------------------------------------------------------------

struct StoppedEvent {
  /// 'step' | 'breakpoint' | 'exception' | 'pause' | 'entry' | 'function breakpoint' | ...
  std::string reason;
  std::optional<std::string> description;
  int threadId = 1;
  std::optional<std::string> text;
  bool allThreadsStopped = true;
  std::vector<int> hitBreakpointIds;
};
void to_json(json& j, const StoppedEvent& e);

struct OutputEvent {
  /// 'console' | 'stdout' | 'stderr' | ...
  std::string category = "console";
  std::string output;
};
void to_json(json& j, const OutputEvent& e);

struct ExitedEvent {
  int exitCode = 0;
};
void to_json(json& j, const ExitedEvent& e);

}  // namespace tlens::dap::proto
