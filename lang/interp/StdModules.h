// Registration of the standard-library modules that live in their own files (StdJson.cpp,
// StdPickle.cpp, StdRe.cpp, ...); ModuleRegistry::standard() (StdPython.cpp) calls each.
#pragma once

#include "lang/interp/Module.h"

namespace tlens::interp {

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

}  // namespace tlens::interp
