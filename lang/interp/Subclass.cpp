// User subclasses of int, float and str (Subclass.h).
#include "lang/interp/Subclass.h"

#include "lang/interp/ObjectProtocol.h"

namespace tlens::interp {

std::shared_ptr<ClassObj> valueBase(ObjectProtocol& m, const ClassObj& cls) {
  for (const auto& c : cls.mro)
    if (c == m.types.str || c == m.types.int_ || c == m.types.float_) return c;
  return nullptr;
}

Value makeSubclassValue(const std::shared_ptr<ClassObj>& cls, const Value& plain) {
  auto part = std::make_shared<SubclassPart>();
  part->cls = cls;
  Value v;
  switch (plain->kind()) {
    case Kind::Bool:
    case Kind::Int: {
      auto o = std::make_shared<IntObj>(*asInt(plain));
      o->sub = std::move(part);
      v = o;
      break;
    }
    case Kind::Float: {
      auto o = std::make_shared<FloatObj>(static_cast<FloatObj*>(plain.get())->value);
      o->sub = std::move(part);
      v = o;
      break;
    }
    case Kind::Str: {
      auto o = std::make_shared<StrObj>(static_cast<StrObj*>(plain.get())->value);
      o->sub = std::move(part);
      v = o;
      break;
    }
    default: return plain;  // Unknown in abstract mode, or what an odd __int__ returned
  }
  track(v);  // the class may hold its own instances (enum members): a cycle to break
  return v;
}

Value instantiateValueSubclass(ObjectProtocol& m, const std::shared_ptr<ClassObj>& cls, const std::shared_ptr<ClassObj>& base,
                               std::vector<Value> args, KwArgs kwargs) {
  Value obj;
  Value newFn = userAttr(*cls, "__new__");
  if (newFn && newFn->kind() != Kind::NativeFunction) {
    Value f = is<StaticMethodObj>(newFn) ? static_cast<StaticMethodObj*>(newFn.get())->function : newFn;
    std::vector<Value> nargs{cls};
    nargs.insert(nargs.end(), args.begin(), args.end());
    obj = m.call(f, std::move(nargs), kwargs);
    if (!m.isInstance(obj, *cls)) return obj;
  } else {
    CallContext ctx(m.api, base->name, args, kwargs);
    ctx.cls = base;
    Value plain;
    try {
      plain = base->construct(ctx);
    } catch (NeedsKnownValue&) {
      return unknownOf(cls);
    }
    obj = makeSubclassValue(cls, plain);
  }
  // Only an __init__ the user wrote runs: the built-in value is complete once made.
  Value init = userAttr(*cls, "__init__");
  if (init && init->kind() != Kind::NativeFunction) {
    Value r = m.call(m.bindMethod(init, obj, cls.get()), std::move(args), std::move(kwargs));
    if (!isNone(r) && !isUnknown(r)) m.typeError("__init__() should return None, not '" + m.typeName(r) + "'");
  }
  return obj;
}

Value userAttr(const ClassObj& cls, std::string_view name) {
  for (const auto& c : cls.mro) {
    if (c->isBuiltin) continue;
    if (const Value* v = c->dict.find(name)) return *v;
  }
  return nullptr;
}

}  // namespace tlens::interp
