// Syntax: fast access to tree-sitter-python nodes for the evaluator. Node types are mapped once
// from grammar symbols to the NodeKind enum (a switch, not string compares), field names to field
// ids, and children are walked with a tree cursor (ts_node_named_child(i) is linear in i, which
// would make a 50,000-statement module quadratic).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "lang/syntax/ChildCache.h"

namespace tlens::interp {

enum class NodeKind : uint8_t {
  Other,
  Error,
  Module,
  Block,
  // statements
  ExpressionStatement,
  ReturnStatement,
  PassStatement,
  BreakStatement,
  ContinueStatement,
  IfStatement,
  ElifClause,
  ElseClause,
  ForStatement,
  WhileStatement,
  TryStatement,
  ExceptClause,
  ExceptGroupClause,
  FinallyClause,
  WithStatement,
  WithClause,
  WithItem,
  FunctionDefinition,
  ClassDefinition,
  DecoratedDefinition,
  Decorator,
  RaiseStatement,
  AssertStatement,
  DeleteStatement,
  GlobalStatement,
  NonlocalStatement,
  ImportStatement,
  ImportFromStatement,
  FutureImportStatement,
  PrintStatement,
  ExecStatement,
  MatchStatement,
  TypeAliasStatement,
  // expressions
  Identifier,
  Integer,
  Float,
  String,
  ConcatenatedString,
  True,
  False,
  None,
  Ellipsis,
  Attribute,
  Subscript,
  Slice,
  Call,
  ArgumentList,
  KeywordArgument,
  ListSplat,
  DictionarySplat,
  BinaryOperator,
  UnaryOperator,
  NotOperator,
  BooleanOperator,
  ComparisonOperator,
  ConditionalExpression,
  Lambda,
  List,
  Tuple,
  Set,
  Dictionary,
  Pair,
  ListComprehension,
  SetComprehension,
  DictionaryComprehension,
  GeneratorExpression,
  ForInClause,
  IfClause,
  ParenthesizedExpression,
  ExpressionList,
  PatternList,
  TuplePattern,
  ListPattern,
  ListSplatPattern,
  DictionarySplatPattern,
  NamedExpression,
  Yield,
  Await,
  AsPattern,
  AsPatternTarget,
  Assignment,
  AugmentedAssignment,
  ParenthesizedListSplat,
  Interpolation,
  StringContent,
  StringStart,
  StringEnd,
  EscapeSequence,
  EscapeInterpolation,
  FormatSpecifier,
  FormatExpression,
  TypeConversion,
  Parameters,
  LambdaParameters,
  DefaultParameter,
  TypedParameter,
  TypedDefaultParameter,
  KeywordSeparator,
  PositionalSeparator,
  DottedName,
  AliasedImport,
  RelativeImport,
  ImportPrefix,
  WildcardImport,
  Type,
  Comment,
  Count
};

NodeKind kindOf(TSNode n);
/// The kind of a node of symbol `s` (ts_node_symbol; lang::NodeChild::symbol).
NodeKind kindOfSymbol(TSSymbol s);
/// The grammar's name of symbol `s`, what ts_node_type() gives for a node of that symbol ("+",
/// "not in", "identifier"), from a table made once: operators are told apart from their child
/// entry's symbol (lang::NodeChild::symbol) without reading the node or measuring a C string.
std::string_view symbolName(TSSymbol s);
/// Whether nodes of symbol `s` are named (ts_node_is_named of such a node).
bool symbolIsNamed(TSSymbol s);

struct Fields {
  TSFieldId left, right, value, name, body, condition, consequence, alternative, function, arguments,
      object, attribute, subscript, op, argument, key, alias, parameters, superclasses, definition,
      cause, type, moduleName, operators, expression, formatSpecifier, typeConversion;
};
const Fields& fields();

/// The child in field `id` (the first, when a field repeats), or a null node. Memoised.
TSNode field(TSNode n, TSFieldId id);
/// ts_node_is_null without a call into the library (a null node is one without an id).
inline bool isNull(TSNode n) { return n.id == nullptr; }
inline uint32_t startByte(TSNode n) { return ts_node_start_byte(n); }
inline bool sameNode(TSNode a, TSNode b) { return a.id == b.id && a.tree == b.tree; }

/// A node's children, as a view into the tree's ChildCache; converts to a vector for a copy.
template <class View, class T>
class NodeList : public View {
 public:
  NodeList(View v) : View(v) {}
  operator std::vector<T>() const { return std::vector<T>(this->begin(), this->end()); }
};

/// Named children, comments excluded, in order. Memoised per tree (lang/syntax/ChildCache.h):
/// the view stays valid while the node's SourceFile lives.
NodeList<lang::NamedChildren, TSNode> namedChildren(TSNode n);
/// All children (named and anonymous tokens), comments excluded, with their field ids.
using Child = lang::NodeChild;
NodeList<std::span<const Child>, Child> children(TSNode n);
/// The child in field `id` among `ch` (a node's children()), or a null node: reads several
/// fields of one node with one child-list lookup (each lookup is a hash probe into the tree's
/// ChildCache, a cache miss on a large file).
/// The same as a child entry (it knows the child's kind: Machine::eval(const Child*)), or null.
inline const Child* fieldChild(std::span<const Child> ch, TSFieldId id) {
  for (const Child& c : ch)
    if (c.fieldId == id) return &c;
  return nullptr;
}
/// The node of a child entry, or a null node.
inline TSNode nodeOf(const Child* c) { return c ? c->node : TSNode{}; }
inline TSNode fieldIn(std::span<const Child> ch, TSFieldId id) { return nodeOf(fieldChild(ch, id)); }
/// The first named child that is not a comment, or a null node.
TSNode firstNamedChild(TSNode n);
/// Unwraps parenthesized expressions.
TSNode unparen(TSNode n);

}  // namespace tlens::interp
