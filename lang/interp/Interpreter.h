// Interpreter: runs a Python-subset program, concretely (the debugger: real values, real
// errors) or abstractly (the language server: values may be Unknown, both branches of an unknown
// `if` run and their bindings join, loops and recursion are bounded, a work budget applies,
// side effects never happen, and functions nothing calls are analysed with Unknown arguments).
//
// It walks the Tree-sitter syntax tree of lang::SourceFile directly. The machinery lives in the
// internal class Machine (Machine.h); this header is the stable API for the debugger, the
// language server and native modules:
//
//   Interpreter in({.mode = Mode::Abstract});
//   registerTensorFlow(in.modules());          // native modules (see Module.h)
//   in.setValueObserver(&hovers);              // see Observers.h
//   in.runSource("train.py", text);
//   for (const Diagnostic& d : in.diagnostics()) ...
//
// Native code receives the Interpreter in CallContext and NativeObject methods and uses the
// protocol functions below (call, getAttr, toList, repr, raise, ...) to work with Python values.
// An Interpreter runs on one thread at a time; runs do not nest.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "engine/base/SourceLocation.h"
#include "lang/interp/Class.h"
#include "lang/interp/Diagnostic.h"
#include "lang/interp/InterpOptions.h"
#include "lang/interp/Module.h"
#include "lang/interp/NativeObject.h"
#include "lang/interp/Objects.h"
#include "lang/interp/Observers.h"
#include "lang/interp/PyError.h"

namespace tlens::interp {

class Machine;
struct Frame;  ///< a live Python frame (internal); the debugger holds it as a handle

/// What the debugger sees of a live Python frame (Interpreter::view).
struct FrameView {
  std::string name;          ///< "<module>", the function or class name
  SourceLocation location;   ///< the expression it is executing now
  bool isModule = false;     ///< module frames: locals and globals are the same
  std::shared_ptr<Env> locals, globals;
};

class Interpreter {
 public:
  /// Exit statuses of run(): 0 on success, sys.exit(n) gives n.
  static constexpr int kExitError = 1;       ///< uncaught exception
  static constexpr int kExitCancelled = 130;  ///< an observer threw InterpCancelled
  static constexpr int kExitInternal = 70;    ///< a bug in tensorlens (reported as a diagnostic)

