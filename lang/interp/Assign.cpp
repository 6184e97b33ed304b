// Assignment: `a = b = c`, unpacking (`a, *b = xs`, nested tuples), attribute and subscript
// targets, augmented assignment (`+=` mutates lists in place, as in Python), annotated
// assignment, and `del`.
#include "lang/interp/Evaluator.h"

namespace tlens::interp {
namespace {

std::optional<BinOp> augmentedOp(std::string_view t) {
  static const std::pair<std::string_view, BinOp> kOps[] = {
      {"+=", BinOp::Add},      {"-=", BinOp::Sub},      {"*=", BinOp::Mul},     {"@=", BinOp::MatMul},
      {"/=", BinOp::TrueDiv},  {"//=", BinOp::FloorDiv}, {"%=", BinOp::Mod},     {"**=", BinOp::Pow},
      {"<<=", BinOp::LShift},  {">>=", BinOp::RShift},  {"&=", BinOp::And},     {"|=", BinOp::Or},
      {"^=", BinOp::Xor}};
  for (const auto& [s, op] : kOps)
    if (s == t) return op;
  return std::nullopt;
}

}  // namespace

Value Evaluator::evalAssignment(TSNode n) { return evalAssignment(n, kindOf(n)); }

Value Evaluator::evalAssignment(TSNode n, NodeKind kind) {
  const Fields& F = fields();
  auto ch = children(n);
  TSNode left = fieldIn(ch, F.left);
  const Child* rightChild = fieldChild(ch, F.right);
  TSNode right = nodeOf(rightChild);
  if (kind == NodeKind::Assignment) {
    if (frame().type == Frame::ClassFrame && kindOf(left) == NodeKind::Identifier) {
      // A class body's annotations, as text (PEP 563's form): dataclasses read their order.
      TSNode type = fieldIn(ch, F.type);
      if (!ts_node_is_null(type)) {
        Value ann = frame().locals->vars.get("__annotations__");
        if (!is<DictObj>(ann)) {
          ann = makeDict();
          frame().locals->vars.set("__annotations__", ann);
        }
        static_cast<DictObj*>(ann.get())->setStr(text(left), makeStr(std::string(text(type))));
      }
    }
    if (ts_node_is_null(right)) return none();  // `x: int` binds nothing
    Value v;
    NodeKind rk = kindOfSymbol(rightChild->symbol);
    if (rk == NodeKind::Assignment || rk == NodeKind::AugmentedAssignment) v = evalAssignment(right, rk);
    else if (rk == NodeKind::Yield) v = evalYield(right);
    else v = eval(right, rk);
    assign(left, v);
    return v;
  }
  // augmented
  const Child* opChild = fieldChild(ch, F.op);
  auto op = opChild ? augmentedOp(symbolName(opChild->symbol)) : std::nullopt;
  if (!op) return unsupported(n, "this operator");
  switch (kindOf(left)) {
    case NodeKind::Identifier: {
      std::string_view name = text(left);
      Value cur = lookupIdentifier(left, name);
      Value rhs = eval(right);
      frame().current = n;
      Value v = inplace(*op, cur, rhs);
      bindIdentifier(left, name, v);
      observe(left, v);
      return v;
    }
    case NodeKind::Attribute: {
      Value obj = eval(field(left, F.object));
      std::string_view name = text(field(left, F.attribute));
      Value cur = getAttr(obj, name);
      Value rhs = eval(right);
      frame().current = n;
      Value v = inplace(*op, cur, rhs);
      setAttr(obj, name, v);
      observe(left, v);
      return v;
    }
    case NodeKind::Subscript: {
      Value obj = eval(field(left, F.value));
      Value key = evalSubscriptKey(left);
      frame().current = left;
      Value cur = getItem(obj, key);
      Value rhs = eval(right);
      frame().current = n;
      Value v = inplace(*op, cur, rhs);
      setItem(obj, key, v);
      observe(left, v);
      return v;
    }
    case NodeKind::Error: throw SyntaxSkip{};
    default: return unsupported(left, "this augmented assignment target");
  }
}

void Evaluator::assignName(std::string_view name, TSNode at, const Value& v) {
  if (comprehensionTarget) comprehensionTarget->vars.set(name, v);
  else bindName(name, v);
  if (!ts_node_is_null(at)) observe(at, v);
}

void Evaluator::assign(TSNode target, const Value& v) {
  const Fields& F = fields();
  switch (kindOf(target)) {
    case NodeKind::Identifier: {
      std::string_view name = text(target);
      if (name.empty() && ts_node_is_missing(target)) throw SyntaxSkip{};
      if (comprehensionTarget) comprehensionTarget->vars.set(name, v);
      else bindIdentifier(target, name, v);
      observe(target, v);
      return;
    }
    case NodeKind::Attribute: {
      Value obj = eval(field(target, F.object));
      frame().current = target;
      setAttr(obj, text(field(target, F.attribute)), v);
      observe(target, v);
      return;
    }
    case NodeKind::Subscript: {
      Value obj = eval(field(target, F.value));
      Value key = evalSubscriptKey(target);
      frame().current = target;
      setItem(obj, key, v);
      observe(target, v);
      return;
    }
    case NodeKind::PatternList:
    case NodeKind::TuplePattern:
    case NodeKind::ListPattern:
    case NodeKind::Tuple:
    case NodeKind::List:
    case NodeKind::ExpressionList: {
      auto elems = namedChildren(target);
      size_t star = elems.size();
      for (size_t i = 0; i < elems.size(); ++i) {
        NodeKind k = kindOf(elems[i]);
        if (k == NodeKind::ListSplatPattern || k == NodeKind::ListSplat) {
          if (star != elems.size()) raise(types.syntaxError, "multiple starred expressions in assignment");
          star = i;
        }
      }
      bool starred = star != elems.size();
      std::vector<Value> items = unpack(v, elems.size(), starred, star);
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i == star) assign(firstNamedChild(elems[i]), items[i]);
        else assign(elems[i], items[i]);
      }
      return;
    }
    case NodeKind::ParenthesizedExpression:
    case NodeKind::AsPatternTarget: {
      TSNode inner = firstNamedChild(target);
      if (ts_node_is_null(inner)) throw SyntaxSkip{};
      assign(inner, v);
      return;
    }
    case NodeKind::Error: throw SyntaxSkip{};
    default:
      unsupported(target, "this assignment target");
      return;
  }
}

