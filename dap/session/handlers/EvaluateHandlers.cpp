// evaluate, completions, exceptionInfo.
#include "dap/session/DapSession.h"

namespace tlens::dap {

using namespace proto;

void registerEvaluateHandlers(DapSession& s, Dispatcher& d) {
  d.bind<EvaluateArguments, EvaluateBody>("evaluate", [&s](const EvaluateArguments& a, RequestContext&) {
    EvaluateBody b;
    if (a.context.value_or("repl") == "repl") {
      if (std::optional<std::string> text = s.debugger().consoleCommand(a.expression)) {
        b.result = *text;
        return b;
      }
    }
    EvalResult r = s.debugger().evaluate(a.expression, a.frameId.value_or(-1), a.format && a.format->hex.value_or(false));
    b.result = r.value;
    if (!r.type.empty()) b.type = r.type;
    b.variablesReference = r.ref;
    if (r.named) b.namedVariables = r.named;
    if (r.indexed) b.indexedVariables = r.indexed;
    return b;
  });

  d.bind<CompletionsArguments, CompletionsBody>("completions", [&s](const CompletionsArguments& a, RequestContext&) {
    return CompletionsBody{s.debugger().completions(a.text, a.column, a.frameId.value_or(-1))};
  });

  d.bind<ExceptionInfoArguments, ExceptionInfoBody>("exceptionInfo", [&s](const ExceptionInfoArguments&, RequestContext&) {
    std::optional<dap::ExceptionDetails> e = s.debugger().exceptionInfo();
    if (!e) throw std::runtime_error("not stopped at an exception");
    ExceptionInfoBody b;
    b.exceptionId = e->id;
    b.description = e->description;
    b.breakMode = e->id == "nan_inf" ? "always" : "unhandled";
    b.details = proto::ExceptionDetails{e->description, e->typeName, std::nullopt};
    return b;
  });
}

}  // namespace tlens::dap