  explicit Interpreter(InterpOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // --- setup -------------------------------------------------------------------------------
  /// Native and embedded modules; add to it before run().
  ModuleRegistry& modules();
  void setStatementObserver(StatementObserver* o);
  void setValueObserver(ValueObserver* o);
  /// Natives that change an object in place call this first (ValueObserver::beforeChange).
  void beforeChange(const Value& v);
  const InterpOptions& options() const;
  Mode mode() const;
  bool isAbstract() const { return mode() == Mode::Abstract; }

  // --- running -----------------------------------------------------------------------------
  /// Runs `file` as `__main__`. Uncaught exceptions print a traceback to the error sink and add
  /// a diagnostic. Returns the exit status. Never throws.
  int run(std::shared_ptr<const lang::SourceFile> file);
  int runSource(std::string path, std::string text);
  /// Abstract mode, for editors that re-analyse a document after each edit: runs only the first
  /// `count` top-level statements of `file` as `__main__` and stops there (no syntax errors
  /// reported, no uncalled functions analysed). A later version of the document that starts with
  /// the same statements continues with resume() instead of running them again.
  int runPrefix(std::shared_ptr<const lang::SourceFile> file, size_t count);
  /// Continues a runPrefix(count) with `file`, a later version of that file whose first `count`
  /// top-level statements are the same text at the same bytes, from statement `from` (<= count),
  /// then finishes as run() does. Functions the prefix defined keep the earlier file's nodes.
  int resume(std::shared_ptr<const lang::SourceFile> file, size_t from);
  /// Whether the last run stopped at the work budget or the time limit (abstract mode; later
  /// values unknown).
  bool budgetExceeded() const;
  /// Whether the last run stopped in a top-level statement at the work budget (not the clock):
  /// deterministic, so a runPrefix() that stopped so can still be resumed (the continued run stops
  /// where a run from the beginning stops, and only analyses the uncalled functions after it).
  bool stoppedAtWorkBudget() const;
  /// The `__main__` module of the last run (its globals after the run), or null.
  std::shared_ptr<ModuleObj> mainModule() const;

  // --- results -----------------------------------------------------------------------------
  const std::vector<Diagnostic>& diagnostics() const;
  void addDiagnostic(Diagnostic d);
  /// A diagnostic at the expression executing now (native modules report shape errors so).
  void report(Severity severity, std::string message, std::string code = {});

  // --- call stack --------------------------------------------------------------------------
  /// The Python call stack, outermost first: each frame's function name and the location of the
  /// expression it is executing now (for the innermost frame, the call being evaluated).
  std::vector<StackFrame> callStack() const;
  /// The location the innermost frame of the user's own code (not an embedded module's) is
  /// executing: callStack()'s last such frame, without building the list.
  SourceLocation innermostUserLocation() const;
  /// The location of the expression executing now.
  SourceLocation currentLocation() const;

  // --- protocols for native code -------------------------------------------------------------
  Value call(const Value& fn, std::vector<Value> args, KwArgs kwargs = {});
  /// obj.name; raises AttributeError when absent.
  Value getAttr(const Value& obj, std::string_view name);
  /// obj.name, or null when absent.
  Value findAttr(const Value& obj, std::string_view name);
  void setAttr(const Value& obj, std::string_view name, const Value& v);
  Value getItem(const Value& obj, const Value& key);
  void setItem(const Value& obj, const Value& key, const Value& v);
  /// The items of an iterable (abstract mode: Unknown iterables give a few Unknowns).
  std::vector<Value> toList(const Value& iterable);
  Value binaryOp(BinOp op, const Value& a, const Value& b);
  Value compare(CmpOp op, const Value& a, const Value& b);
  Truth truth(const Value& v);
  Truth equals(const Value& a, const Value& b);
  int64_t hash(const Value& v);
  std::string str(const Value& v);
  std::string repr(const Value& v);
  /// type(v).__name__
  std::string typeName(const Value& v);
  /// type(v)
  std::shared_ptr<ClassObj> typeOf(const Value& v);
  bool isInstance(const Value& v, const ClassObj& cls);
  /// Abstract join of two values (see NativeObject::join).
  Value join(const Value& a, const Value& b);
  /// Built-in names: classes ("int", "ValueError"), functions ("len").
  Value builtin(std::string_view name) const;
  std::shared_ptr<ClassObj> builtinClass(std::string_view name) const;

  /// Raises a Python exception of built-in class `cls` ("ValueError") with `message`.
  [[noreturn]] void raise(std::string_view cls, const std::string& message);
  /// Raises an exception instance or class.
  [[noreturn]] void raise(const Value& exception);
  /// Abstract mode inside a `try` with handlers in the user's code: a shape or dtype error that a
  /// run would raise is raised (raiseDeferred) rather than reported, so the handlers run as they
  /// would (a notebook that shows an error with `try: ... except ValueError as e: print(e)`).
  bool abstractCatching() const;
  /// Raises `exception`; if it escapes every handler, `d` is reported where it would have been
  /// (in place of an uncaught-exception warning); if a handler catches it, nothing is.
  [[noreturn]] void raiseDeferred(const Value& exception, Diagnostic d);

  /// Writes to the output sink (or the error sink).
  void write(std::string_view text, bool toStderr = false);

  // --- debugging: the debugger's view of a stopped program (Debugging.cpp) -------------------
  // Valid while the program's thread is stopped inside the interpreter (an observer callback).
  /// The live frames of the user's own files, outermost first: not embedded modules, not code
  /// the debugger evaluates.
  std::vector<Frame*> userFrames() const;
  /// The innermost of userFrames(), or null.
  Frame* innermostUserFrame() const;
  FrameView view(const Frame& f) const;
  /// view(f).name without the rest (cheap enough for every statement).
  const std::string& frameName(const Frame& f) const;
  /// "ValueError: message" for an exception value.
  std::string exceptionSummary(const Value& exc);
  /// An exception value as fields: its type as tracebacks name it, str() of it, and the
  /// traceback recorded so far (empty before it is raised). ExceptionReport::summary() is
  /// exceptionSummary().
  ExceptionReport exceptionReport(const Value& exc);
  /// The built-in names (completions).
  const Namespace& builtinNames() const;
  /// Runs `node` of `file`, an expression (its value) or a statement (None), as code of frame
  /// `base` (the main module when null) with `scopes` searched before the frame's own names,
  /// innermost last. `file` lives as long as the interpreter. Python exceptions propagate as
  /// PyError; std::runtime_error when there is no frame to run in.
  Value evaluateAt(Frame* base, std::shared_ptr<const lang::SourceFile> file, TSNode node, bool isExpression,
                   const std::vector<std::shared_ptr<Env>>& scopes);

  /// The implementation (internal; include lang/interp/Machine.h to use it).
  Machine& machine() { return *m_; }

  /// Keeps `p` alive as long as this interpreter, and destroys it after every Python value
  /// (native modules attach their runtime state here).
  void attach(std::shared_ptr<void> p) { attached_.push_back(std::move(p)); }

 private:
  std::vector<std::shared_ptr<void>> attached_;  // declared first: destroyed after m_
  std::unique_ptr<Machine> m_;
};

/// The names a run that stopped at its budget in top-level statement `from` of `file` makes
/// unknown (statements [from, to) never finish: the targets of their assignments, in order).
/// The language server compares these between versions of a document (a later version whose
/// statements up to the stop are the same, and whose later statements bind the same names,
/// analyses exactly as the earlier one).
std::vector<std::string> namesUnboundAfterStop(const lang::SourceFile& file, size_t from, size_t to = SIZE_MAX);

}  // namespace tlens::interp
