// User subclasses of the built-in value types int, float and str (`class Color(str, Enum)`,
// `class Name(str)`): their instances are plain IntObj/FloatObj/StrObj values that carry a
// SubclassPart (Class.h), so every native operation treats them as the built-in value while
// `type()`, attributes and the subclass's methods, str/repr/format dunders and operator and
// comparison dunders (Operators.cpp, before the built-in's) are the class's.
#pragma once

#include "lang/interp/Class.h"

namespace tlens::interp {

class ObjectProtocol;

/// The built-in value type (int, float or str) `cls` derives from, or null.
std::shared_ptr<ClassObj> valueBase(ObjectProtocol& m, const ClassObj& cls);
/// A fresh copy of the built-in value `plain` as an instance of `cls` (attributes empty).
Value makeSubclassValue(const std::shared_ptr<ClassObj>& cls, const Value& plain);
/// `cls(*args, **kwargs)` for a subclass of the built-in value type `base`: the class's own
/// `__new__` when it has one, else the built-in's constructor; then its own `__init__`.
Value instantiateValueSubclass(ObjectProtocol& m, const std::shared_ptr<ClassObj>& cls, const std::shared_ptr<ClassObj>& base,
                               std::vector<Value> args, KwArgs kwargs);
/// The nearest user-defined (non-built-in) `name` along `cls`'s MRO, or null: the `__new__`,
/// `__init__`, `__str__`, `__repr__` and `__format__` that run instead of the built-in's.
Value userAttr(const ClassObj& cls, std::string_view name);

}  // namespace tlens::interp
