// Operators: arithmetic with Python semantics (floor division and modulo round toward negative
// infinity, `/` is true division, ints are 64-bit and overflow raises OverflowError), sequence
// concatenation and repetition, set algebra, comparisons (chained by the evaluator), `in`, and
// dispatch to user dunders and native objects with reflected operands.
#include <cmath>

#include "lang/interp/Format.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Subclass.h"

namespace tlens::interp {

std::string_view symbol(BinOp op) {
  static const std::string_view k[] = {"+", "-", "*", "@", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"};
  return k[static_cast<int>(op)];
}
std::string_view symbol(UnaryOp op) {
  static const std::string_view k[] = {"-", "+", "~"};
  return k[static_cast<int>(op)];
}
std::string_view symbol(CmpOp op) {
  static const std::string_view k[] = {"<", "<=", "==", "!=", ">", ">="};
  return k[static_cast<int>(op)];
}
std::string_view dunder(BinOp op) {
  static const std::string_view k[] = {"__add__",      "__sub__", "__mul__", "__matmul__", "__truediv__",
                                       "__floordiv__", "__mod__", "__pow__", "__lshift__", "__rshift__",
                                       "__and__",      "__or__",  "__xor__"};
  return k[static_cast<int>(op)];
}
std::string_view reflectedDunder(BinOp op) {
  static const std::string_view k[] = {"__radd__",      "__rsub__", "__rmul__", "__rmatmul__", "__rtruediv__",
                                       "__rfloordiv__", "__rmod__", "__rpow__", "__rlshift__", "__rrshift__",
                                       "__rand__",      "__ror__",  "__rxor__"};
  return k[static_cast<int>(op)];
}
std::string_view inplaceDunder(BinOp op) {
  static const std::string_view k[] = {"__iadd__",      "__isub__", "__imul__", "__imatmul__", "__itruediv__",
                                       "__ifloordiv__", "__imod__", "__ipow__", "__ilshift__", "__irshift__",
                                       "__iand__",      "__ior__",  "__ixor__"};
  return k[static_cast<int>(op)];
}
std::string_view dunder(UnaryOp op) {
  static const std::string_view k[] = {"__neg__", "__pos__", "__invert__"};
  return k[static_cast<int>(op)];
}
std::string_view dunder(CmpOp op) {
  static const std::string_view k[] = {"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"};
  return k[static_cast<int>(op)];
}
CmpOp swapped(CmpOp op) {
  switch (op) {
    case CmpOp::Lt: return CmpOp::Gt;
    case CmpOp::Le: return CmpOp::Ge;
    case CmpOp::Gt: return CmpOp::Lt;
    case CmpOp::Ge: return CmpOp::Le;
    default: return op;
  }
}

namespace {

bool isIntLike(Kind k) { return k == Kind::Int || k == Kind::Bool; }
bool isNumber(Kind k) { return k == Kind::Int || k == Kind::Bool || k == Kind::Float; }
bool usable(const Value& v) { return v && v->kind() != Kind::NotImplemented; }

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace

Value ObjectProtocol::numericBinary(BinOp op, const Value& a, const Value& b) {
  Kind ka = a->kind(), kb = b->kind();
  if (isIntLike(ka) && isIntLike(kb)) {
    int64_t x = *asInt(a), y = *asInt(b), r = 0;
    auto overflow = [&]() -> Value {
      raise(types.overflowError, "integer overflow (tensorlens integers are 64-bit)");
    };
    switch (op) {
      case BinOp::Add: if (__builtin_add_overflow(x, y, &r)) overflow(); return makeInt(r);
      case BinOp::Sub: if (__builtin_sub_overflow(x, y, &r)) overflow(); return makeInt(r);
      case BinOp::Mul: if (__builtin_mul_overflow(x, y, &r)) overflow(); return makeInt(r);
      case BinOp::TrueDiv:
        if (y == 0) raise(types.zeroDivisionError, "division by zero");
        return makeFloat(static_cast<double>(x) / static_cast<double>(y));
      case BinOp::FloorDiv:
        if (y == 0) raise(types.zeroDivisionError, "integer division or modulo by zero");
        if (x == INT64_MIN && y == -1) overflow();
        return makeInt(floorDiv(x, y));
      case BinOp::Mod:
        if (y == 0) raise(types.zeroDivisionError, "integer modulo by zero");
        if (y == -1) return makeInt(0);
        return makeInt(floorMod(x, y));
      case BinOp::Pow: {
        if (y < 0) {
          if (x == 0) raise(types.zeroDivisionError, "0.0 cannot be raised to a negative power");
          return makeFloat(std::pow(static_cast<double>(x), static_cast<double>(y)));
        }
        int64_t res = 1, base = x;
        int64_t e = y;
        while (e > 0) {
          if (e & 1)
            if (__builtin_mul_overflow(res, base, &res)) overflow();
          e >>= 1;
          if (e > 0 && __builtin_mul_overflow(base, base, &base)) overflow();
        }
        return makeInt(res);
      }
      case BinOp::LShift:
        if (y < 0) valueError("negative shift count");
        if (x == 0) return makeInt(0);
        if (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))) overflow();
        return makeInt(static_cast<int64_t>(static_cast<uint64_t>(x) << y));
      case BinOp::RShift:
        if (y < 0) valueError("negative shift count");
        return makeInt(y >= 63 ? (x < 0 ? -1 : 0) : (x >> y));
      case BinOp::And:
        if (ka == Kind::Bool && kb == Kind::Bool) return boolean(x & y);
        return makeInt(x & y);
      case BinOp::Or:
        if (ka == Kind::Bool && kb == Kind::Bool) return boolean(x | y);
        return makeInt(x | y);
      case BinOp::Xor:
        if (ka == Kind::Bool && kb == Kind::Bool) return boolean(x ^ y);
        return makeInt(x ^ y);
      case BinOp::MatMul: return nullptr;
    }
  }
  double x = *asDouble(a), y = *asDouble(b);
  switch (op) {
    case BinOp::Add: return makeFloat(x + y);
    case BinOp::Sub: return makeFloat(x - y);
    case BinOp::Mul: return makeFloat(x * y);
    case BinOp::TrueDiv:
      if (y == 0) raise(types.zeroDivisionError, "float division by zero");
      return makeFloat(x / y);
    case BinOp::FloorDiv: {
      if (y == 0) raise(types.zeroDivisionError, "float floor division by zero");
      double m = std::fmod(x, y);
      double d = (x - m) / y;
      if (m != 0 && ((y < 0) != (m < 0))) d -= 1.0;
      double fl = std::floor(d);
      if (d - fl > 0.5) fl += 1.0;
      return makeFloat(d == 0 ? std::copysign(0.0, x / y) : fl);
    }
    case BinOp::Mod: {
      if (y == 0) raise(types.zeroDivisionError, "float modulo");
      double m = std::fmod(x, y);
      if (m != 0) {
        if ((y < 0) != (m < 0)) m += y;
      } else {
        m = std::copysign(0.0, y);
      }
      return makeFloat(m);
    }
    case BinOp::Pow:
      if (x == 0 && y < 0) raise(types.zeroDivisionError, "0.0 cannot be raised to a negative power");
      if (x < 0 && y != std::floor(y)) return unsupported(frame().current, "complex numbers");
      return makeFloat(std::pow(x, y));
    default: return nullptr;
  }
}

Value ObjectProtocol::sequenceBinary(BinOp op, const Value& a, const Value& b) {
  Kind ka = a->kind(), kb = b->kind();
  // No huge values (fits(): Unknown of the type in abstract mode, MemoryError when running).
  auto repeat = [&](const std::vector<Value>& items, int64_t n, const std::shared_ptr<ClassObj>& cls) {
    std::vector<Value> out;
    if (n <= 0 || items.empty()) return out;
    if (!fits(static_cast<double>(items.size()) * static_cast<double>(n), cls)) throw NeedsKnownValue{};
    out.reserve(items.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.insert(out.end(), items.begin(), items.end());
    return out;
  };
  if (op == BinOp::Add) {
    if (ka == Kind::Str && kb == Kind::Str) {
      const std::string &x = static_cast<StrObj*>(a.get())->value, &y = static_cast<StrObj*>(b.get())->value;
      if (!fits(static_cast<double>(x.size()) + static_cast<double>(y.size()), types.str)) return unknownOf(types.str);
      return makeStr(x + y);
    }
    if (ka == kb && (ka == Kind::List || ka == Kind::Tuple)) {
      const auto& y = *asSequence(b);
      if (!fits(static_cast<double>(asSequence(a)->size()) + static_cast<double>(y.size()), typeOf(a)))
        return unknownOf(typeOf(a));
      std::vector<Value> out = *asSequence(a);
      out.insert(out.end(), y.begin(), y.end());
      return ka == Kind::List ? makeList(std::move(out)) : makeTuple(std::move(out));
    }
  }
  if (op == BinOp::Mul) {
    const Value& seq = isIntLike(kb) ? a : b;
    const Value& count = isIntLike(kb) ? b : a;
    if (isIntLike(count->kind())) {
      int64_t n = *asInt(count);
      if (seq->kind() == Kind::Str) {
        const std::string& s = static_cast<StrObj*>(seq.get())->value;
        if (n <= 0 || s.empty()) return makeStr("");  // '' * 10**12 is '' at once, not 10**12 appends
        if (!fits(static_cast<double>(s.size()) * static_cast<double>(n), types.str)) return unknownOf(types.str);
        std::string out;
        out.reserve(s.size() * static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) out += s;
        return makeStr(std::move(out));
      }
      try {
        if (seq->kind() == Kind::List) return makeList(repeat(*asSequence(seq), n, types.list));
        if (seq->kind() == Kind::Tuple) return makeTuple(repeat(*asSequence(seq), n, types.tuple));
      } catch (NeedsKnownValue&) {
        return unknownOf(typeOf(seq));
      }
    }
  }
  if (op == BinOp::Mod && ka == Kind::Str) return makeStr(percentFormat(*this, static_cast<StrObj*>(a.get())->value, b));
  if (ka == Kind::Set && kb == Kind::Set) {
    auto* x = static_cast<SetObj*>(a.get());
    auto* y = static_cast<SetObj*>(b.get());
    auto out = makeSet();
    out->frozen = x->frozen;
    switch (op) {
      case BinOp::Or:
        for (const Value& v : x->items()) out->add(api, v);
        for (const Value& v : y->items()) out->add(api, v);
        return out;
      case BinOp::And:
        for (const Value& v : x->items())
          if (y->contains(api, v)) out->add(api, v);
        return out;
      case BinOp::Sub:
        for (const Value& v : x->items())
          if (!y->contains(api, v)) out->add(api, v);
        return out;
      case BinOp::Xor:
        for (const Value& v : x->items())
          if (!y->contains(api, v)) out->add(api, v);
        for (const Value& v : y->items())
          if (!x->contains(api, v)) out->add(api, v);
        return out;
      default: break;
    }
  }
  if (op == BinOp::Or && ka == Kind::Dict && kb == Kind::Dict) {
    auto out = makeDict();
    for (const auto& e : static_cast<DictObj*>(a.get())->entries()) out->set(api, e.key, e.value);
    for (const auto& e : static_cast<DictObj*>(b.get())->entries()) out->set(api, e.key, e.value);
    return out;
  }
  return nullptr;
}

Value ObjectProtocol::binary(BinOp op, const Value& a, const Value& b) {
  Kind ka = a->kind(), kb = b->kind();
  // A user subclass of int, float or str (Subclass.h) that defines the operator runs it first;
  // the built-in's arithmetic is the fallback, as when it returns NotImplemented.
  if (SubclassPart* pa = subclassPart(a))
    if (Value f = userAttr(*pa->cls, dunder(op))) {
      Value r = call(bindMethod(f, a, pa->cls.get()), {b}, {});
      if (usable(r)) return r;
    }
  if (SubclassPart* pb = subclassPart(b))
    if (Value f = userAttr(*pb->cls, reflectedDunder(op))) {
      Value r = call(bindMethod(f, b, pb->cls.get()), {a}, {});
      if (usable(r)) return r;
    }
  if (isNumber(ka) && isNumber(kb)) {
    if (Value r = numericBinary(op, a, b)) return r;
  } else if (ka != Kind::Instance && ka != Kind::Native && kb != Kind::Instance && kb != Kind::Native &&
             ka != Kind::Unknown && kb != Kind::Unknown) {
    if (Value r = sequenceBinary(op, a, b)) return r;
  }
  if (ka == Kind::Instance) {
    Value r = callDunder(a, dunder(op), {b});
    if (usable(r)) return r;
  } else if (ka == Kind::Native) {
    Value r = libraryCall([&] { return static_cast<NativeObject*>(a.get())->binaryOp(api, op, b, false); });
    if (usable(r)) return r;
  }
  if (kb == Kind::Instance) {
    Value r = callDunder(b, reflectedDunder(op), {a});
    if (usable(r)) return r;
  } else if (kb == Kind::Native) {
    Value r = libraryCall([&] { return static_cast<NativeObject*>(b.get())->binaryOp(api, op, a, true); });
    if (usable(r)) return r;
    // "%d" % native: a native right operand that does not define % formats like any object.
    if (op == BinOp::Mod && ka == Kind::Str) return makeStr(percentFormat(*this, static_cast<StrObj*>(a.get())->value, b));
  }
  if (ka == Kind::Unknown || kb == Kind::Unknown) {
    // Numbers of unknown value keep their type where Python's is fixed: int op int is an int
    // (but / is a float, and ** may be either), with a float a float. np.array of a list of them
    // then has numpy's dtype and shape.
    auto numClass = [&](const Value& v, Kind k) -> int {  // 1 int or bool, 2 float, 0 other
      if (k == Kind::Int || k == Kind::Bool) return 1;
      if (k == Kind::Float) return 2;
      if (auto* u = as<UnknownObj>(v); u && u->type)
        return u->type == types.int_ || u->type == types.bool_ ? 1 : u->type == types.float_ ? 2 : 0;
      return 0;
    };
    const int ca = numClass(a, ka), cb = numClass(b, kb);
    if (ca && cb && op != BinOp::MatMul) {
      const bool intOnly = op == BinOp::LShift || op == BinOp::RShift || op == BinOp::And || op == BinOp::Or || op == BinOp::Xor;
      if (ca == 1 && cb == 1 && op != BinOp::TrueDiv && op != BinOp::Pow) return unknownOf(types.int_);
      if ((ca == 2 || cb == 2) && !intOnly) return unknownOf(types.float_);
      if (op == BinOp::TrueDiv) return unknownOf(types.float_);
    }
    return unknown();
  }
  if (abstract()) {
    auto* ia = as<InstanceObj>(a);
    auto* ib = as<InstanceObj>(b);
    if ((ia && ia->cls->unknownBase) || (ib && ib->cls->unknownBase)) return unknown();
  }
  if (op == BinOp::Add && ka == Kind::Str) typeError("can only concatenate str (not \"" + typeName(b) + "\") to str");
  if (op == BinOp::Add && (ka == Kind::List || ka == Kind::Tuple))
    typeError("can only concatenate " + typeName(a) + " (not \"" + typeName(b) + "\") to " + typeName(a));
  if (op == BinOp::Pow)
    typeError("unsupported operand type(s) for ** or pow(): '" + typeName(a) + "' and '" + typeName(b) + "'");
  typeError("unsupported operand type(s) for " + std::string(symbol(op)) + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
}

Value ObjectProtocol::inplace(BinOp op, const Value& a, const Value& b) {
  switch (a->kind()) {
    case Kind::List: {
      auto* l = static_cast<ListObj*>(a.get());
      if (op == BinOp::Add) {
        if (isUnknown(b)) return unknownOf(types.list);
        std::vector<Value> more = toList(b);
        if (!fits(static_cast<double>(l->items.size()) + static_cast<double>(more.size()), types.list))
          return unknownOf(types.list);
        l->items.insert(l->items.end(), more.begin(), more.end());
        return a;
      }
      if (op == BinOp::Mul && asInt(b)) {
        int64_t n = *asInt(b);
        if (n > 0 && !fits(static_cast<double>(l->items.size()) * static_cast<double>(n), types.list))
          return unknownOf(types.list);
        std::vector<Value> orig = l->items;
        l->items.clear();
        if (!orig.empty())  // [] *= 10**12 stays [] at once
          for (int64_t i = 0; i < n; ++i) l->items.insert(l->items.end(), orig.begin(), orig.end());
        return a;
      }
      break;
    }
    case Kind::Set: {
      auto* s = static_cast<SetObj*>(a.get());
      if (s->frozen || b->kind() != Kind::Set) break;
      Value r = sequenceBinary(op, a, b);
      if (!r) break;
      s->table = static_cast<SetObj*>(r.get())->table;
      return a;
    }
    case Kind::Dict:
      if (op == BinOp::Or && b->kind() == Kind::Dict) {
        auto* d = static_cast<DictObj*>(a.get());
        for (const auto& e : static_cast<DictObj*>(b.get())->entries()) d->set(api, e.key, e.value);
        return a;
      }
      break;
    case Kind::Instance: {
      Value r = callDunder(a, inplaceDunder(op), {b});
      if (usable(r)) return r;
      break;
    }
    case Kind::Native: {
      Value r = static_cast<NativeObject*>(a.get())->inplaceOp(api, op, b);
      if (usable(r)) return r;
      break;
    }
    default: break;
  }
  return binary(op, a, b);
}

Value ObjectProtocol::unary(UnaryOp op, const Value& v) {
  switch (v->kind()) {
    case Kind::Int:
    case Kind::Bool: {
      int64_t x = *asInt(v);
      if (op == UnaryOp::Neg) {
        if (x == INT64_MIN) raise(types.overflowError, "integer overflow (tensorlens integers are 64-bit)");
        return makeInt(-x);
      }
      if (op == UnaryOp::Pos) return makeInt(x);
      return makeInt(~x);
    }
    case Kind::Float: {
      double x = static_cast<FloatObj*>(v.get())->value;
      if (op == UnaryOp::Neg) return makeFloat(-x);
      if (op == UnaryOp::Pos) return v;
      break;
    }
    case Kind::Instance: {
      Value r = callDunder(v, dunder(op), {});
      if (r) return r;
      if (abstract() && static_cast<InstanceObj*>(v.get())->cls->unknownBase) return unknown();
      break;
    }
    case Kind::Native: {
      Value r = static_cast<NativeObject*>(v.get())->unaryOp(api, op);
      if (usable(r)) return r;
      break;
    }
    case Kind::Unknown: return unknown();
    default: break;
  }
  typeError("bad operand type for unary " + std::string(symbol(op)) + ": '" + typeName(v) + "'");
}

Value ObjectProtocol::compare(CmpOp op, const Value& a, const Value& b) {
  Kind ka = a->kind(), kb = b->kind();
  if (SubclassPart* pa = subclassPart(a))
    if (Value f = userAttr(*pa->cls, dunder(op))) {
      Value r = call(bindMethod(f, a, pa->cls.get()), {b}, {});
      if (usable(r)) return r;
    }
  if (SubclassPart* pb = subclassPart(b))
    if (Value f = userAttr(*pb->cls, dunder(swapped(op)))) {
      Value r = call(bindMethod(f, b, pb->cls.get()), {a}, {});
      if (usable(r)) return r;
    }
  if (isNumber(ka) && isNumber(kb)) {
    bool r;
    if (ka != Kind::Float && kb != Kind::Float) {
      int64_t x = *asInt(a), y = *asInt(b);
      switch (op) {
        case CmpOp::Lt: r = x < y; break;
        case CmpOp::Le: r = x <= y; break;
        case CmpOp::Eq: r = x == y; break;
        case CmpOp::Ne: r = x != y; break;
        case CmpOp::Gt: r = x > y; break;
        default: r = x >= y; break;
      }
    } else {
      double x = *asDouble(a), y = *asDouble(b);
      switch (op) {
        case CmpOp::Lt: r = x < y; break;
        case CmpOp::Le: r = x <= y; break;
        case CmpOp::Eq: r = x == y; break;
        case CmpOp::Ne: r = x != y; break;
        case CmpOp::Gt: r = x > y; break;
        default: r = x >= y; break;
      }
    }
    return boolean(r);
  }
  // User and native operands first: they may return anything (a tensor of booleans).
  if (ka == Kind::Instance) {
    Value r = callDunder(a, dunder(op), {b});
    if (usable(r)) return r;
  } else if (ka == Kind::Native) {
    Value r = static_cast<NativeObject*>(a.get())->compare(api, op, b, false);
    if (usable(r)) return r;
  }
  if (kb == Kind::Instance) {
    Value r = callDunder(b, dunder(swapped(op)), {a});
    if (usable(r)) return r;
  } else if (kb == Kind::Native) {
    Value r = static_cast<NativeObject*>(b.get())->compare(api, op, a, true);
    if (usable(r)) return r;
  }
  if (op == CmpOp::Eq || op == CmpOp::Ne) {
    Truth t;
    if (ka == Kind::Instance || kb == Kind::Instance || ka == Kind::Native || kb == Kind::Native)
      t = a.get() == b.get() ? Truth::True : Truth::False;
    else
      t = equal(a, b);
    if (t == Truth::Unknown) return unknownOf(types.bool_);
    return boolean((t == Truth::True) == (op == CmpOp::Eq));
  }
  if (ka == Kind::Unknown || kb == Kind::Unknown) return unknownOf(types.bool_);
  auto result = [&](int c) {
    switch (op) {
      case CmpOp::Lt: return boolean(c < 0);
      case CmpOp::Le: return boolean(c <= 0);
      case CmpOp::Gt: return boolean(c > 0);
      default: return boolean(c >= 0);
    }
  };
  if (ka == Kind::Str && kb == Kind::Str) {
    int c = static_cast<StrObj*>(a.get())->value.compare(static_cast<StrObj*>(b.get())->value);
    return result(c < 0 ? -1 : c > 0 ? 1 : 0);
  }
  if (ka == kb && (ka == Kind::List || ka == Kind::Tuple)) {
    checkStack();
    const auto& x = *asSequence(a);
    const auto& y = *asSequence(b);
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
      Value xi = x[i], yi = y[i];
      Truth t = equal(xi, yi);
      if (t == Truth::Unknown) return unknownOf(types.bool_);
      if (t == Truth::False) return compare(op, xi, yi);
    }
    return result(x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0);
  }
  if (ka == Kind::Set && kb == Kind::Set) {
    auto* x = static_cast<SetObj*>(a.get());
    auto* y = static_cast<SetObj*>(b.get());
    auto subset = [&](SetObj* p, SetObj* q) {
      for (const Value& v : p->items())
        if (!q->contains(api, v)) return false;
      return true;
    };
    switch (op) {
      case CmpOp::Le: return boolean(subset(x, y));
      case CmpOp::Lt: return boolean(x->size() < y->size() && subset(x, y));
      case CmpOp::Ge: return boolean(subset(y, x));
      default: return boolean(x->size() > y->size() && subset(y, x));
    }
  }
  if (abstract()) {
    auto* ia = as<InstanceObj>(a);
    auto* ib = as<InstanceObj>(b);
    if ((ia && ia->cls->unknownBase) || (ib && ib->cls->unknownBase)) return unknownOf(types.bool_);
  }
  typeError("'" + std::string(symbol(op)) + "' not supported between instances of '" + typeName(a) + "' and '" +
            typeName(b) + "'");
}

Truth ObjectProtocol::contains(const Value& c, const Value& item) {
  switch (c->kind()) {
    case Kind::Str: {
      if (isUnknown(item)) return Truth::Unknown;
      const std::string* s = asString(item);
      if (!s) typeError("'in <string>' requires string as left operand, not " + typeName(item));
      return static_cast<StrObj*>(c.get())->value.find(*s) != std::string::npos ? Truth::True : Truth::False;
    }
    case Kind::List:
    case Kind::Tuple: {
      Truth res = Truth::False;
      const auto& items = *asSequence(c);
      for (size_t i = 0; i < items.size(); ++i) {  // by index: __eq__ may mutate the list
        Value v = items[i];
        Truth t = equal(v, item);
        if (t == Truth::True) return t;
        if (t == Truth::Unknown) res = t;
      }
      return res;
    }
    case Kind::Dict: {
      auto* d = static_cast<DictObj*>(c.get());
      if (isUnknown(item)) return Truth::Unknown;
      if (d->get(api, item)) return Truth::True;
      return d->imprecise ? Truth::Unknown : Truth::False;
    }
    case Kind::Set: {
      auto* s = static_cast<SetObj*>(c.get());
      if (isUnknown(item)) return Truth::Unknown;
      if (s->contains(api, item)) return Truth::True;
      return s->imprecise ? Truth::Unknown : Truth::False;
    }
    case Kind::Range: {
      auto* r = static_cast<RangeObj*>(c.get());
      if (isUnknown(item)) return Truth::Unknown;
      auto i = asInt(item);
      if (!i) {
        auto d = asDouble(item);
        if (!d || *d != std::floor(*d)) return Truth::False;
        i = static_cast<int64_t>(*d);
      }
      int64_t n = r->length();
      if (n == 0) return Truth::False;
      int64_t off = *i - r->start;
      if (r->step > 0 ? (*i < r->start || *i >= r->stop) : (*i > r->start || *i <= r->stop)) return Truth::False;
      return off % r->step == 0 ? Truth::True : Truth::False;
    }
    case Kind::Instance: {
      Value r = callDunder(c, "__contains__", {item});
      if (r) return truth(r);
      break;
    }
    case Kind::Native: {
      auto r = static_cast<NativeObject*>(c.get())->contains(api, item);
      if (r) return *r;
      break;
    }
    case Kind::Unknown: return Truth::Unknown;
    default: break;
  }
  Value it;
  try {
    it = getIter(c);
  } catch (PyError& e) {
    if (exceptionMatches(e.exc, types.typeError)) typeError("argument of type '" + typeName(c) + "' is not iterable");
    throw;
  }
  Truth res = Truth::False;
  for (;;) {
    Value v = next(it);
    if (!v) break;
    Truth t = equal(v, item);
    if (t == Truth::True) return t;
    if (t == Truth::Unknown) res = t;
  }
  return res;
}

}  // namespace tlens::interp
