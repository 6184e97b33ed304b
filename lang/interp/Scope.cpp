// Scope analysis: which names a function body binds (its locals), and which it declares global
// or nonlocal. Done once per `def`/`lambda` node with an explicit stack (deeply nested code must
// not overflow the C++ stack). Nested functions, classes, lambdas and comprehensions have their
// own scopes and are not entered; their names (for def/class) are bound here.
#include "lang/interp/CallStack.h"

namespace tlens::interp {

void targetNames(TSNode target, const lang::SourceFile& file, std::vector<std::string>& out) {
  std::vector<TSNode> stack{target};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    switch (kindOf(n)) {
      case NodeKind::Identifier:
        out.emplace_back(file.textOf(n));
        break;
      case NodeKind::PatternList:
      case NodeKind::TuplePattern:
      case NodeKind::ListPattern:
      case NodeKind::Tuple:
      case NodeKind::List:
      case NodeKind::ExpressionList:
      case NodeKind::ParenthesizedExpression:
      case NodeKind::AsPatternTarget:
      case NodeKind::ListSplatPattern:
      case NodeKind::ListSplat: {
        auto ch = namedChildren(n);
        for (auto it = ch.rbegin(); it != ch.rend(); ++it) stack.push_back(*it);
        break;
      }
      default:
        break;
    }
  }
}

namespace {

TSNode paramIdentifier(TSNode p) {
  const Fields& F = fields();
  switch (kindOf(p)) {
    case NodeKind::Identifier: return p;
    case NodeKind::DefaultParameter:
    case NodeKind::TypedDefaultParameter: return field(p, F.name);
    case NodeKind::TypedParameter:
    case NodeKind::ListSplatPattern:
    case NodeKind::DictionarySplatPattern: {
      TSNode c = firstNamedChild(p);
      return ts_node_is_null(c) ? c : paramIdentifier(c);
    }
    default: return TSNode{};
  }
}

}  // namespace

ScopeInfo analyzeScope(TSNode fn, const lang::SourceFile& file) {
  const Fields& F = fields();
  ScopeInfo s;
  std::vector<std::string> bound;
  auto fnChildren = children(fn);
  for (TSNode p : namedChildren(fieldIn(fnChildren, F.parameters))) {
    TSNode id = paramIdentifier(p);
    if (!ts_node_is_null(id)) bound.emplace_back(file.textOf(id));
  }
  std::vector<TSNode> stack{fieldIn(fnChildren, F.body)};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    switch (kindOf(n)) {
      case NodeKind::FunctionDefinition:
      case NodeKind::ClassDefinition: {
        TSNode name = field(n, F.name);
        if (!ts_node_is_null(name)) bound.emplace_back(file.textOf(name));
        break;
      }
      case NodeKind::Lambda:
      case NodeKind::ListComprehension:
      case NodeKind::SetComprehension:
      case NodeKind::DictionaryComprehension:
      case NodeKind::GeneratorExpression:
        break;
      case NodeKind::Assignment:
      case NodeKind::AugmentedAssignment: {
        auto ch = children(n);
        targetNames(fieldIn(ch, F.left), file, bound);
        stack.push_back(fieldIn(ch, F.right));
        break;
      }
      case NodeKind::ForStatement: {
        auto ch = children(n);
        targetNames(fieldIn(ch, F.left), file, bound);
        stack.push_back(fieldIn(ch, F.right));
        stack.push_back(fieldIn(ch, F.body));
        stack.push_back(fieldIn(ch, F.alternative));
        break;
      }
      case NodeKind::AsPattern:
        targetNames(field(n, F.alias), file, bound);
        for (TSNode c : namedChildren(n)) stack.push_back(c);
        break;
      case NodeKind::ExceptClause: {
        TSNode alias = field(n, F.alias);
        if (!ts_node_is_null(alias)) targetNames(alias, file, bound);
        for (TSNode c : namedChildren(n)) stack.push_back(c);
        break;
      }
      case NodeKind::ImportStatement:
        for (TSNode c : namedChildren(n)) {
          if (kindOf(c) == NodeKind::AliasedImport) {
            bound.emplace_back(file.textOf(field(c, F.alias)));
          } else if (kindOf(c) == NodeKind::DottedName) {
            TSNode first = firstNamedChild(c);
            if (!ts_node_is_null(first)) bound.emplace_back(file.textOf(first));
          }
        }
        break;
      case NodeKind::ImportFromStatement: {
        TSNode mod = field(n, F.moduleName);
        for (TSNode c : namedChildren(n)) {
          if (sameNode(c, mod)) continue;
          if (kindOf(c) == NodeKind::AliasedImport) bound.emplace_back(file.textOf(field(c, F.alias)));
          else if (kindOf(c) == NodeKind::DottedName) bound.emplace_back(file.textOf(c));
        }
        break;
      }
      case NodeKind::DeleteStatement:
        for (TSNode c : namedChildren(n)) targetNames(c, file, bound);
        break;
      case NodeKind::GlobalStatement:
        for (TSNode c : namedChildren(n)) s.globals.emplace(file.textOf(c));
        break;
      case NodeKind::NonlocalStatement:
        for (TSNode c : namedChildren(n)) s.nonlocals.emplace(file.textOf(c));
        break;
      case NodeKind::NamedExpression:
        bound.emplace_back(file.textOf(field(n, F.name)));
        stack.push_back(field(n, F.value));
        break;
      case NodeKind::Yield:
        s.isGenerator = true;
        for (TSNode c : namedChildren(n)) stack.push_back(c);
        break;
      case NodeKind::DecoratedDefinition:
        stack.push_back(field(n, F.definition));
        break;
      default:
        for (TSNode c : namedChildren(n)) stack.push_back(c);
        break;
    }
  }
  for (auto& b : bound)
    if (!s.globals.count(b) && !s.nonlocals.count(b)) s.locals.insert(std::move(b));
  return s;
}

}  // namespace tlens::interp
