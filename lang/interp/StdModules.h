// Registration of what the interpreter provides natively: the built-in namespace's installers
// (Builtin*.cpp, StrMethods.cpp, ListMethods.cpp, DictMethods.cpp; Builtins::installBuiltins
// calls them) and the standard-library modules that live in their own files (StdJson.cpp,
// StdPickle.cpp, StdRe.cpp, ...; ModuleRegistry::standard() in StdPython.cpp calls each).
#pragma once

#include "lang/interp/Function.h"
#include "lang/interp/Module.h"

namespace tlens::interp {

class Machine;
class ObjectProtocol;

/// Registers a builtin function in a namespace.
std::shared_ptr<NativeFunction> defineNative(Namespace& ns, std::string name, std::string_view signature, NativeFn fn);
std::shared_ptr<NativeFunction> defineRaw(Namespace& ns, std::string name, NativeFn fn);

// Installers of the built-in namespace.
void installBuiltinTypes(Machine& m);  ///< the classes' methods need the whole machine
void installExceptions(ObjectProtocol& m);
void installBuiltinFunctions(ObjectProtocol& m);
void installStrMethods(ObjectProtocol& m);
void installListMethods(ObjectProtocol& m);
void installDictMethods(ObjectProtocol& m);

// The standard library.
void registerJsonModule(ModuleRegistry& r);
void registerPickleModule(ModuleRegistry& r);
void registerReModule(ModuleRegistry& r);
void registerDatetimeModule(ModuleRegistry& r);
void registerUtilModules(ModuleRegistry& r);
void registerFileModules(ModuleRegistry& r);
void registerStructModule(ModuleRegistry& r);
void registerArchiveModules(ModuleRegistry& r);
void registerNetworkModules(ModuleRegistry& r);
void registerPathlibModule(ModuleRegistry& r);
void registerHashlibModule(ModuleRegistry& r);

}  // namespace tlens::interp
