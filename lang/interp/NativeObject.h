// NativeObject: the extension point for values implemented in C++ (tensors, sessions, gradient
// tapes, keras layers). Subclass it and override what the object supports; every default says
// "not supported", which the interpreter turns into the TypeError or AttributeError CPython would
// raise. Overrides may raise Python exceptions with `in.raise(...)`.
//
//   class TensorValue : public NativeObject {
//    public:
//     std::string typeName() const override { return "Tensor"; }
//     Value getAttr(Interpreter& in, std::string_view name) override {
//       if (name == "shape") return shapeValue();
//       if (name == "eval") return boundMethod(evalFn);   // see NativeFunction
//       return nullptr;                                    // -> AttributeError
//     }
//     Value binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) override {
//       // reflected: `other <op> this` (e.g. 2 * t)
//       ...
//     }
//     Value getItem(Interpreter& in, const Value& key) override {
//       // key: an int, a SliceObj, None (newaxis), Ellipsis, or a TupleObj of those for a[1:3, None, ...]
//     }
//     Value join(Interpreter& in, const Value& other) override {
//       // abstract mode, both branches of an unknown `if` bound different tensors: same dtype,
//       // shape joined dim by dim.
//     }
//   };
//
// A context manager overrides enter/exit (`with tf.Session() as sess`, `with tf.name_scope(..)`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lang/interp/Function.h"
#include "lang/interp/Operators.h"

namespace tlens::interp {

class NativeObject : public Object {
 public:
  static constexpr Kind kKind = Kind::Native;
  NativeObject() : Object(kKind) {}

  /// The Python type name shown in messages and `type(x).__name__` ("Tensor").
  virtual std::string typeName() const = 0;
  /// The module of the type, for repr of the type ("tensorflow").
  virtual std::string typeModule() const { return ""; }

  /// Attribute read; null when absent (AttributeError).
  virtual Value getAttr(Interpreter& in, std::string_view name) { return nullptr; }
  /// Attribute write; false when not supported (AttributeError).
  virtual bool setAttr(Interpreter& in, std::string_view name, const Value& v) { return false; }
  /// Names for completion (dir()).
  virtual std::vector<std::string> attributeNames(Interpreter& in) { return {}; }

  /// Calls the object; null when it is not callable (TypeError).
  virtual Value call(CallContext& ctx) { return nullptr; }
  /// What callable(obj) answers; override together with call().
  virtual bool isCallable() const { return true; }

  /// `this <op> other`, or `other <op> this` when `reflected`. Null or NotImplemented when not
  /// supported for `other` (the interpreter then tries the other operand, then raises).
  virtual Value binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) { return nullptr; }
  /// `this <op>= other`; defaults to binaryOp (a new value bound to the target).
  virtual Value inplaceOp(Interpreter& in, BinOp op, const Value& other) { return binaryOp(in, op, other, false); }
  virtual Value unaryOp(Interpreter& in, UnaryOp op) { return nullptr; }
  /// `this <op> other` (reflected: `other <op> this`). Null when not supported: == and != then
  /// fall back to identity, orderings raise TypeError.
  virtual Value compare(Interpreter& in, CmpOp op, const Value& other, bool reflected) { return nullptr; }
  /// `item in this`; nullopt when not supported (the interpreter then iterates).
  virtual std::optional<Truth> contains(Interpreter& in, const Value& item) { return std::nullopt; }

  /// `this[key]`. Keys arrive as Python values: ints, SliceObj, None, Ellipsis, and a TupleObj of
  /// those for multi-dimensional subscripts. Null when not subscriptable (TypeError).
  virtual Value getItem(Interpreter& in, const Value& key) { return nullptr; }
  /// `this[key] = v`; false when not supported (TypeError).
  virtual bool setItem(Interpreter& in, const Value& key, const Value& v) { return false; }
  virtual bool delItem(Interpreter& in, const Value& key) { return false; }

  /// An iterator (any iterable Value: an IteratorObj, a list, ...); null when not iterable.
  virtual Value iter(Interpreter& in) { return nullptr; }
  /// len(this); nullopt when it has no length (TypeError), or an Unknown length in abstract mode
  /// can be reported by returning -1.
  virtual std::optional<int64_t> len(Interpreter& in) { return std::nullopt; }
  /// Truthiness; Unknown when not known (abstract mode runs both branches).
  virtual Truth truthy(Interpreter& in) { return Truth::True; }

  virtual std::string repr(Interpreter& in);
  virtual std::string str(Interpreter& in) { return repr(in); }

  /// `with this as x`: the value bound to x; null when not a context manager (TypeError).
  virtual Value enter(Interpreter& in) { return nullptr; }
  /// Leaving the `with` block; `exc` is the exception raised in the block or null. Return true
  /// to suppress it.
  virtual bool exit(Interpreter& in, const Value& exc) { return false; }

  /// Abstract mode: the value of a variable that holds `this` on one path and `other` on
  /// another. Null when no join is known (the variable becomes Unknown).
  virtual Value join(Interpreter& in, const Value& other) { return nullptr; }

  /// hash(this); identity by default. nullopt when unhashable.
  virtual std::optional<int64_t> hash(Interpreter& in) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(this) >> 4); }

  /// When this object is a type (`tf.Tensor`): isinstance(obj, this). False by default.
  virtual bool instanceCheck(Interpreter& in, const Value& obj) { return false; }

  /// A method bound to this object (a BoundMethodObj), for getAttr implementations.
  Value boundMethod(const Value& fn);
};

}  // namespace tlens::interp
