// Imports: the fifth layer of the interpreter's Machine (Machine.h lists the layers). Finding
// and loading modules: the registry of native and embedded modules, `sys.modules`, the source
// files a run has loaded, the main module, and the search of the file system (ExecImport.cpp).
// Internal to lang/interp (docs/layering.md).
#pragma once

#include <map>

#include "lang/interp/ObjectProtocol.h"

namespace tlens::interp {

class Imports : public ObjectProtocol {
 public:
  using ObjectProtocol::ObjectProtocol;

  ModuleRegistry registry = ModuleRegistry::standard();
  std::map<std::string, std::shared_ptr<ModuleObj>, std::less<>> modulesByName;  ///< sys.modules
  std::map<std::string, std::shared_ptr<ModuleObj>, std::less<>> modulesByPath;
  std::shared_ptr<ModuleObj> sysModule;
  std::shared_ptr<ModuleObj> mainModule;
  std::shared_ptr<const lang::SourceFile> mainFile;
  /// Every source file the run has loaded (kept alive as long as the interpreter).
  std::vector<std::shared_ptr<const lang::SourceFile>> files;
  std::shared_ptr<const lang::SourceFile> keepFile(std::shared_ptr<const lang::SourceFile> f);

  /// The module `dotted`, imported if needed; null when it cannot be found.
  std::shared_ptr<ModuleObj> importModule(std::string_view dotted);
  /// importModule, raising ModuleNotFoundError (concrete) or reporting a hint (abstract).
  std::shared_ptr<ModuleObj> requireModule(std::string_view dotted, TSNode at);
  std::shared_ptr<ModuleObj> importSubmodule(const std::shared_ptr<ModuleObj>& pkg, std::string_view leaf);
  std::shared_ptr<ModuleObj> findModuleIn(const std::string& name, const std::vector<std::string>& dirs,
                                          std::string_view leaf);
  std::shared_ptr<ModuleObj> loadModuleFile(const std::string& name, const std::string& path,
                                            const std::string& packageDir);
};

/// The module loader of the interpreter `in` (its Machine).
Imports& importsOf(Interpreter& in);

}  // namespace tlens::interp
