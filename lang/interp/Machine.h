// Machine: the interpreter's implementation (internal; the API is Interpreter.h). One Machine
// per Interpreter. The code is split by concern:
//
//   Machine.cpp            construction, run(), frames, budget, diagnostics, call stack
//   Names.cpp              name lookup and binding (scopes, closures, comprehensions)
//   Scope.cpp              static scope analysis of function bodies (locals, global, nonlocal)
//   ExecStatements.cpp     simple statements; Assign.cpp: assignment targets and unpacking
//   ExecCompound.cpp       if / while / for / try / with, including abstract-mode joins
//   ExecDefinitions.cpp    def, lambda, class, decorators
//   ExecImport.cpp         import machinery
//   Eval.cpp               expressions; EvalLiterals.cpp numbers and strings; EvalCalls.cpp
//                          calls; EvalComprehensions.cpp comprehensions
//   Operators.cpp          arithmetic, comparisons, `in`
//   Protocols.cpp          attributes, subscripts, iteration, len, truth, hash, equality
//   Repr.cpp               str() and repr()
//   Abstract.cpp           joins and snapshots for abstract mode
//   Raise.cpp, Traceback.cpp   raising exceptions and printing tracebacks
//   Builtin*.cpp, Std*.cpp     built-in functions, types and the standard library subset
//
// Control flow: break/continue/return travel as a Flow result, exceptions as PyError, and
// aborts Python must not catch (budget, cancellation, syntax errors inside a statement) as their
// own C++ types.
#pragma once

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "lang/interp/Coroutine.h"
#include "lang/interp/Interpreter.h"
#include "lang/interp/Syntax.h"

namespace tlens::interp {

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
};

ScopeInfo analyzeScope(TSNode fn, const lang::SourceFile& file);
/// Names bound by an assignment target (identifiers inside tuples, lists, starred).
void targetNames(TSNode target, const lang::SourceFile& file, std::vector<std::string>& out);

/// Identifies a node across trees (incremental parses share subtrees, hence node ids).
struct NodeKey {
  const void* id;
  const void* tree;
  explicit NodeKey(TSNode n) : id(n.id), tree(n.tree) {}
  bool operator==(const NodeKey& o) const { return id == o.id && tree == o.tree; }
};
struct NodeKeyHash {
  size_t operator()(const NodeKey& k) const {
    return std::hash<const void*>()(k.id) * 31 + std::hash<const void*>()(k.tree);
  }
};

enum class Flow : uint8_t { Normal, Break, Continue, Return };

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

/// A syntax error met while evaluating: the current statement is skipped.
struct SyntaxSkip {};
/// Unwinds a suspended generator's stack when it is closed or garbage collected.
struct GeneratorClose {};
/// A call unpacked an Unknown (`f(*unknown)`): its arguments, hence its result, are unknown.
struct UnknownArguments {};

class Machine {
 public:
  Machine(Interpreter& api, InterpOptions opts);
  ~Machine();

  Interpreter& api;
  InterpOptions opts;
  ModuleRegistry registry;
  StatementObserver* statementObserver = nullptr;
  ValueObserver* valueObserver = nullptr;

  bool abstract() const { return opts.mode == Mode::Abstract; }
  /// Abstract mode outside trusted (embedded) code: loops are bounded.
  bool approximating() const;

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
  void checkBudget();
  void checkStack();
  void beforeStatement(TSNode stmt);
  Frame& frame() { return *frames.back(); }
  const lang::SourceFile& file() const { return *frames.back()->file; }
  std::string_view text(TSNode n) const;
  std::vector<StackFrame> callStack() const;
  SourceLocation locationOf(const Frame& f) const;
  void addDiagnostic(Diagnostic d);
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
  /// One step of abstract work (a statement, a Python call, an iterator item): throws
  /// BudgetExceeded past the work budget; reads the clock for the safety limit every 64 steps.
  void tick() {
    if (observing) return;
    ++work;
    if (workLimit && work > workLimit) throw BudgetExceeded(false);
    if (hasDeadline && (work & 63) == 0) checkBudget();
    if ((work & 1023) == 0) poll();
  }
  /// Every ~1,000 steps (tick()): lets the statement observer cancel or pause a run inside a
  /// long loop or builtin where no statement starts, and turns a pending SIGINT into
  /// KeyboardInterrupt (concrete mode).
  void poll();

  // ---- size caps (Machine.cpp) ----
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
  void write(std::string_view s, bool err);
  std::shared_ptr<const lang::SourceFile> keepFile(std::shared_ptr<const lang::SourceFile> f);

