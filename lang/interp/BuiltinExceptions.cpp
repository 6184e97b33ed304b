// The built-in exception hierarchy (BaseException, Exception, ValueError, ...) with CPython's
// `args`, str() and repr() behaviour. SystemExit keeps `code`, StopIteration keeps `value`, and
// KeyError's str() is the repr of its key.
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {

void installExceptions(ObjectProtocol& m) {
  auto& T = m.types;
  ObjectProtocol* mp = &m;
  auto make = [&](const std::string& name, const std::shared_ptr<ClassObj>& base) {
    auto c = makeClass(name, {base}, "builtins");
    c->isBuiltin = true;
    c->isException = true;
    m.builtins.set(name, c);
    m.exceptionClasses[name] = c;
    return c;
  };
  T.baseException = make("BaseException", T.object);
  auto& be = T.baseException->dict;
  defineRaw(be, "__init__", [mp](CallContext& c) -> Value {
    if (c.args.empty()) mp->typeError("BaseException.__init__ needs self");
    auto* e = as<InstanceObj>(c.args[0]);
    std::vector<Value> args(c.args.begin() + 1, c.args.end());
    if (e) {
      if (mp->isInstance(c.args[0], *mp->types.systemExit))
        e->dict.set("code", args.empty() ? none() : args.size() == 1 ? args[0] : makeTuple(args));
      if (mp->isInstance(c.args[0], *mp->types.stopIteration)) e->dict.set("value", args.empty() ? none() : args[0]);
      e->dict.set("args", makeTuple(std::move(args)));
    }
    return none();
  });
  auto argsOf = [](const Value& self) -> std::vector<Value> {
    auto* e = as<InstanceObj>(self);
    if (!e) return {};
    if (const auto* t = asSequence(e->dict.get("args"))) return *t;
    return {};
  };
  defineNative(be, "__str__", "self", [mp, argsOf](CallContext& c) -> Value {
    auto args = argsOf(c.arg(0));
    if (args.empty()) return makeStr("");
    if (args.size() == 1) {
      if (mp->isInstance(c.arg(0), *mp->types.keyError)) return makeStr(mp->repr(args[0]));
      return makeStr(mp->str(args[0]));
    }
    return makeStr(mp->repr(makeTuple(args)));
  });
  defineNative(be, "__repr__", "self", [mp, argsOf](CallContext& c) -> Value {
    auto args = argsOf(c.arg(0));
    std::string s = mp->typeOf(c.arg(0))->name + "(";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) s += ", ";
      s += mp->repr(args[i]);
    }
    return makeStr(s + ")");
  });
  defineNative(be, "with_traceback", "self, tb", [](CallContext& c) -> Value { return c.arg(0); });

  T.systemExit = make("SystemExit", T.baseException);
  T.keyboardInterrupt = make("KeyboardInterrupt", T.baseException);
  make("GeneratorExit", T.baseException);
  T.exception = make("Exception", T.baseException);
  T.stopIteration = make("StopIteration", T.exception);
  make("StopAsyncIteration", T.exception);
  T.arithmeticError = make("ArithmeticError", T.exception);
  T.zeroDivisionError = make("ZeroDivisionError", T.arithmeticError);
  T.overflowError = make("OverflowError", T.arithmeticError);
  make("FloatingPointError", T.arithmeticError);
  T.assertionError = make("AssertionError", T.exception);
  T.attributeError = make("AttributeError", T.exception);
  make("BufferError", T.exception);
  T.eofError = make("EOFError", T.exception);
  T.importError = make("ImportError", T.exception);
  T.moduleNotFoundError = make("ModuleNotFoundError", T.importError);
  T.lookupError = make("LookupError", T.exception);
  T.indexError = make("IndexError", T.lookupError);
  T.keyError = make("KeyError", T.lookupError);
  make("MemoryError", T.exception);
  T.nameError = make("NameError", T.exception);
  T.unboundLocalError = make("UnboundLocalError", T.nameError);
  T.osError = make("OSError", T.exception);
  m.builtins.set("IOError", T.osError);
  m.builtins.set("EnvironmentError", T.osError);
  T.fileNotFoundError = make("FileNotFoundError", T.osError);
  make("FileExistsError", T.osError);
  make("PermissionError", T.osError);
  make("IsADirectoryError", T.osError);
  make("NotADirectoryError", T.osError);
  make("TimeoutError", T.osError);
  make("ConnectionError", T.osError);
  make("ReferenceError", T.exception);
  T.runtimeError = make("RuntimeError", T.exception);
  T.notImplementedError = make("NotImplementedError", T.runtimeError);
  T.recursionError = make("RecursionError", T.runtimeError);
  T.syntaxError = make("SyntaxError", T.exception);
  make("IndentationError", T.syntaxError);
  make("SystemError", T.exception);
  T.typeError = make("TypeError", T.exception);
  T.valueError = make("ValueError", T.exception);
  auto unicodeError = make("UnicodeError", T.valueError);
  make("UnicodeDecodeError", unicodeError);
  make("UnicodeEncodeError", unicodeError);
  auto warning = make("Warning", T.exception);
  for (const char* w : {"UserWarning", "DeprecationWarning", "PendingDeprecationWarning", "RuntimeWarning", "FutureWarning",
                        "SyntaxWarning", "ImportWarning", "UnicodeWarning", "ResourceWarning"})
    make(w, warning);
}

}  // namespace tlens::interp
