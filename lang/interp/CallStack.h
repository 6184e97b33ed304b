// CallStack: the second layer of the interpreter's Machine (Machine.h lists the layers). The
// Python frames of a run and what they say: the innermost frame and file, each frame's place,
// the call stack native code and the debugger read, the native stack guard, diagnostics at the
// running expression, and the observers' per-statement and per-value calls. Also the static part
// of a function (Code) a frame runs. Internal to lang/interp (docs/layering.md).
#pragma once

#include <unordered_set>

#include "lang/interp/Accounting.h"
#include "lang/interp/Syntax.h"

namespace tlens::interp {

struct GeneratorState;

/// A set of names looked up by string_view (no std::string made per lookup).
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};
using NameSet = std::unordered_set<std::string, NameHash, std::equal_to<>>;

/// Names a function body binds, computed once per `def`/`lambda`.
struct ScopeInfo {
  NameSet locals, globals, nonlocals;
  bool isGenerator = false;
};

/// The static part of a user function: where it is and what its body binds.
struct Code {
  std::shared_ptr<const lang::SourceFile> file;
  TSNode node{};    ///< function_definition or lambda
  TSNode body{};    ///< block, or the lambda's expression
  std::string name;
  bool isLambda = false;
  ScopeInfo scope;
  std::vector<TSNode> paramNames;  ///< identifier node per parameter, for value observers
  /// What `scope` says of each identifier of the function, by the identifier's start byte less
  /// the def's (Evaluator::nameBits: bit 0 local, 1 global, 2 nonlocal, 7 known; 0 not asked
  /// yet), made on the first lookup: an identifier's name is looked up in the three sets once,
  /// not at every execution (their hashing was ~12% of a Python loop). One Code belongs to one
  /// interpreter's thread.
  mutable std::vector<uint8_t> nameBits;
};

ScopeInfo analyzeScope(TSNode fn, const lang::SourceFile& file);
/// Names bound by an assignment target (identifiers inside tuples, lists, starred).
void targetNames(TSNode target, const lang::SourceFile& file, std::vector<std::string>& out);

struct Frame {
  enum Type : uint8_t { ModuleFrame, ClassFrame, FunctionFrame };
  Type type = ModuleFrame;
  std::string name;  ///< "<module>", the function or class name
  const lang::SourceFile* file = nullptr;
  TSNode current{};  ///< the statement or expression executing now
  std::shared_ptr<Env> locals;   ///< module frames: the globals
  std::shared_ptr<Env> globals;
  std::shared_ptr<Env> closure;  ///< enclosing function scopes (functions and classes)
  const Code* code = nullptr;    ///< function frames
  std::vector<std::shared_ptr<Env>> comprehensions;  ///< innermost last
  Value returnValue;
  std::vector<Value> abstractReturns;  ///< abstract: returns of abandoned branches
  Value handling;                      ///< the exception an `except` block is handling
  FunctionObj* function = nullptr;
  Value firstArg;                      ///< for zero-argument super()
  GeneratorState* generator = nullptr;   ///< generator frames: where `yield` suspends to
  bool trusted = false;  ///< embedded library code: loops run exactly even in abstract mode
};

class CallStack : public Accounting {
 public:
  using Accounting::Accounting;

  /// The live frames, outermost first.
  std::vector<Frame*> frames;
  int callDepth = 0;
  int evalDepth = 0;
  uintptr_t stackLimit = 0;

  Frame& frame() { return *frames.back(); }
  const lang::SourceFile& file() const { return *frames.back()->file; }
  std::string_view text(TSNode n) const;
  /// Abstract mode outside trusted (embedded) code: loops are bounded.
  bool approximating() const;
  std::vector<StackFrame> callStack() const;
  /// callStack()'s innermost frame of the user's code (not an embedded module's), without
  /// building the list: native modules ask it for every op they make.
  SourceLocation innermostUserLocation() const;
  SourceLocation locationOf(const Frame& f) const;
  /// Raises RecursionError when the native stack is nearly full.
  void checkStack();
  /// Before each statement: the budget step, then the statement observer.
  void beforeStatement(TSNode stmt);
  /// A diagnostic at node `n` of the current file.
  void diagnose(Severity s, TSNode n, std::string message, std::string code);
  /// Reports an unsupported construct once and returns Unknown.
  Value unsupported(TSNode n, std::string_view what);
  void observe(TSNode n, const Value& v) {
    if (!valueObserver) return;
    // What an observer runs (a Keras model's summary rows for a hover) is not the program's
    // work: the editor and `tlens check` (no observer) must count the same steps.
    ++observing;
    struct Done {
      int& n;
      ~Done() { --n; }
    } done{observing};
    valueObserver->onValue(file(), n, v);
  }
  /// Bindings of the current frame (what branches snapshot).
  Namespace& bindings() { return frame().locals->vars; }
};

/// The call stack of the interpreter `in` (its Machine).
CallStack& callStackOf(Interpreter& in);

/// RAII: pushes a frame.
class FramePush {
 public:
  FramePush(CallStack& m, Frame& f) : m_(m) { m.frames.push_back(&f); }
  ~FramePush() { m_.frames.pop_back(); }

 private:
  CallStack& m_;
};

}  // namespace tlens::interp
