#include "lang/interp/Interpreter.h"

#include "lang/interp/ForeignFrame.h"
#include "lang/interp/Machine.h"

#include <algorithm>

namespace tlens::interp {

std::string format(const Diagnostic& d) {
  static const char* kSev[] = {"", "error", "warning", "information", "hint"};
  std::string s = d.file + ":" + std::to_string(d.start.line + 1) + ":" + std::to_string(d.start.column + 1) + ": " +
                  kSev[static_cast<int>(d.severity)] + ": " + d.message;
  if (!d.code.empty()) s += " [" + d.code + "]";
  return s;
}

std::vector<std::string> namesUnboundAfterStop(const lang::SourceFile& file, size_t from, size_t to) {
  std::vector<std::string> names;
  lang::NamedChildren stmts = namedChildren(file.root());
  to = std::min(to, stmts.size());
  for (size_t j = from; j < to; ++j) {
    TSNode t = stmts[j];
    if (kindOf(t) != NodeKind::ExpressionStatement) continue;
    TSNode a = firstNamedChild(t);
    while (!ts_node_is_null(a) && kindOf(a) == NodeKind::Assignment) {
      targetNames(field(a, fields().left), file, names);
      a = field(a, fields().right);
    }
  }
  return names;
}

Interpreter::Interpreter(InterpOptions options) : m_(std::make_unique<Machine>(*this, std::move(options))) {}
Interpreter::~Interpreter() = default;

ModuleRegistry& Interpreter::modules() { return m_->registry; }
void Interpreter::setStatementObserver(StatementObserver* o) { m_->statementObserver = o; }
void Interpreter::setValueObserver(ValueObserver* o) { m_->valueObserver = o; }
void Interpreter::beforeChange(const Value& v) {
  if (m_->valueObserver) m_->valueObserver->beforeChange(v);
}
const InterpOptions& Interpreter::options() const { return m_->opts; }
Mode Interpreter::mode() const { return m_->opts.mode; }

int Interpreter::run(std::shared_ptr<const lang::SourceFile> file) { return m_->run(std::move(file)); }

int Interpreter::runPrefix(std::shared_ptr<const lang::SourceFile> file, size_t count) {
  return m_->runPrefix(std::move(file), count);
}
int Interpreter::resume(std::shared_ptr<const lang::SourceFile> file, size_t from) { return m_->resume(std::move(file), from); }
bool Interpreter::budgetExceeded() const { return m_->budgetHit; }
bool Interpreter::stoppedAtWorkBudget() const { return m_->budgetHit && m_->stoppedAtWorkBudget; }

int Interpreter::runSource(std::string path, std::string text) {
  return run(std::make_shared<lang::SourceFile>(std::move(path), std::move(text)));
}

std::shared_ptr<ModuleObj> Interpreter::mainModule() const { return m_->mainModule; }
const std::vector<Diagnostic>& Interpreter::diagnostics() const { return m_->diagnostics; }
void Interpreter::addDiagnostic(Diagnostic d) { m_->addDiagnostic(std::move(d)); }

void Interpreter::report(Severity severity, std::string message, std::string code) {
  if (m_->frames.empty()) {
    Diagnostic d;
    d.severity = severity;
    d.message = std::move(message);
    d.code = std::move(code);
    m_->addDiagnostic(std::move(d));
    return;
  }
  m_->diagnose(severity, m_->frame().current, std::move(message), std::move(code));
}

std::vector<StackFrame> Interpreter::callStack() const { return m_->callStack(); }
SourceLocation Interpreter::innermostUserLocation() const { return m_->innermostUserLocation(); }

SourceLocation Interpreter::currentLocation() const {
  if (m_->frames.empty()) return {};
  return m_->locationOf(*m_->frames.back());
}

// Protocol entry points: usable during a run (from native code) and after it (the language
// server rendering values); MachineScope makes containers created here tracked.
Value Interpreter::call(const Value& fn, std::vector<Value> args, KwArgs kwargs) {
  MachineScope s(m_.get());
  return m_->call(fn, std::move(args), std::move(kwargs));
}
Value Interpreter::getAttr(const Value& obj, std::string_view name) {
  MachineScope s(m_.get());
  return m_->getAttr(obj, name);
}
Value Interpreter::findAttr(const Value& obj, std::string_view name) {
  MachineScope s(m_.get());
  return m_->findAttr(obj, name);
}
void Interpreter::setAttr(const Value& obj, std::string_view name, const Value& v) {
  MachineScope s(m_.get());
  m_->setAttr(obj, name, v);
}
Value Interpreter::getItem(const Value& obj, const Value& key) {
  MachineScope s(m_.get());
  return m_->getItem(obj, key);
}
void Interpreter::setItem(const Value& obj, const Value& key, const Value& v) {
  MachineScope s(m_.get());
  m_->setItem(obj, key, v);
}
std::vector<Value> Interpreter::toList(const Value& iterable) {
  MachineScope s(m_.get());
  return m_->toList(iterable);
}
Value Interpreter::binaryOp(BinOp op, const Value& a, const Value& b) {
  MachineScope s(m_.get());
  return m_->binary(op, a, b);
}
Value Interpreter::compare(CmpOp op, const Value& a, const Value& b) {
  MachineScope s(m_.get());
  return m_->compare(op, a, b);
}
Truth Interpreter::truth(const Value& v) {
  MachineScope s(m_.get());
  return m_->truth(v);
}
Truth Interpreter::equals(const Value& a, const Value& b) {
  MachineScope s(m_.get());
  return m_->equal(a, b);
}
int64_t Interpreter::hash(const Value& v) {
  MachineScope s(m_.get());
  return m_->hash(v);
}
std::string Interpreter::str(const Value& v) {
  MachineScope s(m_.get());
  return m_->str(v);
}
std::string Interpreter::repr(const Value& v) {
  MachineScope s(m_.get());
  return m_->repr(v);
}
std::string Interpreter::typeName(const Value& v) { return m_->typeName(v); }
std::shared_ptr<ClassObj> Interpreter::typeOf(const Value& v) { return m_->typeOf(v); }
bool Interpreter::isInstance(const Value& v, const ClassObj& cls) { return m_->isInstance(v, cls); }
Value Interpreter::join(const Value& a, const Value& b) {
  MachineScope s(m_.get());
  return m_->join(a, b);
}
Value Interpreter::builtin(std::string_view name) const { return m_->builtins.get(name); }
std::shared_ptr<ClassObj> Interpreter::builtinClass(std::string_view name) const {
  return asShared<ClassObj>(m_->builtins.get(name));
}
void Interpreter::raise(std::string_view cls, const std::string& message) { m_->raise(cls, message); }
void Interpreter::raise(const Value& exception) { m_->raiseValue(exception); }
bool Interpreter::abstractCatching() const { return isAbstract() && m_->userTryDepth > 0; }
void Interpreter::raiseDeferred(const Value& exception, Diagnostic d) {
  m_->deferredDiagnostics[exception.get()] = {exception, std::move(d)};
  m_->raiseValue(exception);
}
void Interpreter::write(std::string_view text, bool toStderr) { m_->write(text, toStderr); }

// ---- ForeignCallFrame (ForeignFrame.h): here, in a file every program links, because the
// Python bridge (a shared object) takes these symbols from the executable.

ForeignCallFrame::ForeignCallFrame(Interpreter& in) : in_(in) {
  Machine& m = in.machine();
  if (m.frames.empty()) return;
  frame_ = std::make_unique<Frame>(*m.frames.back());
  frame_->generator = nullptr;
  frame_->name.clear();
  m.frames.push_back(frame_.get());
}

ForeignCallFrame::~ForeignCallFrame() {
  if (!frame_) return;
  std::vector<Frame*>& frames = in_.machine().frames;
  if (!frames.empty() && frames.back() == frame_.get()) frames.pop_back();
}

bool ForeignCallFrame::named() const { return frame_ && !frame_->name.empty(); }

void ForeignCallFrame::setName(std::string name) {
  if (frame_) frame_->name = std::move(name);
}

}  // namespace tlens::interp
