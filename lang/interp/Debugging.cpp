// Interpreter's debugging API (Interpreter.h): frames, their names and the evaluation of the
// debugger's expressions inside them, so that the debugger never reaches into Machine.
#include <stdexcept>

#include "lang/interp/Machine.h"
#include "lang/syntax/SourceFile.h"

namespace tlens::interp {
namespace {

/// A frame of the user's own files: not embedded library code (no path, or "<...>") and not an
/// expression the debugger evaluates ("<debug>").
bool isUserFrame(const Frame& f) { return f.file && !f.file->path().empty() && f.file->path()[0] != '<'; }

}  // namespace

std::vector<Frame*> Interpreter::userFrames() const {
  std::vector<Frame*> out;
  for (Frame* f : m_->frames)
    if (isUserFrame(*f)) out.push_back(f);
  return out;
}

Frame* Interpreter::innermostUserFrame() const {
  const auto& frames = m_->frames;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it)
    if (isUserFrame(**it)) return *it;
  return nullptr;
}

FrameView Interpreter::view(const Frame& f) const {
  return FrameView{f.name, m_->locationOf(f), f.type == Frame::ModuleFrame, f.locals, f.globals};
}

const std::string& Interpreter::frameName(const Frame& f) const { return f.name; }

std::string Interpreter::exceptionSummary(const Value& exc) { return m_->exceptionSummary(exc); }
ExceptionReport Interpreter::exceptionReport(const Value& exc) { return m_->exceptionReport(exc); }

const Namespace& Interpreter::builtinNames() const { return m_->builtins; }

Value Interpreter::evaluateAt(Frame* base, std::shared_ptr<const lang::SourceFile> file, TSNode node, bool isExpression,
                              const std::vector<std::shared_ptr<Env>>& scopes) {
  Machine& m = *m_;
  Frame f;
  if (base) {
    f = *base;
  } else {
    auto main = mainModule();
    if (!main) throw std::runtime_error("no frame to evaluate in");
    f.type = Frame::ModuleFrame;
    f.name = "<module>";
    f.locals = f.globals = main->globals;
  }
  f.file = m.keepFile(std::move(file)).get();
  f.current = node;
  f.generator = nullptr;
  for (const auto& s : scopes) f.comprehensions.push_back(s);
  MachineScope scope(&m);
  FramePush push(m, f);
  if (isExpression) return m.eval(node);
  m.exec(node);
  return none();
}

}  // namespace tlens::interp
