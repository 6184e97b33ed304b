// Accounting: the lowest layer of the interpreter's Machine (Machine.h lists the layers). What
// one interpreter is configured with and accounts for while it runs: its options and observers,
// the diagnostics it reports, the work budget and safety clock of abstract mode, the size caps
// on the values it builds, and which exceptions came from library code. Internal to lang/interp
// (docs/layering.md); natives that need only this include only this.
#pragma once

#include <chrono>
#include <set>
#include <tuple>
#include <unordered_map>

#include "lang/interp/Interpreter.h"

namespace tlens::interp {

class Machine;

class Accounting {
 public:
  Accounting(Interpreter& api, InterpOptions opts);

  Interpreter& api;
  InterpOptions opts;
  StatementObserver* statementObserver = nullptr;
  ValueObserver* valueObserver = nullptr;

  bool abstract() const { return opts.mode == Mode::Abstract; }
  /// Writes to the output sink (or the error sink); nothing in abstract mode.
  void write(std::string_view s, bool err);

  // ---- work budget (abstract mode) ----
  /// One step of abstract work (a statement, a Python call, an iterator item): throws
  /// BudgetExceeded past the work budget; reads the clock for the safety limit every 64 steps.
  void tick() {
    if (observing) return;
    ++work;
    if (workLimit && work > workLimit) throw BudgetExceeded(false);
    if (hasDeadline && (work & 63) == 0) checkBudget();
    if ((work & 1023) == 0) poll();
  }
  void checkBudget();
  /// Every ~1,000 steps (tick()): lets the statement observer cancel or pause a run inside a
  /// long loop or builtin where no statement starts, and turns a pending SIGINT into
  /// KeyboardInterrupt (concrete mode).
  void poll();
  bool hasDeadline = false;
  std::chrono::steady_clock::time_point deadline;
  /// Abstract mode: steps done in this phase (the main body, from runPrefix on through resume;
  /// then the uncalled functions) and the limit (0: counting is off).
  uint64_t work = 0, workLimit = 0;
  /// > 0 while a value observer runs (its work is not counted).
  int observing = 0;
  /// The last run stopped at the work budget or the time limit.
  bool budgetHit = false;
  /// The last run stopped in a top-level statement of the main file at the work budget (not the
  /// clock): a resume() of it runs nothing more (a run from the beginning would have stopped at
  /// the same statement) and only makes the names of the statements it was given unknown.
  bool stoppedAtWorkBudget = false;

  // ---- size caps ----
  /// Abstract mode builds no str (bytes) or container larger than this: its contents would not
  /// help a hover, and one analysis must stay small. Past it the value is Unknown of its type.
  static constexpr double kAbstractMaxSize = 1e6;
  /// Concrete mode: a str of more bytes, or a container of more items, raises MemoryError before
  /// it is built (CPython would try, and a machine would swap or kill the process).
  static constexpr double kMaxStrBytes = 1e9;
  static constexpr double kMaxItems = 1e8;
  /// Concrete mode: the resident size past which poll() raises MemoryError (a comprehension of
  /// comprehensions grows by many small values, each under the caps). 80% of the machine's
  /// memory, or of the address-space limit (`prlimit --as`) when lower.
  size_t memoryLimit = 0;
  int pollCount = 0;
  void checkMemory();
  /// Whether a value of type `cls` with `n` items (bytes for str) may be built. Abstract mode:
  /// false past kAbstractMaxSize (the caller yields unknownOf(cls)). Concrete mode: raises
  /// MemoryError past the limit, naming the type and size.
  bool fits(double n, const std::shared_ptr<ClassObj>& cls);
  /// fits() for native builtins: throws NeedsKnownValue{cls} (the call yields Unknown of `cls`).
  void reserveSize(double n, const std::shared_ptr<ClassObj>& cls) {
    if (!fits(n, cls)) throw NeedsKnownValue{cls};
  }

  // ---- diagnostics ----
  void addDiagnostic(Diagnostic d);
  std::vector<Diagnostic> diagnostics;
  std::set<std::pair<std::string, uint32_t>> unsupportedReported;
  /// Exceptions reported by reportException: (file, line, column, message).
  std::set<std::tuple<std::string, int, int, std::string>> reportedExceptions;

  // ---- library blame (abstract mode) ----
  /// Records that `exc`, raised at the current frame's depth, came from library code (a native
  /// object's method, a tensorflow/numpy native, the binding of an embedded module's function):
  /// reportException does not blame the user's code for it.
  void blameLibrary(const Value& exc);
  /// Runs `fn` (a call into a native object or library function), blaming its exceptions on
  /// the library.
  template <class F>
  auto libraryCall(F&& fn) -> decltype(fn()) {
    try {
      return fn();
    } catch (PyError& e) {
      blameLibrary(e.exc);
      throw;
    }
  }
  /// Exceptions blamed on library code (blameLibrary), kept alive so their addresses stay theirs.
  std::unordered_map<const Object*, Value> libraryExceptions;
  /// Errors raised instead of reported inside a user's `try` (Interpreter::raiseDeferred), by
  /// exception: reportException reports the diagnostic if the exception escapes every handler.
  std::unordered_map<const Object*, std::pair<Value, Diagnostic>> deferredDiagnostics;

 protected:
  /// The whole machine, for what the layers above this one do (defined in Machine.h).
  Machine& self();
  const Machine& self() const;
};

}  // namespace tlens::interp
