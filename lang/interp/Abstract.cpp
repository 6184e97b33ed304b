// Joins for abstract mode: the value of a variable that may hold `a` or `b`. Equal values stay;
// values of one known type become an Unknown of that type (a hover still says "int"); tuples join
// element-wise; native objects join through NativeObject::join (tensors join shapes); anything
// else is Unknown.
#include "lang/interp/Machine.h"

namespace tlens::interp {

Value Machine::unknownLike(const Value& v) {
  switch (v->kind()) {
    case Kind::Unknown: return v;
    case Kind::Native:
    case Kind::Module:
    case Kind::Function:
    case Kind::Class: return unknown();
    default: return unknownOf(typeOf(v));
  }
}

Value Machine::join(const Value& a, const Value& b) {
  if (!a) return b;
  if (!b) return a;
  if (a.get() == b.get()) return a;
  Kind ka = a->kind(), kb = b->kind();
  if (ka == Kind::Native) {
    if (Value r = static_cast<NativeObject*>(a.get())->join(api, b)) return r;
  }
  if (kb == Kind::Native) {
    if (Value r = static_cast<NativeObject*>(b.get())->join(api, a)) return r;
  }
  if (ka == Kind::Unknown || kb == Kind::Unknown) {
    auto ta = typeOf(a), tb = typeOf(b);
    if (ta == tb && ta != types.unknown) return ka == Kind::Unknown ? a : b;
    return unknown();
  }
  if (ka != kb) {
    bool na = ka == Kind::Int || ka == Kind::Float || ka == Kind::Bool;
    bool nb = kb == Kind::Int || kb == Kind::Float || kb == Kind::Bool;
    if (na && nb) return unknownOf(ka == Kind::Float || kb == Kind::Float ? types.float_ : types.int_);
    return unknown();
  }
  switch (ka) {
    case Kind::None: return a;
    case Kind::Bool:
    case Kind::Int:
    case Kind::Float:
    case Kind::Str:
    case Kind::Range:
      return equal(a, b) == Truth::True && typeOf(a) == typeOf(b) ? a : unknownOf(typeOf(a));
    case Kind::Tuple: {
      const auto& x = static_cast<TupleObj*>(a.get())->items;
      const auto& y = static_cast<TupleObj*>(b.get())->items;
      if (x.size() != y.size()) return unknownOf(types.tuple);
      std::vector<Value> out;
      out.reserve(x.size());
      for (size_t i = 0; i < x.size(); ++i) out.push_back(join(x[i], y[i]));
      return makeTuple(std::move(out));
    }
    case Kind::Instance: {
      auto ta = typeOf(a), tb = typeOf(b);
      return ta == tb ? unknownOf(ta) : unknown();
    }
    case Kind::List:
    case Kind::Dict:
    case Kind::Set: return unknownOf(typeOf(a));
    default: return unknown();
  }
}

void Machine::joinInto(Namespace& into, const Namespace& other) {
  other.forEach([&](const std::string& name, const Value& v) {
    Value* cur = into.find(name);
    if (!cur) into.set(name, v);
    else if (cur->get() != v.get()) *cur = join(*cur, v);
  });
}

}  // namespace tlens::interp