  // ---- statements ----
  Flow execBlock(TSNode block);
  Flow exec(TSNode stmt) { return exec(stmt, kindOf(stmt)); }
  Flow exec(TSNode stmt, NodeKind kind);
  Flow execExpressionStatement(TSNode n);
  /// Runs the statements Tree-sitter recognised inside an ERROR node.
  Flow execRecovered(TSNode error);
  Flow execReturn(TSNode n);
  Flow execIf(TSNode n);
  Flow execAlternatives(const std::vector<TSNode>& alts, size_t i);
  /// Abstract mode: runs two branches from the same bindings and joins what they leave.
  Flow execBranches(const std::function<Flow()>& a, const std::function<Flow()>& b);
  /// Truth of a branch condition; concrete mode raises for an Unknown condition.
  Truth branchTruth(const Value& v);
  /// The lengths of the lists bound in `ns` (before a loop that may run imprecisely).
  using ListLengths = std::vector<std::pair<const Object*, size_t>>;
  ListLengths listLengths(const Namespace& ns);
  /// After a loop of unknown trip count: join changed variables with their values before it. A
  /// list bound before the loop whose length the body changed (`xs.append(x)`) has an unknown
  /// length after it: the body ran fewer times than the loop would.
  void joinLoopBindings(const Namespace& before, const ListLengths& lengths);
  Flow execWhile(TSNode n);
  Flow execFor(TSNode n);
  Flow execTry(TSNode n);
  Flow execWith(TSNode n);
  Flow execWithItems(const std::vector<TSNode>& items, size_t i, TSNode body);
  void execRaise(TSNode n);
  void execAssert(TSNode n);
  void execDelete(TSNode n);
  void execImport(TSNode n);
  void execImportFrom(TSNode n);
  /// The module `dotted`, imported if needed; null when it cannot be found.
  std::shared_ptr<ModuleObj> importModule(std::string_view dotted);
  /// importModule, raising ModuleNotFoundError (concrete) or reporting a hint (abstract).
  std::shared_ptr<ModuleObj> requireModule(std::string_view dotted, TSNode at);
  std::shared_ptr<ModuleObj> importSubmodule(const std::shared_ptr<ModuleObj>& pkg, std::string_view leaf);
  std::shared_ptr<ModuleObj> findModuleIn(const std::string& name, const std::vector<std::string>& dirs,
                                          std::string_view leaf);
  std::shared_ptr<ModuleObj> loadModuleFile(const std::string& name, const std::string& path,
                                            const std::string& packageDir);
  void execFunctionDef(TSNode n, const std::vector<Value>& decorators);
  void execClassDef(TSNode n, const std::vector<Value>& decorators);
  void execDecorated(TSNode n);
  std::shared_ptr<const lang::SourceFile> currentFileRef();
  std::shared_ptr<Code> codeFor(TSNode def, bool isLambda);
  Signature buildSignature(TSNode params, Code& code, bool recordNames);
  std::shared_ptr<FunctionObj> makeFunction(TSNode def, bool isLambda);
  Value evalAssignment(TSNode n);
  Value evalAssignment(TSNode n, NodeKind kind);  ///< assignment / augmented assignment; returns the value
  void assign(TSNode target, const Value& v);
  void assignName(std::string_view name, TSNode at, const Value& v);
  void deleteTarget(TSNode target);
  std::vector<Value> unpack(const Value& v, size_t count, bool starred, size_t starIndex);

  // ---- names (Names.cpp) ----
  Value lookupName(std::string_view name, TSNode at);
  void bindName(std::string_view name, const Value& v);
  void unbindName(std::string_view name, TSNode at);
  /// The Env a function defined now closes over.
  std::shared_ptr<Env> closureForNewFunction();

