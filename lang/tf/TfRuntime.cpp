#include "lang/tf/TfRuntime.h"

#include <regex>

#include <stdexcept>

#include "lang/interp/Diagnostic.h"
#include "lang/interp/SourceNames.h"

namespace tlens::tf {

using namespace interp;

ApiStyle detectApiStyle(std::string_view text) {
  // TF1-only names: using any of them means the program builds graphs and runs sessions.
  static const char* kMarkers[] = {
      "placeholder(",  "Session(",        "InteractiveSession(", "compat.v1",
      "disable_eager_execution", "disable_v2_behavior", "global_variables_initializer",
      "initialize_all_variables", "get_variable(", "variable_scope(", "tf.contrib",
      "input_data.read_data_sets", "tf.train.GradientDescentOptimizer", "tf.train.AdamOptimizer",
      "tf.train.MomentumOptimizer", "tf.train.RMSPropOptimizer", "tf.layers.",
  };
  for (const char* m : kMarkers)
    if (text.find(m) != std::string_view::npos) return ApiStyle::Graph;
  return ApiStyle::Eager;
}

TfRuntime::TfRuntime(Interpreter& in, TfOptions options) : in_(in), options_(std::move(options)) {
  if (options_.style) style_ = *options_.style;
  const ExecutionBackend* backend = options_.execution;
  if (!in.isAbstract() && !backend)
    throw std::invalid_argument("a concrete run needs an execution backend (TfOptions::execution)");
  devices_ = backend ? backend->machineDevices(options_.devices) : requestedDevices(options_.devices);
  if (!in.isAbstract()) exec_ = backend->start(*this);
}

TfRuntime::~TfRuntime() = default;

Execution& TfRuntime::exec() {
  if (!exec_) throw EngineError(ErrorCode::Internal, "abstract mode runs no kernels");
  return *exec_;
}

EagerValue TfRuntime::wrap(Tensor t) {
  if (exec_) return exec_->wrap(std::move(t));
  return EagerValue{std::move(t), ++abstractIds_};
}

Placement TfRuntime::eagerPlacement(const OpDef& op, const std::vector<std::string>& varNames, bool strings) {
  // The common case costs nothing: no GPU and no tf.device scope is always the CPU.
  if (eagerDeviceScopes_.empty() && devices_.gpuCount() == 0) return Placement{};
  // An op that updates a variable runs where the variable lives.
  if (exec_ && !op.refInputs.empty()) {
    size_t r = static_cast<size_t>(op.refInputs[0]);
    if (r < varNames.size() && !varNames[r].empty())
      if (const Tensor* v = exec_->variable(varNames[r]); v && v->valid()) {
        Device d = v->device();
        return placeOp(op, {}, &devices_, &d);
      }
  }
  const std::string* scope = eagerDeviceScope();
  return placeOp(op, scope ? *scope : std::string(), &devices_, nullptr, strings);
}

Graph* TfRuntime::buildingGraph() {
  if (!graphStack_.empty()) return graphStack_.back();
  if (style_ == ApiStyle::Graph) return &defaultGraph();
  return nullptr;
}

Graph& TfRuntime::defaultGraph() {
  if (!default_) default_ = &newGraph();
  return *default_;
}

void TfRuntime::resetDefaultGraph() { default_ = &newGraph(); }

Graph& TfRuntime::newGraph() {
  graphs_.push_back(std::make_unique<Graph>());
  graphs_.back()->setDevices(&devices_);
  return *graphs_.back();
}

static bool isLibraryFile(const std::string& f) { return interp::isLibraryPath(f); }

std::vector<StackFrame> TfRuntime::userStack() {
  std::vector<StackFrame> s = in_.callStack();
  std::vector<StackFrame> out;
  out.reserve(s.size());
  for (StackFrame& f : s)
    if (!isLibraryFile(f.location.file)) out.push_back(std::move(f));
  return out;
}

SourceLocation TfRuntime::userLocation() { return in_.innermostUserLocation(); }

void TfRuntime::stampCreation(Graph* g) {
  CreationContext& c = g ? g->creation() : eagerCreation_;
  c.stack = userStack();
  c.location = c.stack.empty() ? SourceLocation{} : c.stack.back().location;
}

static lang::TextPos startOf(const SourceLocation& l) { return {l.line - 1, l.column - 1}; }
static lang::TextPos endOf(const SourceLocation& l) {
  return {(l.endLine ? l.endLine : l.line) - 1, (l.endColumn ? l.endColumn : l.column) - 1};
}

void TfRuntime::reportError(const std::string& message, const std::vector<SourceLocation>& related,
                            const std::vector<std::string>& relatedMessages, std::string code, DiagnosticData data,
                            std::string_view raiseAs) {
  // Inside the user's own functions (a layer helper, a tf.function), the calls that led here are
  // related locations too, innermost first: a helper called in three places says which call.
  std::vector<StackFrame> stack = userStack();
  std::vector<SourceLocation> rel = related;
  std::vector<std::string> msgs = relatedMessages;
  msgs.resize(rel.size());
  constexpr size_t kCallers = 3;
  for (size_t k = 0; k + 1 < stack.size() && k < kCallers; ++k) {
    rel.push_back(stack[stack.size() - 2 - k].location);
    msgs.push_back("in the call of '" + stack[stack.size() - 1 - k].function + "' here");
  }
  reportErrorAt(stack.empty() ? SourceLocation{} : stack.back().location, message, rel, msgs, std::move(code),
                std::move(data), raiseAs);
}

void TfRuntime::reportErrorAt(const SourceLocation& at, const std::string& message,
                              const std::vector<SourceLocation>& related,
                              const std::vector<std::string>& relatedMessages, std::string code, DiagnosticData data,
                              std::string_view cls) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.message = message;
  d.code = std::move(code);
  d.data = std::move(data);
  d.data.code = d.code;
  if (at.known()) {
    d.file = at.file;
    d.start = startOf(at);
    d.end = endOf(at);
  }
  for (size_t i = 0; i < related.size(); ++i) {
    if (!related[i].known()) continue;
    d.related.push_back(RelatedLocation{related[i].file, startOf(related[i]), endOf(related[i]),
                                        i < relatedMessages.size() ? relatedMessages[i] : ""});
  }
  if (in_.abstractCatching()) {
    // The run raises here; the user's handlers decide (Interpreter::raiseDeferred).
    constexpr size_t kInvalid = static_cast<size_t>(ErrorCode::InvalidArgument);
    Value exc = cls == "InvalidArgumentError" && kInvalid < std::size(errorClass) && errorClass[kInvalid]
                    ? in_.call(errorClass[kInvalid], {none(), none(), makeStr(message)})
                    : in_.call(in_.builtin(cls == "InvalidArgumentError" ? "ValueError" : std::string(cls)), {makeStr(message)});
    in_.raiseDeferred(exc, std::move(d));
  }
  in_.addDiagnostic(std::move(d));
}

void TfRuntime::raiseEngineError(const EngineError& e) {
  size_t code = static_cast<size_t>(e.code());
  if (code < std::size(errorClass) && errorClass[code]) {
    Value exc = in_.call(errorClass[code], {none(), none(), makeStr(e.what())});
    in_.raise(exc);
  }
  in_.raise("RuntimeError", e.full());
}

uint32_t TfRuntime::newSymbol(std::string_view hint) { return Symbols::create(hint); }

}  // namespace tlens::tf
