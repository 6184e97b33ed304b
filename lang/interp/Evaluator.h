// Evaluator: the sixth layer of the interpreter's Machine (Machine.h lists the layers). Runs
// the syntax tree: statements (ExecStatements.cpp, ExecCompound.cpp, ExecDefinitions.cpp, the
// import statements of ExecImport.cpp, Assign.cpp), expressions (Eval.cpp, EvalLiterals.cpp,
// EvalCalls.cpp, EvalComprehensions.cpp), names (Names.cpp), calls of user functions and
// generators (Generators.cpp), and the joins and recovery of abstract mode (Abstract.cpp).
// Internal to lang/interp (docs/layering.md).
#pragma once

#include <unordered_set>

#include "lang/interp/Coroutine.h"
#include "lang/interp/Imports.h"

namespace tlens::interp {

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

/// A syntax error met while evaluating: the current statement is skipped.
struct SyntaxSkip {};
/// Unwinds a suspended generator's stack when it is closed or garbage collected.
struct GeneratorClose {};
/// A call unpacked an Unknown (`f(*unknown)`): its arguments, hence its result, are unknown.
struct UnknownArguments {};

class Evaluator : public Imports {
 public:
  using Imports::Imports;

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
  /// lookupName/bindName of identifier node `id` whose text is `name`: in a function, what the
  /// scope analysis says of the name is remembered per node (Code::nameBits).
  Value lookupIdentifier(TSNode id, std::string_view name);
  void bindIdentifier(TSNode id, std::string_view name, const Value& v);
  /// Code::nameBits of identifier `id` (text `name`) in function frame `f`.
  uint8_t nameBits(const Frame& f, TSNode id, std::string_view name);
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

  // ---- user functions and generators (EvalCalls.cpp, Generators.cpp) ----
  Value callFunction(const std::shared_ptr<FunctionObj>& f, std::vector<Value> args, KwArgs kwargs);
  Value runFunctionBody(FunctionObj& f, std::shared_ptr<Env> env, GeneratorState* generator);
  /// Resumes a generator with `sent` (None for next()); its next value, or null when finished.
  Value resumeGenerator(GeneratorObj& g, const Value& sent);
  /// Unwinds a suspended generator without running its Python code; never throws.
  void closeGenerator(GeneratorObj& g);
  /// generator.close(): raises GeneratorExit inside the generator.
  void closeGeneratorPython(GeneratorObj& g);

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
  /// Binds every name statement `stmt` binds (assignment, for, with, import, def, class targets,
  /// also inside its blocks, not inside nested functions) to Unknown.
  void unbindStatement(TSNode stmt, const lang::SourceFile& f);
  void joinInto(Namespace& into, const Namespace& other);

  // ---- state ----
  /// Literal values.
  std::unordered_map<NodeKey, Value, NodeKeyHash> constCache;
  /// While assigning comprehension targets: the comprehension's scope.
  Env* comprehensionTarget = nullptr;
  /// Abstract mode: try bodies being run (their exceptions must reach the handlers, so the
  /// analysis does not go on after the failed statement inside them).
  int tryDepth = 0;
  /// Of those, the ones in the user's files (not embedded modules): a shape error a native would
  /// report inside one is raised instead (Interpreter::abstractCatching), so its handlers run.
  int userTryDepth = 0;
  std::map<std::pair<const lang::SourceFile*, uint32_t>, std::shared_ptr<Code>> codes;
  // abstract mode: which function bodies ran, and the functions defined, for uncalled analysis
  std::unordered_set<const Code*> executedCodes;
  std::vector<std::weak_ptr<FunctionObj>> definedFunctions;
  /// Generators started and not finished (closed before the machine goes away).
  std::unordered_set<GeneratorObj*> liveGenerators;
};

}  // namespace tlens::interp