  // ---- expressions ----
  Value eval(TSNode n) { return eval(n, kindOf(n)); }
  /// A child from a child list (fieldChild()): its kind is known without reading the node; null
  /// evaluates as a null node does.
  Value eval(const lang::NodeChild* c) {
    return eval(nodeOf(c), c ? kindOfSymbol(c->symbol) : NodeKind::Other);
  }
  /// eval() of a node whose kind the caller has looked up already (kindOf decodes the node).
  Value eval(TSNode n, NodeKind kind);
  Value evalNode(TSNode n, NodeKind kind);
  Value evalAttribute(TSNode n);
  Value evalSubscript(TSNode n);
  Value evalSubscriptKey(TSNode n);
  Value evalSlice(TSNode n);
  Value evalBinary(TSNode n);
  Value evalUnary(TSNode n);
  Value evalBoolean(TSNode n);
  Value evalComparison(TSNode n);
  Value evalConditional(TSNode n);
  Value evalSequenceDisplay(TSNode n, Kind kind);
  Value evalDict(TSNode n);
  Value evalComprehension(TSNode n);
  /// Runs a comprehension's clauses from clause `i` (EvalComprehensions.cpp), calling `emit` for
  /// each combination; `first`, when set, is the first clause's iterator.
  void runClauses(const std::vector<TSNode>& clauses, size_t i, Env* env, const Value& first, bool& imprecise,
                  const std::function<void()>& emit);
  /// The body of a lazy generator expression's coroutine.
  void runGenExpr(GeneratorObj& g);
  /// `yield x` from the generator whose state is `st`: suspends; returns the value sent.
  Value yieldValue(GeneratorState* st, Value x);
  Value evalYield(TSNode n);
  Value evalInteger(TSNode n);
  Value evalFloat(TSNode n);
  Value evalString(TSNode n);
  Value evalConcatenated(TSNode n);
  std::string stringPiece(TSNode n, bool& isBytes);
  Value evalCall(TSNode n);
  Value evalLambda(TSNode n);
  Value evalNamed(TSNode n);
  void evalArguments(TSNode argList, std::vector<Value>& args, KwArgs& kwargs);

  // ---- calls (EvalCalls.cpp) ----
  Value call(const Value& fn, std::vector<Value> args, KwArgs kwargs);
  Value callFunction(const std::shared_ptr<FunctionObj>& f, std::vector<Value> args, KwArgs kwargs);
  Value runFunctionBody(FunctionObj& f, std::shared_ptr<Env> env, GeneratorState* generator);
  Value callNative(NativeFunction& f, std::vector<Value> args, KwArgs kwargs, std::shared_ptr<ClassObj> cls = nullptr);
  Value instantiate(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args, KwArgs kwargs);
  Value callMethod(const Value& obj, std::string_view name, std::vector<Value> args, KwArgs kwargs = {});
  /// Calls a dunder looked up on the type of `obj` (not the instance); null when absent.
  Value callDunder(const Value& obj, std::string_view name, std::vector<Value> args);
  /// Resumes a generator with `sent` (None for next()); its next value, or null when finished.
  Value resumeGenerator(GeneratorObj& g, const Value& sent);
  /// Unwinds a suspended generator without running its Python code; never throws.
  void closeGenerator(GeneratorObj& g);
  /// generator.close(): raises GeneratorExit inside the generator.
  void closeGeneratorPython(GeneratorObj& g);

  // ---- protocols (Protocols.cpp) ----
  Value getAttr(const Value& obj, std::string_view name);
  Value findAttr(const Value& obj, std::string_view name);
  void setAttr(const Value& obj, std::string_view name, const Value& v);
  void delAttr(const Value& obj, std::string_view name);
  Value getItem(const Value& obj, const Value& key);
  void setItem(const Value& obj, const Value& key, const Value& v);
  void delItem(const Value& obj, const Value& key);
  Value getIter(const Value& v);
  /// The next item, or null when exhausted.
  Value next(const Value& it);
  std::vector<Value> toList(const Value& v);
  /// Items of a known, finite iterable without running user code; nullopt otherwise.
  std::optional<std::vector<Value>> knownItems(const Value& v, size_t limit);
  int64_t len(const Value& v);
  Truth truth(const Value& v);
  /// Truth that must be known: concrete mode raises for Unknown.
  bool isTrue(const Value& v);
  int64_t hash(const Value& v);
  Truth equal(const Value& a, const Value& b);
  bool identical(const Value& a, const Value& b) const;
  Value enter(const Value& mgr);
  bool exit(const Value& mgr, const Value& exc);
  std::shared_ptr<ClassObj> typeOf(const Value& v);
  bool isInstance(const Value& v, const ClassObj& cls);
  Truth isInstanceValue(const Value& v, const Value& clsOrTuple);
  int64_t toIndex(const Value& v, std::string_view what);
  int64_t normalizeIndex(int64_t i, int64_t len, std::string_view what);
  Value bindMethod(const Value& attr, const Value& self, ClassObj* cls);

  // ---- operators (Operators.cpp) ----
  Value binary(BinOp op, const Value& a, const Value& b);
  Value inplace(BinOp op, const Value& a, const Value& b);
  Value unary(UnaryOp op, const Value& v);
  Value compare(CmpOp op, const Value& a, const Value& b);
  Truth contains(const Value& container, const Value& item);
  Value numericBinary(BinOp op, const Value& a, const Value& b);
  Value sequenceBinary(BinOp op, const Value& a, const Value& b);

