// threads, stackTrace, scopes, variables, setVariable.
#include <filesystem>

#include "dap/session/DapSession.h"

namespace tlens::dap {

using namespace proto;

namespace {

proto::Variable toProto(const VarInfo& v) {
  proto::Variable out;
  out.name = v.name;
  out.value = v.value;
  if (!v.type.empty()) out.type = v.type;
  if (!v.evaluateName.empty()) out.evaluateName = v.evaluateName;
  out.variablesReference = v.ref;
  if (v.named) out.namedVariables = v.named;
  if (v.indexed) out.indexedVariables = v.indexed;
  return out;
}

}  // namespace

void registerInspectHandlers(DapSession& s, Dispatcher& d) {
  d.bind<NoArguments, ThreadsBody>("threads", [](const NoArguments&, RequestContext&) {
    return ThreadsBody{{Thread{1, "main"}}};
  });

  d.bind<StackTraceArguments, StackTraceBody>("stackTrace", [&s](const StackTraceArguments& a, RequestContext&) {
    std::vector<FrameInfo> frames = s.debugger().stackTrace();
    StackTraceBody body;
    body.totalFrames = static_cast<int>(frames.size());
    const size_t start = static_cast<size_t>(std::max(0, a.startFrame.value_or(0)));
    const size_t levels = a.levels && *a.levels > 0 ? static_cast<size_t>(*a.levels) : frames.size();
    for (size_t i = start; i < frames.size() && i - start < levels; ++i) {
      const FrameInfo& f = frames[i];
      proto::StackFrame sf;
      sf.id = f.id;
      sf.name = f.name;
      if (!f.path.empty()) sf.source = Source{std::filesystem::path(f.path).filename().string(), f.path};
      sf.line = f.line;
      sf.column = f.column;
      if (f.endLine > 0) sf.endLine = f.endLine;
      if (f.endColumn > 0) sf.endColumn = f.endColumn;
      if (f.kind == FrameInfo::Kind::Creation) sf.presentationHint = "subtle";
      body.stackFrames.push_back(std::move(sf));
    }
    return body;
  });

  d.bind<ScopesArguments, ScopesBody>("scopes", [&s](const ScopesArguments& a, RequestContext&) {
    ScopesBody body;
    for (const ScopeInfo& sc : s.debugger().scopes(a.frameId)) {
      proto::Scope p;
      p.name = sc.name;
      p.variablesReference = sc.ref;
      p.namedVariables = sc.named;
      p.expensive = sc.expensive;
      if (sc.name == "Locals") p.presentationHint = "locals";
      body.scopes.push_back(std::move(p));
    }
    return body;
  });

  d.bind<VariablesArguments, VariablesBody>("variables", [&s](const VariablesArguments& a, RequestContext&) {
    VariablesBody body;
    for (const VarInfo& v :
         s.debugger().variables(a.variablesReference, a.start.value_or(0), a.count.value_or(0), a.filter.value_or(""),
                                a.format && a.format->hex.value_or(false)))
      body.variables.push_back(toProto(v));
    return body;
  });

  d.bind<SetVariableArguments, SetVariableBody>("setVariable", [&s](const SetVariableArguments& a, RequestContext&) {
    VarInfo v = s.debugger().setVariable(a.variablesReference, a.name, a.value);
    SetVariableBody b;
    b.value = v.value;
    if (!v.type.empty()) b.type = v.type;
    b.variablesReference = v.ref;
    if (v.named) b.namedVariables = v.named;
    if (v.indexed) b.indexedVariables = v.indexed;
    return b;
  });
}

}  // namespace tlens::dap
