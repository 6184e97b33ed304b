// Observers: how the debugger and the language server watch a run. Plain C++ interfaces; the
// protocol layers (dap/, lsp/) implement them.
//
// - StatementObserver::beforeStatement runs on the interpreter's thread before every statement,
//   in both modes. The debugger blocks inside it at breakpoints and while stepping, and may throw
//   InterpCancelled to stop the program (Interpreter::run then returns kExitCancelled).
// - ValueObserver::onValue runs for every evaluated expression and every assignment target
//   (including parameters, loop variables, `as` names, imported names). In abstract mode an
//   expression may be reported more than once (loops, both branches of an unknown `if`); the last
//   report is the joined view only for variables, so keep the last or join them yourself.
#pragma once

#include <exception>

#include <tree_sitter/api.h>

#include "lang/interp/Value.h"

namespace tlens::lang {
class SourceFile;
}

namespace tlens::interp {

class Interpreter;

struct StatementEvent {
  const lang::SourceFile& file;
  TSNode node;    ///< the statement about to run
  int line;       ///< 1-based line of the statement
  int depth;      ///< number of Python frames: 1 at module level
  const Namespace& locals;   ///< the frame's local variables (the globals at module level)
  const Namespace& globals;  ///< the frame's module globals
  Interpreter& interp;       ///< callStack(), repr(), ...
};

class StatementObserver {
 public:
  virtual ~StatementObserver() = default;
  virtual void beforeStatement(const StatementEvent& e) = 0;
  /// An exception is raised (once per exception object, before anything unwinds: the raising
  /// frames are alive). `inTry`: some `try` with an `except` clause is active on the stack, so
  /// it may be caught. The debugger stops here for its exception filters; throwing
  /// InterpCancelled ends the program.
  virtual void onRaise(const Value& /*exc*/, bool /*inTry*/) {}
  /// Called about every 1,000 steps of work (loop iterations, items pulled from iterators,
  /// calls), also inside a long comprehension or builtin (`sum(range(10**9))`) where no
  /// statement starts. May throw InterpCancelled (a stale analysis, a disconnect) or block (a
  /// pause: `interp.callStack()` says where).
  virtual void poll(Interpreter& interp) {}
};

class ValueObserver {
 public:
  virtual ~ValueObserver() = default;
  /// An expression of `file` (or an assignment target) evaluated to `v`. By default forwards
  /// to the file-less overload.
  virtual void onValue(const lang::SourceFile& file, TSNode expr, const Value& v) { onValue(expr, v); }
  virtual void onValue(TSNode expr, const Value& v) {}
  /// `v`, which may have been reported before, is about to change in place (a tensor's
  /// set_shape): an observer that renders values later renders what it holds now.
  virtual void beforeChange(const Value& v) {}
};

/// Thrown by an observer to stop the program. Python code cannot catch it.
class InterpCancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "interpretation cancelled"; }
};

}  // namespace tlens::interp
