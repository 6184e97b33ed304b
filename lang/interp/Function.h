// Function: callables. A `Signature` is a Python parameter list ("x, y=None, *args, axis=0,
// **kwargs"); it binds positional and keyword arguments the way CPython does, with CPython's
// TypeError messages. User functions (`def`, `lambda`) and native functions share it.
//
// Writing a native function:
//
//   auto relu = NativeFunction::make("relu", "features, name=None", [](CallContext& c) {
//     const Value& x = c.arg("features");
//     std::string name = c.isNone("name") ? "Relu" : c.toStr(c.arg("name"));
//     ...
//     return result;
//   });
//
// Arguments are bound before the body runs, so `c.arg(...)` never fails. The `to*` readers raise
// TypeError for a wrong type and, for an Unknown value, abandon the call: the call then yields
// Unknown (abstract mode's "any operation on Unknown yields Unknown"). A native function may
// raise Python exceptions with `c.interp.raise("ValueError", msg)`; any other std::exception it
// throws becomes a RuntimeError.
#pragma once

#include <functional>
#include <optional>

#include "lang/interp/Objects.h"

namespace tlens::interp {

class ClassObj;
struct Code;

using KwArgs = std::vector<std::pair<std::string, Value>>;

enum class ParamKind : uint8_t {
  PositionalOnly,  ///< before '/'
  Normal,          ///< positional or keyword
  VarArgs,         ///< *args
  KeywordOnly,     ///< after '*' or *args
  VarKeywords,     ///< **kwargs
};

struct Param {
  std::string name;
  ParamKind kind = ParamKind::Normal;
  Value defaultValue;  ///< null when required
};

class Signature {
 public:
  /// Parses a parameter list such as "a, b=None, /, *args, axis=-1, **kw". Defaults may be
  /// None, True, False, numbers, strings, () and []. Throws std::invalid_argument on bad specs
  /// (a programming error in native code, not a Python error).
  static Signature parse(std::string_view spec);

  /// One value per parameter, in order: a tuple for *args, a dict for **kwargs, the default for
  /// an omitted optional parameter. Raises TypeError ("f() missing 1 required positional
  /// argument: 'x'") naming `fname`.
  std::vector<Value> bind(Interpreter& in, std::string_view fname, std::vector<Value> args,
                          KwArgs kwargs) const;
  /// Index of the named parameter, or -1.
  int indexOf(std::string_view name) const;
  /// "(x, y=None, *args)"
  std::string str(Interpreter& in) const;

  std::vector<Param> params;
};

/// Thrown by CallContext's readers when a value is Unknown: the native call yields Unknown (of
/// `type` when set: a result too large for abstract mode, Machine::reserveSize).
struct NeedsKnownValue {
  std::shared_ptr<ClassObj> type;
};

/// Thrown by a native that would change its receiver in place by what the analysis does not know
/// (`rows.extend(unknown)`): not a value to make unknown, but the statement's effect. It passes
/// the native call and reaches the statement, which unbinds its targets and receivers as for
/// NeedsKnownValue (abstract mode; in trusted library code the statement is skipped).
struct StatementEffectsUnknown {};

class CallContext {
 public:
  CallContext(Interpreter& in, std::string_view name, std::vector<Value> args, KwArgs kwargs)
      : interp(in), name(name), args(std::move(args)), kwargs(std::move(kwargs)) {}

  Interpreter& interp;
  std::string_view name;    ///< the callee's name, for messages
  std::vector<Value> args;  ///< positional arguments (a method's self first)
  KwArgs kwargs;
  /// With a Signature: one value per parameter (see Signature::bind).
  std::vector<Value> bound;
  const Signature* sig = nullptr;
  /// The class being instantiated when a class's native constructor runs (may be a subclass).
  std::shared_ptr<ClassObj> cls;

  /// Bound argument by position or parameter name.
  const Value& arg(size_t i) const;
  const Value& arg(std::string_view param) const;
  /// True when the bound argument is None (or an omitted argument defaulting to None).
  bool isNone(std::string_view param) const;
  /// The method receiver: args[0] (or bound[0]).
  const Value& self() const;

