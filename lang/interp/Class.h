// Class: classes, their instances, exceptions and super(). Built-in types (int, str, list, ...)
// are ClassObjs too, with a native `construct`, so `type(x)`, `isinstance(x, int)` and
// `str.upper("a")` work uniformly; their methods are NativeFunctions in the class dict.
//
// Native code can define classes that user code subclasses (e.g. a `tf.keras.layers.Layer`):
// make a ClassObj with NativeFunction methods (`__init__`, `__call__`, ...) and no `construct`;
// instances are then ordinary InstanceObjs, with `native` free for the native state.
#pragma once

#include "lang/interp/Function.h"
#include "lang/interp/Traceback.h"

namespace tlens::interp {

class ClassObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Class;
  ClassObj() : Object(kKind) {}

  std::string name;
  std::string qualname;
  std::string module;  ///< "builtins" for built-in types
  std::vector<std::shared_ptr<ClassObj>> bases;
  std::vector<std::shared_ptr<ClassObj>> mro;  ///< C3 linearisation, this class first
  Namespace dict;
  /// Creates instances natively (built-in types, native value classes); null for user classes.
  NativeFn construct;
  bool isException = false;  ///< derives from BaseException
  bool isBuiltin = false;
  /// Abstract mode: a base class was Unknown, so missing attributes are Unknown, not errors.
  bool unknownBase = false;

  /// Attribute `name` found along the MRO, or null.
  Value lookup(std::string_view name) const;
  /// The class in the MRO that defines `name`, or null.
  ClassObj* definer(std::string_view name) const;
  bool isSubclassOf(const ClassObj* other) const;
  /// Computes `mro` from `bases`; false when no consistent order exists.
  bool computeMro();
  void clearReferences() override;
};

/// Makes a class with the given bases and computes its MRO.
std::shared_ptr<ClassObj> makeClass(std::string name, std::vector<std::shared_ptr<ClassObj>> bases,
                                    std::string module = "builtins");

class InstanceObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Instance;
  explicit InstanceObj(std::shared_ptr<ClassObj> c) : Object(kKind), cls(std::move(c)) {}
  std::shared_ptr<ClassObj> cls;
  Namespace dict;
  /// Free for native classes that user code may subclass.
  std::shared_ptr<void> native;
  void clearReferences() override {
    dict.clear();
    native.reset();
  }
};

/// A value of a user subclass of int, float or str: the built-in value itself (an IntObj,
/// FloatObj or StrObj, so every native operation sees a plain value) carries its class and
/// instance attributes here. `typeOf` answers the subclass, attribute lookups go through its
/// MRO, str()/repr()/format(), operators and comparisons call the subclass's own dunders
/// first; hashing, len, indexing and iteration are the built-in type's.
struct SubclassPart {
  std::shared_ptr<ClassObj> cls;
  Namespace dict;
};

/// The SubclassPart of `v`, or null for plain values and other kinds.
inline SubclassPart* subclassPart(const Value& v) {
  switch (v->kind()) {
    case Kind::Int: return static_cast<IntObj*>(v.get())->sub.get();
    case Kind::Float: return static_cast<FloatObj*>(v.get())->sub.get();
    case Kind::Str: return static_cast<StrObj*>(v.get())->sub.get();
    default: return nullptr;
  }
}

/// An instance of BaseException or a subclass. `args` lives in the instance dict.
class ExceptionObj : public InstanceObj {
 public:
  explicit ExceptionObj(std::shared_ptr<ClassObj> c) : InstanceObj(std::move(c)) {}
  std::vector<TraceEntry> traceback;  ///< outermost first; filled when first raised
  Value cause;                        ///< `raise ... from cause`
  Value context;                      ///< the exception being handled when this one was raised
  bool suppressContext = false;
  void clearReferences() override {
    InstanceObj::clearReferences();
    cause.reset();
    context.reset();
  }
};

inline ExceptionObj* asException(const Value& v) {
  return v && v->kind() == Kind::Instance ? dynamic_cast<ExceptionObj*>(v.get()) : nullptr;
}

class SuperObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Super;
  SuperObj(std::shared_ptr<ClassObj> c, Value s, std::shared_ptr<ClassObj> sc)
      : Object(kKind), thisClass(std::move(c)), self(std::move(s)), selfClass(std::move(sc)) {}
  std::shared_ptr<ClassObj> thisClass;  ///< lookups start after this class in selfClass's MRO
  Value self;
  std::shared_ptr<ClassObj> selfClass;
};

}  // namespace tlens::interp
