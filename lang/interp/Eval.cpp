// Expression evaluation: a switch over node kinds. eval() adds the depth guard (deeply nested
// expressions raise RecursionError instead of overflowing the C++ stack) and reports each value
// to the value observer. Before operations that may run native code (calls, operators,
// subscripts), the frame's current node is set, so the call stack and tracebacks point at them.
#include "lang/interp/Machine.h"

namespace tlens::interp {
namespace {

std::optional<BinOp> binOp(std::string_view t) {
  static const std::pair<std::string_view, BinOp> kOps[] = {
      {"+", BinOp::Add},      {"-", BinOp::Sub},       {"*", BinOp::Mul},   {"@", BinOp::MatMul},
      {"/", BinOp::TrueDiv},  {"//", BinOp::FloorDiv}, {"%", BinOp::Mod},   {"**", BinOp::Pow},
      {"<<", BinOp::LShift},  {">>", BinOp::RShift},   {"&", BinOp::And},   {"|", BinOp::Or},
      {"^", BinOp::Xor}};
  for (const auto& [s, op] : kOps)
    if (s == t) return op;
  return std::nullopt;
}

}  // namespace

Value Evaluator::eval(TSNode n, NodeKind kind) {
  struct Depth {
    Machine& m;
    explicit Depth(Machine& mm) : m(mm) {
      ++m.evalDepth;
      m.checkStack();
    }
    ~Depth() { --m.evalDepth; }
  } depth(self());
  Value v = evalNode(n, kind);
  if (valueObserver) observe(n, v);
  return v;
}

Value Evaluator::evalNode(TSNode n, NodeKind kind) {
  const Fields& F = fields();
  switch (kind) {
    case NodeKind::Identifier: {
      // Only a missing node (inserted by error recovery) has no text: the library is asked
      // only then.
      std::string_view name = text(n);
      if (name.empty() && ts_node_is_missing(n)) throw SyntaxSkip{};
      return lookupIdentifier(n, name);
    }
    case NodeKind::Integer: return evalInteger(n);
    case NodeKind::Float: return evalFloat(n);
    case NodeKind::String: return evalString(n);
    case NodeKind::ConcatenatedString: return evalConcatenated(n);
    case NodeKind::True: return boolean(true);
    case NodeKind::False: return boolean(false);
    case NodeKind::None: return none();
    case NodeKind::Ellipsis: return ellipsis();
    case NodeKind::Attribute: return evalAttribute(n);
    case NodeKind::Subscript: return evalSubscript(n);
    case NodeKind::Call: return evalCall(n);
    case NodeKind::BinaryOperator: return evalBinary(n);
    case NodeKind::UnaryOperator: return evalUnary(n);
    case NodeKind::NotOperator: {
      Truth t = truth(eval(field(n, F.argument)));
      if (t == Truth::Unknown) return unknownOf(types.bool_);
      return boolean(t == Truth::False);
    }
    case NodeKind::BooleanOperator: return evalBoolean(n);
    case NodeKind::ComparisonOperator: return evalComparison(n);
    case NodeKind::ConditionalExpression: return evalConditional(n);
    case NodeKind::Lambda: return evalLambda(n);
    case NodeKind::List: return evalSequenceDisplay(n, Kind::List);
    case NodeKind::Tuple: return evalSequenceDisplay(n, Kind::Tuple);
    case NodeKind::Set: return evalSequenceDisplay(n, Kind::Set);
    case NodeKind::ExpressionList:
    case NodeKind::PatternList: return evalSequenceDisplay(n, Kind::Tuple);
    case NodeKind::Dictionary: return evalDict(n);
    case NodeKind::ListComprehension:
    case NodeKind::SetComprehension:
    case NodeKind::DictionaryComprehension:
    case NodeKind::GeneratorExpression: return evalComprehension(n);
    case NodeKind::ParenthesizedExpression: {
      TSNode inner = unparen(n);  // ((((x)))) without recursing once per level
      if (sameNode(inner, n)) throw SyntaxSkip{};
      if (kindOf(inner) == NodeKind::Yield) return evalYield(inner);
      return eval(inner);
    }
    case NodeKind::NamedExpression: return evalNamed(n);
    case NodeKind::Yield: return evalYield(n);
    case NodeKind::Await: return unsupported(n, "await");
    case NodeKind::Assignment:
    case NodeKind::AugmentedAssignment: return evalAssignment(n);
    case NodeKind::Error: throw SyntaxSkip{};
    case NodeKind::KeywordArgument: throw SyntaxSkip{};
    case NodeKind::ListSplat:
    case NodeKind::DictionarySplat:
    case NodeKind::ParenthesizedListSplat: return unsupported(n, "a starred expression here");
    default:
      if (ts_node_is_missing(n)) throw SyntaxSkip{};
      if (ts_node_has_error(n)) throw SyntaxSkip{};
      return unsupported(n, std::string("the expression '") + ts_node_type(n) + "'");
  }
}

Value Evaluator::evalAttribute(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  Value obj = eval(fieldChild(ch, F.object));
  TSNode attr = fieldIn(ch, F.attribute);
  if (ts_node_is_null(attr) || ts_node_is_missing(attr)) throw SyntaxSkip{};
  frame().current = n;
  return getAttr(obj, text(attr));
}

Value Evaluator::evalSubscriptKey(TSNode n) {
  const Fields& F = fields();
  std::vector<Value> keys;
  bool comma = false;
  bool afterOpen = false;
  for (const Child& c : children(n)) {
    if (c.fieldId == F.subscript) {
      keys.push_back(kindOf(c.node) == NodeKind::Slice ? evalSlice(c.node) : eval(c.node));
    } else if (!symbolIsNamed(c.symbol)) {
      std::string_view t = symbolName(c.symbol);
      if (t == "[") afterOpen = true;
      else if (t == "," && afterOpen) comma = true;
    }
  }
  if (keys.size() == 1 && !comma) return keys[0];
  if (keys.empty()) throw SyntaxSkip{};
  return makeTuple(std::move(keys));
}

Value Evaluator::evalSlice(TSNode n) {
  Value parts[3] = {none(), none(), none()};
  int idx = 0;
  for (const Child& c : children(n)) {
    if (!symbolIsNamed(c.symbol)) {
      if (symbolName(c.symbol) == ":") ++idx;
      continue;
    }
    if (idx < 3) parts[idx] = eval(c.node);
  }
  return std::make_shared<SliceObj>(parts[0], parts[1], parts[2]);
}

Value Evaluator::evalSubscript(TSNode n) {
  const Fields& F = fields();
  Value obj = eval(field(n, F.value));
  Value key = evalSubscriptKey(n);
  frame().current = n;
  return getItem(obj, key);
}

Value Evaluator::evalBinary(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  const Child* opChild = fieldChild(ch, F.op);
  auto op = opChild ? binOp(symbolName(opChild->symbol)) : std::nullopt;
  Value l = eval(fieldChild(ch, F.left));
  Value r = eval(fieldChild(ch, F.right));
  if (!op) return unsupported(n, "this operator");
  frame().current = n;
  return binary(*op, l, r);
}

Value Evaluator::evalUnary(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  const Child* opChild = fieldChild(ch, F.op);
  std::string_view t = opChild ? symbolName(opChild->symbol) : std::string_view();
  TSNode arg = fieldIn(ch, F.argument);
  // Fold negative literals (-1 is common and must not allocate twice).
  if (t == "-" && kindOf(arg) == NodeKind::Integer) {
    NodeKey key(n);
    auto it = constCache.find(key);
    if (it != constCache.end()) return it->second;
    Value v = unary(UnaryOp::Neg, eval(arg));
    constCache.emplace(key, v);
    return v;
  }
  Value v = eval(arg);
  frame().current = n;
  if (t == "-") return unary(UnaryOp::Neg, v);
  if (t == "+") return unary(UnaryOp::Pos, v);
  if (t == "~") return unary(UnaryOp::Invert, v);
  return unsupported(n, "this operator");
}

Value Evaluator::evalBoolean(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  const Child* opChild = fieldChild(ch, F.op);
  bool isAnd = opChild && symbolName(opChild->symbol) == "and";
  Value l = eval(fieldChild(ch, F.left));
  Truth t = branchTruth(l);
  TSNode right = fieldIn(ch, F.right);
  if (isAnd) {
    if (t == Truth::False) return l;
    if (t == Truth::True) return eval(right);
  } else {
    if (t == Truth::True) return l;
    if (t == Truth::False) return eval(right);
  }
  return join(l, eval(right));
}

Value Evaluator::evalComparison(TSNode n) {
  const Fields& F = fields();
  // Operands and operators alternate among the children (comments aside): `a < b <= c`. They
  // are read from the child list in place (two vectors per comparison before).
  auto ch = children(n);
  size_t nOps = 0, nOperands = 0;
  for (const Child& c : ch) {
    if (c.fieldId == F.operators) ++nOps;
    else if (symbolIsNamed(c.symbol)) ++nOperands;
  }
  if (nOperands != nOps + 1 || nOps == 0) throw SyntaxSkip{};
  size_t at = 0;  // the next child to read
  auto nextOperand = [&]() -> const Child& {
    while (ch[at].fieldId == F.operators || !symbolIsNamed(ch[at].symbol)) ++at;
    return ch[at++];
  };
  auto nextOp = [&]() -> std::string_view {
    while (ch[at].fieldId != F.operators) ++at;
    return symbolName(ch[at++].symbol);
  };
  Value left = eval(nextOperand().node);
  bool unknownSoFar = false;
  Value result;
  for (size_t i = 0; i < nOps; ++i) {
    std::string_view op = nextOp();
    Value right = eval(nextOperand().node);
    frame().current = n;
    Value r;
    if (op == "<") r = compare(CmpOp::Lt, left, right);
    else if (op == "<=") r = compare(CmpOp::Le, left, right);
    else if (op == "==") r = compare(CmpOp::Eq, left, right);
    else if (op == "!=" || op == "<>") r = compare(CmpOp::Ne, left, right);
    else if (op == ">") r = compare(CmpOp::Gt, left, right);
    else if (op == ">=") r = compare(CmpOp::Ge, left, right);
    else if (op == "in" || op == "not in") {
      Truth t = contains(right, left);
      if (op == "not in" && t != Truth::Unknown) t = t == Truth::True ? Truth::False : Truth::True;
      r = t == Truth::Unknown ? unknownOf(types.bool_) : boolean(t == Truth::True);
    } else if (op == "is" || op == "is not") {
      bool same = identical(left, right);
      if (!same && (isUnknown(left) || isUnknown(right))) r = unknownOf(types.bool_);
      else r = boolean(op == "is" ? same : !same);
    } else {
      return unsupported(n, "this comparison");
    }
    if (i + 1 == nOps) return unknownSoFar ? join(result, r) : r;
    Truth t = truth(r);
    if (t == Truth::False) return r;
    if (t == Truth::Unknown) {
      unknownSoFar = true;
      result = r;
    }
    left = right;
  }
  return result;
}

Value Evaluator::evalConditional(TSNode n) {
  auto ch = namedChildren(n);
  if (ch.size() != 3) throw SyntaxSkip{};
  Truth t = branchTruth(eval(ch[1]));
  if (t == Truth::True) return eval(ch[0]);
  if (t == Truth::False) return eval(ch[2]);
  return join(eval(ch[0]), eval(ch[2]));
}

Value Evaluator::evalSequenceDisplay(TSNode n, Kind kind) {
  std::vector<Value> items;
  bool unknownLength = false;
  for (TSNode c : namedChildren(n)) {
    NodeKind k = kindOf(c);
    if (k == NodeKind::ListSplat || k == NodeKind::ParenthesizedListSplat) {
      TSNode inner = firstNamedChild(c);
      if (k == NodeKind::ParenthesizedListSplat && kindOf(inner) == NodeKind::ListSplat) inner = firstNamedChild(inner);
      Value v = eval(inner);
      if (isUnknown(v)) {
        unknownLength = true;
        continue;
      }
      for (Value& x : toList(v)) items.push_back(std::move(x));
    } else if (k == NodeKind::Yield) {
      items.push_back(evalYield(c));
    } else {
      items.push_back(eval(c, k));
    }
  }
  if (kind == Kind::List) return unknownLength ? unknownOf(types.list) : makeList(std::move(items));
  if (kind == Kind::Tuple) return unknownLength ? unknownOf(types.tuple) : makeTuple(std::move(items));
  if (unknownLength) return unknownOf(types.set);
  auto s = makeSet();
  for (const Value& v : items) {
    if (isUnknown(v)) {
      s->imprecise = true;
      continue;
    }
    s->add(api, v);
  }
  return s;
}

Value Evaluator::evalDict(TSNode n) {
  const Fields& F = fields();
  auto d = makeDict();
  for (TSNode c : namedChildren(n)) {
    NodeKind ck = kindOf(c);
    if (ck == NodeKind::Pair) {
      auto pair = children(c);
      Value k = eval(fieldChild(pair, F.key));
      Value v = eval(fieldChild(pair, F.value));
      if (isUnknown(k)) d->imprecise = true;
      else d->set(api, k, v);
    } else if (ck == NodeKind::DictionarySplat) {
      Value src = eval(firstNamedChild(c));
      if (isUnknown(src)) {
        d->imprecise = true;
        continue;
      }
      if (auto* sd = as<DictObj>(src)) {
        for (const auto& e : sd->entries()) d->set(api, e.key, e.value);
      } else {
        for (const Value& k : toList(callMethod(src, "keys", {}))) d->set(api, k, getItem(src, k));
      }
    } else if (ck == NodeKind::Error) {
      throw SyntaxSkip{};
    }
  }
  return d;
}

Value Evaluator::evalNamed(TSNode n) {
  const Fields& F = fields();
  auto ch = children(n);
  Value v = eval(fieldChild(ch, F.value));
  TSNode name = fieldIn(ch, F.name);
  bindName(text(name), v);
  observe(name, v);
  return v;
}


}  // namespace tlens::interp
