// Module: module objects and the registry of modules that do not come from the workspace.
//
// `import x.y` first asks the ModuleRegistry (native modules such as "math", "tensorflow",
// "tensorflow.keras.layers", and modules written in Python but embedded in the binary, such as
// "argparse"), then the file system: the importing file's directory, then the workspace roots.
// Each module runs once per Interpreter and is cached. A missing attribute on a module whose
// dotted child is registered ("tensorflow" + "keras") imports that child, so `tf.keras.layers`
// works after `import tensorflow as tf`.
//
// Writing a native module:
//
//   registry.add("mylib", [](Interpreter& in) {
//     auto m = makeModule("mylib");
//     m->set("answer", makeInt(42));
//     m->set("double", NativeFunction::make("double", "x", [](CallContext& c) {
//       return makeInt(2 * c.toInt(c.arg(0)));
//     }));
//     return m;
//   });
#pragma once

#include <functional>
#include <map>

#include "lang/interp/Value.h"

namespace tlens::interp {

class Interpreter;

class ModuleObj : public Object {
 public:
  static constexpr Kind kKind = Kind::Module;
  explicit ModuleObj(std::string name);
  std::string name;
  std::string file;  ///< empty for native modules
  std::string packageDir;  ///< packages: the directory their submodules are found in
  std::shared_ptr<Env> globals;
  /// A module imported from the user's own Python (lang/pybridge): attributes the globals lack
  /// are read from, and writes go to, this proxy of the CPython module.
  Value foreign;

  Value get(std::string_view attr) const { return globals->vars.get(attr); }
  void set(std::string_view attr, Value v) { globals->vars.set(attr, std::move(v)); }
  void clearReferences() override {
    globals->vars.clear();
    foreign.reset();
  }
};

std::shared_ptr<ModuleObj> makeModule(std::string name);

class ModuleRegistry {
 public:
  using Factory = std::function<std::shared_ptr<ModuleObj>(Interpreter&)>;

  /// A native module, built by `factory` the first time it is imported.
  void add(std::string name, Factory factory);
  /// A module written in Python, run the first time it is imported (file name "<name>").
  void addSource(std::string name, std::string source);
  bool contains(std::string_view name) const;
  const Factory* factory(std::string_view name) const;
  const std::string* source(std::string_view name) const;
  /// Registered names, sorted.
  std::vector<std::string> names() const;

  /// Concrete mode only: imports a module that neither the registry nor the file system has
  /// (the embedded CPython of lang/pybridge; dotted names too, when the parent came from it).
  /// Returns the module or raises (ModuleNotFoundError naming the Python searched).
  using ForeignImporter = std::function<std::shared_ptr<ModuleObj>(Interpreter&, const std::string& name)>;
  void setForeignImporter(ForeignImporter f) { foreign_ = std::move(f); }
  const ForeignImporter& foreignImporter() const { return foreign_; }

  /// The modules every interpreter starts with: math, sys, os, os.path, time, random,
  /// collections, functools, itertools, argparse, ...
  static ModuleRegistry standard();

 private:
  std::map<std::string, Factory, std::less<>> factories_;
  std::map<std::string, std::string, std::less<>> sources_;
  ForeignImporter foreign_;
};

}  // namespace tlens::interp