  // Readers: raise TypeError on the wrong type; throw NeedsKnownValue on Unknown.
  int64_t toInt(const Value& v) const;
  double toDouble(const Value& v) const;
  std::string toStr(const Value& v) const;  ///< requires a str (no conversion)
  bool toBool(const Value& v) const;         ///< Python truthiness
  /// The items of any iterable (lists, tuples, generators, native iterables).
  std::vector<Value> toList(const Value& v) const;
  [[noreturn]] void typeError(const std::string& message) const;
  [[noreturn]] void valueError(const std::string& message) const;
};

using NativeFn = std::function<Value(CallContext&)>;

class NativeFunction : public Object {
 public:
  static constexpr Kind kKind = Kind::NativeFunction;
  NativeFunction(std::string name, std::optional<Signature> sig, NativeFn fn)
      : Object(kKind), name(std::move(name)), sig(std::move(sig)), fn(std::move(fn)) {}

  /// A function whose arguments are bound by `signature` before `fn` runs.
  static std::shared_ptr<NativeFunction> make(std::string name, std::string_view signature, NativeFn fn);
  /// A function that reads ctx.args / ctx.kwargs itself.
  static std::shared_ptr<NativeFunction> makeRaw(std::string name, NativeFn fn);

  std::string name;
  std::string module;  ///< for repr; empty for builtins
  std::optional<Signature> sig;
  NativeFn fn;
  /// Abstract mode never runs side-effecting functions (writes, sleeps, prints, network): the
  /// call yields Unknown instead.
  bool sideEffecting = false;
  std::string doc;
};

/// A user function: `def` or `lambda`.
class FunctionObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Function;
  FunctionObj() : Object(kKind) {}
  std::shared_ptr<const Code> code;
  Signature sig;                 ///< defaults evaluated at definition time
  std::shared_ptr<Env> closure;  ///< enclosing function scopes; null for top-level functions
  std::shared_ptr<Env> globals;  ///< the defining module's globals
  std::string name, qualname, module;
  Namespace attrs;                     ///< function attributes (f.__doc__, f.x = 1)
  std::weak_ptr<ClassObj> ownerClass;  ///< set for methods: zero-argument super()
  void clearReferences() override;
};

class BoundMethodObj : public Object {
 public:
  static constexpr Kind kKind = Kind::BoundMethod;
  BoundMethodObj(Value self, Value fn) : Object(kKind), self(std::move(self)), function(std::move(fn)) {}
  Value self, function;
  void clearReferences() override { self.reset(); function.reset(); }
};

class StaticMethodObj : public Object {
 public:
  static constexpr Kind kKind = Kind::StaticMethod;
  explicit StaticMethodObj(Value f) : Object(kKind), function(std::move(f)) {}
  Value function;
  void clearReferences() override { function.reset(); }
};

class ClassMethodObj : public Object {
 public:
  static constexpr Kind kKind = Kind::ClassMethod;
  explicit ClassMethodObj(Value f) : Object(kKind), function(std::move(f)) {}
  Value function;
  void clearReferences() override { function.reset(); }
};

class PropertyObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Property;
  PropertyObj() : Object(kKind) {}
  Value fget, fset, fdel;
  void clearReferences() override { fget.reset(); fset.reset(); fdel.reset(); }
};

/// A generator: calling a generator function makes one; its body runs lazily on its own stack
/// (a coroutine) and suspends at each `yield`, as in Python. `send`, `close` and
/// generator expressions over them work; `throw` does not.
struct GeneratorState;
struct GenExprData;
class GeneratorObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Generator;
  GeneratorObj();
  ~GeneratorObj() override;
  Value function;            ///< the FunctionObj
  std::shared_ptr<Env> env;  ///< its bound parameters
  /// A generator expression (concrete mode) instead of a function: its scopes and clauses.
  std::shared_ptr<GenExprData> expr;
  std::unique_ptr<GeneratorState> state;  ///< the suspended body (internal)
  void clearReferences() override;
};

}  // namespace tlens::interp
