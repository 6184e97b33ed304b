// Builtins: the third layer of the interpreter's Machine (Machine.h lists the layers). The
// built-in namespace and the classes the interpreter itself needs (`types`), the exception
// classes by name, the classes of native objects, and the global generator of `random`.
// Internal to lang/interp (docs/layering.md).
#pragma once

#include <random>

#include "lang/interp/CallStack.h"

namespace tlens::interp {

class Builtins : public CallStack {
 public:
  using CallStack::CallStack;

  struct Types {
    std::shared_ptr<ClassObj> object, type, int_, float_, bool_, str, list, tuple, dict, set, frozenset,
        range, slice, none, function, builtinFunction, method, module, generator, iterator, ellipsis,
        notImplemented, property, staticmethod, classmethod, super, unknown, orderedDict, defaultDict;
    std::shared_ptr<ClassObj> baseException, exception, typeError, valueError, keyError, indexError,
        attributeError, nameError, unboundLocalError, zeroDivisionError, assertionError, runtimeError,
        recursionError, stopIteration, importError, moduleNotFoundError, notImplementedError,
        overflowError, systemExit, lookupError, arithmeticError, keyboardInterrupt, osError,
        fileNotFoundError, syntaxError, eofError;
  } types;
  Namespace builtins;
  std::unordered_map<std::string, std::shared_ptr<ClassObj>> exceptionClasses;
  std::unordered_map<std::string, std::shared_ptr<ClassObj>> nativeTypes;  ///< by NativeObject type name
  /// The `random` module's global generator (seeded from InterpOptions::randomSeed).
  std::mt19937_64 rng{opts.randomSeed};

  /// Fills the namespace and the classes (BuiltinTypes.cpp; the installers of StdModules.h).
  void installBuiltins();
  std::shared_ptr<ClassObj> exceptionClass(std::string_view name) const;
};

}  // namespace tlens::interp
