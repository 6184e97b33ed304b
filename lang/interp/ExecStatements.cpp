// Simple statements and the statement dispatcher. Each statement first updates the frame's
// current node (tracebacks, call stacks), checks the time budget and notifies the statement
// observer (the debugger may block or cancel there). A syntax error met inside a statement skips
// that statement only; the error itself was reported from SourceFile.
#include "lang/interp/Evaluator.h"

namespace tlens::interp {

Flow Evaluator::execBlock(TSNode block) {
  if (ts_node_is_null(block)) return Flow::Normal;
  // The tree's child lists are memoised and never move (lang/syntax/ChildCache.h); they know
  // each statement's kind.
  lang::NamedChildren stmts = namedChildren(block);
  for (size_t i = 0; i < stmts.size(); ++i) {
    const lang::NodeChild& s = stmts.child(i);
    NodeKind kind = kindOfSymbol(s.symbol);
    Flow f;
    try {
      f = exec(s.node, kind);
    } catch (PyError& e) {
      // Abstract mode goes on after a failed statement of user code (Abstract.cpp).
      if (!recoverFrom(e.exc, s.node, kind)) throw;
      // A failed `return` still returns: what it returns is unknown (falling off the end would
      // return None, and a caller unpacking it would get a second, false warning).
      if (kind == NodeKind::ReturnStatement) {
        frame().returnValue = unknown();
        return Flow::Return;
      }
      continue;
    }
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

Flow Evaluator::exec(TSNode s, NodeKind kind) {
  frame().current = s;
  beforeStatement(s);
  try {
    switch (kind) {
      case NodeKind::ExpressionStatement: return execExpressionStatement(s);
      case NodeKind::ReturnStatement: return execReturn(s);
      case NodeKind::PassStatement: return Flow::Normal;
      case NodeKind::BreakStatement: return Flow::Break;
      case NodeKind::ContinueStatement: return Flow::Continue;
      case NodeKind::IfStatement: return execIf(s);
      case NodeKind::WhileStatement: return execWhile(s);
      case NodeKind::ForStatement: return execFor(s);
      case NodeKind::TryStatement: return execTry(s);
      case NodeKind::WithStatement: return execWith(s);
      case NodeKind::FunctionDefinition: execFunctionDef(s, {}); return Flow::Normal;
      case NodeKind::ClassDefinition: execClassDef(s, {}); return Flow::Normal;
      case NodeKind::DecoratedDefinition: execDecorated(s); return Flow::Normal;
      case NodeKind::RaiseStatement: execRaise(s); return Flow::Normal;
      case NodeKind::AssertStatement: execAssert(s); return Flow::Normal;
      case NodeKind::DeleteStatement: execDelete(s); return Flow::Normal;
      case NodeKind::GlobalStatement:
      case NodeKind::NonlocalStatement:
      case NodeKind::FutureImportStatement:
      case NodeKind::Comment:
        return Flow::Normal;
      case NodeKind::Error:  // reported by SourceFile; run what is recognisable inside
        return execRecovered(s);
      case NodeKind::ImportStatement: execImport(s); return Flow::Normal;
      case NodeKind::ImportFromStatement: execImportFrom(s); return Flow::Normal;
      case NodeKind::PrintStatement: unsupported(s, "the Python 2 print statement"); return Flow::Normal;
      case NodeKind::ExecStatement: unsupported(s, "the Python 2 exec statement"); return Flow::Normal;
      case NodeKind::MatchStatement: unsupported(s, "the match statement"); return Flow::Normal;
      case NodeKind::TypeAliasStatement: unsupported(s, "the type statement"); return Flow::Normal;
      default: unsupported(s, "this statement"); return Flow::Normal;
    }
  } catch (SyntaxSkip&) {
  } catch (NeedsKnownValue&) {
    // Abstract mode: the statement needed a value the analysis does not know. In the user's code
    // what it binds, and the containers it changes in place, become unknown rather than stay as
    // they were (a list left empty by `rows.append(...)` was a false shape error later). Trusted
    // library code keeps its bindings: it is written so that a skipped statement is harmless.
    if (approximating()) unbindStatement(s, file());
    // A `return` whose value is not known still returns, an unknown value (falling off the end
    // would return None: `return items[:n]` with an unknown n was a false "'NoneType' object is
    // not iterable" in the caller).
    if (kind == NodeKind::ReturnStatement) {
      frame().returnValue = unknown();
      return Flow::Return;
    }
  } catch (StatementEffectsUnknown&) {
    if (approximating()) unbindStatement(s, file());
  } catch (std::bad_alloc&) {
    // The allocation failed (a memory limit, prlimit): Python's MemoryError, which the program
    // may catch; what the statement built is freed by now.
    raise("MemoryError", "out of memory");
  }
  return Flow::Normal;
}

Flow Evaluator::execRecovered(TSNode error) {
  // Tree-sitter often wraps everything after a syntax error into one ERROR node. Statements it
  // still recognised inside, and calls that start a line, run; the rest is skipped.
  const lang::SourceFile& f = file();
  for (TSNode c : namedChildren(error)) {
    NodeKind k = kindOf(c);
    if (k == NodeKind::Error) {
      Flow fl = execRecovered(c);
      if (fl != Flow::Normal) return fl;
      continue;
    }
    if (ts_node_has_error(c)) continue;
    bool statement = k == NodeKind::ExpressionStatement || k == NodeKind::IfStatement || k == NodeKind::ForStatement ||
                     k == NodeKind::WhileStatement || k == NodeKind::TryStatement || k == NodeKind::WithStatement ||
                     k == NodeKind::FunctionDefinition || k == NodeKind::ClassDefinition ||
                     k == NodeKind::DecoratedDefinition || k == NodeKind::ImportStatement ||
                     k == NodeKind::ImportFromStatement || k == NodeKind::ReturnStatement || k == NodeKind::PassStatement;
    if (!statement && k != NodeKind::Call) continue;
    if (k == NodeKind::Call) {
      TSPoint p = ts_node_start_point(c);
      std::string_view line = f.lineText(static_cast<int>(p.row));
      if (line.find_first_not_of(" \t") != p.column) continue;
    }
    if (k == NodeKind::Call) {
      frame().current = c;
      beforeStatement(c);
      try {
        eval(c);
      } catch (SyntaxSkip&) {
      } catch (NeedsKnownValue&) {
      } catch (StatementEffectsUnknown&) {
      }
      continue;
    }
    Flow fl = exec(c);
    if (fl != Flow::Normal) return fl;
  }
  return Flow::Normal;
}

Flow Evaluator::execExpressionStatement(TSNode s) {
  auto ch = namedChildren(s);
  if (ch.size() == 1) {
    NodeKind k = kindOfSymbol(ch.child(0).symbol);
    if (k == NodeKind::Assignment || k == NodeKind::AugmentedAssignment) evalAssignment(ch[0], k);
    else if (k == NodeKind::Yield) evalYield(ch[0]);
    else eval(ch[0], k);
    return Flow::Normal;
  }
  for (TSNode c : ch) eval(c);
  return Flow::Normal;
}

Flow Evaluator::execReturn(TSNode s) {
  TSNode e = firstNamedChild(s);
  Value v = ts_node_is_null(e) ? none() : eval(e);
  frame().returnValue = v;
  return Flow::Return;
}

void Evaluator::execRaise(TSNode s) {
  const Fields& F = fields();
  TSNode causeNode = field(s, F.cause);
  TSNode valueNode{};
  for (const Child& c : children(s))
    if (ts_node_is_named(c.node) && c.fieldId != F.cause) {
      valueNode = c.node;
      break;
    }
  if (ts_node_is_null(valueNode)) {
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
      if ((*it)->handling) {
        Value exc = (*it)->handling;
        throw PyError(exc);
      }
    raise(types.runtimeError, "No active exception to reraise");
  }
  Value v = eval(valueNode);
  if (isUnknown(v)) {
    // Abstract: something is raised, but we do not know what.
    raise(types.exception, "unknown exception");
  }
  if (!ts_node_is_null(causeNode)) raiseValue(v, eval(causeNode), true);
  raiseValue(v);
}

void Evaluator::execAssert(TSNode s) {
  auto ch = namedChildren(s);
  if (ch.empty()) return;
  Value cond = eval(ch[0]);
  Truth t = truth(cond);
  if (t != Truth::False) return;
  std::vector<Value> args;
  if (ch.size() > 1) args.push_back(eval(ch[1]));
  raiseValue(makeException(types.assertionError, std::move(args)));
}

void Evaluator::execDelete(TSNode s) {
  for (TSNode c : namedChildren(s)) deleteTarget(c);
}

}  // namespace tlens::interp