  // ---- text (Repr.cpp) ----
  std::string str(const Value& v);
  std::string repr(const Value& v);
  std::string typeName(const Value& v);
  std::string formatValue(const Value& v, std::string_view spec);

  // ---- abstract mode (Abstract.cpp) ----
  /// Abstract mode: whether statement `stmt` of the current frame, which raised `exc`, is one the
  /// analysis goes on after (user code, no enclosing try, not a `raise`/SystemExit); if so the
  /// exception is reported (reportException) and the names `stmt` binds become unknown.
  bool recoverFrom(const Value& exc, TSNode stmt, NodeKind kind);
  /// Reports an exception the analysis goes on after, once per place and message: a warning when
  /// raised by user code on known values; an error with a shape code when a library check found
  /// a shape or dtype incompatibility; nothing when raised inside an embedded library module (an
  /// API tensorlens does not model, or a check on unknown values) or by NotImplementedError.
  void reportException(const Value& exc, TSNode stmt, const lang::SourceFile& f);
  /// Abstract mode: records that `exc`, raised at the current frame's depth, came from library
  /// code (a native object's method, a tensorflow/numpy native, the binding of an embedded
  /// module's function): reportException does not blame the user's code for it.
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
  /// Binds every name statement `stmt` binds (assignment, for, with, import, def, class targets,
  /// also inside its blocks, not inside nested functions) to Unknown.
  void unbindStatement(TSNode stmt, const lang::SourceFile& f);
  Value join(const Value& a, const Value& b);
  Value unknownLike(const Value& v);
  void joinInto(Namespace& into, const Namespace& other);
  /// Bindings of the current frame (what branches snapshot).
  Namespace& bindings() { return frame().locals->vars; }

  // ---- exceptions (Raise.cpp) ----
  Value makeException(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args);
  [[noreturn]] void raise(const std::shared_ptr<ClassObj>& cls, const std::string& msg);
  [[noreturn]] void raise(std::string_view clsName, const std::string& msg);
  [[noreturn]] void raiseValue(const Value& excOrClass, const Value& cause = nullptr, bool hasCause = false);
  [[noreturn]] void typeError(const std::string& msg) { raise(types.typeError, msg); }
  [[noreturn]] void valueError(const std::string& msg) { raise(types.valueError, msg); }
  [[noreturn]] void notSupported(std::string_view what, const Value& v);
  std::vector<TraceEntry> captureTraceback() const;
  std::string formatTraceback(const Value& exc);
  std::string exceptionSummary(const Value& exc);
  /// str(exc), or "<exception str() failed>".
  std::string exceptionMessage(const Value& exc);
  ExceptionReport exceptionReport(const Value& exc);
  bool exceptionMatches(const Value& exc, const Value& clsOrTuple);

  // ---- builtins ----
  void installBuiltins();
  std::shared_ptr<ClassObj> exceptionClass(std::string_view name) const;

  // ---- state ----
  struct Types {
    std::shared_ptr<ClassObj> object, type, int_, float_, bool_, str, list, tuple, dict, set, frozenset,
        range, slice, none, function, builtinFunction, method, module, generator, iterator, ellipsis,
        notImplemented, property, staticmethod, classmethod, super, unknown, orderedDict, defaultDict;
    std::shared_ptr<ClassObj> baseException, exception, typeError, valueError, keyError, indexError,
        attributeError, nameError, unboundLocalError, zeroDivisionError, assertionError, runtimeError,
        recursionError, stopIteration, importError, moduleNotFoundError, notImplementedError,
        overflowError, systemExit, lookupError, arithmeticError, keyboardInterrupt, osError,
        fileNotFoundError, syntaxError, eofError;
  } types;
  Namespace builtins;
  std::unordered_map<std::string, std::shared_ptr<ClassObj>> exceptionClasses;
  std::unordered_map<std::string, std::shared_ptr<ClassObj>> nativeTypes;  ///< by NativeObject type name