std::vector<Value> Evaluator::unpack(const Value& v, size_t count, bool starred, size_t starIndex) {
  if (isUnknown(v)) {
    std::vector<Value> out(count, unknown());
    if (starred) out[starIndex] = unknownOf(types.list);
    return out;
  }
  std::vector<Value> items;
  if (const std::vector<Value>* seq = asSequence(v)) {
    items = *seq;
  } else if (abstract() && v->kind() == Kind::Native) {
    // An abstract tensor's iteration stands for its rows with a few (loops); unpacking takes
    // exactly its known number of rows (`a, b, c = np.empty((3, n))`), by index.
    std::optional<int64_t> n;
    bool unknownLength = false;
    try {
      n = len(v);
    } catch (const NeedsKnownValue&) {
      unknownLength = true;  // rows of a known type, as many as the targets
    }
    if (unknownLength && !starred && count <= 64) {
      Value row = getItem(v, makeInt(0));
      items.assign(count, row);
    } else if (n && *n <= 64) {
      for (int64_t i = 0; i < *n; ++i) items.push_back(getItem(v, makeInt(i)));
    } else {
      items = toList(v);
    }
  } else {
    items = toList(v);
  }
  if (!starred) {
    if (items.size() > count) valueError("too many values to unpack (expected " + std::to_string(count) + ")");
    if (items.size() < count)
      valueError("not enough values to unpack (expected " + std::to_string(count) + ", got " +
                 std::to_string(items.size()) + ")");
    return items;
  }
  if (items.size() < count - 1)
    valueError("not enough values to unpack (expected at least " + std::to_string(count - 1) + ", got " +
               std::to_string(items.size()) + ")");
  std::vector<Value> out;
  size_t after = count - 1 - starIndex;
  for (size_t i = 0; i < starIndex; ++i) out.push_back(items[i]);
  std::vector<Value> rest(items.begin() + static_cast<ptrdiff_t>(starIndex),
                          items.end() - static_cast<ptrdiff_t>(after));
  out.push_back(makeList(std::move(rest)));
  for (size_t i = items.size() - after; i < items.size(); ++i) out.push_back(items[i]);
  return out;
}

void Evaluator::deleteTarget(TSNode t) {
  const Fields& F = fields();
  switch (kindOf(t)) {
    case NodeKind::Identifier: unbindName(text(t), t); return;
    case NodeKind::Attribute: delAttr(eval(field(t, F.object)), text(field(t, F.attribute))); return;
    case NodeKind::Subscript: {
      Value obj = eval(field(t, F.value));
      Value key = evalSubscriptKey(t);
      delItem(obj, key);
      return;
    }
    case NodeKind::ExpressionList:
    case NodeKind::PatternList:
    case NodeKind::Tuple:
    case NodeKind::TuplePattern:
    case NodeKind::List:
    case NodeKind::ListPattern:
      for (TSNode c : namedChildren(t)) deleteTarget(c);
      return;
    case NodeKind::ParenthesizedExpression: deleteTarget(firstNamedChild(t)); return;
    case NodeKind::Error: throw SyntaxSkip{};
    default: unsupported(t, "this del target"); return;
  }
}

}  // namespace tlens::interp
