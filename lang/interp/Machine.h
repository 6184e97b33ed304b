// Machine: the interpreter's implementation (internal; the API is Interpreter.h). One Machine
// per Interpreter. It is composed of layers, each a class in its own header that derives from the
// one below it, so code that needs one concern includes only that concern's header:
//
//   Accounting.h      options, observers, diagnostics, the work budget and size caps, library
//                     blame (Machine.cpp, Abstract.cpp)
//   CallStack.h       frames, the call stack, the native stack guard, located diagnostics,
//                     observer calls (Machine.cpp)
//   Builtins.h        the built-in namespace, classes and exception classes (BuiltinTypes.cpp,
//                     Raise.cpp); the installers and std-module registration are StdModules.h
//   ObjectProtocol.h  calls, attributes, subscripts, iteration, operators, str()/repr(),
//                     exceptions (EvalCalls.cpp, Protocols.cpp, Operators.cpp, Repr.cpp, Raise.cpp)
//   Imports.h         the module registry, sys.modules, loading files (ExecImport.cpp)
//   Evaluator.h       statements, expressions, names, user functions, generators, abstract
//                     joins (Exec*.cpp, Eval*.cpp, Assign.cpp, Names.cpp, Generators.cpp,
//                     Abstract.cpp)
//   Machine.h         the composition: running a main file (Machine.cpp), generator state
//
// A layer's code reaches the layers above it through self() (the whole Machine), which its .cpp
// file gets by including this header. Format.h holds the text formatting helpers.
//
// Control flow: break/continue/return travel as a Flow result, exceptions as PyError, and
// aborts Python must not catch (budget, cancellation, syntax errors inside a statement) as their
// own C++ types.
#pragma once

#include "lang/interp/Evaluator.h"
#include "lang/interp/Format.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {

class Machine final : public Evaluator {
 public:
  Machine(Interpreter& api, InterpOptions opts);
  ~Machine();

  // ---- running (Machine.cpp) ----
  int run(std::shared_ptr<const lang::SourceFile> file);
  /// Interpreter::runPrefix / resume (Interpreter.h).
  int runPrefix(std::shared_ptr<const lang::SourceFile> file, size_t count);
  int resume(std::shared_ptr<const lang::SourceFile> file, size_t from);
  /// run(), runPrefix() and resume(): statements [from, to) of the main file; `begin` makes a
  /// new `__main__`, `finish` reports syntax errors and analyses uncalled functions.
  int runMain(std::shared_ptr<const lang::SourceFile> file, size_t from, size_t to, bool begin, bool finish);
  /// Abstract mode: runs every function of the main file that nothing called.
  void analyzeUncalled();
  /// Runs a module body in a new module frame.
  void execModuleBody(const std::shared_ptr<ModuleObj>& mod, const std::shared_ptr<const lang::SourceFile>& file,
                      bool trusted);
  /// Binds the names assigned by the top-level expression statements [from, to) of `stmts` to
  /// unknown (what a run that stopped before them leaves).
  void unbindRest(const lang::NamedChildren& stmts, size_t from, size_t to, const lang::SourceFile& f);

  /// After resume(): the earlier version of the main file whose statements the prefix ran (its
  /// functions are the main file's too).
  std::shared_ptr<const lang::SourceFile> prefixFile;
  /// The top-level statements of the main file that run() executes: [mainFrom, mainTo).
  size_t mainFrom = 0, mainTo = SIZE_MAX;

  // heap tracking for cycle breaking
  std::vector<std::weak_ptr<Object>> tracked;
  std::vector<std::weak_ptr<Env>> trackedEnvs;
  size_t trackedCompactAt = 4096;
  size_t trackedEnvsCompactAt = 4096;
};

/// The internal state of a started generator.
/// A generator expression running lazily (concrete mode): a copy of the defining frame's scopes,
/// its comprehension scope, and the first clause's iterator (evaluated where it is defined, as in
/// Python).
struct GenExprData {
  Frame frame;
  Value owner;  ///< the defining function, which owns frame.code
  std::shared_ptr<const lang::SourceFile> file;
  TSNode node{};
  std::shared_ptr<Env> env;
  Value firstIter;
};

struct GeneratorState {
  Machine* machine = nullptr;
  std::unique_ptr<Coroutine> coroutine;
  std::vector<Frame*> savedFrames;  ///< its Python frames while suspended
  int savedCallDepth = 0;
  size_t base = 0;          ///< frames.size() when last resumed
  int baseCallDepth = 0;
  Value yielded;            ///< the value of the last yield (null when finished)
  Value sent;               ///< the value `yield` evaluates to when resumed
  bool closing = false;
  bool pythonClose = false;  ///< closing through close(): GeneratorExit runs finally blocks
  int count = 0;            ///< values yielded so far
};

/// Machine of the interpreter whose run is active on this thread (set while running and while
/// building builtins); used by `track`.
Machine* currentMachine();

/// Sets the current machine for a scope.
class MachineScope {
 public:
  explicit MachineScope(Machine* m);
  ~MachineScope();

 private:
  Machine* prev_;
};

/// Machine::self() of each layer.
inline Machine& Accounting::self() { return static_cast<Machine&>(*this); }
inline const Machine& Accounting::self() const { return static_cast<const Machine&>(*this); }

}  // namespace tlens::interp