  std::vector<Frame*> frames;
  /// Literal values.
  std::unordered_map<NodeKey, Value, NodeKeyHash> constCache;
  /// While assigning comprehension targets: the comprehension's scope.
  Env* comprehensionTarget = nullptr;
  int callDepth = 0;
  int evalDepth = 0;
  uintptr_t stackLimit = 0;
  bool hasDeadline = false;
  std::chrono::steady_clock::time_point deadline;
  /// Abstract mode: steps done in this phase (the main body, from runPrefix on through resume;
  /// then the uncalled functions) and the limit (0: counting is off).
  uint64_t work = 0, workLimit = 0;
  /// > 0 while a value observer runs (its work is not counted).
  int observing = 0;
  /// Abstract mode: try bodies being run (their exceptions must reach the handlers, so the
  /// analysis does not go on after the failed statement inside them).
  int tryDepth = 0;
  /// Exceptions blamed on library code (blameLibrary), kept alive so their addresses stay theirs.
  std::unordered_map<const Object*, Value> libraryExceptions;
  /// Exceptions reported by reportException: (file, line, column, message).
  std::set<std::tuple<std::string, int, int, std::string>> reportedExceptions;

  std::vector<Diagnostic> diagnostics;
  std::set<std::pair<std::string, uint32_t>> unsupportedReported;

  std::map<std::string, std::shared_ptr<ModuleObj>, std::less<>> modulesByName;  ///< sys.modules
  std::map<std::string, std::shared_ptr<ModuleObj>, std::less<>> modulesByPath;
  std::vector<std::shared_ptr<const lang::SourceFile>> files;
  std::map<std::pair<const lang::SourceFile*, uint32_t>, std::shared_ptr<Code>> codes;
  std::shared_ptr<ModuleObj> mainModule;
  std::shared_ptr<const lang::SourceFile> mainFile;
  /// After resume(): the earlier version of the main file whose statements the prefix ran (its
  /// functions are the main file's too).
  std::shared_ptr<const lang::SourceFile> prefixFile;
  /// The top-level statements of the main file that run() executes: [mainFrom, mainTo).
  size_t mainFrom = 0, mainTo = SIZE_MAX;
  /// The last run stopped at the work budget or the time limit.
  bool budgetHit = false;
  /// The last run stopped in a top-level statement of the main file at the work budget (not the
  /// clock): a resume() of it runs nothing more (a run from the beginning would have stopped at
  /// the same statement) and only makes the names of the statements it was given unknown.
  bool stoppedAtWorkBudget = false;
  /// Binds the names assigned by the top-level expression statements [from, to) of `stmts` to
  /// unknown (what a run that stopped before them leaves).
  void unbindRest(const lang::NamedChildren& stmts, size_t from, size_t to, const lang::SourceFile& f);
  std::shared_ptr<ModuleObj> sysModule;

  // abstract mode: which function bodies ran, and the functions defined, for uncalled analysis
  std::unordered_set<const Code*> executedCodes;
  std::vector<std::weak_ptr<FunctionObj>> definedFunctions;

  std::mt19937_64 rng;
  /// Generators started and not finished (closed before the machine goes away).
  std::unordered_set<GeneratorObj*> liveGenerators;

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

/// RAII: pushes a frame.
class FramePush {
 public:
  FramePush(Machine& m, Frame& f) : m_(m) { m.frames.push_back(&f); }
  ~FramePush() { m_.frames.pop_back(); }

 private:
  Machine& m_;
};

/// Registers a builtin function in a namespace.
std::shared_ptr<NativeFunction> defineNative(Namespace& ns, std::string name, std::string_view signature, NativeFn fn);
std::shared_ptr<NativeFunction> defineRaw(Namespace& ns, std::string name, NativeFn fn);

// Installers (Builtin*.cpp, Std*.cpp).
void installBuiltinTypes(Machine& m);
void installExceptions(Machine& m);
void installBuiltinFunctions(Machine& m);
void installStrMethods(Machine& m);
void installListMethods(Machine& m);
void installDictMethods(Machine& m);
void registerStdModules(ModuleRegistry& r);

/// Stable merge sort with Python's `<` (or `key`), as list.sort and sorted do.
void sortValues(Machine& m, std::vector<Value>& v, const Value& key, bool reverse);
/// A file object for open() (concrete mode). Text reads translate "\r\n" and "\r" to "\n"
/// unless `newline` is given ('' or a terminator: kept as is).
Value openFile(Machine& m, const std::string& path, const std::string& mode, bool translateNewlines = true);

/// Python float repr ("0.1", "1e-05", "inf").
std::string formatFloat(double d);
/// format(v, spec) for ints, floats, strings.
std::string applyFormatSpec(Machine& m, const Value& v, std::string_view spec);
/// "fmt" % args
std::string percentFormat(Machine& m, std::string_view fmt, const Value& args);
/// "fmt".format(*args, **kwargs)
std::string strFormat(Machine& m, std::string_view fmt, const std::vector<Value>& args, const KwArgs& kwargs);
/// repr of a str.
std::string reprString(std::string_view s);

}  // namespace tlens::interp
