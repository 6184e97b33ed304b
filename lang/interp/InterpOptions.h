// InterpOptions: how a run behaves. Concrete mode is Python (the debugger); abstract mode is the
// language server's analysis, bounded in time and never performing side effects.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tlens::lang {
class SourceFile;
}

namespace tlens::interp {

enum class Mode : uint8_t {
  Concrete,  ///< real values, real Python semantics and errors
  Abstract,  ///< values may be Unknown; both branches of unknown ifs; bounded loops; no side effects
};

struct InterpOptions {
  Mode mode = Mode::Concrete;

  /// sys.argv[1:]; sys.argv[0] is the main file's path.
  std::vector<std::string> argv;
  /// Directories searched for absolute imports of workspace modules, after the importing file's
  /// own directory.
  std::vector<std::string> workspaceRoots;

  /// Where print() and sys.stdout / sys.stderr write. Output is dropped when unset.
  std::function<void(std::string_view)> out;
  std::function<void(std::string_view)> err;

  /// Reads a workspace module; return null when the path does not exist. The default reads the
  /// disk. The language server passes its open documents here.
  std::function<std::shared_ptr<const lang::SourceFile>(const std::string& path)> loadFile;

  /// Abstract mode: the work budget for the main file's body (imports included), and again for
  /// the analysis of functions nothing called, in steps: a statement, a call of a Python function
  /// and an item pulled from an iterator are one step each. The same file stops at the same place
  /// on an idle or a loaded machine, in the CLI and in the editor. 0 means unlimited. Concrete
  /// mode ignores it.
  uint64_t workBudget = kDefaultWorkBudget;
  static constexpr uint64_t kDefaultWorkBudget = 200'000;
  /// Abstract mode: a wall-clock safety net over the same runs, far above what the work budget
  /// takes; when it is hit the analysis says so (its result then depends on the machine's speed).
  /// 0 means unlimited. Concrete mode ignores it.
  int timeBudgetMs = kDefaultTimeLimitMs;
  static constexpr int kDefaultTimeLimitMs = 10'000;
  /// Abstract mode: loops over known iterables of at most this many items run exactly; other
  /// loops run their body at most `abstractLoopIterations` times.
  int abstractExactLoopLimit = 16;
  int abstractLoopIterations = 2;
  /// Python call depth past which RecursionError is raised (concrete) or calls yield Unknown
  /// (abstract). A native stack guard may raise RecursionError earlier on small stacks.
  int maxRecursionDepth = 1000;
  int abstractRecursionDepth = 50;
  /// Abstract mode: a function already on the stack this many times is not entered again.
  int abstractSameFunctionDepth = 3;
  /// Abstract mode: after the module body, run each function body that nothing called once with
  /// Unknown arguments, so hovers work inside it.
  bool analyzeUncalledFunctions = true;
  /// Concrete mode: a flag a SIGINT handler sets. The interpreter clears it and raises
  /// KeyboardInterrupt at the next statement (or inside a long loop or builtin, Machine::poll),
  /// so `except KeyboardInterrupt` and `finally` run as in CPython.
  std::atomic<bool>* interrupt = nullptr;
  /// Seed of the `random` module.
  uint64_t randomSeed = 0;
};

}  // namespace tlens::interp
